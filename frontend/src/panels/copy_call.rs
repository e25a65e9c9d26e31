//! Copying a call to take it elsewhere (`shared::copy_call`): as the command line that makes
//! it again, as its JSON-RPC request, and for a Streamable HTTP server as `curl`. In the
//! result pane's head and on every `tools/call` row of the timeline.

use leptos::prelude::*;
use shared::copy_call::{self, Call};
use shared::relay::Target;
use shared::revision::{ProtocolChoice, Revision};
use shared::session::Session;

use crate::download;
use crate::store::Store;

/// Which call: a timeline row's, or the newest of a tool (the result pane's).
#[derive(Debug, Clone, PartialEq)]
pub enum Which {
    Row(usize),
    Newest(String),
}

/// How it is copied.
#[derive(Debug, Clone, Copy, PartialEq)]
enum As {
    Command,
    JsonRpc,
    Curl,
}

lazy_view!(
    /// The result pane's copy buttons, in a chunk of its own (the timeline's rows have the
    /// same buttons, from theirs).
    copy_call_view(tool: String) => {
        let store = expect_context::<Store>();
        let which = Which::Newest(tool);
        view! {
            <span on:click=move |ev| copy_clicked(store, which.clone(), &ev)>{buttons(over_http(store), false)}</span>
        }
        .into_any()
    }
);

/// How long "Copied" shows on the button pressed.
const COPIED_MS: u64 = 1500;

/// Whether the session's server is reached over Streamable HTTP (calls copy as curl too).
pub fn over_http(store: Store) -> bool {
    store.with_session(|s| matches!(target(s), Some(Target::Http { .. } | Target::Auto { .. })))
}

/// The copy buttons (`compact`: a timeline row's): plain buttons with no handler of their
/// own (thousands of rows come and go during a flood); a click reaches the one handler
/// around them, [`copy_clicked`] or [`from_row`].
pub fn buttons(http: bool, compact: bool) -> impl IntoView {
    let command = "Copy as an mcp-playground command (secrets as ${VAR})";
    let jsonrpc = "Copy the JSON-RPC request as sent";
    let curl = "Copy as curl (secrets as ${VAR})";
    let label = move |long: &'static str, short: &'static str| if compact { short } else { long };
    view! {
        <span class="copy-calls" class:compact=compact class:t-copy=compact>
            <button class="button small ghost" data-testid="copy-command" data-copy="command" title=command aria-label=command>
                {label("Copy command", "$")}
            </button>
            <button class="button small ghost" data-testid="copy-jsonrpc" data-copy="jsonrpc" title=jsonrpc aria-label=jsonrpc>
                {label("JSON-RPC", "{}")}
            </button>
            {http.then(|| view! {
                <button class="button small ghost" data-testid="copy-curl" data-copy="curl" title=curl aria-label=curl>"curl"</button>
            })}
        </span>
    }
}

/// A click in the timeline: on a row's copy button, that row's call is copied.
pub fn from_row(store: Store, ev: &web_sys::MouseEvent) {
    let row =
        clicked(ev).and_then(|b| b.closest("[data-seq]").ok().flatten()).and_then(|r| r.get_attribute("data-seq"));
    if let Some(seq) = row.and_then(|s| s.parse::<usize>().ok()) {
        copy_clicked(store, Which::Row(seq), ev);
    }
}

/// The copy button a click was on, if any.
fn clicked(ev: &web_sys::MouseEvent) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())?;
    target.closest("[data-copy]").ok().flatten()
}

/// A click on a copy button of `which` call: the call is copied as the button says, and
/// the button says "Copied" for a moment.
fn copy_clicked(store: Store, which: Which, ev: &web_sys::MouseEvent) {
    let Some(button) = clicked(ev) else { return };
    let how = match button.get_attribute("data-copy").as_deref() {
        Some("command") => As::Command,
        Some("jsonrpc") => As::JsonRpc,
        Some("curl") => As::Curl,
        _ => return,
    };
    match store.with_session(|s| text(s, &which, how)) {
        Some(text) => {
            download::copy(&text);
            let was = button.text_content();
            button.set_text_content(Some("Copied"));
            set_timeout(move || button.set_text_content(was.as_deref()), std::time::Duration::from_millis(COPIED_MS));
        }
        None => store.notice("this call cannot be copied: its request is not in the timeline".into()),
    }
}

/// The server the session is connected to, or the recording played was.
fn target(s: &Session) -> Option<Target> {
    s.target().cloned().or_else(|| s.relay().map(|r| r.preset.clone()))
}

fn text(s: &Session, which: &Which, how: As) -> Option<String> {
    let call: Call = match which {
        Which::Row(seq) => copy_call::of_row(s, *seq),
        Which::Newest(tool) => copy_call::newest(s, tool),
    }?;
    let target = target(s)?;
    match how {
        As::Command => Some(copy_call::command(&call, &target, s.protocol(), copy_call::configured(s))),
        As::JsonRpc => Some(copy_call::jsonrpc(&call)),
        As::Curl => {
            let pinned = match s.protocol() {
                ProtocolChoice::Pinned(r) => Some(r),
                ProtocolChoice::Auto => None,
            };
            let revision = s.negotiated().map(|n| n.revision).or(pinned).unwrap_or(Revision::V2025_11_25);
            copy_call::curl(&call, &target, revision)
        }
    }
}
