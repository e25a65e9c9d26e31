//! The result of the last call: its state and duration, each content item by type, the
//! structured content checked against the output schema, a protocol error with the meaning
//! of its code, and the raw response (rendered only when asked for when it is large).

pub mod content;
mod json_tree;
mod markdown;
mod media;
mod structured;
mod task;
mod text;

use task::TaskStatusLine;

use leptos::prelude::*;
use serde_json::Value;
use shared::client::CallOutcome;
use shared::jsonrpc::ErrorObject;
use shared::mcp::CallToolResult;
use shared::render::Item;
use shared::render::output::{OutputCheck, TextAgreement};

use super::json::pretty;
use crate::download;
use crate::store::{CallState, Store};

/// Fetches the code of images, audio and Markdown while the page is idle after its first
/// screen, so that the first such result shows at once.
pub async fn preload() {
    // A failure here is said where the part would show, if it is ever needed.
    let _ = media::media_view::preload().await;
    let _ = markdown::markdown_view::preload().await;
}

/// Raw responses larger than this are pretty-printed only when opened.
const EAGER_RAW_BYTES: usize = 256 * 1024;

/// Brings the result into view (as little scrolling as it takes), once it is drawn: an
/// App's view when the call has one (it comes first), else the result pane.
fn bring_into_view() {
    request_animation_frame(|| {
        let first = document().query_selector("[data-testid=app-view]").ok().flatten();
        let pane = first.or_else(|| document().query_selector("[data-testid=result-pane]").ok().flatten());
        if let Some(pane) = pane {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            pane.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

#[component]
pub fn ResultPane() -> impl IntoView {
    let store = expect_context::<Store>();
    // A call that starts, and its result when it arrives, are brought into view: under a
    // long form they would otherwise sit below the fold.
    Effect::new(move |was_pending: Option<bool>| {
        let call = store.call.get();
        let pending = matches!(call, CallState::Pending { .. });
        if was_pending.is_some_and(|was| was != pending) && !matches!(call, CallState::Idle) {
            bring_into_view();
        }
        pending
    });
    move || {
        // The picked tool's own call (under way, or its last), never another tool's.
        let call = match store.selected.get() {
            Some(tool) => store.call_of(&tool),
            None => store.call.get(),
        };
        let state = call.as_str();
        let body = match call {
            CallState::Idle => return None,
            CallState::Pending { tool, .. } => {
                let is_task = store.calls.task.with(|t| t.is_some());
                let cancelling = store.calls.task.with(|t| t.as_ref().is_some_and(|t| t.is_cancelling()));
                let how = if is_task { "Send tasks/cancel" } else { "Send notifications/cancelled" };
                view! {
                    <div class="result-head">
                        <h3>"Calling " <span class="mono">{tool.clone()}</span> "…"</h3>
                        <span class="spinner"></span>
                        {is_task.then(|| view! {
                            <button class="button small ghost" data-testid="task-unwatch" title="Leave the task running on the server; the tasks panel keeps it"
                                on:click=move |_| store.stop_watching()>"Stop watching"</button>
                        })}
                        <button class="button small danger-outline" data-testid="cancel-button" title=how
                            prop:disabled=cancelling on:click=move |_| store.cancel_call()>
                            {if cancelling { "Cancelling…" } else { "Cancel" }}
                        </button>
                    </div>
                    <TaskStatusLine tool />
                    <ProgressBar />
                }
                .into_any()
            }
            CallState::Cancelled { tool, reason } => {
                let is_task = store.calls.task.with(|t| t.as_ref().is_some_and(|t| t.tool == tool));
                let after = if is_task { "" } else { ". A response that still arrives is shown in the timeline only." };
                view! {
                    <div class="result-head"><h3>"Call of " <span class="mono">{tool.clone()}</span></h3><span class="state-badge">"cancelled"</span></div>
                    <p class="hint">{reason} {after}</p>
                    <TaskStatusLine tool />
                }
                .into_any()
            }
            CallState::Timeout { tool, after_ms } => view! {
                <div class="result-head"><h3>"Call of " <span class="mono">{tool}</span></h3><span class="state-badge">"timeout"</span></div>
                <p class="error-text">{format!("No result after {:.1} s: the playground sent notifications/cancelled. ", after_ms / 1000.0)}
                    "Raise the timeout next to the Call button for slow tools."</p>
            }
            .into_any(),
            CallState::Unwatched { tool, task_id } => view! {
                <div class="result-head"><h3>"Call of " <span class="mono">{tool.clone()}</span></h3><span class="state-badge">"left running"</span></div>
                <p class="hint">"No longer watched: task " <span class="mono">{task_id}</span>
                    " goes on on the server. The tasks panel has it: pick it there to fetch its outcome, or cancel it."</p>
                <TaskStatusLine tool />
            }
            .into_any(),
            CallState::TaskLost { tool, message } => view! {
                <div class="result-head"><h3>"Call of " <span class="mono">{tool.clone()}</span></h3><span class="state-badge">"task lost"</span></div>
                <p class="error-text">{message}</p>
                <TaskStatusLine tool />
            }
            .into_any(),
            CallState::TransportError { tool, message } => view! {
                <div class="result-head"><h3>"Result of " <span class="mono">{tool}</span></h3><span class="state-badge">"transport error"</span></div>
                <p class="error-text">{message}</p>
            }
            .into_any(),
            CallState::Done { tool, outcome, duration_ms, output, agreement } => {
                let took = duration_ms.map(|d| format!("{d:.0} ms")).unwrap_or_default();
                let label = state.replace('-', " ");
                let (inner, raw) = match outcome {
                    CallOutcome::Result { result, raw } => {
                        (view! { <ResultBody result=*result output agreement /> }.into_any(), raw)
                    }
                    CallOutcome::ProtocolError { error, raw } => (view! { <ProtocolError error /> }.into_any(), raw),
                    CallOutcome::Unreadable { raw, error } => (
                        view! { <p class="error-text">"The result does not follow the MCP schema: " {error}</p> }.into_any(),
                        raw,
                    ),
                };
                let raw_for_copy = raw.clone();
                let copied_tool = tool.clone();
                view! {
                    <div class="result-head">
                        <h3>"Result of " <span class="mono">{tool.clone()}</span></h3>
                        <span class="state-badge">{label}</span>
                        <span class="duration" title="Round trip measured at the relay">{took}</span>
                        <button class="button small ghost" data-testid="copy-result" title="Copy the JSON-RPC response"
                            on:click=move |_| download::copy(&raw_for_copy.to_string())>"Copy JSON"</button>
                    </div>
                    <div class="copy-line">
                        <span class="hint small">"Take this call elsewhere:"</span>
                        {crate::panels::later(crate::panels::copy_call::copy_call_view(copied_tool))}
                    </div>
                    <TaskStatusLine tool />
                    {inner}
                    <RawResponse raw />
                }
                .into_any()
            }
        };
        Some(view! { <section class="panel result-pane" data-testid="result-pane" data-state=state>{body}</section> })
    }
}

/// Progress of the pending call, from `notifications/progress`.
#[component]
fn ProgressBar() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        store.calls.progress.get().map(|p| {
            let pct = p.total.filter(|t| *t > 0.0).map(|t| (p.progress / t * 100.0).clamp(0.0, 100.0));
            let label = match p.total {
                Some(t) => format!("{} of {}", p.progress, t),
                None => format!("{}", p.progress),
            };
            view! {
                <div class="progress" data-testid="progress-bar" data-progress=p.progress.to_string()
                    data-total=p.total.map(|t| t.to_string())>
                    <div class="progress-track" class:indeterminate=pct.is_none()>
                        <div class="progress-fill" style=pct.map(|x| format!("width: {x:.1}%"))></div>
                    </div>
                    <div class="small muted">{label} {p.message.map(|m| format!(" · {m}"))}</div>
                </div>
            }
        })
    }
}

/// The raw response, folded; a large one is pretty-printed only once opened.
#[component]
fn RawResponse(raw: Value) -> impl IntoView {
    let compact = raw.to_string();
    let size = compact.len();
    let opened = RwSignal::new(size <= EAGER_RAW_BYTES);
    let text = move || opened.get().then(|| if size <= EAGER_RAW_BYTES { pretty(&raw) } else { compact.clone() });
    view! {
        <details class="raw" data-testid="result-raw" on:toggle=move |_| opened.set(true)>
            <summary>"Raw JSON-RPC response " <span class="hint small">{shared::render::media::human_size(size)}</span></summary>
            <pre class="code">{text}</pre>
        </details>
    }
}

#[component]
fn ProtocolError(error: ErrorObject) -> impl IntoView {
    let meaning = ErrorObject::code_meaning(error.code);
    view! {
        <div class="protocol-error" data-testid="protocol-error">
            <div><span class="mono code-num">{error.code}</span> " " <strong>{error.message.clone()}</strong></div>
            {meaning.map(|m| view! { <p class="hint">{m}</p> })}
            {error.data.map(|d| view! { <json_tree::JsonTree value=d /> })}
        </div>
    }
}

#[component]
fn ResultBody(result: CallToolResult, output: OutputCheck, agreement: Option<TextAgreement>) -> impl IntoView {
    let is_error = result.is_error == Some(true);
    let items: Vec<Item> = result.content.iter().map(Item::of).collect();
    let empty = items.is_empty() && result.structured_content.is_none() && result.tool_result.is_none();
    view! {
        {is_error.then(|| view! { <p class="tool-error-note">"The tool reported an error (isError: true). Its content is the error:"</p> })}
        <div class="contents">
            {items.into_iter().map(|item| view! { <content::ContentItem item /> }).collect_view()}
        </div>
        {empty.then(|| view! { <p class="hint">"The result has no content."</p> })}
        <structured::Structured value=result.structured_content output agreement />
        {result.tool_result.map(|v| view! {
            <div class="structured">
                <h4>"toolResult " <span class="badge">"legacy"</span></h4>
                <p class="hint small">"An early-draft result shape: shown as sent."</p>
                <div data-testid="legacy-result"><json_tree::JsonTree value=v /></div>
            </div>
        })}
    }
}
