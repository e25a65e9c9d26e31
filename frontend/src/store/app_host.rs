//! An App's view, its host: its resource read (once per connection), its frame on the
//! sandbox origin, and `shared::apps::ViewBridge` fed with what the frame posts and with the
//! call's input and end; the bridge's effects carried out here (the view's calls through the
//! session, its log, what it would tell the model, links, modes). A chunk of its own, cut
//! at [`load`] and told what happens through [`handle`] ([`super::apps`] keeps the way in).

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use serde_json::Value;
use shared::apps::{self, DisplayMode, Effect, HostEnv, Theme, UiResource, ViewBridge};
use shared::client::CallOutcome;
use shared::jsonrpc::Id;
use shared::mcp::Tool;
use shared::session::{CallState, ReadState};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

use super::Store;
use super::apps::{AppView, FRAME_ID, HostEvent};

/// How long a view may take to answer its teardown before it is removed anyway.
const TEARDOWN_GRACE_MS: u64 = 500;
/// How long a window's size must hold before the view is told its new width.
const RESIZE_SETTLE_MS: u64 = 150;

/// The host's code, fetched: the way the page tells it what happens.
#[leptos::wasm_split::wasm_split(app_host, wasm_split_path = ::leptos::wasm_split, fallible)]
pub(super) fn load() -> Result<fn(Store, HostEvent), SplitLoaderError> {
    Ok(handle)
}

fn handle(store: Store, event: HostEvent) {
    match event {
        HostEvent::Start => store.listen_to_views(),
        HostEvent::Call { tool, call_id, arguments } => store.show_call(&tool, call_id, arguments),
        HostEvent::Close(reason) => store.close_shown_view(reason),
        HostEvent::ReadsChanged => store.view_reads_changed(),
        HostEvent::CallChanged => store.view_call_changed(),
        HostEvent::Answers => store.answers_to_view(),
        HostEvent::Confirmed { view_id, tool, arguments, yes } => store.view_confirmed(view_id, &tool, arguments, yes),
        HostEvent::Link(open) => store.view_link(open),
        HostEvent::Mode(mode) => store.view_mode(mode),
        HostEvent::Theme(dark) => store.theme_to_view(dark),
    }
}

/// What the host keeps (one page, one host). Plain cells, not the reactive arena: the
/// host's code runs first in a task, under whatever part of the page asked for it, and
/// what it keeps must outlive that part.
#[derive(Default)]
struct Held {
    bridge: Option<ViewBridge>,
    /// A call of an App tool whose view waits for its resource or for the last view to go.
    waiting: Option<(Tool, Option<Id>, Value)>,
    serial: u64,
    /// Counts the window's resize events, so only the last one of a burst tells the view.
    resizes: u64,
}

thread_local! {
    static HELD: std::cell::RefCell<Held> = std::cell::RefCell::default();
}

/// Runs `f` on what the host keeps (never around a call back into the host).
fn held<T>(f: impl FnOnce(&mut Held) -> T) -> T {
    HELD.with_borrow_mut(f)
}

