//! Block structure: block quotes, lists and their items (the containers), and the leaves
//! inside them (paragraphs, headings, code, raw HTML, rules, tables), read one block start at
//! a time. A leaf reads its own following lines, checking each still belongs to the open
//! containers; inline text is kept as [`Source`] and parsed once every link definition is
//! known.

use super::entities::unescape;
use super::html::{self, BlockEnd};
use super::inlines::{Mode, Source};
use super::lines::{
    Cursor, atx_level, blank_line, closing_fence, fence, hrule, interrupts_text, line_end, next_line, setext, spaces,
};
use super::links::Defs;

/// Containers (quotes, lists, items) nest at most this deep; deeper markers are text. Real
/// documents stay far below; hostile ones would otherwise exhaust the page's stack.
const MAX_DEPTH: usize = 96;

/// A block as read, before its inline text is parsed.
#[derive(Debug)]
pub(super) enum Node {
    Paragraph(Source),
    Heading(u8, Source),
    Code {
        lang: Option<String>,
        text: String,
    },
    /// Raw HTML: lines (and indentation) as they are shown.
    Html(Vec<String>),
    Quote(Vec<Node>),
    List {
        ordered: bool,
        tight: bool,
        items: Vec<Vec<Node>>,
    },
    Rule,
    /// The cells of a table, header first, row by row.
    Table(Vec<Source>),
}

/// An open container.
pub(super) enum Open {
    Quote(Vec<Node>),
    /// `marker` is the bullet (`-`, `+`, `*`) or the delimiter after the number (`.`, `)`).
    List {
        marker: u8,
        tight: bool,
        items: Vec<Vec<Node>>,
    },
    /// `indent`: the columns a line needs to continue the item.
    Item {
        indent: usize,
        blocks: Vec<Node>,
    },
}

/// Reads the blocks of `text` (with `\n` line ends) and the link definitions among them.
pub(super) fn parse(text: &str) -> (Vec<Node>, Defs) {
    let mut p =
        Parser { text, stack: Vec::new(), root: Vec::new(), defs: Defs::default(), blank: false, empty_item: false };
    let mut at = 0;
    while at < text.len() {
        at = p.block(at);
    }
    while !p.stack.is_empty() {
        p.pop();
    }
    (p.root, p.defs)
}

/// The block reader's state; `tables.rs` and `links.rs` add the parts for their blocks.
pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) stack: Vec<Open>,
    root: Vec<Node>,
    defs: Defs,
    /// Whether the last line was blank (which makes a list loose when more of it follows).
    blank: bool,
    /// Whether the innermost item started with nothing after its marker.
    empty_item: bool,
}

impl<'a> Parser<'a> {
    /// Reads the containers a line starts with and where they end.
    pub(super) fn containers(&self, cur: &mut Cursor<'_>) -> usize {
        let mut matched = 0;
        for open in &self.stack {
            let save = cur.clone();
            let ok = match open {
                Open::Quote(_) => {
                    cur.space(3);
                    cur.quote_marker()
                }
                Open::Item { indent, .. } => cur.space(*indent) || cur.at_eol(),
                Open::List { .. } => true,
            };
            if !ok {
                *cur = save;
                break;
            }
            matched += 1;
        }
        matched
    }

    /// Adds a finished block to the innermost container.
    pub(super) fn append(&mut self, node: Node) {
        match self.stack.last_mut() {
            Some(Open::Quote(blocks) | Open::Item { blocks, .. }) => blocks.push(node),
            // Not reached: a block other than an item starts only after `finish_list`.
            Some(Open::List { items, .. }) => items.push(vec![node]),
            None => self.root.push(node),
        }
    }

    fn pop(&mut self) {
        match self.stack.pop() {
            Some(Open::Item { blocks, .. }) => {
                if let Some(Open::List { items, .. }) = self.stack.last_mut() {
                    items.push(blocks);
                }
            }
            Some(Open::List { marker, tight, items }) => {
                if tight {
                    self.empty_item = false;
                }
                self.append(Node::List { ordered: matches!(marker, b'.' | b')'), tight, items });
            }
            Some(Open::Quote(blocks)) => self.append(Node::Quote(blocks)),
            None => {}
        }
    }

    /// An item that began empty and was followed by a blank line ends: it holds nothing.
    fn finish_empty_item(&mut self) {
        if self.empty_item && self.blank && matches!(self.stack.last(), Some(Open::Item { .. })) {
            self.pop();
        }
        self.empty_item = false;
    }

    /// Before a block other than an item: closes a list left open without its item, and a
    /// blank line before the block makes the enclosing list loose.
    fn finish_list(&mut self) {
        self.finish_empty_item();
        if matches!(self.stack.last(), Some(Open::List { .. })) {
            self.pop();
        }
        if self.blank {
            let n = self.stack.len();
            if n >= 2
                && let Open::List { tight, .. } = &mut self.stack[n - 2]
            {
                *tight = false;
            }
            self.blank = false;
        }
    }

