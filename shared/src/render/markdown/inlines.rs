//! Inline parsing: code spans, raw HTML, autolinks, links and images, emphasis and
//! strikethrough, escapes, character references and line breaks.
//!
//! The text is first cut into runs of plain text and possible markers (`*`, `` ` ``, `[`, `<`,
//! …), one node each, in a linked list. One pass then resolves code spans, HTML, autolinks and
//! links from left to right; another pairs emphasis delimiters (CommonMark's delimiter
//! algorithm). A marker that pairs with nothing stays text, as its own node: the tree keeps
//! the text split where the parser we replaced split it, so the page draws exactly what it drew.

use std::collections::{HashMap, VecDeque};

use super::entities;
use super::links::{self, Defs};
use super::punct::is_punct;
use super::{Inline, html};
use crate::render::safe_href;

/// Where inline text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Paragraphs and setext headings: several lines.
    Flow,
    /// An ATX heading's one line, closing `#`s included (they are cut after the cutting).
    Heading,
    /// A table cell, where `\|` stands for `|`.
    Cell,
}

/// Inline text as the blocks found it: lines without their container prefixes (`> `, list
/// indentation), joined by `\n`, and where each line's content starts after its indentation.
#[derive(Debug)]
pub(super) struct Source {
    pub text: String,
    pub starts: Vec<usize>,
    pub mode: Mode,
    /// What follows the text in the document, when it matters: the `|` or line end after a
    /// cell, which decides whether a final `*` can open or close.
    pub then: Option<char>,
}

impl Source {
    pub(super) fn new(mode: Mode) -> Self {
        Self { text: String::new(), starts: Vec::new(), mode, then: None }
    }

    /// Adds a line whose content starts `skip` bytes in.
    pub(super) fn push_line(&mut self, line: &str, skip: usize) {
        if !self.starts.is_empty() {
            self.text.push('\n');
        }
        self.starts.push(self.text.len() + skip);
        self.text.push_str(line);
    }
}

pub(super) type Id = usize;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Kind {
    Text,
    /// Text that is not in the source as such: a character reference or a lone backslash.
    Char(char),
    /// One character of a run of `*`, `_` or `~`; `count` characters are left from here.
    Delim {
        ch: u8,
        count: usize,
        open: bool,
        close: bool,
    },
    Ticks {
        count: usize,
        escaped: bool,
    },
    Lt,
    /// `![`
    Bang,
    Open,
    Close {
        /// Cleared once a `[label]` after it was tried, so it is not tried again as a shortcut.
        maybe_ref: bool,
    },
    Soft,
    Hard {
        backslash: bool,
    },
    /// A code span; its text is in `strings`.
    Code(usize),
    Html,
    /// A link or an image; its destination is in `strings`.
    Link(usize),
    Emph,
    Strong,
    Strike,
}

#[derive(Debug)]
pub(super) struct Node {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) next: Option<Id>,
    pub(super) child: Option<Id>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Bracket {
    Link,
    Image,
    /// A `[` that can no longer open a link: links do not nest.
    Dead,
}

/// Parses one block's inline text.
pub(super) fn parse(src: &Source, defs: &Defs) -> Vec<Inline> {
    let mut p = Parser {
        s: &src.text,
        then: src.then,
        misses: html::Misses::default(),
        nodes: Vec::new(),
        strings: Vec::new(),
        in_table: src.mode == Mode::Cell,
    };
    p.cut(src);
    let mut head = if p.nodes.is_empty() { None } else { Some(0) };
    if src.mode == Mode::Heading {
        head = p.drop_closing_hashes(head);
    }
    p.resolve(head, defs);
    p.emphasis(head);
    p.nested_emphasis(head);
    p.emit(head)
}

/// The inline parser's state; `emphasis.rs` adds the delimiter pass.
pub(super) struct Parser<'a> {
    s: &'a str,
    then: Option<char>,
    misses: html::Misses,
    pub(super) nodes: Vec<Node>,
    strings: Vec<String>,
    in_table: bool,
}