impl Store {
    /// Listens to what the sandbox frame posts (once, at start): only messages from the
    /// current view's frame, from the sandbox origin, reach the bridge.
    fn listen_to_views(self) {
        let Some(window) = web_sys::window() else { return };
        let handler = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let Some(origin) = self.sandbox_origin() else { return };
            if ev.origin() != origin || !from_frame(&ev) {
                return;
            }
            let Ok(text) = js_sys::JSON::stringify(&ev.data()) else { return };
            let msg: Value = serde_json::from_str(&String::from(text)).unwrap_or(Value::Null);
            self.view_posted(&msg);
        });
        let _ = window.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
        handler.forget();
        // A resized window gives the view its new width, once the resizing settles.
        let resized = Closure::<dyn Fn()>::new(move || {
            let generation = held(|h| {
                h.resizes += 1;
                h.resizes
            });
            set_timeout(
                move || {
                    if held(|h| h.resizes) == generation {
                        self.on_bridge(|b| b.set_width(column_width()));
                    }
                },
                std::time::Duration::from_millis(RESIZE_SETTLE_MS),
            );
        });
        let _ = window.add_event_listener_with_callback("resize", resized.as_ref().unchecked_ref());
        resized.forget();
    }

    /// A call of `tool` was sent as `call_id` with `arguments`: its view shows it.
    fn show_call(self, tool: &Tool, call_id: Option<Id>, arguments: Value) {
        if apps::resource_uri(tool).is_none() {
            return self.close_shown_view("another tool was called");
        }
        let same = held(|h| h.bridge.as_ref().is_some_and(|b| b.tool().name == tool.name && !b.is_gone()));
        // Played back, the same call may be looked at again: it is fed once.
        let fed = held(|h| h.bridge.as_ref().is_some_and(|b| b.call_id() == call_id.as_ref()));
        let waiting = held(|h| h.waiting.as_ref().is_some_and(|w| w.0.name == tool.name && w.1 == call_id));
        if (same && fed) || waiting {
            return;
        }
        if same {
            return self.on_bridge(|b| b.tool_input(call_id, arguments));
        }
        held(|h| h.waiting = Some((tool.clone(), call_id, arguments)));
        if held(|h| h.bridge.is_some()) {
            self.close_shown_view("a new call");
        } else {
            self.open_waiting_view();
        }
    }

    /// Opens the view a call waits for, once its resource is read (reads it if need be).
    fn open_waiting_view(self) {
        let Some((tool, call_id, arguments)) = held(|h| h.waiting.clone()) else { return };
        if held(|h| h.bridge.is_some()) {
            return;
        }
        let Some(uri) = apps::resource_uri(&tool) else { return };
        let read = self.with_session(|s| s.reads().get(&uri).cloned());
        let serial = held(|h| {
            h.serial += 1;
            h.serial
        });
        let mut view = AppView {
            tool: tool.name.clone(),
            uri: uri.clone(),
            state: "loading",
            error: None,
            src: None,
            allow: String::new(),
            mode: DisplayMode::Inline,
            height: 240,
            serial,
            granted: Vec::new(),
            prefers_border: None,
        };
        let contents = match read {
            None if self.in_playback() => Err("the recording holds no copy of the view's resource".to_owned()),
            None => {
                self.view_set(Some(view));
                return self.read_resource(uri);
            }
            Some(ReadState::Loading) => return self.view_set(Some(view)),
            Some(ReadState::Failed(e)) => Err(format!("the view's resource could not be read: {e}")),
            Some(ReadState::Done(contents)) => {
                let items: Vec<Value> = contents.iter().filter_map(|c| serde_json::to_value(c).ok()).collect();
                UiResource::read(&uri, &items).map_err(|e| format!("the view cannot be shown: {e}"))
            }
        };
        held(|h| h.waiting = None);
        let resource = match contents {
            Ok(r) => r,
            Err(e) => {
                view.state = "error";
                view.error = Some(e);
                return self.view_set(Some(view));
            }
        };
        let Some(sandbox) = self.sandbox_origin() else {
            view.state = "error";
            view.error = Some(if self.offline() {
                // A view runs only on the relay's sandbox origin: a file has none.
                "App views play in the playground, not in a page saved from it: open the recording there (mcp-playground play FILE)".into()
            } else {
                "this relay serves no sandbox for App views".into()
            });
            return self.view_set(Some(view));
        };
        let host = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
        let mut query = vec![("host", host)];
        if let Some(csp) = &resource.csp {
            query.push(("csp", csp.to_json().to_string()));
        }
        let query: String = query
            .iter()
            .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
            .collect::<Vec<_>>()
            .join("&");
        view.src = Some(format!("{sandbox}/sandbox?{query}"));
        view.allow = apps::permissions_allow(&resource.permissions);
        view.granted = resource.permissions.clone();
        view.prefers_border = resource.prefers_border;
        for refused in &resource.refused {
            self.view_log("warning", format!("the view declared {refused:?}, which is no origin: left out of its CSP"));
        }
        let mut bridge = ViewBridge::new(tool, call_id.clone(), resource, host_env());
        let mut fx = bridge.tool_input(call_id, arguments);
        // The call may have ended already (a quick tool, a slow resource).
        fx.extend(self.call_end_for(&mut bridge));
        held(|h| h.bridge = Some(bridge));
        self.view_set(Some(view));
        self.apply_view(fx);
    }

    /// The reads changed: a view waiting for its resource may open.
    fn view_reads_changed(self) {
        if held(|h| h.waiting.is_some()) {
            self.open_waiting_view();
        }
    }

    /// The call changed: its end goes to its view.
    fn view_call_changed(self) {
        self.on_bridge(|b| self.call_end_for(b));
    }

    fn call_end_for(self, bridge: &mut ViewBridge) -> Vec<Effect> {
        let name = bridge.tool().name.clone();
        match self.with_session(|s| s.call().clone()) {
            CallState::Done { tool, outcome, .. } if tool == name => match outcome {
                CallOutcome::Result { raw, .. } | CallOutcome::Unreadable { raw, .. } => {
                    bridge.tool_result(raw.get("result").cloned().unwrap_or(raw))
                }
                CallOutcome::ProtocolError { error, .. } => {
                    bridge.tool_cancelled(&format!("the server answered an error: {}", error.message))
                }
            },
            CallState::Cancelled { tool, reason } if tool == name => bridge.tool_cancelled(&reason),
            CallState::Timeout { tool, .. } if tool == name => bridge.tool_cancelled("the call timed out"),
            CallState::TransportError { tool, message } | CallState::TaskLost { tool, message } if tool == name => {
                bridge.tool_cancelled(&message)
            }
            _ => Vec::new(),
        }
    }

    /// The session has answers for the view.
    fn answers_to_view(self) {
        let answers = self.act(shared::session::Session::take_view_answers);
        for (id, outcome) in answers {
            self.on_bridge(|b| b.answer(&id, outcome));
        }
    }

    fn view_posted(self, msg: &Value) {
        if !self.in_playback() {
            self.act(|s| s.view_message(false, msg, js_sys::Date::now()));
        }
        let tools = self.tools.get_untracked();
        let policy = self.calls.policy.get_untracked();
        self.on_bridge(|b| b.from_view(msg, &tools, policy));
    }

    /// Removes the view: asked first when it is ready, gone after its answer or the grace.
    fn close_shown_view(self, reason: &str) {
        let fx = held(|h| h.bridge.as_mut().map(|b| b.teardown(reason))).unwrap_or_default();
        if fx.iter().any(|e| matches!(e, Effect::ToView(_))) {
            self.view_log("info", format!("ui/resource-teardown sent ({reason})"));
            self.view_update(|v| v.state = "closed");
            set_timeout(
                move || {
                    self.on_bridge(ViewBridge::gone);
                },
                std::time::Duration::from_millis(TEARDOWN_GRACE_MS),
            );
        }
        self.apply_view(fx);
    }

    /// The person's answer about a call the view asked for.
    fn view_confirmed(self, view_id: Id, tool: &str, arguments: Value, yes: bool) {
        self.on_bridge(|b| b.confirmed(view_id, tool, arguments, yes));
    }

    /// The person saw the link the view asked to open, and opened it (in a new tab, with no
    /// way back to this page) or not.
    fn view_link(self, open: bool) {
        let Some((id, url)) = self.apps.link.get_untracked() else { return };
        self.apps.link.set(None);
        let opened = open
            && web_sys::window()
                .and_then(|w| w.open_with_url_and_target_and_features(&url, "_blank", "noopener,noreferrer").ok())
                .is_some();
        self.on_bridge(|b| b.link_answered(&id, opened));
    }

    /// The person switched the view's display (or left fullscreen).
    fn view_mode(self, mode: DisplayMode) {
        self.on_bridge(|b| b.set_mode(mode));
    }

    /// The page's theme changed: the view follows.
    fn theme_to_view(self, dark: bool) {
        let theme = if dark { Theme::Dark } else { Theme::Light };
        self.on_bridge(|b| b.set_theme(theme));
    }

    /// Runs `step` on the view's bridge, if there is one, and carries out what it says.
    fn on_bridge(self, step: impl FnOnce(&mut ViewBridge) -> Vec<Effect>) {
        let fx = held(|h| h.bridge.as_mut().map(step));
        self.apply_view(fx.unwrap_or_default());
    }

    fn apply_view(self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::ToView(msg) => {
                    // The App lane of the timeline shows what went, as it went (a file
                    // playing shows its own recorded lane).
                    if !self.in_playback() {
                        self.act(|s| s.view_message(true, &msg, js_sys::Date::now()));
                    }
                    post_to_frame(&msg, self.sandbox_origin());
                }
                Effect::Server { view_id, request } if self.in_playback() => {
                    // A file plays: the recording answers, as its server did.
                    let answer = self.player.try_update_value(|p| p.as_mut().map(|p| p.answer_view(&request)));
                    let answer = answer.flatten().unwrap_or_else(|| {
                        Err(serde_json::json!({"code": -32000, "message": "the recording is no longer loaded"}))
                    });
                    self.on_bridge(|b| b.answer(&view_id, answer));
                }
                Effect::Server { view_id, request } => {
                    if let Err(e) = self.act(|s| s.view_request(view_id.clone(), &request)) {
                        let refusal = serde_json::json!({"code": -32000, "message": e.to_string()});
                        self.on_bridge(|b| b.answer(&view_id, Err(refusal)));
                    }
                }
                Effect::Confirm { view_id, tool, arguments } => {
                    self.calls.confirm.set(Some(super::Confirm { tool: *tool, arguments, for_view: Some(view_id) }));
                }
                Effect::Log { level, text } => self.view_log(&level, text),
                Effect::ForModel { method, params } => {
                    let text = serde_json::to_string_pretty(&params).unwrap_or_default();
                    self.apps.for_model.update(|m| m.push((method, text)));
                }
                Effect::OpenLink { view_id, url } => self.apps.link.set(Some((view_id, url))),
                Effect::Display(mode) => self.view_update(|v| v.mode = mode),
                Effect::Resize { height, .. } => {
                    if let Some(h) = height {
                        self.view_update(|v| v.height = h.clamp(60, 2400));
                    }
                }
                Effect::Gone => {
                    if self.apps.view.with_untracked(|v| v.as_ref().is_some_and(|v| v.state == "closed")) {
                        self.view_log("info", "the view is gone".into());
                    }
                    held(|h| h.bridge = None);
                    self.view_set(None);
                    self.open_waiting_view();
                }
            }
        }
        // The view said `initialized`: it is shown as ready.
        if held(|h| h.bridge.as_ref().is_some_and(ViewBridge::is_ready)) {
            self.view_update(|v| {
                if v.state == "loading" {
                    v.state = "ready";
                }
            });
        }
    }

    /// The relay's sandbox origin: the live session's word, also while a file plays (the
    /// file's own session knows no relay).
    fn sandbox_origin(self) -> Option<String> {
        let live = |s: &shared::session::Session| s.relay().and_then(|r| r.sandbox.clone());
        self.parked.with_value(|p| p.as_ref().and_then(live)).or_else(|| self.with_session(live))
    }

    fn view_log(self, level: &str, text: String) {
        self.apps.log.update(|l| {
            l.push((level.to_owned(), text));
            if l.len() > 500 {
                l.drain(..100);
            }
        });
    }

    fn view_set(self, view: Option<AppView>) {
        self.apps.view.set(view);
    }

    fn view_update(self, change: impl FnOnce(&mut AppView)) {
        self.apps.view.update(|v| {
            if let Some(v) = v {
                change(v);
            }
        });
    }
}

