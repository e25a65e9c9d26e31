//! Playback: what a recorded request or notification of ours does to what is shown (a
//! call starts, a list loads, a read, a cancel), as it did live.

use serde_json::Value;

use super::{CallState, ReadState, Session};
use crate::jsonrpc::{self, Id};

impl Session {
    /// Playback: what a recorded request or notification of ours did to the state.
    pub(super) fn observe_sent(&mut self, value: &Value, c: &jsonrpc::Classified, seq: usize) {
        self.client.observe_sent(value, c);
        let params = &value["params"];
        match (c.id.as_ref(), c.method.as_deref()) {
            (Some(id), Some("tools/call")) => {
                // A recorded call runs no clock: its end is in the recording.
                let tool = params["name"].as_str().unwrap_or_default().to_owned();
                self.call.start(id.clone(), tool, None, false, 0.0);
                self.changed.call = true;
            }
            (Some(_), Some("tools/list")) => self.set_tools_loading(true),
            (Some(_), Some("resources/read")) => {
                self.note_read(params["uri"].as_str().unwrap_or_default());
                self.reads.insert(params["uri"].as_str().unwrap_or_default().to_owned(), ReadState::Loading);
                self.changed.reads = true;
            }
            (None, Some("notifications/cancelled")) => {
                let Ok(id) = serde_json::from_value::<Id>(params["requestId"].clone()) else { return };
                let reason = params["reason"].as_str().unwrap_or("cancelled");
                self.request_ended(&id, reason);
                let Some(tool) = self.call.tool_of(&id) else { return };
                let tool = tool.to_owned();
                let reason = params["reason"].as_str().unwrap_or("cancelled").to_owned();
                // The live session said why it gave up; a timeout reads as one again.
                let started = self
                    .timeline
                    .rows()
                    .iter()
                    .rev()
                    .find(|r| r.direction == crate::timeline::RowDirection::Out && r.id.as_ref() == Some(&id));
                let after_ms = started.map_or(0.0, |r| self.timeline.rows()[seq].at_ms - r.at_ms);
                if reason.starts_with("timed out") {
                    self.set_call(CallState::Timeout { tool, after_ms });
                } else {
                    self.set_call(CallState::Cancelled { tool, reason });
                }
            }
            (Some(id), Some(method))
                if self.client.is_general(id) || crate::catalog::ListKind::of_method(method).is_some() =>
            {
                self.observe_request(id.clone(), method, params)
            }
            _ => {}
        }
    }
}