    /// Before a new item: the open list goes on if the marker is the same kind, else a new
    /// list starts (a blank line between items makes the list loose).
    fn continue_list(&mut self, marker: u8) {
        self.finish_empty_item();
        if let Some(Open::List { marker: open, tight, .. }) = self.stack.last_mut()
            && *open == marker
        {
            if self.blank {
                *tight = false;
                self.blank = false;
            }
            return;
        }
        if !self.stack.is_empty() {
            self.finish_list();
        }
        self.stack.push(Open::List { marker, tight: true, items: Vec::new() });
        self.blank = false;
    }

    /// Reads the block that starts at `start` (a line start); returns where the next starts.
    fn block(&mut self, start: usize) -> usize {
        let b = self.text.as_bytes();
        let mut cur = Cursor::new(&b[start..]);
        let matched = self.containers(&mut cur);
        while self.stack.len() > matched {
            self.pop();
        }
        while self.stack.len() < MAX_DEPTH {
            let save = cur.clone();
            let indent = cur.space_upto(4);
            if indent >= 4 {
                cur = save;
                break;
            }
            if let Some((marker, item_indent)) = cur.list_marker(indent) {
                self.continue_list(marker);
                self.stack.push(Open::Item { indent: item_indent, blocks: Vec::new() });
                let after = start + cur.i;
                if let Some(n) = blank_line(&b[after..]) {
                    self.empty_item = true;
                    return after + n;
                }
            } else if cur.quote_marker() {
                self.finish_list();
                self.stack.push(Open::Quote(Vec::new()));
            } else {
                cur = save;
                break;
            }
        }
        let at = start + cur.i;
        if let Some(n) = blank_line(&b[at..]) {
            match self.stack.last_mut() {
                Some(Open::Quote(_)) => {}
                Some(Open::Item { indent, .. }) if self.empty_item => {
                    // An item that began empty can hold nothing after a blank line.
                    *indent = 0;
                    self.blank = true;
                }
                _ => self.blank = true,
            }
            return at + n;
        }
        let pending = cur.pending;
        let indent = cur.space_upto(4);
        let at = start + cur.i;
        if indent == 4 {
            self.finish_list();
            return self.indented_code(at, cur.pending);
        }
        let line = &b[at..];
        if line[0] == b'<'
            && let Some(end) = html::block_start(line, false)
        {
            self.finish_list();
            return self.html_block(at, end, pending.max(indent));
        }
        if let Some(n) = hrule(line) {
            self.finish_list();
            self.append(Node::Rule);
            return at + n;
        }
        if let Some(level) = atx_level(line) {
            self.finish_list();
            return self.atx_heading(at, level);
        }
        if let Some((n, c)) = fence(line) {
            self.finish_list();
            return self.fenced_code(at, indent, c, n);
        }
        let (mut start, mut cur) = (start, cur);
        while let Some((len, label, dest)) = self.definition(start + cur.i) {
            self.defs.define(&label, dest);
            let mut end = start + cur.i + len;
            match blank_line(&b[end..]) {
                Some(n) => end += n,
                None => {
                    self.finish_list();
                    return end;
                }
            }
            // A definition continues like a paragraph: the next line may be another one, or
            // a paragraph that belongs where the definition was.
            match self.continuation(end) {
                Some(next) => (start, cur) = (end, next),
                None => {
                    self.finish_list();
                    return end;
                }
            }
        }
        self.paragraph(start + cur.i)
    }

