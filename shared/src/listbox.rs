//! A list the keyboard drives, as WAI-ARIA's listbox pattern has it: ↑ and ↓ move one item,
//! Home and End go to the ends, and typing the first letters of an item's label goes to the
//! next item that starts with them. The page keeps the focus; this is which item it goes to.

/// How long a pause ends a type-ahead word, in ms.
pub const TYPE_AHEAD_PAUSE_MS: f64 = 700.0;

/// Where a navigation key goes from `current` in a list of `len` items; `None` for a key that
/// is not one, or an empty list.
pub fn step(key: &str, current: Option<usize>, len: usize) -> Option<usize> {
    let last = len.checked_sub(1)?;
    match key {
        "ArrowDown" => Some(current.map_or(0, |i| (i + 1).min(last))),
        "ArrowUp" => Some(current.map_or(0, |i| i.saturating_sub(1))),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

/// The letters typed so far and when the last one came.
#[derive(Debug, Default, Clone)]
pub struct TypeAhead {
    typed: String,
    last_ms: f64,
}

impl TypeAhead {
    /// Whether a word is being typed at `now_ms`: a space then belongs to it rather than
    /// picking the item.
    pub fn typing(&self, now_ms: f64) -> bool {
        !self.typed.is_empty() && now_ms - self.last_ms <= TYPE_AHEAD_PAUSE_MS
    }

    /// Adds `ch` typed at `now_ms` and finds the item to go to among `labels` (compared
    /// without case): the first one from `current` on that starts with the word typed,
    /// else from the top. The same letter typed again goes on to the next item that starts
    /// with it, so a person can cycle through them.
    pub fn find<S: AsRef<str>>(
        &mut self,
        ch: char,
        now_ms: f64,
        labels: &[S],
        current: Option<usize>,
    ) -> Option<usize> {
        if now_ms - self.last_ms > TYPE_AHEAD_PAUSE_MS {
            self.typed.clear();
        }
        self.last_ms = now_ms;
        self.typed.extend(ch.to_lowercase());
        let repeated = {
            let mut chars = self.typed.chars();
            let first = chars.next();
            first.is_some() && chars.all(|c| Some(c) == first)
        };
        // "aaa" cycles through the items that start with "a"; "ab" looks for "ab".
        let (word, start) = match (repeated, current) {
            (true, Some(i)) => (self.typed.chars().take(1).collect::<String>(), i + 1),
            (false, Some(i)) => (self.typed.clone(), i),
            (_, None) => (self.typed.clone(), 0),
        };
        let starts = |i: &usize| labels[*i].as_ref().to_lowercase().starts_with(&word);
        let n = labels.len();
        (0..n).map(|k| (start + k) % n).find(starts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_home_and_end_stay_inside_the_list() {
        assert_eq!(step("ArrowDown", None, 3), Some(0));
        assert_eq!(step("ArrowDown", Some(1), 3), Some(2));
        assert_eq!(step("ArrowDown", Some(2), 3), Some(2), "the last item stays");
        assert_eq!(step("ArrowUp", Some(0), 3), Some(0), "the first item stays");
        assert_eq!(step("ArrowUp", Some(2), 3), Some(1));
        assert_eq!(step("Home", Some(2), 3), Some(0));
        assert_eq!(step("End", None, 3), Some(2));
        assert_eq!(step("ArrowDown", None, 0), None, "an empty list");
        assert_eq!(step("a", Some(0), 3), None, "not a navigation key");
    }

    #[test]
    fn typing_goes_to_the_item_that_starts_with_the_word() {
        let labels = ["echo", "get_image", "get_weather", "Slack archive", "slow_task"];
        let mut t = TypeAhead::default();
        assert_eq!(t.find('g', 0.0, &labels, None), Some(1));
        assert_eq!(t.find('e', 100.0, &labels, Some(1)), Some(1), "\"ge\" stays on the item it is on");
        assert_eq!(t.find('t', 200.0, &labels, Some(1)), Some(1));
        assert_eq!(t.find('_', 300.0, &labels, Some(1)), Some(1));
        assert_eq!(t.find('w', 400.0, &labels, Some(1)), Some(2), "\"get_w\"");
        // After a pause, a new word; case does not matter.
        assert_eq!(t.find('S', 2000.0, &labels, Some(2)), Some(3));
        assert_eq!(t.find('l', 2100.0, &labels, Some(3)), Some(3));
        assert_eq!(t.find('o', 2200.0, &labels, Some(3)), Some(4), "\"slo\"");
        assert_eq!(t.find('x', 5000.0, &labels, Some(4)), None, "nothing starts with x");
    }

    #[test]
    fn a_space_belongs_to_a_word_being_typed() {
        let labels = ["Tool number 4", "Tool number 42"];
        let mut t = TypeAhead::default();
        assert!(!t.typing(0.0));
        for (i, ch) in "tool number 42".chars().enumerate() {
            let now = i as f64 * 50.0;
            assert!(ch != ' ' || t.typing(now), "a space at {i} is part of the word");
            t.find(ch, now, &labels, Some(0));
        }
        assert_eq!(t.find('!', 2000.0, &labels, Some(1)), None);
        assert!(!t.typing(4000.0), "a pause ends the word");
    }

    #[test]
    fn the_same_letter_again_cycles_and_wraps() {
        let labels = ["alpha", "beta", "bravo", "charlie"];
        let mut t = TypeAhead::default();
        assert_eq!(t.find('b', 0.0, &labels, Some(0)), Some(1));
        assert_eq!(t.find('b', 100.0, &labels, Some(1)), Some(2));
        assert_eq!(t.find('b', 200.0, &labels, Some(2)), Some(1), "back to the first b");
    }
}
