//! The tasks panel's actions: the connection's tasks listed (at connect, where the server
//! lists them, and on Refresh), one looked at, its outcome fetched, or cancelled.

use leptos::prelude::*;
use shared::client::TaskRequest;

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

    /// Picks a task: its tool, when a call of this page started it (the call shows the
    /// task); otherwise its status is asked again and its outcome fetched.
    pub fn open_task(self, task_id: &str) {
        let known = self.calls.book.with_untracked(|b| b.get(task_id).cloned());
        let Some(known) = known else { return };
        if let Some(tool) = known.tool.filter(|t| self.tools.with_untracked(|ts| ts.iter().any(|x| &x.name == t))) {
            return self.select_tool(tool);
        }
        let request = if known.info.status.is_terminal() {
            TaskRequest::Result(task_id.into())
        } else {
            TaskRequest::Get(task_id.into())
        };
        if let Err(e) = self.act(|s| s.ask_task(request)) {
            self.act(|s| s.notice(e.to_string()));
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

    /// Shows the timeline rows of one task (its id as the filter).
    pub fn task_rows(self, task_id: &str) {
        self.timeline_filter.set(task_id.to_owned());
    }
}