    /// The next line as a paragraph continuation (its spaces used), unless it is blank or
    /// starts a block that interrupts paragraphs.
    fn continuation(&self, at: usize) -> Option<Cursor<'a>> {
        let b = self.text.as_bytes();
        let mut cur = Cursor::new(&b[at..]);
        let all = self.containers(&mut cur) == self.stack.len();
        let indented = cur.space(4);
        if (!indented && self.interrupts(at + cur.i, all)) || blank_line(&b[at + cur.i..]).is_some() {
            return None;
        }
        cur.all_space();
        Some(cur)
    }

    /// Whether the line content at `at` ends a paragraph before it.
    pub(super) fn interrupts(&self, at: usize, all_matched: bool) -> bool {
        let b = &self.text.as_bytes()[at..];
        interrupts_text(b, all_matched) || (b.first() == Some(&b'|') && self.table_at(at).is_some())
    }

    /// A paragraph from `first` on, unless its first line heads a table; it becomes a setext
    /// heading when an underline follows. Lines that start no other block continue it, even
    /// outside the containers it is in (lazy continuation).
    fn paragraph(&mut self, first: usize) -> usize {
        self.finish_list();
        let b = self.text.as_bytes();
        let mut src = Source::new(Mode::Flow);
        let (mut raw, mut content) = (first, first);
        loop {
            let end = line_end(b, content);
            // A table header is a paragraph's first line (unless a backslash breaks it).
            let backslashes = b[content..end].iter().rev().take_while(|&&c| c == b'\\').count();
            if src.starts.is_empty()
                && backslashes % 2 == 0
                && let Some((cols, body)) = self.table_at(content)
            {
                return self.table(content, cols, body);
            }
            src.push_line(&self.text[raw..end], content - raw);
            if end == b.len() {
                self.append(Node::Paragraph(src));
                return end;
            }
            let next = end + 1;
            let mut cur = Cursor::new(&b[next..]);
            let all = self.containers(&mut cur) == self.stack.len();
            let prefix = cur.i;
            if !cur.space(4) {
                let at = next + cur.i;
                if all && let Some((n, level)) = setext(&b[at..]) {
                    self.append(Node::Heading(level, src));
                    return at + n;
                }
                if self.interrupts(at, all) {
                    break;
                }
            }
            cur.all_space();
            if cur.at_eol() {
                break;
            }
            (raw, content) = (next + prefix, next + cur.i);
        }
        self.append(Node::Paragraph(src));
        next_line(b, content)
    }

    /// `# Heading`: its one line goes to the inline parser whole, closing `#`s included.
    fn atx_heading(&mut self, at: usize, level: usize) -> usize {
        let b = self.text.as_bytes();
        let mut src = Source::new(Mode::Heading);
        let mut from = at + level;
        let end = line_end(b, from);
        if from < end {
            from += spaces(&b[from..end]);
            src.push_line(&self.text[from..end], 0);
        }
        self.append(Node::Heading(level as u8, src));
        next_line(b, end)
    }

    /// Code indented by 4 columns; blank lines inside it belong to it.
    fn indented_code(&mut self, mut at: usize, mut pending: usize) -> usize {
        let b = self.text.as_bytes();
        let mut text = String::new();
        // Blank lines at the end are not part of the block.
        let mut keep = 0;
        self.blank = false;
        loop {
            let end = next_line(b, at);
            text.push_str(&"   "[..pending.min(3)]);
            text.push_str(&self.text[at..end]);
            if !self.blank {
                keep = text.len();
            }
            let mut cur = Cursor::new(&b[end..]);
            if self.containers(&mut cur) < self.stack.len() || !(cur.space(4) || cur.at_eol()) {
                at = end;
                break;
            }
            let next = end + cur.i;
            if next == b.len() {
                at = end;
                break;
            }
            (at, pending) = (next, cur.pending);
            self.blank = blank_line(&b[at..]).is_some();
        }
        text.truncate(keep);
        self.append(Node::Code { lang: None, text });
        at
    }

    /// Code between fences; the whole info string is the language, and the fence's own
    /// indentation is taken off each line. An unclosed fence runs to its container's end.
    fn fenced_code(&mut self, at: usize, indent: usize, c: u8, len: usize) -> usize {
        let b = self.text.as_bytes();
        let info_from = at + len + spaces(&b[at + len..]);
        let mut at = next_line(b, info_from);
        let info_to = info_from + self.text[info_from..at].trim_end_matches(|c: char| c.is_ascii_whitespace()).len();
        let lang = unescape(&self.text[info_from..info_to], false);
        let mut text = String::new();
        loop {
            let mut cur = Cursor::new(&b[at..]);
            if self.containers(&mut cur) < self.stack.len() {
                break;
            }
            cur.space(indent);
            let mut close = cur.clone();
            if !close.space(4 - indent)
                && let Some(n) = closing_fence(&b[at + close.i..], c, len)
            {
                at += close.i + n;
                at += blank_line(&b[at..]).unwrap_or(0);
                break;
            }
            let from = at + cur.i;
            let end = next_line(b, from);
            text.push_str(&"   "[..cur.pending.min(3)]);
            text.push_str(&self.text[from..end]);
            at = end;
        }
        self.append(Node::Code { lang: (!lang.is_empty()).then_some(lang), text });
        at
    }

    /// Raw HTML lines, kept as they are (with the first line's indentation as its own piece).
    fn html_block(&mut self, mut at: usize, end: BlockEnd, mut pad: usize) -> usize {
        let b = self.text.as_bytes();
        let mut lines = Vec::new();
        loop {
            let from = at;
            at = next_line(b, at);
            if pad > 0 {
                lines.push("   "[..pad.min(3)].to_owned());
            }
            lines.push(self.text[from..at].to_owned());
            let mut cur = Cursor::new(&b[at..]);
            if self.containers(&mut cur) < self.stack.len() {
                break;
            }
            let done = match end {
                BlockEnd::Marker(m) => self.text[from..at].contains(m),
                BlockEnd::BlankLine => cur.at_eol(),
            };
            let next = at + cur.i;
            if done || next == b.len() || (end == BlockEnd::BlankLine && blank_line(&b[next..]).is_some()) {
                break;
            }
            (at, pad) = (next, cur.pending);
        }
        self.append(Node::Html(lines));
        at
    }
}
