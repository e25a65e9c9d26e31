//! The tasks panel (`tasks-panel`): the connection's tasks, those its calls started and
//! those `tasks/list` named, each with its tool, status, age and time to live left. Picking
//! one goes to its tool (or fetches its outcome); a running one can be cancelled; its rows
//! in the timeline are one click away.

use leptos::prelude::*;
use shared::client::CallOutcome;
use shared::tasks::KnownTask;
use shared::timeline::clock;

use crate::store::Store;

lazy_view!(
    /// [`TasksPanel`], in a chunk of its own loaded on first use.
    tasks_panel() => view! { <TasksPanel /> }.into_any()
);

#[component]
pub fn TasksPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let lists = move || store.server.with(|s| s.as_ref().is_some_and(|s| s.task_list));
    let shown = move || {
        store.server.with(|s| s.as_ref().is_some_and(|s| s.tool_tasks || s.task_list || s.task_extension))
            || store.calls.book.with(|b| !b.tasks().is_empty())
    };
    // Newest first; each task keeps its element while it changes (a focused button stays
    // focused as the task is polled).
    let ids =
        move || store.calls.book.with(|b| b.tasks().iter().rev().map(|t| t.info.task_id.clone()).collect::<Vec<_>>());
    let note = move || {
        store.calls.book.with(|b| match (&b.list_error, b.listing, b.tasks().is_empty()) {
            (Some(e), ..) => Some(format!("tasks/list failed: {e}")),
            (None, true, _) => Some("Listing…".to_owned()),
            (None, false, true) => Some("No tasks yet: a tool with a task badge starts one.".to_owned()),
            _ => None,
        })
    };
    view! {
        <Show when=shown>
            <section class="panel tasks" data-testid="tasks-panel">
                <div class="panel-head">
                    <h2 class="panel-title">"Tasks " <span class="count">{move || store.calls.book.with(|b| b.tasks().len())}</span></h2>
                    <Show when=lists>
                        <button class="button small ghost" title="Ask the server for its tasks (tasks/list)"
                            on:click=move |_| store.refresh_tasks()>"Refresh"</button>
                    </Show>
                </div>
                {move || note().map(|n| view! { <p class="hint small">{n}</p> })}
                <ul class="task-list">
                    <For each=ids key=|id| id.clone() let:id>
                        <TaskItem id />
                    </For>
                </ul>
            </section>
        </Show>
    }
}

#[component]
fn TaskItem(id: String) -> impl IntoView {
    let store = expect_context::<Store>();
    let known = {
        let id = id.clone();
        Memo::new(move |_| store.calls.book.with(|b| b.get(&id).cloned()))
    };
    let field = move |f: fn(&KnownTask) -> String| move || known.with(|k| k.as_ref().map(f).unwrap_or_default());
    let status = field(|t| t.info.status.as_str().to_owned());
    let running = move || known.with(|k| k.as_ref().is_some_and(|t| !t.info.status.is_terminal()));
    let tool = field(|t| t.tool.clone().unwrap_or_default());
    let meta = move || known.with(|k| k.as_ref().map(meta_line).unwrap_or_default());
    let (open_id, cancel_id, rows_id) = (id.clone(), id.clone(), id.clone());
    view! {
        <li class="task-item" data-testid="task-item" data-task-id=id.clone() data-status=status data-tool-name=tool>
            <button class="task-open" title="Go to its call, or fetch its outcome" on:click=move |_| store.open_task(&open_id)>
                <span class=move || format!("task-dot status-{}", status())></span>
                <span class="task-tool">{move || { let t = tool(); if t.is_empty() { "a task".to_owned() } else { t } }}</span>
                <span class="small muted">{move || status().replace('_', " ")}</span>
            </button>
            <div class="small muted task-meta">{meta}</div>
            {move || known.with(|k| k.as_ref().and_then(|t| t.info.status_message.clone()))
                .map(|m| view! { <div class="small task-said">{m}</div> })}
            {move || known.with(|k| k.as_ref().and_then(|t| t.outcome.as_ref().map(outcome_text)))
                .map(|o| view! { <pre class="task-outcome" data-testid="task-outcome">{o}</pre> })}
            <div class="task-actions">
                <button class="button small ghost" title="Show its messages in the timeline"
                    on:click=move |_| store.task_rows(&rows_id)>"Rows"</button>
                <Show when=running>
                    {let cancel_id = cancel_id.clone(); view! {
                        <button class="button small danger-outline" data-testid="task-cancel" title="Send tasks/cancel"
                            on:click=move |_| store.cancel_task(&cancel_id)>"Cancel"</button>
                    }}
                </Show>
            </div>
        </li>
    }
}

/// Its short id, its age by the server's `createdAt` where it reads (the wall clock), else
/// since this page heard of it, and the time to live left while it runs.
fn meta_line(task: &KnownTask) -> String {
    let created = task.info.created_at.as_deref().map(js_sys::Date::parse).filter(|t| t.is_finite());
    let age_ms = created.map_or(crate::store::now_ms() - task.first_seen_ms, |c| js_sys::Date::now() - c).max(0.0);
    let ttl = task
        .info
        .ttl_ms
        .filter(|_| !task.info.status.is_terminal())
        .map(|ttl| format!(" · TTL {} left", clock::took((ttl - age_ms).max(0.0))))
        .unwrap_or_default();
    let short: String = task.info.task_id.chars().take(10).collect();
    format!("{short} · {} ago{ttl}", clock::took(age_ms))
}

/// A task's outcome in a few lines: its text, or its error.
fn outcome_text(outcome: &CallOutcome) -> String {
    let text = match outcome {
        CallOutcome::Result { result, .. } => shared::render::terminal::call_result(result),
        CallOutcome::ProtocolError { error, .. } => shared::render::terminal::protocol_error(error),
        CallOutcome::Unreadable { error, .. } => format!("an unreadable result: {error}"),
    };
    let mut short: String = text.chars().take(OUTCOME_CHARS).collect();
    if text.chars().count() > OUTCOME_CHARS {
        short.push('…');
    }
    short
}

/// Characters of an outcome the panel shows.
const OUTCOME_CHARS: usize = 600;
