//! The result of the last call: its state, each content item by type, structured content,
//! a protocol error with the meaning of its code, and the raw response. Everything from the
//! server is shown as text; only `data:` URLs we build ourselves go into `src`.

use leptos::prelude::*;
use shared::client::CallOutcome;
use shared::jsonrpc::ErrorObject;
use shared::mcp::{CallToolResult, Content};

use super::json::{JsonBlock, pretty};
use crate::store::{CallState, Store};

#[component]
pub fn ResultPane() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        let call = store.call.get();
        let state = call.as_str();
        let body = match call {
            CallState::Idle => return None,
            CallState::Pending { tool, .. } => view! {
                <div class="result-head"><h3>"Calling " <span class="mono">{tool}</span> "…"</h3><span class="spinner"></span></div>
            }
            .into_any(),
            CallState::TransportError { tool, message } => view! {
                <div class="result-head"><h3>"Result of " <span class="mono">{tool}</span></h3><span class="state-badge">"transport error"</span></div>
                <p class="error-text">{message}</p>
            }
            .into_any(),
            CallState::Done { tool, outcome, duration_ms } => {
                let took = duration_ms.map(|d| format!("{d:.0} ms")).unwrap_or_default();
                let label = state.replace('-', " ");
                let (inner, raw) = match outcome {
                    CallOutcome::Result { result, raw } => (view! { <ResultBody result=*result /> }.into_any(), raw),
                    CallOutcome::ProtocolError { error, raw } => (view! { <ProtocolError error /> }.into_any(), raw),
                    CallOutcome::Unreadable { raw, error } => (
                        view! { <p class="error-text">"The result does not follow the MCP schema: " {error}</p> }.into_any(),
                        raw,
                    ),
                };
                view! {
                    <div class="result-head">
                        <h3>"Result of " <span class="mono">{tool}</span></h3>
                        <span class="state-badge">{label}</span>
                        <span class="duration" title="Round trip measured at the relay">{took}</span>
                    </div>
                    {inner}
                    <details class="raw">
                        <summary>"Raw JSON-RPC response"</summary>
                        <pre class="code" data-testid="result-raw">{pretty(&raw)}</pre>
                    </details>
                }
                .into_any()
            }
        };
        Some(view! { <section class="panel result-pane" data-testid="result-pane" data-state=state>{body}</section> })
    }
}

#[component]
fn ProtocolError(error: ErrorObject) -> impl IntoView {
    let meaning = ErrorObject::code_meaning(error.code);
    view! {
        <div class="protocol-error" data-testid="protocol-error">
            <div><span class="mono code-num">{error.code}</span> " " <strong>{error.message.clone()}</strong></div>
            {meaning.map(|m| view! { <p class="hint">{m}</p> })}
            {error.data.map(|d| view! { <JsonBlock value=d /> })}
        </div>
    }
}

#[component]
fn ResultBody(result: CallToolResult) -> impl IntoView {
    let is_error = result.is_error == Some(true);
    view! {
        {is_error.then(|| view! { <p class="tool-error-note">"The tool reported an error (isError: true)."</p> })}
        <div class="contents">
            {result.content.into_iter().map(|c| view! { <ContentItem content=c /> }).collect_view()}
        </div>
        {result.structured_content.map(|s| view! {
            <div class="structured">
                <h4>"Structured content"</h4>
                <div data-testid="structured-content"><JsonBlock value=s /></div>
            </div>
        })}
        {result.tool_result.map(|v| view! {
            <div class="structured">
                <h4>"toolResult " <span class="badge">"legacy"</span></h4>
                <JsonBlock value=v />
            </div>
        })}
    }
}

#[component]
fn ContentItem(content: Content) -> impl IntoView {
    let kind = content.type_name();
    let inner = match content {
        Content::Text(t) => view! { <pre class="text-content">{t.text}</pre> }.into_any(),
        Content::Image(m) => {
            let src = format!("data:{};base64,{}", m.mime_type, m.data);
            view! { <img class="media" src=src alt="image returned by the tool" /> }.into_any()
        }
        Content::Audio(m) => {
            let src = format!("data:{};base64,{}", m.mime_type, m.data);
            view! { <audio controls src=src></audio> }.into_any()
        }
        Content::ResourceLink(r) => view! {
            <div class="resource-card">
                <div class="resource-name">{r.title.clone().unwrap_or_else(|| r.name.clone())}</div>
                <div class="mono small">{r.uri.clone()}</div>
                {r.description.clone().map(|d| view! { <div class="small">{d}</div> })}
                <div class="small muted">{r.mime_type.clone().unwrap_or_default()} " " {r.size.map(|s| format!("{s} bytes"))}</div>
            </div>
        }
        .into_any(),
        Content::Resource(r) => {
            let res = r.resource;
            let body = match (res.text, res.blob) {
                (Some(text), _) => view! { <pre class="text-content">{text}</pre> }.into_any(),
                (None, Some(blob)) => view! { <p class="small muted">{format!("binary contents, {} base64 characters", blob.len())}</p> }.into_any(),
                _ => view! { <p class="small muted">"no contents"</p> }.into_any(),
            };
            view! {
                <div class="resource-card">
                    <div class="mono small">{res.uri} " " <span class="muted">{res.mime_type.unwrap_or_default()}</span></div>
                    {body}
                </div>
            }
            .into_any()
        }
        Content::Unknown(v) => view! { <p class="small muted">"Unknown content type, shown as sent:"</p><JsonBlock value=v /> }.into_any(),
    };
    view! {
        // The type label is drawn by CSS from data-content-type, so the item's text is the content's.
        <div class="content-item" data-testid="result-content" data-content-type=kind>
            {inner}
        </div>
    }
}
