//! What the server asks of the person, mid-call: an elicitation (a form generated from its
//! `requestedSchema`, or a URL to visit, never opened by itself) and a sampling request
//! (the conversation, model preferences and tools; the person types the assistant's
//! reply). One dialog at a time, the oldest request first; Esc cancels or declines.
//! And the roots offered to servers, one URI per line.

use leptos::prelude::*;
use shared::asks::{self, AskKind, ElicitAnswer, Elicitation, SampleAnswer, SamplingRequest, ServerAsk};
use shared::jsonrpc::Id;

use super::form::FormFields;
use super::json::pretty;
use crate::args::ArgsState;
use crate::store::Store;

lazy_view!(
    /// [`AskDialog`], in a chunk of its own loaded on first use.
    ask_dialog() => view! { <AskDialog /> }.into_any()
);

/// The dialog of the oldest request waiting, if any.
#[component]
pub fn AskDialog() -> impl IntoView {
    let store = expect_context::<Store>();
    // Only a new first request redraws the dialog: one queued behind it keeps what is typed.
    let first = Memo::new(move |_| store.asks.queue.with(|q| q.first().cloned()));
    let waiting = move || store.asks.queue.with(Vec::len);
    move || {
        first.get().map(|ServerAsk { id, kind }| match kind {
            AskKind::Elicit(e) => {
                view! { <ElicitationDialog id=id elicitation=e waiting=Signal::derive(waiting) /> }.into_any()
            }
            AskKind::Sample(r) => {
                view! { <SamplingDialog id=id request=r waiting=Signal::derive(waiting) /> }.into_any()
            }
        })
    }
}

/// Which request this is, and how many more wait behind it.
fn provenance(id: String, method: &'static str, waiting: Signal<usize>) -> impl IntoView {
    view! {
        <p class="hint small ask-from">
            <span class="mono">{method}</span> " · request " <span class="mono">{id}</span>
            {move || (waiting.get() > 1).then(|| format!(" · {} more waiting", waiting.get() - 1))}
        </p>
    }
}

#[component]
fn ElicitationDialog(id: Id, elicitation: Elicitation, waiting: Signal<usize>) -> impl IntoView {
    let store = expect_context::<Store>();
    // The dialog's own form state, for its fields (built below) to find: the tool form's
    // stays as it was.
    let args = ArgsState::new();
    provide_context(args);
    let (mode, message, body) = match &elicitation {
        Elicitation::Form { message, schema } => {
            let start = asks::with_defaults(schema, &shared::form::initial(&shared::form::build(schema), schema));
            args.load_schema(schema, start);
            ("form", message.clone(), view! { <FormFields /> }.into_any())
        }
        Elicitation::Url { message, url, .. } => ("url", message.clone(), url_view(url.clone()).into_any()),
    };
    let answer = {
        let id = id.clone();
        move |a: ElicitAnswer| store.answer_elicitation(id.clone(), a)
    };
    let (cancel, decline, accept) = (answer.clone(), answer.clone(), answer.clone());
    let invalid = move || mode == "form" && !args.violations.with(Vec::is_empty);
    // As with Call: problems show once the person edited there or pressed Accept.
    let told = move || mode == "form" && !args.shown.with(Vec::is_empty);
    let accept = move |_| {
        if invalid() {
            return args.reveal();
        }
        let content = if mode == "form" { args.current().unwrap_or_default() } else { serde_json::Value::Null };
        accept(ElicitAnswer::Accept(content));
    };
    let dialog = NodeRef::new();
    let on_key = {
        let cancel = cancel.clone();
        let first = "[data-testid=field], [data-testid=elicitation-accept]";
        super::modal::own_keyboard(dialog, first, move || cancel(ElicitAnswer::Cancel))
    };
    view! {
        <div class="modal-backdrop" on:keydown=on_key>
            <div class="modal ask" role="dialog" aria-modal="true" aria-labelledby="ask-title" node_ref=dialog
                data-testid="elicitation-dialog" data-mode=mode data-request-id=id.to_string()>
                <h2 id="ask-title">{if mode == "url" { "The server asks you to visit a page" } else { "The server asks for information" }}</h2>
                {provenance(id.to_string(), "elicitation/create", waiting)}
                <p class="ask-message">{message}</p>
                {body}
                <div class="actions">
                    <span class="hint small">"Esc cancels"</span>
                    <button class="button" data-testid="elicitation-cancel" title="Dismiss without choosing: the server may ask again"
                        on:click=move |_| cancel(ElicitAnswer::Cancel)>"Cancel"</button>
                    <button class="button" data-testid="elicitation-decline" title="Refuse to provide it"
                        on:click=move |_| decline(ElicitAnswer::Decline)>"Decline"</button>
                    <button class="button primary" data-testid="elicitation-accept" prop:disabled=told
                        title=move || if told() {
                            "Fix the problems above first"
                        } else if mode == "url" {
                            "Tell the server you agree to visit the address"
                        } else {
                            "Send what the form holds"
                        }
                        on:click=accept>"Accept"</button>
                </div>
            </div>
        </div>
    }
}

