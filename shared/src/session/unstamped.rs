//! The page's frames waiting for the relay's stamp. The relay does not echo a frame the
//! page sent: it says `sent` with the frame's number on the socket, when, and its size, and
//! the page takes the frame from here. Numbers count every `send` on the socket, so one
//! the relay refused (too large, not connected) leaves a gap; what is never stamped is
//! dropped when its connection closes, or when more than [`MAX_UNSTAMPED`] wait.

use std::collections::BTreeMap;

/// Frames kept waiting at most.
pub const MAX_UNSTAMPED: usize = 4096;

/// The frames sent on this socket and not yet stamped, by number.
#[derive(Debug, Default)]
pub(super) struct Unstamped {
    next: u64,
    frames: BTreeMap<u64, String>,
}

impl Unstamped {
    /// One more `send` on the socket; `keep`: the relay will stamp it (a page's socket; the
    /// command line's in-process relay gives the frame back whole).
    pub fn sent(&mut self, frame: &str, keep: bool) {
        let n = self.next;
        self.next += 1;
        if keep {
            self.frames.insert(n, frame.to_owned());
            if self.frames.len() > MAX_UNSTAMPED {
                self.frames.pop_first();
            }
        }
    }

    /// The frame of the `n`-th send, once.
    pub fn stamped(&mut self, n: u64) -> Option<String> {
        self.frames.remove(&n)
    }

    /// The connection closed: the relay wrote (and stamped) all it was going to before it
    /// said so, so a frame still waiting was refused and never will be. The count goes on.
    pub fn closed(&mut self) {
        self.frames.clear();
    }

    /// A new socket counts from 0.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_numbered_by_send_and_taken_once() {
        let mut u = Unstamped::default();
        u.sent("a", true);
        u.sent("refused", true);
        u.sent("c", true);
        assert_eq!(u.stamped(2).as_deref(), Some("c"));
        assert_eq!(u.stamped(0).as_deref(), Some("a"));
        assert_eq!(u.stamped(0), None, "once");
        u.sent("never written", true);
        u.closed();
        assert_eq!(u.stamped(3), None, "a close drops what was refused");
        u.sent("after", true);
        assert_eq!(u.stamped(4).as_deref(), Some("after"), "the count goes on");
        u.reset();
        u.sent("d", true);
        assert_eq!(u.stamped(0).as_deref(), Some("d"), "a new socket counts from 0");
    }

    #[test]
    fn frames_never_stamped_are_dropped_and_a_client_without_stamps_keeps_none() {
        let mut u = Unstamped::default();
        for i in 0..MAX_UNSTAMPED + 10 {
            u.sent(&i.to_string(), true);
        }
        assert_eq!(u.frames.len(), MAX_UNSTAMPED);
        assert_eq!(u.stamped(0), None, "the oldest went first");
        let mut cli = Unstamped::default();
        cli.sent("x", false);
        assert!(cli.frames.is_empty() && cli.next == 1);
    }
}
