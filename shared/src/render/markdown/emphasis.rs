//! Emphasis, strong emphasis and strikethrough: CommonMark's delimiter algorithm over the
//! runs of `*`, `_` and `~` the inline parser marked, one list of siblings at a time (the
//! text of a link is a list of its own).

use super::inlines::{Id, Kind, Parser};

impl Parser<'_> {
    /// Pairs the emphasis delimiters of one list of siblings.
    pub(super) fn emphasis(&mut self, head: Option<Id>) {
        let mut stack = Openers::default();
        let mut prev: Option<Id> = None;
        let mut cur = head;
        while let Some(mut c) = cur {
            match self.nodes[c].kind {
                Kind::Delim { ch, count: run, open, close } => {
                    let both = open && close;
                    let mut count = run;
                    if close {
                        while let Some(opener) = stack.find(self, ch, run, both) {
                            if let Some(p) = prev {
                                self.nodes[p].next = None;
                            }
                            let used = count.min(opener.count);
                            // The opener's last `used` characters become the wrappers, inside out.
                            let mut inner = self.nodes[opener.first + opener.count - 1].next;
                            let mut top = opener.first + opener.count;
                            let mut left = used;
                            while left > 0 {
                                let step = left.min(2);
                                let root = top - step;
                                self.nodes[root].kind = match (ch, step) {
                                    (b'~', _) => Kind::Strike,
                                    (_, 2) => Kind::Strong,
                                    _ => Kind::Emph,
                                };
                                self.nodes[root].child = inner;
                                self.nodes[root].next = None;
                                inner = Some(root);
                                top = root;
                                left -= step;
                            }
                            let after = self.nodes[c + used - 1].next;
                            self.nodes[top].next = after;
                            prev = Some(top);
                            cur = after;
                            if opener.count > used {
                                stack.push(Opener { count: opener.count - used, ..opener });
                            }
                            count -= used;
                            match after {
                                Some(a) if count > 0 => c = a,
                                _ => break,
                            }
                        }
                    }
                    if count > 0 {
                        if open {
                            stack.push(Opener { first: c, count, run, ch, both });
                        } else {
                            for k in 0..count {
                                self.nodes[c + k].kind = Kind::Text;
                            }
                        }
                        prev = Some(c + count - 1);
                        cur = self.nodes[c + count - 1].next;
                    }
                    continue;
                }
                Kind::Hard { backslash: true } if self.nodes[c].next.is_none() => {
                    self.nodes[c].kind = Kind::Char('\\');
                }
                _ => {}
            }
            prev = cur;
            cur = self.nodes[c].next;
        }
        for opener in stack.list {
            for k in 0..opener.count {
                self.nodes[opener.first + k].kind = Kind::Text;
            }
        }
    }

    /// Link texts are lists of their own: their delimiters pair among themselves. (Walked
    /// with a stack of its own: hostile input nests deeper than the call stack allows.)
    pub(super) fn nested_emphasis(&mut self, head: Option<Id>) {
        let mut todo = vec![head];
        while let Some(mut cur) = todo.pop() {
            while let Some(c) = cur {
                let child = self.nodes[c].child;
                if matches!(self.nodes[c].kind, Kind::Link(_)) && self.has_delimiter(child) {
                    self.emphasis(child);
                }
                todo.push(child);
                cur = self.nodes[c].next;
            }
        }
    }

    fn has_delimiter(&self, mut cur: Option<Id>) -> bool {
        while let Some(c) = cur {
            if matches!(self.nodes[c].kind, Kind::Delim { .. }) {
                return true;
            }
            cur = self.nodes[c].next;
        }
        false
    }
}

#[derive(Debug, Clone, Copy)]
struct Opener {
    /// The first of the run's characters still unused; the others follow it.
    first: Id,
    count: usize,
    /// The length of the whole run, for the "multiple of 3" rule.
    run: usize,
    ch: u8,
    both: bool,
}

/// The delimiter stack, with the lowest place each kind of closer still needs to look at: a
/// closer that found no opener leaves a floor, so long runs of unpaired delimiters stay linear.
/// The floors are kept as the parser we replaced kept them, one of its details being that
/// `~` closers share one floor whatever their length (`~a b~~ c~` is not struck).
#[derive(Default)]
struct Openers {
    list: Vec<Opener>,
    /// For `_` (index 0) and `*` (index 1): closers that cannot also open, and closers by
    /// run length modulo 3.
    floor_single: [usize; 2],
    floor_by_len: [[usize; 3]; 2],
    floor_tilde: usize,
}

impl Openers {
    fn floor(&self, ch: u8, run: usize, both: bool) -> usize {
        let k = usize::from(ch == b'*');
        match ch {
            b'~' => self.floor_tilde,
            _ if both => self.floor_by_len[k][run % 3],
            _ => self.floor_by_len[k][run % 3].min(self.floor_single[k]),
        }
    }

    fn set_floor(&mut self, ch: u8, run: usize, both: bool, at: usize) {
        let k = usize::from(ch == b'*');
        if ch == b'~' {
            self.floor_tilde = at;
            return;
        }
        self.floor_by_len[k][run % 3] = at;
        if !both {
            self.floor_single[k] = at;
        }
    }

    fn push(&mut self, opener: Opener) {
        if opener.ch == b'~' {
            self.floor_tilde = self.floor_tilde.min(self.list.len());
        }
        self.list.push(opener);
    }

    /// The nearest opener a closer can pair with; openers above it are dropped (their
    /// characters become text).
    fn find(&mut self, p: &mut Parser<'_>, ch: u8, run: usize, both: bool) -> Option<Opener> {
        let floor = self.floor(ch, run, both).min(self.list.len());
        let found = self.list[floor..].iter().rposition(|o| {
            o.ch == ch
                && (ch != b'~' || o.run == run)
                && ((!both && !o.both) || !(run + o.run).is_multiple_of(3) || run.is_multiple_of(3))
        });
        let Some(at) = found.map(|i| floor + i) else {
            self.set_floor(ch, run, both, self.list.len());
            return None;
        };
        let opener = self.list[at];
        for dropped in self.list.drain(at..).skip(1) {
            for k in 0..dropped.count {
                p.nodes[dropped.first + k].kind = Kind::Text;
            }
        }
        for f in self.floor_single.iter_mut().chain(self.floor_by_len.iter_mut().flatten()) {
            *f = (*f).min(at);
        }
        self.floor_tilde = self.floor_tilde.min(at);
        Some(opener)
    }
}
