//! Markdown a server sent, as a small tree of blocks and inlines the page draws with text
//! nodes: `pulldown-cmark` parses (CommonMark, GFM tables and strikethrough), and its events
//! become the tree here. Raw HTML stays visible text; links keep only safe schemes; tables
//! are flattened (each cell a paragraph); task list markers are text. Nesting deeper than
//! [`MAX_DEPTH`] flows into the level above, so hostile input cannot exhaust the page's
//! stack when the tree is drawn or dropped.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::render::safe_href;

/// Block containers (quotes, lists, items), and inline ones (emphasis, links), kept apart.
pub const MAX_DEPTH: usize = 32;

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

/// Parses Markdown into the tree the page draws.
pub fn parse(text: &str) -> Vec<Block> {
    let mut b = TreeBuilder::default();
    for event in Parser::new_ext(text, Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES) {
        b.event(event);
    }
    b.finish()
}

/// An open container while parsing.
enum Frame {
    Blocks(Vec<Block>, BlockKind),
    Inlines(Vec<Inline>, InlineKind),
    Code(Option<String>, String),
}

enum BlockKind {
    Root,
    Quote,
    Item,
    List(bool, Vec<Vec<Block>>),
}

enum InlineKind {
    /// A paragraph or a table cell; `implicit` for the text of a tight list item, or raw
    /// HTML, directly in a container.
    Paragraph {
        implicit: bool,
    },
    Heading(u8),
    Emphasis,
    Strong,
    Strike,
    Link(Option<String>),
}

struct TreeBuilder {
    stack: Vec<Frame>,
    /// Containers opened beyond [`MAX_DEPTH`] and not drawn: their ends are skipped too.
    skipped_blocks: usize,
    skipped_inlines: usize,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self { stack: vec![Frame::Blocks(Vec::new(), BlockKind::Root)], skipped_blocks: 0, skipped_inlines: 0 }
    }
}

impl TreeBuilder {
    fn depth(&self, blocks: bool) -> usize {
        self.stack
            .iter()
            .filter(|f| if blocks { matches!(f, Frame::Blocks(..)) } else { matches!(f, Frame::Inlines(..)) })
            .count()
    }

    fn push_inline(&mut self, inline: Inline) {
        match self.stack.last_mut() {
            Some(Frame::Inlines(v, _)) => v.push(inline),
            Some(Frame::Code(_, text)) => {
                if let Inline::Text(t) = inline {
                    text.push_str(&t);
                }
            }
            _ => self.stack.push(Frame::Inlines(vec![inline], InlineKind::Paragraph { implicit: true })),
        }
    }

    fn push_block(&mut self, block: Block) {
        self.close_implicit();
        if let Some(Frame::Blocks(v, _)) = self.stack.last_mut() {
            v.push(block);
        }
    }

    /// Ends the paragraph opened for text directly in a container, if one is open.
    fn close_implicit(&mut self) {
        if matches!(self.stack.last(), Some(Frame::Inlines(_, InlineKind::Paragraph { implicit: true }))) {
            self.close_inlines();
        }
    }

