//! An App's view in the session: its requests carried to the server and their answers
//! back, its bridge traffic as the timeline's App lane, and, played back, which recorded
//! server requests were the view's.

use serde_json::Value;

use super::{Refused, Session};
use crate::jsonrpc::{Classified, Id};
use crate::timeline::{RowDirection, RowKind, VIEW_LOOKBACK};

impl Session {
    /// Carries a request of an App's view (its id `view_id`) to the server; the answer
    /// comes back in [`take_view_answers`](Self::take_view_answers). Refused when not connected.
    pub fn view_request(&mut self, view_id: Id, request: &crate::apps::ViewRequest) -> Result<(), Refused> {
        if !self.conn.is_live() || self.playback {
            return Err(Refused::NotConnected);
        }
        let (method, params) = request.method_params();
        let (id, frame) = self.client.view_request(method, params);
        self.for_view.insert(id, view_id);
        self.send_frame(frame);
        Ok(())
    }

    /// A message of the bridge to an App's view, for the timeline's App lane (`to_view`: the
    /// host sent it); `at_ms` on the relay's clock (ms since the epoch).
    pub fn view_message(&mut self, to_view: bool, frame: &Value, at_ms: f64) {
        self.view_frame(to_view, frame.to_string(), at_ms);
    }

    /// The same, from its text (a recording's App lane, played back as it was written).
    pub fn view_frame(&mut self, to_view: bool, frame: String, at_ms: f64) {
        self.timeline.push_view(to_view, at_ms, frame);
        self.changed.rows = true;
    }

    /// The server's answers to the view's requests since the last look, by the view's ids.
    pub fn take_view_answers(&mut self) -> Vec<(Id, Result<Value, Value>)> {
        std::mem::take(&mut self.view_answers)
    }

    /// Playback: the view's id when a recorded request of ours was sent for an App's view,
    /// that is, when the App lane holds an unanswered request of the view with the same
    /// method and params, not yet matched to another (the host sends it straight on).
    pub(super) fn recorded_view_request(&self, value: &serde_json::Value, c: &Classified) -> Option<Id> {
        let method = c.method.as_deref().filter(|m| matches!(*m, "tools/call" | "resources/read"))?;
        c.id.as_ref()?;
        self.timeline
            .rows()
            .iter()
            .rev()
            .take(VIEW_LOOKBACK)
            .filter(|r| {
                r.direction == RowDirection::FromView
                    && r.kind == RowKind::Request
                    && r.partner.is_none()
                    && r.method.as_deref() == Some(method)
            })
            .filter_map(|r| Some((r.id.clone()?, serde_json::from_str::<serde_json::Value>(&r.raw).ok()?)))
            .find(|(id, v)| {
                bare(v.get("params")) == bare(value.get("params")) && !self.for_view.values().any(|w| w == id)
            })
            .map(|(id, _)| id)
    }

    /// Playback: a recorded request sent for the view `view_id`, labelled so; the result
    /// pane's call is not the view's.
    pub(super) fn observe_for_view(&mut self, c: &Classified, seq: usize, view_id: Id) {
        self.client.observe_for_view(c);
        if let Some(id) = c.id.clone() {
            self.for_view.insert(id, view_id.clone());
        }
        self.timeline.note_for_view(seq, &view_id);
    }
}

/// Params without `_meta` (the stateless revision adds its own to what the view asked).
fn bare(params: Option<&Value>) -> Option<Value> {
    let mut p = params?.clone();
    if let Some(map) = p.as_object_mut() {
        map.remove("_meta");
    }
    Some(p)
}
