//! The server's requests of the client: `ping` and `roots/list` answered at once, the
//! user's questions (`elicitation/create`, `sampling/createMessage`) handed up to wait for
//! a person, anything else refused; and the roots the answers name.

use serde_json::{Value, json};

use super::{Handled, McpClient, Update};
use crate::asks::{self, ServerAsk};
use crate::jsonrpc::{self, Classified, Id};

impl McpClient {
    /// The roots offered from now on; `notifications/roots/list_changed` when they changed
    /// during a session (before `initialize` succeeds, the first `roots/list` reads them).
    pub fn set_roots(&mut self, roots: Vec<String>) -> Option<String> {
        if roots == self.roots {
            return None;
        }
        self.roots = roots;
        self.ready.then(|| jsonrpc::notification("notifications/roots/list_changed", None))
    }

    /// The answer to a server request the user was asked about: the frames to send
    /// (nothing when it is not waiting: answered already, or withdrawn by the server). A
    /// question of an input-required round (2026-07-28) is kept until the round is
    /// complete; then the request goes again.
    pub fn answer(&mut self, id: &Id, frame: String) -> Handled {
        if !self.asked.remove(id) {
            return Handled::default();
        }
        if let Some(out) = self.answer_question(id, &frame) {
            return out;
        }
        if let Some(out) = self.answer_task_question(id, &frame) {
            return out;
        }
        Handled { replies: vec![frame], updates: Vec::new() }
    }

    pub(super) fn on_request(&mut self, value: &Value, c: &Classified, out: &mut Handled) {
        let id = c.id.clone().unwrap_or(Id::Number(0));
        let reply = match c.method.as_deref() {
            Some("ping") => jsonrpc::response(&id, json!({})),
            // None by default: an empty list is the truthful answer then.
            Some("roots/list") => jsonrpc::response(&id, asks::roots_result(&self.roots)),
            Some(m @ ("sampling/createMessage" | "elicitation/create")) => {
                if let Some(ask) = ServerAsk::read(&id, m, &value["params"]) {
                    self.note_related(&id, value);
                    self.asked.insert(id);
                    out.updates.push(Update::Asked(ask));
                }
                return;
            }
            Some(m) => jsonrpc::error_response(&id, -32601, &format!("method not supported by MCP Playground: {m}")),
            None => jsonrpc::error_response(&id, -32600, "request without a method"),
        };
        out.replies.push(reply);
    }
}
