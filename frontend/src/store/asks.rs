//! What the server asks of the person: the queue of its elicitation and sampling requests
//! (the dialog shows the first), and the roots offered to servers, kept in browser storage.
//! The session owns the rules (ids, defaults, the call's clock); this only moves signals.

use leptos::prelude::*;
use shared::asks::{ElicitAnswer, SampleAnswer, ServerAsk, parse_roots};
use shared::jsonrpc::Id;

use super::{Store, now_ms};

const ROOTS_KEY: &str = "mcp-playground.roots";

#[derive(Clone, Copy)]
pub struct AsksState {
    /// The server's requests waiting on the person, oldest first.
    pub queue: RwSignal<Vec<ServerAsk>>,
    /// The roots editor's text, one URI per line.
    pub roots_text: RwSignal<String>,
    /// Why the roots editor's text is not used.
    pub roots_error: RwSignal<Option<String>>,
}

impl AsksState {
    pub fn new() -> Self {
        let saved = crate::storage::local().and_then(|s| s.get_item(ROOTS_KEY).ok().flatten()).unwrap_or_default();
        Self { queue: RwSignal::new(Vec::new()), roots_text: RwSignal::new(saved), roots_error: RwSignal::new(None) }
    }
}

impl Default for AsksState {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// Offers the roots saved in this browser to the session (at start).
    pub(super) fn load_roots(self) {
        let text = self.asks.roots_text.get_untracked();
        if let Ok(roots) = parse_roots(&text) {
            self.session.update_value(|s| s.set_roots(roots));
        }
    }

    /// The roots editor changed: valid text is offered at once (a connected server is
    /// told with `notifications/roots/list_changed`) and remembered; invalid text is shown
    /// with what is wrong and the roots stay as they were.
    pub fn set_roots_text(self, text: String) {
        self.asks.roots_text.set(text.clone());
        match parse_roots(&text) {
            Ok(roots) => {
                self.asks.roots_error.set(None);
                if let Some(s) = crate::storage::local() {
                    let _ = s.set_item(ROOTS_KEY, &text);
                }
                self.act(|s| s.set_roots(roots));
            }
            Err(e) => self.asks.roots_error.set(Some(e)),
        }
    }

    pub fn answer_elicitation(self, id: Id, answer: ElicitAnswer) {
        if let Err(e) = self.act(|s| s.answer_elicitation(&id, answer, now_ms())) {
            self.notice(e.to_string());
        }
    }

    pub fn answer_sampling(self, id: Id, answer: SampleAnswer) {
        if let Err(e) = self.act(|s| s.answer_sampling(&id, answer, now_ms())) {
            self.notice(e.to_string());
        }
    }
}