    fn close_inlines(&mut self) {
        if let Some(Frame::Inlines(children, kind)) = self.stack.pop() {
            match kind {
                InlineKind::Paragraph { .. } => self.push_block(Block::Paragraph(children)),
                InlineKind::Heading(level) => self.push_block(Block::Heading(level, children)),
                InlineKind::Emphasis => self.push_inline(Inline::Emphasis(children)),
                InlineKind::Strong => self.push_inline(Inline::Strong(children)),
                InlineKind::Strike => self.push_inline(Inline::Strike(children)),
                InlineKind::Link(href) => self.push_inline(Inline::Link { href, children }),
            }
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(end) => self.end(end),
            Event::Text(t) => self.push_inline(Inline::Text(t.into_string())),
            Event::Code(t) => self.push_inline(Inline::Code(t.into_string())),
            // Raw HTML is shown as the text it is.
            Event::Html(t) | Event::InlineHtml(t) => self.push_inline(Inline::Text(t.into_string())),
            Event::SoftBreak => self.push_inline(Inline::Text(" ".into())),
            Event::HardBreak => self.push_inline(Inline::Break),
            Event::Rule => self.push_block(Block::Rule),
            Event::TaskListMarker(done) => {
                self.push_inline(Inline::Text(if done { "[x] ".into() } else { "[ ] ".into() }))
            }
            Event::FootnoteReference(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.push_inline(Inline::Text(t.into_string()))
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let frame = match tag {
            Tag::Paragraph | Tag::TableCell => Frame::Inlines(Vec::new(), InlineKind::Paragraph { implicit: false }),
            Tag::Heading { level, .. } => Frame::Inlines(Vec::new(), InlineKind::Heading(heading(level))),
            Tag::Emphasis => Frame::Inlines(Vec::new(), InlineKind::Emphasis),
            Tag::Strong => Frame::Inlines(Vec::new(), InlineKind::Strong),
            Tag::Strikethrough => Frame::Inlines(Vec::new(), InlineKind::Strike),
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                Frame::Inlines(Vec::new(), InlineKind::Link(safe_href(&dest_url)))
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) if !l.is_empty() => Some(l.into_string()),
                    _ => None,
                };
                Frame::Code(lang, String::new())
            }
            Tag::BlockQuote(_) => Frame::Blocks(Vec::new(), BlockKind::Quote),
            Tag::List(start) => Frame::Blocks(Vec::new(), BlockKind::List(start.is_some(), Vec::new())),
            Tag::Item => Frame::Blocks(Vec::new(), BlockKind::Item),
            // Tables, footnotes, metadata and the like: their text flows into paragraphs.
            _ => return,
        };
        match &frame {
            Frame::Blocks(..) if self.depth(true) > MAX_DEPTH => return self.skipped_blocks += 1,
            Frame::Inlines(_, kind)
                if !matches!(kind, InlineKind::Paragraph { .. } | InlineKind::Heading(_))
                    && self.depth(false) > MAX_DEPTH =>
            {
                return self.skipped_inlines += 1;
            }
            Frame::Blocks(..) | Frame::Code(..) => self.close_implicit(),
            Frame::Inlines(..) => {}
        }
        self.stack.push(frame);
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link | TagEnd::Image
                if self.skipped_inlines > 0 =>
            {
                self.skipped_inlines -= 1;
            }
            TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item if self.skipped_blocks > 0 => {
                self.skipped_blocks -= 1;
            }
            TagEnd::Paragraph
            | TagEnd::TableCell
            | TagEnd::Heading(_)
            | TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Link
            | TagEnd::Image => self.close_inlines(),
            TagEnd::CodeBlock => {
                if let Some(Frame::Code(lang, text)) = self.stack.pop() {
                    self.push_block(Block::Code { lang, text });
                }
            }
            TagEnd::Item => {
                self.close_implicit();
                if let Some(Frame::Blocks(blocks, BlockKind::Item)) = self.stack.pop()
                    && let Some(Frame::Blocks(_, BlockKind::List(_, items))) = self.stack.last_mut()
                {
                    items.push(blocks);
                }
            }
            TagEnd::List(_) => {
                self.close_implicit();
                if let Some(Frame::Blocks(_, BlockKind::List(ordered, items))) = self.stack.pop() {
                    self.push_block(Block::List { ordered, items });
                }
            }
            TagEnd::BlockQuote(_) => {
                // Raw HTML at the end of a quote left its text in an implicit paragraph.
                self.close_implicit();
                if let Some(Frame::Blocks(blocks, BlockKind::Quote)) = self.stack.pop() {
                    self.push_block(Block::Quote(blocks));
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<Block> {
        while self.stack.len() > 1 {
            match self.stack.last() {
                Some(Frame::Inlines(..)) => self.close_inlines(),
                _ => {
                    self.stack.pop();
                }
            }
        }
        match self.stack.pop() {
            Some(Frame::Blocks(blocks, _)) => blocks,
            _ => Vec::new(),
        }
    }
}

fn heading(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

#[cfg(test)]
mod tests;
