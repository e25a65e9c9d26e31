//! A person's actions on what a server offers beside its tools: list, read, subscribe,
//! get a prompt, set the log level, ping; and what the server's answers and notifications
//! about them change.

use serde_json::{Map, Value, json};

use super::requests::For;
use super::{Refused, Session};
use crate::catalog::{Catalog, ListKind};

impl Session {
    /// Resources, templates, prompts and the rest beside the tools.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Lists `kind` again from its first page (every page is followed).
    pub fn list(&mut self, kind: ListKind) {
        if !self.conn.is_live() {
            return;
        }
        let frame = self.client.list(kind);
        self.catalog.listing(kind);
        self.changed.catalog = true;
        self.send_frame(frame);
    }

    /// Subscribes to `uri` (`on`) or unsubscribes.
    pub fn subscribe(&mut self, uri: &str, on: bool, now_ms: f64) -> Result<(), Refused> {
        let method = if on { "resources/subscribe" } else { "resources/unsubscribe" };
        self.send_for(method, json!({"uri": uri}), now_ms)
    }

    /// `prompts/get` of `name` with `arguments` (strings, as the specification has them).
    pub fn get_prompt(&mut self, name: &str, arguments: Map<String, Value>, now_ms: f64) -> Result<(), Refused> {
        let mut params = json!({"name": name});
        if !arguments.is_empty() {
            params["arguments"] = Value::Object(arguments);
        }
        self.send_for("prompts/get", params, now_ms)
    }

    /// `logging/setLevel`.
    pub fn set_log_level(&mut self, level: &str, now_ms: f64) -> Result<(), Refused> {
        self.send_for("logging/setLevel", json!({"level": level}), now_ms)
    }

    /// `ping`: its round trip lands in [`Catalog::ping`].
    pub fn ping(&mut self, now_ms: f64) -> Result<(), Refused> {
        self.method_exists("ping")?;
        self.send_request("ping", None, For::Ping, now_ms).map(drop)
    }

    fn send_for(&mut self, method: &str, params: Value, now_ms: f64) -> Result<(), Refused> {
        let for_ = For::of(method, &params);
        self.send_request(method, Some(params), for_, now_ms).map(drop)
    }

    /// A list beside the tools arrived (every page, or those before a failure).
    pub(super) fn on_listed(&mut self, kind: ListKind, items: Vec<Value>, error: Option<String>) {
        self.catalog.listed(kind, items, error);
        self.changed.catalog = true;
    }

    /// The server said a list changed: one that was listed is listed again.
    pub(super) fn on_list_changed(&mut self, kind: ListKind) {
        if self.catalog.loaded(kind) && !self.playback {
            self.list(kind);
        }
    }

    /// A read a person asked for (not an App's view's own resource).
    pub(super) fn note_read(&mut self, uri: &str) {
        if !uri.starts_with("ui://") {
            self.catalog.did(crate::catalog::Activity::Read(uri.to_owned()));
            self.changed.catalog = true;
        }
    }

    pub(super) fn on_resource_updated(&mut self, uri: String) {
        self.catalog.on_updated(&uri);
        self.changed.catalog = true;
    }
}
