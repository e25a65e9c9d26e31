//! An App's view in the page: what is shown of it, and the way to its host. The host (the
//! view's resource, its frame, the bridge: [`super::app_host`]) is a chunk of its own,
//! fetched when the first App tool is listed, picked or called: the first screen carries
//! none of it. What happens meanwhile waits for it, in order.

use leptos::prelude::*;
use serde_json::Value;
use shared::apps::{self, DisplayMode};
use shared::jsonrpc::Id;
use shared::mcp::Tool;

use super::Store;

/// The id of the view's outer frame in the page (one view at a time).
pub const FRAME_ID: &str = "app-frame";

/// What the page shows of the current view.
#[derive(Debug, Clone, PartialEq)]
pub struct AppView {
    pub tool: String,
    pub uri: String,
    /// `loading` | `ready` | `error` | `closed`.
    pub state: &'static str,
    pub error: Option<String>,
    /// The outer frame's address (the sandbox proxy with the view's CSP), once known.
    pub src: Option<String>,
    /// The frame's `allow`: only the features the view declared.
    pub allow: String,
    pub mode: DisplayMode,
    pub height: u32,
    /// A new frame for each view.
    pub serial: u64,
    /// The features granted, for the person to know.
    pub granted: Vec<&'static str>,
    pub prefers_border: Option<bool>,
}

/// What the host is told.
pub(super) enum HostEvent {
    /// Its code has arrived: it listens to the frame and the window.
    Start,
    /// A call of an App tool was sent as `call_id` with `arguments`: its view shows it.
    Call { tool: Box<Tool>, call_id: Option<Id>, arguments: Value },
    /// The view goes (why, for its log).
    Close(&'static str),
    /// The session's reads changed: a view waiting for its resource may open.
    ReadsChanged,
    /// The call changed: its end goes to its view.
    CallChanged,
    /// The session has answers for the view.
    Answers,
    /// The person's answer about a call the view asked for.
    Confirmed { view_id: Id, tool: String, arguments: Value, yes: bool },
    /// The person opened the link the view asked to open, or not.
    Link(bool),
    /// The person switched the view's display.
    Mode(DisplayMode),
    /// The page's theme changed (dark or not).
    Theme(bool),
}

/// Where the host's code is.
enum Host {
    /// Not asked for: no App tool was seen, so no view can be.
    Absent,
    /// On its way; what it is told meanwhile waits, in order.
    Loading(Vec<HostEvent>),
    Ready(fn(Store, HostEvent)),
}

/// The Apps part of the page's state.
#[derive(Clone, Copy)]
pub struct AppsUi {
    pub view: RwSignal<Option<AppView>>,
    /// The view's log: its `notifications/message` and what was refused (level, text).
    pub log: RwSignal<Vec<(String, String)>>,
    /// What the view would tell the model (method, JSON).
    pub for_model: RwSignal<Vec<(String, String)>>,
    /// A link the view asks to open, waiting for the person.
    pub link: RwSignal<Option<(Id, String)>>,
    host: StoredValue<Host>,
}

impl AppsUi {
    pub fn new() -> Self {
        Self {
            view: RwSignal::new(None),
            log: RwSignal::new(Vec::new()),
            for_model: RwSignal::new(Vec::new()),
            link: RwSignal::new(None),
            host: StoredValue::new(Host::Absent),
        }
    }
}

impl Default for AppsUi {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// Tools were listed: with an App tool among them, the host's code is fetched now, so
    /// that it is here when the tool is called.
    pub(super) fn tools_listed(self, tools: &[Tool]) {
        if tools.iter().any(|t| apps::resource_uri(t).is_some()) {
            self.want_host();
        }
    }

    /// The tool picked: its view's resource is read now, so the view is ready when called.
    pub(super) fn prefetch_view(self, tool: &Tool) {
        let Some(uri) = apps::resource_uri(tool) else { return };
        self.want_host();
        let known = self.with_session(|s| s.reads().contains_key(&uri));
        if !known && self.conn.get_untracked() == super::ConnState::Connected && !self.in_playback() {
            self.read_resource(uri);
        }
    }

    /// A call of `tool` was sent as `call_id` with `arguments`: its view shows it (a tool
    /// without a view closes the last one).
    pub(super) fn view_for_call(self, tool: &Tool, call_id: Option<Id>, arguments: Value) {
        if apps::resource_uri(tool).is_none() {
            return self.close_view("another tool was called");
        }
        self.want_host();
        self.to_host(HostEvent::Call { tool: Box::new(tool.clone()), call_id, arguments });
    }

    /// Removes the view: asked first when it is ready, gone after its answer or the grace.
    pub fn close_view(self, reason: &'static str) {
        self.to_host(HostEvent::Close(reason));
    }

    pub(super) fn reads_changed(self) {
        self.to_host(HostEvent::ReadsChanged);
    }

    pub(super) fn call_changed(self) {
        self.to_host(HostEvent::CallChanged);
    }

    pub(super) fn view_answers(self) {
        self.to_host(HostEvent::Answers);
    }

    /// The person's answer about a call the view asked for.
    pub fn view_call_confirmed(self, view_id: Id, tool: &str, arguments: Value, yes: bool) {
        self.to_host(HostEvent::Confirmed { view_id, tool: tool.to_owned(), arguments, yes });
    }

    /// The person saw the link the view asked to open, and opened it (in a new tab, with no
    /// way back to this page) or not.
    pub fn view_link_answered(self, open: bool) {
        self.to_host(HostEvent::Link(open));
    }

    /// The person switched the view's display (or left fullscreen).
    pub fn set_view_mode(self, mode: DisplayMode) {
        self.to_host(HostEvent::Mode(mode));
    }

    /// The page's theme changed: the view follows.
    pub fn view_theme(self, dark: bool) {
        self.to_host(HostEvent::Theme(dark));
    }

    /// Tells the host `event`: at once when its code is here, later while it comes, never
    /// when no App tool was seen (there is no view to tell).
    fn to_host(self, event: HostEvent) {
        let mut event = Some(event);
        let ready = self.apps.host.try_update_value(|h| match h {
            Host::Ready(handle) => Some(*handle),
            Host::Loading(waiting) => {
                waiting.extend(event.take());
                None
            }
            Host::Absent => None,
        });
        if let (Some(Some(handle)), Some(event)) = (ready, event) {
            handle(self, event);
        }
    }

    /// Fetches the host's code, once; says so when it cannot come (the call's result still
    /// shows; the next App call tries again).
    fn want_host(self) {
        let absent = self.apps.host.try_update_value(|h| {
            let absent = matches!(h, Host::Absent);
            if absent {
                *h = Host::Loading(Vec::new());
            }
            absent
        });
        if absent != Some(true) {
            return;
        }
        leptos::task::spawn_local(async move {
            match super::app_host::load().await {
                Ok(handle) => {
                    let waiting =
                        self.apps.host.try_update_value(|h| match std::mem::replace(h, Host::Ready(handle)) {
                            Host::Loading(waiting) => waiting,
                            _ => Vec::new(),
                        });
                    handle(self, HostEvent::Start);
                    for event in waiting.unwrap_or_default() {
                        handle(self, event);
                    }
                }
                Err(e) => {
                    self.apps.host.set_value(Host::Absent);
                    self.notice(format!("the part of the page that shows App views could not be loaded: {e}"));
                }
            }
        });
    }
}
