//! The prompts view: the list (every page), the picked prompt's argument form (required
//! marks, descriptions, completions), and `prompts/get` as a conversation: each message's
//! role and content, rendered as a tool result's content is.

use leptos::prelude::*;
use shared::catalog::{Got, ListKind, Target};
use shared::mcp::catalog::{GetPromptResult, Prompt};
use shared::render::Item;

use super::catalog_list::{ListHead, on_list_key};
use super::completion::{CompletedField, FieldInfo};
use super::icon::ItemIcon;
use super::result::content::ContentItem;
use crate::store::{ConnState, Store};

lazy_view!(
    /// [`PromptList`], in a chunk of its own loaded on first use.
    prompt_list() => view! { <PromptList /> }.into_any()
);

#[component]
pub fn PromptList() -> impl IntoView {
    let store = expect_context::<Store>();
    let data = store.catalog.data;
    let prompts = move || data.with(|c| c.prompts.items.clone());
    let count = Signal::derive(move || data.with(|c| c.prompts.items.len()).to_string());
    let loading = Signal::derive(move || data.with(|c| c.is_loading(ListKind::Prompts)));
    let disabled = Signal::derive(move || store.conn.get() != ConnState::Connected || store.in_playback());
    view! {
        <section class="panel tools prompts">
            <ListHead title="Prompts" count loading disabled refresh_title="List the prompts again"
                on_refresh=move || store.list_again(ListKind::Prompts) />
            {move || data.with(|c| c.prompts.error.clone()).map(|e| view! { <p class="error-text">{e}</p> })}
            <ul class="tool-list" id="prompt-list" role="listbox" aria-label="Prompts"
                on:keydown=move |ev| on_list_key("#prompt-list", ev)>
                <For each=prompts key=|p| p.name.clone() let:prompt>
                    <PromptItem prompt />
                </For>
            </ul>
            <Show when=move || !loading.get() && data.with(|c| c.prompts.loaded && c.prompts.items.is_empty())>
                <p class="empty">"This server lists no prompts."</p>
            </Show>
        </section>
    }
}

#[component]
fn PromptItem(prompt: Prompt) -> impl IntoView {
    let store = expect_context::<Store>();
    let name = prompt.name.clone();
    let selected = {
        let name = name.clone();
        move || store.catalog.prompt.with(|p| p.as_deref() == Some(name.as_str()))
    };
    let display = prompt.display_name().to_owned();
    let pick = name.clone();
    let args = prompt.arguments.len();
    view! {
        <li class="tool-item" role="option" tabindex="0" data-testid="prompt-item" data-prompt-name=name.clone()
            title=prompt.description.clone().unwrap_or_default()
            class:selected=selected.clone() aria-selected=move || selected().to_string()
            on:click=move |_| store.pick_prompt(pick.clone())>
            <ItemIcon icons=prompt.icons.clone() />
            <span class="tool-title">{display.clone()}</span>
            {(display != name).then(|| view! { <span class="tool-name mono">{name.clone()}</span> })}
            {(args > 0).then(|| view! {
                <span class="tool-badges"><span class="badge">{format!("{args} argument{}", if args == 1 { "" } else { "s" })}</span></span>
            })}
        </li>
    }
}

lazy_view!(
    /// [`PromptPanel`], in a chunk of its own loaded on first use.
    prompt_panel() => view! { <PromptPanel /> }.into_any()
);

#[component]
pub fn PromptPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    // Rebuilt when the prompt changes, not on every change of the catalog (a completion
    // answered must not take the form, and its focus, away).
    let picked = Memo::new(move |_| {
        let name = store.catalog.prompt.get()?;
        Some(store.catalog.data.with(|c| c.prompts.items.iter().find(|p| p.name == name).cloned()).ok_or(name))
    });
    view! {
        <div class="call-panel">
            {move || match picked.get() {
                Some(Ok(prompt)) => view! { <PromptDetail prompt /> }.into_any(),
                Some(Err(name)) => view! {
                    <div class="panel empty-state"><h2>{name}</h2><p>"This prompt is not in the server's list."</p></div>
                }
                .into_any(),
                None => view! {
                    <div class="panel empty-state">
                        <h2>"Pick a prompt"</h2>
                        <p>"Choose a prompt on the left, fill its arguments, and get its messages."</p>
                    </div>
                }
                .into_any(),
            }}
            <Messages />
        </div>
    }
}

