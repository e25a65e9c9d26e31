//! Matching responses to requests: the one place it is done. A request waits under its
//! direction and id; a response taking the opposite direction and the same id finds it.
//! The client pairs its own requests with what it asked for; the timeline pairs rows
//! both ways (a server's request and our answer too).

use std::collections::HashMap;

use crate::jsonrpc::Id;
use crate::relay::Direction;

/// Requests awaiting a response, each with what its owner keeps about it.
#[derive(Debug, Clone)]
pub struct Pairing<T> {
    open: HashMap<(Direction, Id), T>,
}

impl<T> Default for Pairing<T> {
    fn default() -> Self {
        Self { open: HashMap::new() }
    }
}

impl<T> Pairing<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A request went `direction` with `id`. A second request with the same id replaces
    /// the first (its response can no longer be told apart); the first is returned.
    pub fn open(&mut self, direction: Direction, id: Id, value: T) -> Option<T> {
        self.open.insert((direction, id), value)
    }

    /// A response came back the other way: the request it answers, if one is open.
    pub fn answer(&mut self, response_direction: Direction, id: &Id) -> Option<T> {
        let request_direction = match response_direction {
            Direction::In => Direction::Out,
            Direction::Out => Direction::In,
        };
        self.open.remove(&(request_direction, id.clone()))
    }

    /// Whether a request that went `direction` with `id` is still open.
    /// What the request `direction`, `id` waits with, while it is open.
    pub fn get(&self, direction: Direction, id: &Id) -> Option<&T> {
        self.open.get(&(direction, id.clone()))
    }

    pub fn is_open(&self, direction: Direction, id: &Id) -> bool {
        self.open.contains_key(&(direction, id.clone()))
    }

    /// Forgets an open request without an answer (given up on).
    pub fn forget(&mut self, direction: Direction, id: &Id) -> Option<T> {
        self.open.remove(&(direction, id.clone()))
    }

    pub fn len(&self) -> usize {
        self.open.len()
    }

    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_pairs_with_the_request_of_the_other_direction() {
        let mut p = Pairing::new();
        assert_eq!(p.open(Direction::Out, Id::Number(1), "ours"), None);
        assert_eq!(p.open(Direction::In, Id::Number(1), "theirs"), None);
        // Our answer to their request #1 goes out; their answer to ours comes in.
        assert_eq!(p.answer(Direction::Out, &Id::Number(1)), Some("theirs"));
        assert!(p.is_open(Direction::Out, &Id::Number(1)));
        assert_eq!(p.answer(Direction::In, &Id::String("1".into())), None, "a string id is another id");
        assert_eq!(p.answer(Direction::In, &Id::Number(1)), Some("ours"));
        assert_eq!(p.answer(Direction::In, &Id::Number(1)), None, "answered once");
        assert!(p.is_empty());
        p.open(Direction::Out, Id::Number(2), "a");
        assert_eq!(p.open(Direction::Out, Id::Number(2), "b"), Some("a"));
        assert_eq!(p.forget(Direction::Out, &Id::Number(2)), Some("b"));
        assert_eq!(p.len(), 0);
    }
}
