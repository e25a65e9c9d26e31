//! The call's task, where its server made one: its status and message as they change, the
//! statuses it went through, its id, time to live and polling pace.

use leptos::prelude::*;
use shared::timeline::clock;

use crate::store::Store;

/// The task of the call of `tool`, if it is the one the session follows.
#[component]
pub fn TaskStatusLine(tool: String) -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        let run = store.calls.task.get().filter(|r| r.tool == tool)?;
        let status = run.status().as_str();
        let message = run.info.status_message.clone().unwrap_or_default();
        let ttl = run.info.ttl_ms.map_or_else(|| "kept indefinitely".to_owned(), |t| format!("TTL {}", clock::took(t)));
        let facts = format!("task {} · {ttl} · polled every {}", run.info.task_id, clock::took(run.interval_ms()));
        let start = run.history.first().map_or(0.0, |c| c.at_ms);
        let history = run
            .history
            .iter()
            .map(|c| {
                let at = clock::elapsed(c.at_ms - start);
                let said = c.message.clone().unwrap_or_default();
                view! {
                    <li data-status=c.status.as_str()>
                        <span class="mono small muted">{at}</span>
                        <span class=format!("task-dot status-{}", c.status.as_str())></span>
                        <span class="small">{c.status.as_str().replace('_', " ")}</span>
                        <span class="small muted">{said}</span>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <div class="task-status" data-testid="task-status" data-task-id=run.info.task_id.clone() data-status=status>
                <div class="task-now">
                    <span class=format!("state-badge status-{status}")>{status.replace('_', " ")}</span>
                    <span class="task-message">{message}</span>
                </div>
                <div class="hint small mono">{facts}</div>
                <ol class="task-history" aria-label="The task's statuses">{history}</ol>
            </div>
        })
    }
}