/// Spaces and tabs as line ends see them (what a hard break is made of).
fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | 0x0b | 0x0c)
}

impl Parser<'_> {
    fn node(&mut self, kind: Kind, start: usize, end: usize) -> Id {
        self.nodes.push(Node { kind, start, end, next: None, child: None });
        self.nodes.len() - 1
    }

    /// Appends a node to the list being cut (which is in creation order until resolved).
    fn push(&mut self, kind: Kind, start: usize, end: usize) {
        let id = self.node(kind, start, end);
        if id > 0 {
            self.nodes[id - 1].next = Some(id);
        }
    }

    /// Appends text, joining it to the text just before when they touch in the source.
    fn text(&mut self, start: usize, end: usize) {
        if end <= start {
            return;
        }
        if let Some(last) = self.nodes.last_mut()
            && last.kind == Kind::Text
            && last.end == start
        {
            last.end = end;
            return;
        }
        self.push(Kind::Text, start, end);
    }

    /// Cuts the lines into text and markers.
    fn cut(&mut self, src: &Source) {
        let b = self.s.as_bytes();
        for (line, &start) in src.starts.iter().enumerate() {
            let end = b[start..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| start + n);
            let mut from = start;
            let mut i = start;
            while i < end {
                match b[i] {
                    b'\\' if i + 1 < end && b[i + 1].is_ascii_punctuation() => {
                        self.text(from, i);
                        let escaped = b[i + 1];
                        if escaped == b'`' {
                            let n = run(b, i + 1, b'`');
                            self.push(Kind::Ticks { count: n, escaped: true }, i + 1, i + 1 + n);
                            i += 1 + n;
                            from = i;
                        } else if self.in_table && escaped == b'\\' && b.get(i + 2) == Some(&b'|') {
                            from = i + 2;
                            i += 3;
                        } else {
                            from = i + 1;
                            i += 2;
                        }
                    }
                    c @ (b'*' | b'_' | b'~') => {
                        let n = run(b, i, c);
                        let (open, close) = self.flanking(start, i, n, c);
                        if (open || close) && (c != b'~' || n <= 2) {
                            self.text(from, i);
                            for k in 0..n {
                                self.push(Kind::Delim { ch: c, count: n - k, open, close }, i + k, i + k + 1);
                            }
                            from = i + n;
                        }
                        i += n;
                    }
                    b'`' => {
                        let n = run(b, i, b'`');
                        self.text(from, i);
                        self.push(Kind::Ticks { count: n, escaped: false }, i, i + n);
                        i += n;
                        from = i;
                    }
                    c @ (b'<' | b'[' | b']') if c != b'<' || b.get(i + 1) != Some(&b'\\') => {
                        self.text(from, i);
                        let kind = match c {
                            b'<' => Kind::Lt,
                            b'[' => Kind::Open,
                            _ => Kind::Close { maybe_ref: true },
                        };
                        self.push(kind, i, i + 1);
                        i += 1;
                        from = i;
                    }
                    b'!' if b.get(i + 1) == Some(&b'[') => {
                        self.text(from, i);
                        self.push(Kind::Bang, i, i + 2);
                        i += 2;
                        from = i;
                    }
                    b'&' => match entities::scan(&self.s[i..]) {
                        Some((n, c)) => {
                            self.text(from, i);
                            self.push(Kind::Char(c), i, i + n);
                            i += n;
                            from = i;
                        }
                        None => i += 1,
                    },
                    _ => i += 1,
                }
            }
            let trailing = b[from..end].iter().rev().take_while(|&&c| is_blank(c)).count();
            if line + 1 == src.starts.len() {
                self.text(from, end - trailing);
                continue;
            }
            let backslashes = b[start..end].iter().rev().take_while(|&&c| c == b'\\').count();
            if backslashes % 2 == 1 {
                self.text(from, end - 1);
                self.push(Kind::Hard { backslash: true }, end - 1, end + 1);
            } else if trailing >= 2 {
                self.text(from, end - trailing);
                self.push(Kind::Hard { backslash: false }, end - trailing, end + 1);
            } else {
                self.text(from, end - trailing);
                self.push(Kind::Soft, end, end + 1);
            }
        }
    }

    /// Whether the run of `n` delimiters at `i` can open and close emphasis (CommonMark's
    /// left- and right-flanking rules; `*` and `~~` may be inside words, `_` and `~` not).
    /// Lines are seen one at a time: a run at a line's start has nothing before it.
    fn flanking(&self, line_start: usize, i: usize, n: usize, c: u8) -> (bool, bool) {
        let prev = if i == line_start { None } else { self.s[..i].chars().next_back() };
        let next = self.s[i + n..].chars().next().or(self.then);
        let open = match (prev, next) {
            (_, None) => false,
            (_, Some(x)) if x.is_whitespace() => false,
            (None, _) => true,
            (_, Some('|')) if self.in_table => false,
            (Some(p), Some(x)) => {
                (c == b'*' && !is_punct(x))
                    || (c == b'~' && n > 1)
                    || (c == b'~' && p == '~' && !is_punct(x))
                    || p.is_whitespace()
                    || is_punct(p)
            }
        };
        let close = match (prev, next) {
            (None, _) => false,
            (Some(p), _) if p.is_whitespace() => false,
            (_, None) => true,
            (_, Some('|')) if self.in_table => true,
            (Some(p), Some(x)) => {
                ((c == b'*' || (c == b'~' && n > 1)) && !is_punct(p))
                    || (c == b'~' && p == '~')
                    || x.is_whitespace()
                    || is_punct(x)
            }
        };
        (open, close)
    }

    /// An ATX heading's closing `#`s are cut from its last node (after the line was cut, so
    /// they never hide a marker).
    fn drop_closing_hashes(&mut self, head: Option<Id>) -> Option<Id> {
        let t = self.s.as_bytes();
        let mut limit = t.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
        let closer = t[..limit].iter().rposition(|&c| c != b'#').map_or(0, |i| i + 1);
        if closer == 0 {
            limit = 0;
        } else {
            let spaces = t[..closer].iter().rev().take_while(|&&c| c == b' ').count();
            if spaces > 0 {
                limit = closer - spaces;
            }
        }
        let last = self.nodes.last_mut()?;
        if limit == 0 {
            return None;
        }
        last.end = limit.max(last.start);
        head
    }

    /// The first node from `from` on that ends after `at`, which now starts no earlier than
    /// `at`: what follows a construct that ended at `at`.
    fn skip_to(&mut self, from: Option<Id>, at: usize) -> Option<Id> {
        let found = self.find_after(from, at)?;
        let node = &mut self.nodes[found];
        node.start = node.start.max(at);
        Some(found)
    }

    fn find_after(&self, mut from: Option<Id>, at: usize) -> Option<Id> {
        while let Some(id) = from {
            if self.nodes[id].end > at {
                return Some(id);
            }
            from = self.nodes[id].next;
        }
        None
    }

    fn string(&mut self, s: String) -> usize {
        self.strings.push(s);
        self.strings.len() - 1
    }

    /// Code spans, raw HTML, autolinks, links and images, from left to right.
    fn resolve(&mut self, head: Option<Id>, defs: &Defs) {
        let mut brackets: Vec<(Id, Bracket)> = Vec::new();
        // Brackets below this index were already made dead.
        let mut live_from = 0;
        let mut ticks = TickIndex::default();
        let mut prev: Option<Id> = None;
        let mut cur = head;
        while let Some(c) = cur {
            match self.nodes[c].kind {
                Kind::Lt => {
                    if let Some(after) = self.raw_or_autolink(c) {
                        prev = Some(c);
                        cur = after;
                        continue;
                    }
                    self.nodes[c].kind = Kind::Text;
                }
                Kind::Ticks { count, escaped } => {
                    let want = count - usize::from(escaped);
                    match (want > 0).then(|| ticks.closer(self, c, want)).flatten() {
                        Some(close) => self.code_span(c, close, escaped),
                        None => self.nodes[c].kind = Kind::Text,
                    }
                }
                Kind::Open | Kind::Bang => {
                    let bracket = if self.nodes[c].kind == Kind::Open { Bracket::Link } else { Bracket::Image };
                    self.nodes[c].kind = Kind::Text;
                    brackets.push((c, bracket));
                }
                Kind::Close { maybe_ref } => {
                    self.nodes[c].kind = Kind::Text;
                    let Some((opener, bracket)) = brackets.pop() else {
                        prev = cur;
                        cur = self.nodes[c].next;
                        continue;
                    };
                    live_from = live_from.min(brackets.len());
                    let linked =
                        if bracket == Bracket::Dead { None } else { self.link(opener, c, prev, maybe_ref, defs) };
                    if let Some(after) = linked {
                        if bracket == Bracket::Link {
                            for (_, b) in &mut brackets[live_from..] {
                                if *b == Bracket::Link {
                                    *b = Bracket::Dead;
                                }
                            }
                            live_from = brackets.len();
                        }
                        prev = Some(opener);
                        cur = after;
                        continue;
                    }
                }
                _ => {}
            }
            prev = cur;
            cur = self.nodes[c].next;
        }
    }

    /// Raw HTML or an autolink at the `<` node `c`: what follows it, when it is one.
    fn raw_or_autolink(&mut self, c: Id) -> Option<Option<Id>> {
        let next = self.nodes[c].next?;
        let at = self.nodes[next].start;
        if let Some((len, dest)) = html::autolink(&self.s[at..]) {
            let end = at + len;
            let dest = self.string(dest.to_owned());
            let text = self.node(Kind::Text, at, end - 1);
            let after = self.skip_to(Some(next), end);
            let node = &mut self.nodes[c];
            node.kind = Kind::Link(dest);
            node.end = end;
            node.child = Some(text);
            node.next = after;
            return Some(after);
        }
        let len = html::inline(self.s.as_bytes(), at - 1, &mut self.misses)?;
        let end = at - 1 + len;
        let after = self.skip_to(Some(next), end);
        let node = &mut self.nodes[c];
        node.kind = Kind::Html;
        node.end = end;
        node.next = after;
        Some(after)
    }

    fn code_span(&mut self, open: Id, close: Id, escaped: bool) {
        let raw = &self.s[self.nodes[open].end..self.nodes[close].start];
        let mut text = raw.replace('\n', " ");
        if self.in_table {
            text = text.replace("\\|", "|");
        }
        if text.starts_with(' ') && text.ends_with(' ') && text.bytes().any(|c| c != b' ') {
            text = text[1..text.len() - 1].to_owned();
        }
        let code = Kind::Code(self.string(text));
        if escaped {
            // The escaped backtick is text; the span starts after it.
            let start = self.nodes[open].start;
            let o = &mut self.nodes[open];
            o.kind = Kind::Text;
            o.end = start + 1;
            o.next = Some(close);
            let cl = &mut self.nodes[close];
            cl.kind = code;
            cl.start = start + 1;
        } else {
            let (end, next) = (self.nodes[close].end, self.nodes[close].next);
            let o = &mut self.nodes[open];
            o.kind = code;
            o.end = end;
            o.next = next;
        }
    }

    /// Tries to make a link of `opener … ]` (the `]` is `close`, `prev` the node before it):
    /// inline `(dest)`, then `[label]`, `[]` or the text itself as a reference. Returns what
    /// follows the link.
    fn link(&mut self, opener: Id, close: Id, prev: Option<Id>, maybe_ref: bool, defs: &Defs) -> Option<Option<Id>> {
        let next = self.nodes[close].next;
        if let Some((end, dest)) = links::inline(self.s, self.nodes[close].end, self.in_table) {
            let after = self.skip_to(next, end);
            if let Some(p) = prev {
                self.nodes[p].next = None;
            }
            let dest = self.string(dest);
            let o = &mut self.nodes[opener];
            o.kind = Kind::Link(dest);
            o.child = o.next;
            o.next = after;
            o.end = end;
            return Some(after);
        }
        let label_at = next.map_or(self.s.len(), |n| self.nodes[n].start);
        let (after, label) = if self.s[label_at..].starts_with("[]") {
            if !maybe_ref {
                return None;
            }
            (next.and_then(|n| self.nodes[n].next).and_then(|n| self.nodes[n].next), None)
        } else if let Some((len, label)) = links::label(&self.s[label_at..], self.in_table) {
            let last = self.find_after(next, label_at + len - 1)?;
            self.nodes[last].kind = Kind::Close { maybe_ref: false };
            (self.nodes[last].next, Some(label))
        } else {
            if !maybe_ref {
                return None;
            }
            (next, None)
        };
        let label = match label {
            Some(label) => label,
            None => {
                // `[text]` or `[text][]`: the text is the label, if it is a whole one.
                let from = self.nodes[opener].end - 1;
                let to = self.nodes[close].end;
                let (len, label) = links::label(&self.s[from..to], self.in_table)?;
                (from + len == to).then_some(label)?
            }
        };
        let dest = defs.get(&label)?.to_owned();
        let dest = self.string(dest);
        let first = self.nodes[opener].next;
        let o = &mut self.nodes[opener];
        o.kind = Kind::Link(dest);
        o.next = after;
        if first != Some(close) {
            o.child = first;
            if let Some(p) = prev {
                self.nodes[p].next = None;
            }
        }
        Some(after)
    }

    /// The tree, built with a stack of open wrappers rather than recursion.
    fn emit(&self, head: Option<Id>) -> Vec<Inline> {
        let mut open: Vec<(Option<Id>, Vec<Inline>, Option<Id>)> = vec![(head, Vec::new(), None)];
        loop {
            let (cur, out, _) = open.last_mut().expect("the outermost list stays open");
            let Some(c) = *cur else {
                let (_, items, wrapper) = open.pop().expect("checked above");
                let Some(w) = wrapper else { return items };
                let inline = match self.nodes[w].kind {
                    Kind::Link(s) => Inline::Link { href: safe_href(&self.strings[s]), children: items },
                    Kind::Emph => Inline::Emphasis(items),
                    Kind::Strong => Inline::Strong(items),
                    _ => Inline::Strike(items),
                };
                open.last_mut().expect("a wrapper has a parent").1.push(inline);
                continue;
            };
            let n = &self.nodes[c];
            *cur = n.next;
            out.push(match n.kind {
                Kind::Link(_) | Kind::Emph | Kind::Strong | Kind::Strike => {
                    open.push((n.child, Vec::new(), Some(c)));
                    continue;
                }
                Kind::Char(ch) => Inline::Text(ch.to_string()),
                Kind::Soft => Inline::Text(" ".into()),
                Kind::Hard { .. } => Inline::Break,
                Kind::Code(s) => Inline::Code(self.strings[s].clone()),
                _ => Inline::Text(self.s[n.start..n.end].to_owned()),
            });
        }
    }
}

fn run(b: &[u8], i: usize, c: u8) -> usize {
    b[i..].iter().take_while(|&&x| x == c).count()
}

/// Where the backtick runs of a paragraph are, by length, so finding a span's closing run does
/// not rescan the rest of the text for every opening one.
#[derive(Default)]
struct TickIndex {
    by_len: Option<HashMap<usize, VecDeque<Id>>>,
}

impl TickIndex {
    /// The first run of `len` backticks after `open`. Runs are met in source order and every
    /// run before the current one is settled, so passed ones can be forgotten.
    fn closer(&mut self, p: &Parser<'_>, open: Id, len: usize) -> Option<Id> {
        let index = self.by_len.get_or_insert_with(|| {
            let mut m: HashMap<usize, VecDeque<Id>> = HashMap::new();
            for (id, n) in p.nodes.iter().enumerate() {
                if let Kind::Ticks { count, .. } = n.kind {
                    m.entry(count).or_default().push_back(id);
                }
            }
            m
        });
        let queue = index.get_mut(&len)?;
        while queue.front().is_some_and(|&id| id <= open) {
            queue.pop_front();
        }
        queue.front().copied()
    }
}
