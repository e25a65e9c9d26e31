//! The server's own requests waiting on the user: a queue, oldest first (a server may ask
//! again before the first is answered), the roots offered, and the call's clock, which
//! stands still while the server waits on the user.

use crate::asks::{self, ElicitAnswer, SampleAnswer, ServerAsk};
use crate::jsonrpc::Id;

use super::{ConnState, Refused, Session};

impl Session {
    /// The server's requests waiting for an answer, oldest first: the page shows the first.
    pub fn asks(&self) -> &[ServerAsk] {
        &self.asks
    }

    /// The roots `roots/list` answers with.
    pub fn roots(&self) -> &[String] {
        &self.roots
    }

    /// Offers these roots from now on; a connected server is told they changed.
    pub fn set_roots(&mut self, roots: Vec<String>) {
        self.roots = roots.clone();
        // Only a live server is told: after a connection ended, a notification would reach
        // the relay with no server, and its refusal would fail the next connect.
        let changed = self.client.set_roots(roots);
        if let Some(frame) = changed.filter(|_| *self.conn() == ConnState::Connected) {
            self.send_frame(frame);
        }
    }

    /// Answers elicitation `id`; an accepted form gets the schema's defaults for what it
    /// leaves out (SEP-1034). Refused when nothing of that id is waiting.
    pub fn answer_elicitation(&mut self, id: &Id, answer: ElicitAnswer, now_ms: f64) -> Result<(), Refused> {
        let answer = match (answer, self.ask(id).map(|a| &a.kind)) {
            (ElicitAnswer::Accept(content), Some(asks::AskKind::Elicit(asks::Elicitation::Form { schema, .. }))) => {
                ElicitAnswer::Accept(asks::with_defaults(schema, &content))
            }
            (ElicitAnswer::Accept(_), Some(asks::AskKind::Elicit(asks::Elicitation::Url { .. }))) => {
                ElicitAnswer::Accept(serde_json::Value::Null)
            }
            (answer, Some(asks::AskKind::Elicit(_))) => answer,
            _ => return Err(Refused::NoElicitation(id.clone())),
        };
        self.answer_ask(id, asks::elicit_response(id, &answer), now_ms);
        Ok(())
    }

    /// Answers sampling request `id` with the reply typed, or turns it down.
    pub fn answer_sampling(&mut self, id: &Id, answer: SampleAnswer, now_ms: f64) -> Result<(), Refused> {
        if !matches!(self.ask(id).map(|a| &a.kind), Some(asks::AskKind::Sample(_))) {
            return Err(Refused::NoSampling(id.clone()));
        }
        self.answer_ask(id, asks::sample_response(id, &answer), now_ms);
        Ok(())
    }

    fn ask(&self, id: &Id) -> Option<&ServerAsk> {
        self.asks.iter().find(|a| a.id == *id)
    }

    fn answer_ask(&mut self, id: &Id, frame: String, now_ms: f64) {
        let handled = self.client.answer(id, frame);
        self.drop_ask(id, now_ms);
        self.apply(handled, None, now_ms);
    }

    /// A new request of the server: queued, and the pending call's clock stops.
    pub(super) fn on_asked(&mut self, ask: ServerAsk, now_ms: f64) {
        // A recording shows the request in the timeline; nobody can answer it.
        if self.playback {
            return;
        }
        self.asks.push(ask);
        self.call.pause_clock(now_ms);
        self.changed.asks = true;
        self.changed.call = true;
    }

    /// A request is answered or withdrawn: once none waits, the call's clock goes on.
    pub(super) fn drop_ask(&mut self, id: &Id, now_ms: f64) {
        let before = self.asks.len();
        self.asks.retain(|a| a.id != *id);
        if self.asks.len() == before {
            return;
        }
        if self.asks.is_empty() {
            self.call.resume_clock(now_ms);
        }
        self.changed.asks = true;
        self.changed.call = true;
    }

    /// The connection is gone: nothing can be answered any more.
    pub(super) fn clear_asks(&mut self) {
        if !self.asks.is_empty() {
            self.asks.clear();
            self.changed.asks = true;
        }
    }
}