#[component]
fn PromptDetail(prompt: Prompt) -> impl IntoView {
    let store = expect_context::<Store>();
    let live = move || store.conn.get() == ConnState::Connected && !store.in_playback();
    let missing = {
        let prompt = prompt.clone();
        move || store.catalog.arguments.with(|v| prompt.missing(v))
    };
    let missing2 = missing.clone();
    let name = prompt.name.clone();
    let loading = move || store.catalog.data.with(|c| matches!(c.prompts_got.get(&name), Some(Got::Loading)));
    let fields = prompt
        .arguments
        .iter()
        .map(|a| {
            let label = a
                .title
                .clone()
                .filter(|t| *t != a.name)
                .map_or_else(|| a.name.clone(), |t| format!("{} ({t})", a.name));
            let info =
                FieldInfo { name: a.name.clone(), label, description: a.description.clone(), required: a.required };
            view! { <CompletedField target=Target::Prompt(prompt.name.clone()) info /> }
        })
        .collect_view();
    let none = prompt.arguments.is_empty();
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) && live() {
            ev.prevent_default();
            store.get_prompt();
        }
    };
    view! {
        <section class="panel tool-detail" data-testid="prompt-detail" on:keydown=on_key>
            <div class="detail-head">
                <h2 class="detail-title">{prompt.display_name().to_owned()}</h2>
                <span class="tool-name mono">{prompt.name.clone()}</span>
            </div>
            {prompt.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            <div class="tool-form" data-testid="prompt-form">
                {none.then(|| view! { <p class="small muted">"This prompt takes no arguments."</p> })}
                {fields}
            </div>
            <div class="call-row">
                {move || {
                    let m = missing();
                    (!m.is_empty()).then(|| view! { <span class="small muted">{format!("Required: {}", m.join(", "))}</span> })
                }}
                <span class="spacer"></span>
                <button class="button primary" data-testid="prompt-get" title="prompts/get (Ctrl+Enter)"
                    prop:disabled=move || !live() || !missing2().is_empty() || loading()
                    on:click=move |_| store.get_prompt()>"Get prompt"</button>
            </div>
        </section>
    }
}

/// The picked prompt's messages as a conversation.
#[component]
fn Messages() -> impl IntoView {
    let store = expect_context::<Store>();
    let got = Memo::new(move |_| {
        let name = store.catalog.prompt.get()?;
        store.catalog.data.with(|c| c.prompts_got.get(&name).cloned())
    });
    move || {
        Some(match got.get()? {
            Got::Loading => view! { <section class="panel result"><p class="muted">"Getting the prompt…"</p></section> }.into_any(),
            Got::Failed(e) => view! {
                <section class="panel result" data-testid="prompt-messages" data-state="error"><p class="error-text">{e}</p></section>
            }
            .into_any(),
            Got::Done(result) => view! { <Conversation result /> }.into_any(),
        })
    }
}

#[component]
fn Conversation(result: GetPromptResult) -> impl IntoView {
    let n = result.messages.len();
    view! {
        <section class="panel result" data-testid="prompt-messages" data-state="ok">
            <div class="panel-head">
                <h2 class="panel-title">"Messages"</h2>
                <span class="muted small">{format!("{n} message{}", if n == 1 { "" } else { "s" })}</span>
            </div>
            {result.description.map(|d| view! { <p class="description">{d}</p> })}
            {(n == 0).then(|| view! { <p class="small muted">"The server returned no messages."</p> })}
            <ol class="conversation">
                {result.messages.into_iter().map(|m| {
                    let role = m.role.clone();
                    let class = format!("prompt-message role-{}", if role == "assistant" { "assistant" } else { "user" });
                    view! {
                        <li class=class
                            data-testid="prompt-message" data-role=role>
                            <span class="role">{m.role}</span>
                            <ContentItem item=Item::of(&m.content) />
                        </li>
                    }
                }).collect_view()}
            </ol>
        </section>
    }
}
