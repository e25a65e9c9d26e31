//! Playback: the requests and notifications of ours a recording holds, taken as sent by
//! this client (they were made by the live one), so that their answers are read as they
//! were live.

use serde_json::Value;

use super::tasks::TaskRequest;
use super::{McpClient, Purpose};
use crate::catalog::ListKind;
use crate::jsonrpc::{Classified, Id, Kind};
use crate::relay::Direction;

impl McpClient {
    /// Whether the request `id` of ours, still unanswered, is one of any method
    /// (answered with [`super::Update::Answered`]).
    pub fn is_general(&self, id: &Id) -> bool {
        matches!(self.waiting.get(Direction::Out, id), Some(Purpose::Request(_)))
    }

    /// A recorded request that was sent for an App's view (its answer goes back
    /// as [`super::Update::ForView`]).
    pub fn observe_for_view(&mut self, c: &Classified) {
        if let (Some(id), Kind::Request) = (c.id.clone(), c.kind) {
            self.waiting.open(Direction::Out, id, Purpose::ForView);
        }
    }

    /// Playback: a request or notification of ours that was recorded (not made by this
    /// client) is taken as sent, so that its answer is read as it was live.
    pub fn observe_sent(&mut self, value: &Value, c: &Classified) {
        let Some(id) = c.id.clone() else {
            if c.kind == Kind::Notification
                && c.method.as_deref() == Some("notifications/cancelled")
                && let Ok(id) = serde_json::from_value::<Id>(value["params"]["requestId"].clone())
                && self.waiting.forget(Direction::Out, &id).is_some()
            {
                self.abandoned.insert(id);
            }
            return;
        };
        if c.kind != Kind::Request {
            return;
        }
        let purpose = match c.method.as_deref() {
            Some("server/discover") => {
                self.stateless.discovering = Some(id.clone());
                Purpose::Discover
            }
            Some("subscriptions/listen") => Purpose::Listen,
            Some("initialize") => {
                self.stateless.initialize = Some(id.clone());
                if let Some(offered) = value["params"]["protocolVersion"].as_str() {
                    self.protocol_version = offered.to_owned();
                }
                Purpose::Initialize
            }
            Some("tools/list") => {
                if value["params"]["cursor"].is_null() {
                    self.new_listing();
                }
                Purpose::ListTools(self.listing)
            }
            Some("tools/call") => Purpose::CallTool { task: value["params"].get("task").is_some() },
            Some(method @ ("tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/list")) => {
                let p = &value["params"];
                let key = p["taskId"].as_str().or_else(|| p["cursor"].as_str()).unwrap_or_default();
                match TaskRequest::of(method, key) {
                    Some(request) => Purpose::Task(request),
                    None => Purpose::Request(method.to_owned()),
                }
            }
            Some("resources/read") => {
                Purpose::ReadResource(value["params"]["uri"].as_str().unwrap_or_default().to_owned())
            }
            Some(method) => match ListKind::of_method(method) {
                Some(kind) => self.observe_list(kind, value["params"]["cursor"].is_null()),
                None => Purpose::Request(method.to_owned()),
            },
            None => return,
        };
        self.waiting.open(Direction::Out, id, purpose);
    }
}
