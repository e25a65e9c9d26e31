//! Which of the page's sends a frame written to the server is, so that the page gets the
//! stamp without the frame (`ServerMsg::Sent`): it has the frame already, and echoing it
//! cost the relay an encoding and the page a decoding of every request. Sends are counted
//! as they arrive, refused ones too, as the page counts them; a frame the relay wrote of
//! its own matches none and goes to the page whole.

use std::collections::VecDeque;

/// Sends remembered at most while their frames wait to be written.
const MAX_WAITING: usize = 4096;

/// The page's sends on this socket whose frames have not been written yet.
#[derive(Debug, Default)]
pub struct Sends {
    next: u64,
    /// (number, length, hash) of each frame, oldest first.
    waiting: VecDeque<(u64, usize, u64)>,
}

impl Sends {
    /// The page sent `frame`.
    pub fn note(&mut self, frame: &str) {
        self.waiting.push_back((self.next, frame.len(), hash(frame)));
        self.next += 1;
        if self.waiting.len() > MAX_WAITING {
            self.waiting.pop_front();
        }
    }

    /// The number of the send whose frame `frame` is, once; frames go out in the order they
    /// came, so it is nearly always the first.
    pub fn written(&mut self, frame: &str) -> Option<u64> {
        let key = (frame.len(), hash(frame));
        let at = self.waiting.iter().position(|(_, len, hash)| (*len, *hash) == key)?;
        self.waiting.remove(at).map(|(n, ..)| n)
    }
}

/// Enough to tell the page's frames apart within this process; not a defence against anything.
fn hash(text: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_frame_is_its_send_once_and_refused_sends_keep_their_numbers() {
        let mut s = Sends::default();
        s.note("a");
        s.note("too large");
        s.note("b");
        s.note("a");
        assert_eq!(s.written("a"), Some(0));
        assert_eq!(s.written("b"), Some(2), "the refused send kept its number");
        assert_eq!(s.written("a"), Some(3), "the same frame again is the next send of it");
        assert_eq!(s.written("a"), None, "once");
        assert_eq!(s.written("the relay's own"), None);
    }
}