/// URL mode: the address as text and an explicit button; nothing opens by itself, and only
/// web addresses are offered to open.
fn url_view(url: String) -> impl IntoView {
    let web = url.starts_with("https://") || url.starts_with("http://");
    view! {
        <div class="field-label">"Address"</div>
        <pre class="code ask-url" data-testid="elicitation-url">{url.clone()}</pre>
        {if web {
            view! {
                <p class="hint small">"Nothing opens by itself: read the address, open it yourself, and accept to tell the server you agreed."</p>
                <a class="button" data-testid="elicitation-open" href=url target="_blank" rel="noopener noreferrer">"Open in a new tab"</a>
            }.into_any()
        } else {
            view! { <p class="error-text">"This is not a web address (http or https), so it is not offered to open."</p> }.into_any()
        }}
    }
}

#[component]
fn SamplingDialog(id: Id, request: SamplingRequest, waiting: Signal<usize>) -> impl IntoView {
    let store = expect_context::<Store>();
    let reply = RwSignal::new(String::new());
    let answer = {
        let id = id.clone();
        move |a: SampleAnswer| store.answer_sampling(id.clone(), a)
    };
    let (send, decline) = (answer.clone(), answer.clone());
    let send = move || {
        let text = reply.get_untracked();
        if !text.trim().is_empty() {
            send(SampleAnswer::Reply(text));
        }
    };
    let dialog = NodeRef::new();
    let on_key = {
        let (send, decline) = (send.clone(), decline.clone());
        let keys =
            super::modal::own_keyboard(dialog, "[data-testid=sampling-reply]", move || decline(SampleAnswer::Decline));
        move |ev: web_sys::KeyboardEvent| {
            if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                ev.prevent_default();
                ev.stop_propagation();
                send();
            } else {
                keys(ev);
            }
        }
    };
    let messages = request
        .messages
        .iter()
        .map(|m| {
            view! {
                <div class="sampling-message" data-role=m.role.clone()>
                    <span class="badge">{m.role.clone()}</span>
                    <div class="sampling-text">{m.text.clone()}</div>
                </div>
            }
        })
        .collect_view();
    let limit = request.max_tokens.map(|n| format!("up to {n} tokens"));
    let tools = (!request.tools.is_empty()).then(|| {
        let names = request.tool_names();
        let json = pretty(&serde_json::Value::Array(request.tools.clone()));
        view! {
            <details class="ask-section">
                <summary>"Tools offered to the model: " <span class="mono">{names.join(", ")}</span></summary>
                <pre class="code">{json}</pre>
            </details>
        }
    });
    view! {
        <div class="modal-backdrop" on:keydown=on_key>
            <div class="modal ask" role="dialog" aria-modal="true" aria-labelledby="ask-title" node_ref=dialog
                data-testid="sampling-dialog" data-request-id=id.to_string()>
                <h2 id="ask-title">"The server asks for a model's reply"</h2>
                {provenance(id.to_string(), "sampling/createMessage", waiting)}
                <p class="hint small">"You are the model: read the conversation and write the assistant's answer, or decline."</p>
                {request.system_prompt.map(|p| view! {
                    <div class="field-label">"System prompt"</div>
                    <div class="sampling-system">{p}</div>
                })}
                <div class="field-label">"Conversation " <span class="hint">{limit}</span></div>
                <div class="sampling-messages">{messages}</div>
                {request.model_preferences.map(|p| view! {
                    <details class="ask-section">
                        <summary>"Model preferences"</summary>
                        <pre class="code">{pretty(&p)}</pre>
                    </details>
                })}
                {tools}
                <label class="field-label" for="sampling-reply">"Your reply, as the assistant"</label>
                <textarea id="sampling-reply" class="input" data-testid="sampling-reply" rows="4"
                    prop:value=move || reply.get() on:input=move |ev| reply.set(event_target_value(&ev))></textarea>
                <div class="actions">
                    <span class="hint small">"Esc declines · Ctrl+Enter sends"</span>
                    <button class="button" data-testid="sampling-decline" on:click=move |_| decline(SampleAnswer::Decline)>"Decline"</button>
                    <button class="button primary" data-testid="sampling-send" prop:disabled=move || reply.with(|r| r.trim().is_empty())
                        on:click=move |_| send()>"Send reply"</button>
                </div>
            </div>
        </div>
    }
}

/// The `roots-editor`: the roots `roots/list` answers with, one URI per line, kept in this
/// browser; a connected server is told when they change.
#[component]
pub fn RootsEditor() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <label class="field-label" for="roots">"Roots " <span class="hint">"one URI per line, offered to the server"</span></label>
        <textarea id="roots" class="input mono" data-testid="roots-editor" rows="2" spellcheck="false"
            placeholder="none, e.g. file:///home/me/project"
            prop:value=move || store.asks.roots_text.get()
            on:change=move |ev| store.set_roots_text(event_target_value(&ev))></textarea>
        {move || store.asks.roots_error.get().map(|e| view! { <p class="error-text small" role="alert">{e}</p> })}
    }
}
