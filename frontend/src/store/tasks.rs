//! The tasks panel's actions: the connection's tasks listed (at connect, where the server
//! lists them, and on Refresh), one looked at, its outcome fetched, or cancelled.

use leptos::prelude::*;
use shared::client::TaskRequest;
use shared::session::CallState;

use super::Store;

impl Store {
    /// Lists the server's tasks once connected, where it lists them.
    pub(super) fn list_tasks_if_kept(self) {
        if self.server.with_untracked(|s| s.as_ref().is_some_and(|s| s.task_list)) {
            self.refresh_tasks();
        }
    }

    /// `tasks/list`, every page; a refusal is said plainly.
    pub fn refresh_tasks(self) {
        if let Err(e) = self.act(shared::session::Session::list_tasks) {
            self.act(|s| s.notice(e.to_string()));
        }
    }

    /// Picks a task: the call that follows it, when it is the call under way; otherwise its
    /// tool is shown (when known), its status asked again and its outcome fetched (shown in
    /// the panel once it ends).
    pub fn open_task(self, task_id: &str) {
        let known = self.calls.book.with_untracked(|b| b.get(task_id).cloned());
        let Some(known) = known else { return };
        let followed = self.calls.task.with_untracked(|t| t.as_ref().is_some_and(|t| t.info.task_id == task_id))
            && self.call.with_untracked(CallState::is_pending);
        if let Some(tool) = known.tool.filter(|t| self.tools.with_untracked(|ts| ts.iter().any(|x| &x.name == t))) {
            self.select_tool(tool);
        }
        if followed || known.outcome.is_some() {
            return;
        }
        // How it stands now, and its outcome: at 2025-11-25 `tasks/result` answers once the
        // task ended; at 2026-07-28 the status carries the outcome.
        let stateless = self.server.with_untracked(|s| {
            s.as_ref().and_then(|s| s.negotiated).is_some_and(|n| n.revision == shared::revision::Revision::V2026_07_28)
        });
        let mut asks = vec![TaskRequest::Get(task_id.into())];
        if !stateless && known.info.status != shared::tasks::TaskStatus::Cancelled {
            asks.push(TaskRequest::Result(task_id.into()));
        }
        for request in asks {
            if let Err(e) = self.act(|s| s.ask_task(request)) {
                return self.act(|s| s.notice(e.to_string()));
            }
        }
    }

    /// Cancels a task: the pending call's own through the call, any other by `tasks/cancel`.
    pub fn cancel_task(self, task_id: &str) {
        let own = self.calls.task.with_untracked(|t| t.as_ref().is_some_and(|t| t.info.task_id == task_id));
        if own && self.call.with_untracked(|c| c.is_pending()) {
            return self.cancel_call();
        }
        if let Err(e) = self.act(|s| s.ask_task(TaskRequest::Cancel(task_id.into()))) {
            self.act(|s| s.notice(e.to_string()));
        }
    }

    /// Leaves the call's task running on the server, unwatched.
    pub fn stop_watching(self) {
        self.act(|s| {
            s.stop_watching();
        });
    }

    /// Shows the timeline rows of one task (its id as the filter).
    pub fn task_rows(self, task_id: &str) {
        self.timeline_filter.set(task_id.to_owned());
    }
}
