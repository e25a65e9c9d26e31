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
    /// [`CopyCall`] for the result pane, in a chunk of its own (the timeline's rows use it
    /// from theirs).
    copy_call_view(which: Which, compact: bool) => view! { <CopyCall which compact /> }.into_any()
);

/// How long "Copied" shows on the button pressed.
const COPIED_MS: u64 = 1500;

/// The copy buttons; `compact` for a timeline row.
#[component]
pub fn CopyCall(which: Which, #[prop(optional)] compact: bool) -> impl IntoView {
    let store = expect_context::<Store>();
    let copied = RwSignal::new(None::<&'static str>);
    let http = over_http(store);
    let click = move |how: As, id: &'static str| {
        let which = which.clone();
        move |ev: web_sys::MouseEvent| {
            ev.stop_propagation();
            match store.with_session(|s| text(s, &which, how)) {
                Some(text) => {
                    download::copy(&text);
                    copied.set(Some(id));
                    set_timeout(move || copied.set(None), std::time::Duration::from_millis(COPIED_MS));
                }
                None => store.notice("this call cannot be copied: its request is not in the timeline".into()),
            }
        }
    };
    let label = move |id: &'static str, long: &'static str, short: &'static str| {
        move || {
            if copied.get() == Some(id) {
                "Copied"
            } else if compact {
                short
            } else {
                long
            }
        }
    };
    let command = "Copy as an mcp-playground command (secrets as ${VAR})";
    let curl = "Copy as curl (secrets as ${VAR})";
    view! {
        <span class="copy-calls" class:compact=compact>
            <button class="button small ghost" data-testid="copy-command" title=command aria-label=command
                on:click=click(As::Command, "copy-command")>{label("copy-command", "Copy command", "$")}</button>
            <button class="button small ghost" data-testid="copy-jsonrpc" title="Copy the JSON-RPC request as sent"
                aria-label="Copy the JSON-RPC request as sent"
                on:click=click(As::JsonRpc, "copy-jsonrpc")>{label("copy-jsonrpc", "JSON-RPC", "{}")}</button>
            {http.then(|| view! {
                <button class="button small ghost" data-testid="copy-curl" title=curl aria-label=curl
                    on:click=click(As::Curl, "copy-curl")>{label("copy-curl", "curl", "curl")}</button>
            })}
        </span>
    }
}

/// Whether the session's server is reached over Streamable HTTP (calls copy as curl too).
pub fn over_http(store: Store) -> bool {
    store.with_session(|s| matches!(target(s), Some(Target::Http { .. } | Target::Auto { .. })))
}

/// The copy buttons of a timeline row: plain buttons, no handler of their own (thousands of
/// rows come and go during a flood); the timeline's one handler is [`from_row`].
pub fn row_buttons(http: bool) -> impl IntoView {
    let command = "Copy as an mcp-playground command (secrets as ${VAR})";
    let curl = "Copy as curl (secrets as ${VAR})";
    view! {
        <span class="t-copy copy-calls compact">
            <button class="button small ghost" data-testid="copy-command" data-copy="command" title=command aria-label=command>"$"</button>
            <button class="button small ghost" data-testid="copy-jsonrpc" data-copy="jsonrpc"
                title="Copy the JSON-RPC request as sent" aria-label="Copy the JSON-RPC request as sent">"{}"</button>
            {http.then(|| view! {
                <button class="button small ghost" data-testid="copy-curl" data-copy="curl" title=curl aria-label=curl>"curl"</button>
            })}
        </span>
    }
}

/// A click in the timeline: on a row's copy button, that row's call is copied and the
/// button says so for a moment.
pub fn from_row(store: Store, ev: &web_sys::MouseEvent) {
    use wasm_bindgen::JsCast;
    let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let Some(button) = target.and_then(|t| t.closest("[data-copy]").ok().flatten()) else { return };
    let row = button.closest("[data-seq]").ok().flatten().and_then(|r| r.get_attribute("data-seq"));
    let Some(seq) = row.and_then(|s| s.parse::<usize>().ok()) else { return };
    let how = match button.get_attribute("data-copy").as_deref() {
        Some("command") => As::Command,
        Some("jsonrpc") => As::JsonRpc,
        Some("curl") => As::Curl,
        _ => return,
    };
    match store.with_session(|s| text(s, &Which::Row(seq), how)) {
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
