//! The parts of links: destinations, titles, labels, and the definitions that labels name.
//! Definitions are read with the blocks (they may come after their use), looked up by inlines.

use std::collections::HashMap;

use super::blocks::Parser;
use super::entities::unescape;
use super::lines::{Cursor, blank_line, setext, spaces};

/// Link reference definitions: normalised label → destination (the first definition wins).
#[derive(Debug, Default)]
pub(super) struct Defs(HashMap<String, String>);

impl Defs {
    pub(super) fn define(&mut self, label: &str, dest: String) {
        self.0.entry(key(label)).or_insert(dest);
    }

    pub(super) fn get(&self, label: &str) -> Option<&str> {
        self.0.get(&key(label)).map(String::as_str)
    }
}

/// Labels match without regard to case: lowercased (full Unicode case folding would also
/// make `ß` equal `SS`, at the cost of another table in the page).
fn key(label: &str) -> String {
    label.to_lowercase()
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A link label at the start of `s` (which starts with `[`): its length with both brackets and
/// its text with runs of whitespace made single spaces. It cannot contain an unescaped `[`,
/// be blank, or hold more than one line break in a row of spaces.
pub(super) fn label(s: &str, in_table: bool) -> Option<(usize, String)> {
    let b = s.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    let mut out = String::new();
    let mut mark = 1;
    let mut i = 1;
    let mut blank = true;
    // Counted as CommonMark's 999-character limit is counted by the reference we follow.
    let mut weight = 0;
    loop {
        if weight >= 1000 {
            return None;
        }
        match *b.get(i)? {
            b'[' => return None,
            b']' => break,
            b'\\' if in_table && b.get(i + 1) == Some(&b'|') => {
                out.push_str(&s[mark..i]);
                out.push('|');
                i += 2;
                mark = i;
                weight += 1;
                blank = false;
            }
            b'\\' if b.get(i + 1)?.is_ascii_punctuation() => {
                i += 2;
                weight += 2;
                blank = false;
            }
            c if is_space(c) => {
                let run = i;
                let mut breaks = 0;
                let mut plain = c == b' ';
                while i < b.len() && is_space(b[i]) {
                    if b[i] == b'\n' {
                        breaks += 1;
                        if breaks > 1 {
                            return None;
                        }
                    }
                    plain &= b[i] == b' ' && i == run;
                    i += 1;
                }
                if plain {
                    weight += 1;
                } else {
                    out.push_str(&s[mark..run]);
                    out.push(' ');
                    mark = i;
                    weight += i - run;
                }
            }
            c => {
                blank = false;
                i += 1;
                if c >= 0x80 {
                    weight += 1;
                }
            }
        }
    }
    if blank {
        return None;
    }
    out.push_str(&s[mark..i]);
    Some((i + 1, out.trim_matches([' ', '\t', '\n', '\r']).to_owned()))
}

/// A link destination at `s[at..]`: its length and raw text (escapes still in). In angle
/// brackets it may hold spaces; bare, it ends at a space or an unbalanced `)`.
pub(super) fn destination(s: &str, at: usize) -> Option<(usize, &str)> {
    let b = &s.as_bytes()[at..];
    if b.first() == Some(&b'<') {
        let mut i = 1;
        while i < b.len() {
            match b[i] {
                b'\n' | b'<' => return None,
                b'>' => return Some((i + 1, &s[at + 1..at + i])),
                b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 1,
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    let mut depth = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            0..=b' ' => break,
            b'(' => {
                if depth > 32 {
                    return None;
                }
                depth += 1;
            }
            b')' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            b'\\' if b.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 1,
            _ => {}
        }
        i += 1;
    }
    (depth == 0).then(|| (i, &s[at..at + i]))
}

/// The length of a link title at `s[at..]`: `"…"`, `'…'` or `(…)`, escapes allowed.
pub(super) fn title(s: &[u8], at: usize) -> Option<usize> {
    let open = *s.get(at)?;
    let close = match open {
        b'"' | b'\'' => open,
        b'(' => b')',
        _ => return None,
    };
    let mut i = at + 1;
    while let Some(&c) = s.get(i) {
        if c == close {
            return Some(i + 1 - at);
        }
        if c == open {
            return None;
        }
        i += if c == b'\\' && s.get(i + 1).is_some_and(u8::is_ascii_punctuation) { 2 } else { 1 };
    }
    None
}

/// Spaces and at most one line end between the parts of an inline link.
fn separator(s: &[u8], mut i: usize) -> usize {
    let spaces = |i: usize| i + s[i..].iter().take_while(|c| matches!(c, b' ' | b'\t' | 0x0b | 0x0c)).count();
    i = spaces(i);
    if s.get(i) == Some(&b'\n') {
        i = spaces(i + 1);
    }
    i
}

/// An inline link's `(destination "title")` at `s[at..]`: where it ends and the destination.
pub(super) fn inline(s: &str, at: usize, in_table: bool) -> Option<(usize, String)> {
    let b = s.as_bytes();
    if b.get(at) != Some(&b'(') {
        return None;
    }
    let mut i = separator(b, at + 1);
    let (len, raw) = destination(s, i)?;
    let dest = unescape(raw, in_table);
    i = separator(b, i + len);
    if let Some(len) = title(b, i) {
        i = separator(b, i + len);
    }
    (b.get(i) == Some(&b')')).then_some((i + 1, dest))
}

/// Link reference definitions, read where a paragraph could start.
impl Parser<'_> {
    /// A link reference definition at `at`: its length (to the end of its destination or
    /// title), label and destination. The label must be on one line.
    pub(super) fn definition(&self, at: usize) -> Option<(usize, String, String)> {
        let s = &self.text[at..];
        let (label_len, label) = label(s, false)?;
        if s[..label_len].contains('\n') || s.as_bytes().get(label_len) != Some(&b':') {
            return None;
        }
        let (dest_at, _) = self.definition_space(at + label_len + 1)?;
        let (len, raw) = destination(self.text, dest_at)?;
        if len == 0 {
            return None;
        }
        let dest_end = dest_at + len;
        let found = |end: usize| Some((end - at, label.clone(), unescape(raw, false)));
        let Some((title_at, mut breaks)) = self.definition_space(dest_end) else { return found(dest_end) };
        if dest_end == self.text.len() {
            breaks += 1;
        }
        if title_at == dest_end && breaks == 0 {
            return None;
        }
        if let Some(n) = self.definition_title(title_at)
            && blank_line(&self.text.as_bytes()[title_at + n..]).is_some()
        {
            return found(title_at + n);
        }
        if breaks > 0 { found(dest_end) } else { None }
    }

    /// Spaces and at most one line end (to a line that continues a paragraph) inside a
    /// definition: where they end and how many line ends they hold.
    fn definition_space(&self, mut at: usize) -> Option<(usize, usize)> {
        let b = self.text.as_bytes();
        let mut breaks = 0;
        loop {
            at += spaces(&b[at..]);
            match b.get(at) {
                Some(b'\n') => at += 1,
                None => {}
                Some(_) => return Some((at, breaks)),
            }
            breaks += 1;
            if breaks > 1 {
                return None;
            }
            let mut cur = Cursor::new(&b[at..]);
            let all = self.containers(&mut cur) == self.stack.len();
            if !cur.space(4) && (self.interrupts(at + cur.i, all) || setext(&b[at + cur.i..]).is_some()) {
                return None;
            }
            at += cur.i;
        }
    }

    /// The length of a definition's title at `at`; it may span lines, not blank ones.
    fn definition_title(&self, at: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let close = match *b.get(at)? {
            b'"' => b'"',
            b'\'' => b'\'',
            b'(' => b')',
            _ => return None,
        };
        let mut i = at + 1;
        while let Some(&c) = b.get(i) {
            match c {
                b'(' if close == b')' => return None,
                b'\n' => {
                    i += 1;
                    let mut cur = Cursor::new(&b[i..]);
                    let all = self.containers(&mut cur) == self.stack.len();
                    if !cur.space(4) && (self.interrupts(i + cur.i, all) || setext(&b[i + cur.i..]).is_some()) {
                        return None;
                    }
                    cur.all_space();
                    i += cur.i;
                    if blank_line(&b[i..]).is_some() {
                        return None;
                    }
                }
                b'\\' => i += if b.get(i + 1).is_some_and(|&c| c != b'\n') { 2 } else { 1 },
                _ if c == close => return Some(i + 1 - at),
                _ => i += 1,
            }
        }
        None
    }
}