/// Whether a message came from the view's frame (not another window of the same origin).
fn from_frame(ev: &web_sys::MessageEvent) -> bool {
    let Some(frame) = frame() else { return false };
    let (Some(source), Some(win)) = (ev.source(), frame.content_window()) else { return false };
    let source: &js_sys::Object = source.unchecked_ref();
    let win: &js_sys::Object = win.unchecked_ref();
    js_sys::Object::is(source, win)
}

fn frame() -> Option<web_sys::HtmlIFrameElement> {
    web_sys::window()?.document()?.get_element_by_id(FRAME_ID)?.dyn_into().ok()
}

/// Posts `msg` to the sandbox frame, for the sandbox origin only.
fn post_to_frame(msg: &Value, origin: Option<String>) {
    let (Some(frame), Some(origin)) = (frame(), origin) else { return };
    let Some(win) = frame.content_window() else { return };
    if let Ok(value) = js_sys::JSON::parse(&msg.to_string()) {
        let _ = win.post_message(&value, &origin);
    }
}

/// Where the view is shown: the page's theme, the browser's language and zone.
fn host_env() -> HostEnv {
    let locale = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_else(|| "en-US".into());
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new()).resolved_options();
    let time_zone =
        js_sys::Reflect::get(&options, &"timeZone".into()).ok().and_then(|z| z.as_string()).unwrap_or_default();
    HostEnv {
        theme: if crate::theme::is_dark() { Theme::Dark } else { Theme::Light },
        locale,
        time_zone,
        width: column_width(),
        max_height: 900,
        version: env!("CARGO_PKG_VERSION").into(),
    }
}

/// The width the view gets: its column's (less the panel's padding).
fn column_width() -> u32 {
    let column = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".workspace").ok().flatten())
        .map(|c| c.client_width())
        .filter(|w| *w > 0);
    column.map_or(640, |w| (w - 42).max(240) as u32)
}
