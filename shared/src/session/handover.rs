//! One connection after another over the same relay socket: a connect made while the
//! relay has yet to answer an earlier disconnect (or sign-out) waits for that answer,
//! and what the relay still says of the earlier connection in between is not the new
//! one's. Without this, the earlier connection's `closed` reached the new one and ended
//! it: "connect" clicked right after a failure failed too.
//!
//! The relay answers every disconnect and sign-out with exactly one `closed` marked
//! `asked`, after everything else of that connection, and carries out the page's
//! messages in order; so the count of answers owed is exact.

use crate::relay::{ClientMsg, RelayEvent, ServerMsg};

/// The answers owed for disconnects sent, and the connect waiting on them.
#[derive(Debug, Default)]
pub(super) struct Handover {
    owed: u32,
    /// The session has moved on from the connection(s) whose answers are owed.
    left: bool,
    held: Option<ClientMsg>,
}

/// What to do with one message of the relay.
#[derive(Debug, PartialEq)]
pub(super) enum Verdict {
    /// It belongs to the connection the session is on.
    Current,
    /// It belongs to a connection already left: dropped.
    Earlier,
    /// The last answer owed came (itself an earlier connection's): the held connect can go.
    Release(ClientMsg),
}

impl Handover {
    /// A disconnect or sign-out went to the relay: one `closed` is owed for it.
    pub fn owe(&mut self) {
        self.owed += 1;
    }

    /// `connect` goes now when nothing is owed; else it waits for the answers (a later
    /// connect replaces one still waiting).
    pub fn connect(&mut self, connect: ClientMsg, out: &mut Vec<ClientMsg>) {
        if self.owed == 0 {
            out.push(connect);
        } else {
            self.held = Some(connect);
            self.left = true;
        }
    }

    /// Drops the connect still waiting, if one is: true when there was one (the relay never
    /// heard of it, so there is nothing to disconnect).
    pub fn cancel(&mut self) -> bool {
        self.held.take().is_some()
    }

    /// Sorts one message of the relay.
    pub fn sort(&mut self, msg: &ServerMsg) -> Verdict {
        let answer = matches!(msg, ServerMsg::Event { event: RelayEvent::Closed { asked: true, .. }, .. });
        if answer && self.owed > 0 {
            self.owed -= 1;
        }
        if !self.left || !matches!(msg, ServerMsg::Event { .. } | ServerMsg::Message { .. }) {
            return Verdict::Current;
        }
        // Left, so answers were owed before this message: it is of the earlier connection.
        if !answer || self.owed > 0 {
            return Verdict::Earlier;
        }
        self.left = false;
        self.held.take().map_or(Verdict::Earlier, Verdict::Release)
    }

    /// The relay socket is gone, and what was owed with it.
    pub fn forget(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relay::{Direction, Target};

    fn connect() -> ClientMsg {
        ClientMsg::Connect { target: Target::Demo, oauth: Default::default() }
    }
    fn closed(asked: bool) -> ServerMsg {
        ServerMsg::Event { at_ms: 1.0, event: RelayEvent::Closed { reason: "x".into(), asked } }
    }
    fn frame() -> ServerMsg {
        ServerMsg::Message { direction: Direction::In, at_ms: 1.0, size: 2, frame: "{}".into() }
    }
    /// A connect made while one disconnect's answer is owed: held, nothing sent.
    fn waiting() -> Handover {
        let (mut h, mut out) = (Handover::default(), Vec::new());
        h.owe();
        h.connect(connect(), &mut out);
        assert!(out.is_empty());
        h
    }

    #[test]
    fn a_connect_with_nothing_owed_goes_at_once() {
        let (mut h, mut out) = (Handover::default(), Vec::new());
        h.connect(connect(), &mut out);
        assert_eq!(out, vec![connect()]);
        assert_eq!(h.sort(&frame()), Verdict::Current);
    }

    #[test]
    fn a_connect_after_a_disconnect_waits_for_its_answer_and_drops_what_came_before() {
        let mut h = waiting();
        assert_eq!(h.sort(&frame()), Verdict::Earlier);
        // The server exiting on its own is the earlier connection's close, not the answer.
        assert_eq!(h.sort(&closed(false)), Verdict::Earlier);
        assert_eq!(h.sort(&closed(true)), Verdict::Release(connect()));
        assert_eq!(h.sort(&frame()), Verdict::Current);
        assert_eq!(h.sort(&closed(false)), Verdict::Current);
    }

    #[test]
    fn two_answers_owed_release_on_the_second_and_a_later_connect_replaces_the_held_one() {
        let (mut h, mut out) = (Handover::default(), Vec::new());
        h.owe();
        h.owe();
        h.connect(ClientMsg::Disconnect {}, &mut out);
        h.connect(connect(), &mut out);
        assert_eq!(h.sort(&closed(true)), Verdict::Earlier);
        assert_eq!(h.sort(&closed(true)), Verdict::Release(connect()));
        assert!(out.is_empty());
    }

    #[test]
    fn an_answer_with_no_connect_waiting_is_the_current_connections_close() {
        let mut h = Handover::default();
        h.owe();
        assert_eq!(h.sort(&closed(true)), Verdict::Current);
        // Nothing is owed any more: a connect goes at once.
        let mut out = Vec::new();
        h.connect(connect(), &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn a_cancelled_connect_is_never_sent_and_the_earlier_connection_stays_dropped() {
        let mut h = waiting();
        assert!(h.cancel());
        assert!(!h.cancel(), "only once");
        assert_eq!(h.sort(&frame()), Verdict::Earlier);
        assert_eq!(h.sort(&closed(true)), Verdict::Earlier);
        assert_eq!(h.sort(&frame()), Verdict::Current);
    }

    #[test]
    fn a_lost_relay_forgets_what_was_owed() {
        let mut h = waiting();
        h.forget();
        assert_eq!(h.sort(&frame()), Verdict::Current);
        let mut out = Vec::new();
        h.connect(connect(), &mut out);
        assert_eq!(out.len(), 1);
    }
}
