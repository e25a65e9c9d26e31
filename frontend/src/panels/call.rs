//! The selected tool: what it is (title, description, annotations, schemas), its arguments,
//! the Call button and the result.

use leptos::prelude::*;
use shared::mcp::Tool;
use shared::tasks::TaskSupport;

use super::form::ArgsEditor;
use super::json::JsonBlock;
use super::result::ResultPane;
use super::tools::Badges;
use crate::store::{CallState, ConnState, Store};

#[component]
pub fn CallPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let tool = move || {
        let name = store.selected.get()?;
        store.tools.with(|t| t.iter().find(|t| t.name == name).cloned())
    };
    view! {
        <div class="call-panel">
            {move || match tool() {
                Some(tool) => view! { <ToolDetail tool /> }.into_any(),
                None => view! { <EmptyState /> }.into_any(),
            }}
            // An App's view, its code fetched when the first view opens (never on the first
            // screen); the frame stays while the view lives.
            <Show when=move || store.apps.view.with(Option::is_some)>
                {super::later(super::app_view::app_view_panel())}
            </Show>
            <ResultPane />
        </div>
    }
}

#[component]
fn EmptyState() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <div class="panel empty-state">
            <h2>{move || if store.in_playback() {
                "A recorded session"
            } else if store.conn.get() == ConnState::Connected {
                "Pick a tool"
            } else {
                "Explore an MCP server"
            }}</h2>
            <p>{move || if store.in_playback() {
                "Step through it with → (← goes back) or press Play: each call and its result show here as they did."
            } else if store.conn.get() == ConnState::Connected {
                "Choose a tool on the left to see its schema, fill its arguments and call it."
            } else {
                "Connect to the built-in demo server or any stdio server. Every message appears in the timeline on the right."
            }}</p>
        </div>
    }
}

#[component]
fn ToolDetail(tool: Tool) -> impl IntoView {
    let store = expect_context::<Store>();
    let pending = move || matches!(store.call.get(), CallState::Pending { .. });
    // A recording plays back read-only: its calls are the ones it holds.
    let can_call = move || store.conn.get() == ConnState::Connected && !pending() && !store.in_playback();
    let invalid = move || store.args.violations.with(|v| !v.is_empty());
    // The form says nothing of problems until the person edited there or pressed Call.
    let told = move || store.args.shown.with(|v| !v.is_empty());
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) && can_call() {
            ev.prevent_default();
            store.call_selected(false);
        }
    };
    let annotations = tool.annotations.clone();
    view! {
        <section class="panel tool-detail" data-testid="tool-detail" data-tool-name=tool.name.clone() on:keydown=on_key>
            <div class="detail-head">
                <div>
                    <h2 class="detail-title"><super::icon::ItemIcon icons=tool.icons() test_id="tool-icon" size=24 />{tool.display_name().to_owned()}</h2>
                    <div class="tool-name mono">{tool.name.clone()}</div>
                </div>
                <div class="badges"><Badges tool=tool.clone() /></div>
            </div>
            {tool.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            <div class="schemas">
                <details>
                    <summary>"Input schema"</summary>
                    <JsonBlock value=tool.input_schema.clone() />
                </details>
                {tool.output_schema.clone().map(|s| view! {
                    <details><summary>"Output schema"</summary><JsonBlock value=s /></details>
                })}
                {annotations.map(|a| view! {
                    <details><summary>"Annotations"</summary>
                        <JsonBlock value=serde_json::to_value(&a).unwrap_or_default() />
                    </details>
                })}
            </div>
            <ArgsEditor />
            <div class="actions">
                <TaskChoice tool=tool.clone() />
                <Seconds class="timeout" label="Timeout" test_id="call-timeout" min="0.1"
                    title="Silence allowed before the call is cancelled; progress resets it"
                    value=store.calls.timeout_s set=move |v| store.calls.set_timeout(v) />
                <Show when=invalid>
                    <Show when=told>
                        <span class="hint small">"Fix the problems above, or send them as they are to see how the server copes."</span>
                    </Show>
                    <button class="button ghost" data-testid="send-anyway" prop:disabled=move || !can_call()
                        on:click=move |_| store.call_selected(true)>"Send anyway"</button>
                </Show>
                <button class="button primary" data-testid="call-button" prop:disabled=move || !can_call()
                    title=move || if invalid() { "The arguments do not match the input schema" } else { "Call the tool" }
                    on:click=move |_| store.call_selected(false)>
                    {move || if pending() { "Calling…" } else { "Call tool" }}
                </button>
            </div>
        </section>
    }
}

/// Whether the call runs as a task, and the time to live asked for: shown only where the
/// server takes tasks and the tool may run as one.
#[component]
fn TaskChoice(tool: Tool) -> impl IntoView {
    let store = expect_context::<Store>();
    let support = TaskSupport::of(&tool);
    let server_runs = move || store.server.with(|s| s.as_ref().is_some_and(|s| s.tool_tasks));
    let name = tool.name.clone();
    let on = {
        let name = name.clone();
        move || support == TaskSupport::Required || store.calls.as_task.with(|set| set.contains(&name))
    };
    let toggle = (support == TaskSupport::Optional).then(|| {
        let checked = on.clone();
        view! {
            <label class="task-toggle" title="Call now, and fetch the outcome later (tasks/get, tasks/result)">
                <input type="checkbox" data-testid="task-toggle" prop:checked=checked
                    on:change=move |ev| store.calls.set_as_task(&name, event_target_checked(&ev)) />
                <span class="small">"Run as task"</span>
            </label>
        }
    });
    let required = (support == TaskSupport::Required).then(
        || view! { <span class="hint small" title="The tool says it must run as a task">"Runs as a task"</span> },
    );
    (server_runs() && support != TaskSupport::Forbidden).then(|| {
        view! {
            {toggle}
            {required}
            <Show when=on.clone()>
                <Seconds class="timeout task-ttl" label="TTL" test_id="task-ttl" min="1"
                    title="How long the server should keep the task and its outcome"
                    value=store.calls.task_ttl_s set=move |v| store.calls.set_task_ttl(v) />
            </Show>
        }
    })
}

/// A number of seconds beside the Call button (the timeout, a task's TTL).
#[component]
fn Seconds(
    class: &'static str,
    label: &'static str,
    test_id: &'static str,
    min: &'static str,
    title: &'static str,
    value: RwSignal<f64>,
    set: impl Fn(f64) + 'static,
) -> impl IntoView {
    view! {
        <label class=class title=title>
            <span class="hint small">{label}</span>
            <input class="input compact number" type="number" min=min step="any" data-testid=test_id
                prop:value=move || value.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        set(v);
                    }
                } />
            <span class="hint small">"s"</span>
        </label>
    }
}
