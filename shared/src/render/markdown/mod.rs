//! Markdown a server sent, as a small tree of blocks and inlines the page draws with text
//! nodes. Raw HTML in the Markdown stays visible text; links keep only safe schemes.
//!
//! Our own parser (a third-party one cost the page about 120 KB): CommonMark, with GFM tables
//! (flattened: each cell becomes a paragraph) and strikethrough (`~~a~~` and `~a~`). It builds
//! the tree `pulldown-cmark` 0.13 gave with those two options, text nodes split where it split
//! them; `reference.rs` keeps that mapping for a differential test over `testdata/markdown/`.
//!
//! Known differences from that tree, none of them in what tools and models write (so they are
//! kept out of the corpus):
//! - Named character references are the HTML 4 set plus `&apos;` (see `entities.rs`); other
//!   HTML 5 names (`&check;`, `&NotEqualTilde;`) stay literal text.
//! - Reference labels match when lowercased alike, not by full Unicode case folding (`ß`
//!   does not match `SS`), and a definition's label must fit on one line.
//! - `\r\n` and `\r` are read as `\n` first, so CRLF text parses exactly as LF text (the old
//!   parser kept a raw HTML line's `\r\n` as two text nodes and made it two spaces in code).
//! - Raw HTML comments, declarations, `<?…?>` and CDATA spanning lines inside a block quote or
//!   list item are shown without those lines' container prefixes (the old parser kept the
//!   `>`s, and could even end a declaration at a quote's `>`).
//! - In a list item, a code span whose closing backticks start a line after only spaces keeps
//!   those spaces (the old parser dropped them up to the item's indentation).
//! - Punctuation for the emphasis rules comes from Unicode 14: characters assigned since then
//!   may count differently.
//! - Block quotes and lists nest at most 96 deep (deeper markers are text), so hostile input
//!   cannot exhaust the page's stack.
//! - A block quote that ends with raw HTML keeps its content (the old mapping lost the quote
//!   and every block after it).
//!
//! Where the old parser departed from CommonMark (a table header must be a paragraph's first
//! line or start with `|`; `~` closers share one delimiter floor; only the HTML 4 entity names
//! above), this one departs the same way. Task list markers stay plain text, as they were.

mod blocks;
mod emphasis;
mod entities;
mod html;
mod inlines;
mod lines;
mod links;
mod punct;
#[cfg(test)]
mod reference;
mod tables;
#[cfg(test)]
mod tests;

use std::borrow::Cow;

use blocks::Node;
use links::Defs;

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    Code { lang: Option<String>, text: String },
    Quote(Vec<Block>),
    List { ordered: bool, items: Vec<Vec<Block>> },
    Rule,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Inline {
    Text(String),
    Code(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
    Strike(Vec<Inline>),
    /// `href` is `None` when the scheme is not safe: the text is shown, not linked.
    Link {
        href: Option<String>,
        children: Vec<Inline>,
    },
    Break,
}

/// Parses Markdown (CommonMark with tables flattened, strikethrough, task lists as text).
pub fn parse(text: &str) -> Vec<Block> {
    let text = if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    };
    let (nodes, defs) = blocks::parse(&text);
    let mut out = Vec::new();
    build(nodes, &defs, false, &mut out);
    out
}

/// Turns blocks into the tree. Text without a block of its own (raw HTML, and the text of a
/// tight list's items) is gathered into one paragraph until the next block.
fn build(nodes: Vec<Node>, defs: &Defs, tight: bool, out: &mut Vec<Block>) {
    let mut gathered: Option<Vec<Inline>> = None;
    for node in nodes {
        match node {
            Node::Paragraph(src) if tight => gathered.get_or_insert_default().extend(inlines::parse(&src, defs)),
            Node::Html(lines) => gathered.get_or_insert_default().extend(lines.into_iter().map(Inline::Text)),
            node => {
                if let Some(p) = gathered.take() {
                    out.push(Block::Paragraph(p));
                }
                block(node, defs, out);
            }
        }
    }
    if let Some(p) = gathered {
        out.push(Block::Paragraph(p));
    }
}

fn block(node: Node, defs: &Defs, out: &mut Vec<Block>) {
    let nested = |nodes: Vec<Node>, tight: bool| {
        let mut v = Vec::new();
        build(nodes, defs, tight, &mut v);
        v
    };
    out.push(match node {
        Node::Paragraph(src) => Block::Paragraph(inlines::parse(&src, defs)),
        Node::Heading(level, src) => Block::Heading(level, inlines::parse(&src, defs)),
        Node::Code { lang, text } => Block::Code { lang, text },
        Node::Quote(children) => Block::Quote(nested(children, false)),
        Node::List { ordered, tight, items } => {
            Block::List { ordered, items: items.into_iter().map(|item| nested(item, tight)).collect() }
        }
        Node::Rule => Block::Rule,
        Node::Table(cells) => {
            out.extend(cells.iter().map(|cell| Block::Paragraph(inlines::parse(cell, defs))));
            return;
        }
        Node::Html(lines) => Block::Paragraph(lines.into_iter().map(Inline::Text).collect()),
    });
}
