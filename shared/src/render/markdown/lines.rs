//! Reading the start of a line: indentation in columns (tabs to the next multiple of 4),
//! container markers, and the lines that start or end blocks.

use super::html;

/// The start of a line, read column by column: a tab advances to the next multiple of 4, and
/// may be used up only in part (its rest is `pending`).
#[derive(Clone)]
pub(super) struct Cursor<'a> {
    b: &'a [u8],
    /// Where reading is, from the line start.
    pub(super) i: usize,
    tab_start: usize,
    /// Columns left of a tab used in part.
    pub(super) pending: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(b: &'a [u8]) -> Self {
        Self { b, i: 0, tab_start: 0, pending: 0 }
    }

    /// Uses up to `n` columns of spaces; whether there were `n`.
    pub(super) fn space(&mut self, n: usize) -> bool {
        self.space_left(n) == 0
    }

    pub(super) fn space_upto(&mut self, n: usize) -> usize {
        n - self.space_left(n)
    }

    fn space_left(&mut self, mut n: usize) -> usize {
        let from_tab = self.pending.min(n);
        self.pending -= from_tab;
        n -= from_tab;
        while n > 0 && self.i < self.b.len() {
            match self.b[self.i] {
                b' ' => {
                    self.i += 1;
                    n -= 1;
                }
                b'\t' => {
                    let width = 4 - (self.i - self.tab_start) % 4;
                    self.i += 1;
                    self.tab_start = self.i;
                    let used = width.min(n);
                    n -= used;
                    self.pending = width - used;
                }
                _ => break,
            }
        }
        n
    }

    pub(super) fn all_space(&mut self) {
        self.pending = 0;
        self.i += self.b[self.i..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    }

    pub(super) fn at_eol(&self) -> bool {
        self.b.get(self.i).is_none_or(|&c| c == b'\n')
    }

    pub(super) fn quote_marker(&mut self) -> bool {
        if self.b.get(self.i) != Some(&b'>') {
            return false;
        }
        self.i += 1;
        self.space(1);
        true
    }

    /// A list marker after `indent` columns: the marker character and the item's indent.
    pub(super) fn list_marker(&mut self, indent: usize) -> Option<(u8, usize)> {
        let save = self.clone();
        let rest = &self.b[self.i..];
        let (marker, width) = match *rest.first()? {
            b'-' | b'+' | b'*' if hrule(rest).is_none() => (rest[0], 1),
            b'0'..=b'9' => {
                let digits = rest.iter().take(9).take_while(|c| c.is_ascii_digit()).count();
                match rest.get(digits) {
                    Some(&d @ (b'.' | b')')) => (d, digits + 1),
                    _ => return None,
                }
            }
            _ => return None,
        };
        self.i += width;
        if !(self.space(1) || self.at_eol()) {
            *self = save;
            return None;
        }
        let mut indent = indent + width + 1;
        if blank_line(&self.b[self.i..]).is_none() {
            // Up to 4 more columns belong to the marker; 5 or more start indented code.
            let before = self.clone();
            let more = self.space_upto(4);
            if more < 4 {
                indent += more;
            } else {
                *self = before;
            }
        }
        Some((marker, indent))
    }
}

pub(super) fn line_end(b: &[u8], at: usize) -> usize {
    b[at..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| at + n)
}

/// The start of the next line (or the end).
pub(super) fn next_line(b: &[u8], at: usize) -> usize {
    (line_end(b, at) + 1).min(b.len())
}

pub(super) fn spaces(b: &[u8]) -> usize {
    b.iter().take_while(|c| matches!(c, b' ' | b'\t' | 0x0b | 0x0c)).count()
}

/// The length of a blank line (its line end included) at the start of `b`.
pub(super) fn blank_line(b: &[u8]) -> Option<usize> {
    let n = spaces(b);
    match b.get(n) {
        None => Some(n),
        Some(b'\n') => Some(n + 1),
        _ => None,
    }
}

/// A thematic break: its length with the line end.
pub(super) fn hrule(b: &[u8]) -> Option<usize> {
    let c = *b.first()?;
    if !matches!(c, b'*' | b'-' | b'_') {
        return None;
    }
    let mut n = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                i += 1;
                break;
            }
            x if x == c => n += 1,
            b' ' | b'\t' => {}
            _ => return None,
        }
        i += 1;
    }
    (n >= 3).then_some(i)
}

pub(super) fn atx_level(b: &[u8]) -> Option<usize> {
    let n = b.iter().take_while(|&&c| c == b'#').count();
    ((1..=6).contains(&n) && b.get(n).is_none_or(|c| c.is_ascii_whitespace() || *c == 0x0b)).then_some(n)
}

/// An opening code fence: its length and character. A backtick fence's info string cannot
/// hold a backtick.
pub(super) fn fence(b: &[u8]) -> Option<(usize, u8)> {
    let c = *b.first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = b.iter().take_while(|&&x| x == c).count();
    let info = &b[n..line_end(b, n)];
    (n >= 3 && (c == b'~' || !info.contains(&b'`'))).then_some((n, c))
}

pub(super) fn closing_fence(b: &[u8], c: u8, len: usize) -> Option<usize> {
    if b.is_empty() {
        return Some(0);
    }
    let n = b.iter().take_while(|&&x| x == c).count();
    let end = n + b[n..].iter().take_while(|&&x| x == b' ').count();
    (n >= len && matches!(b.get(end), None | Some(b'\n'))).then_some(end)
}

/// A setext underline: its length with the line end, and the level.
pub(super) fn setext(b: &[u8]) -> Option<(usize, u8)> {
    let c = *b.first()?;
    let level = match c {
        b'=' => 1,
        b'-' => 2,
        _ => return None,
    };
    let n = b.iter().take_while(|&&x| x == c).count();
    Some((n + blank_line(&b[n..])?, level))
}

/// Whether `b` starts a list item that may interrupt a paragraph.
pub(super) fn list_interrupts(b: &[u8], all_matched: bool) -> bool {
    let (width, first) = match b.first() {
        Some(b'-' | b'+' | b'*') => (1, true),
        Some(b'0'..=b'9') => {
            let digits = b.iter().take(9).take_while(|c| c.is_ascii_digit()).count();
            if !matches!(b.get(digits), Some(b'.' | b')')) {
                return false;
            }
            let number = b[..digits].iter().fold(0u64, |n, &c| n * 10 + u64::from(c - b'0'));
            (digits + 1, number == 1)
        }
        _ => return false,
    };
    let rest = &b[width..];
    if !matches!(rest.first(), None | Some(b' ' | b'\t' | b'\n')) {
        return false;
    }
    !all_matched || (first && blank_line(rest).is_none())
}

/// Whether `b` (a line's content) starts a block that ends a paragraph, tables aside.
pub(super) fn interrupts_text(b: &[u8], all_matched: bool) -> bool {
    let starts_block = match b.first() {
        None | Some(b'\n' | b'>') => true,
        Some(b'<') => html::block_start(b, true).is_some(),
        _ => hrule(b).is_some() || atx_level(b).is_some() || fence(b).is_some(),
    };
    starts_block || list_interrupts(b, all_matched)
}
