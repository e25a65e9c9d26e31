//! The pending call as a task (2025-11-25): sent as one when its tool, its server and the
//! person agree; then polled at the server's pace (`tasks/get`), its outcome fetched with
//! `tasks/result`, cancelled with `tasks/cancel`, and given up on when its time to live
//! runs out. Played back, the recorded requests stand for all of it and nothing is sent.

use super::{CallState, ConnState, Refused, Session, Update};
use crate::client::TaskRequest;
use crate::client::pages::Next;
use crate::revision::Revision;
use crate::tasks::{self, TaskBook, TaskRun, TaskStatus, TaskStep};

impl Session {
    /// Runs `tool` as a task where it may (its "Run as task" switch), or not.
    pub fn set_run_as_task(&mut self, tool: &str, on: bool) {
        self.call.set_wants_task(tool, on);
        self.changed.call = true;
    }

    /// The time to live tasks are asked for, in milliseconds.
    pub fn set_task_ttl_ms(&mut self, ttl_ms: f64) {
        self.call.set_task_ttl_ms(ttl_ms.max(1000.0));
    }

    /// The task of the pending (or last) call, if it became one.
    pub fn task(&self) -> Option<&TaskRun> {
        self.call.task()
    }

    /// Whether a call of `tool` goes as a task now.
    pub fn runs_as_task(&self, tool: &str) -> bool {
        let server_runs = self.server.as_ref().is_some_and(|s| s.tool_tasks);
        self.tool(tool).is_some_and(|t| tasks::call_as_task(t, server_runs, self.call.wants_task(tool)))
    }

    /// When the task wants its next poll; `None` while it cannot (ended, a poll out, a
    /// person answering its question) or when no task runs. Its time to live counts too.
    pub(super) fn task_wake_ms(&self) -> Option<f64> {
        let run = self.call.task().filter(|_| self.call.pending().is_some() && !self.playback)?;
        let poll = run.wake_ms(!self.asks.is_empty());
        let ttl_end = run.info.ttl_ms.map(|ttl| run.created_ms + ttl).filter(|_| !run.is_ended());
        [poll, ttl_end].into_iter().flatten().reduce(f64::min)
    }

    /// The clock moved: a poll that is due goes out; a task past its time to live is lost.
    pub(super) fn tick_task(&mut self, now_ms: f64) {
        if self.playback || self.call.pending().is_none() {
            return;
        }
        let asking = !self.asks.is_empty();
        let Some(run) = self.call.task_mut() else { return };
        if run.expired(now_ms) {
            let message = match run.info.ttl_ms {
                Some(ttl) => {
                    format!("the task outlived its time to live ({}) without ending", crate::timeline::clock::took(ttl))
                }
                None => "the task outlived its time to live".to_owned(),
            };
            let tool = run.tool.clone();
            return self.set_call(CallState::TaskLost { tool, message });
        }
        if let Some(step) = run.due(now_ms, asking) {
            let task_id = run.info.task_id.clone();
            self.send_task_step(step, task_id);
        }
    }

    /// The call's task ended, was cancelled, lost or left: its questions still waiting for
    /// the person go too (nobody will read the answers).
    pub(super) fn drop_task_questions(&mut self) {
        let Some(task_id) = self.call.task().map(|r| r.info.task_id.clone()) else { return };
        let gone = self.client.forget_task_questions(&task_id);
        let before = self.asks.len();
        self.asks.retain(|a| !gone.contains(&a.id));
        self.changed.asks |= self.asks.len() != before;
    }

    /// The person stops watching the pending call's task: polling stops, the task goes on
    /// on the server and stays in the tasks panel. False when the call is no running task.
    pub fn stop_watching(&mut self) -> bool {
        if self.playback {
            return false;
        }
        let Some(run) = self.call.task().filter(|r| !r.is_ended() && self.call.pending().is_some()) else {
            return false;
        };
        let (tool, task_id) = (run.tool.clone(), run.info.task_id.clone());
        self.set_call(CallState::Unwatched { tool, task_id });
        true
    }

    /// The person cancels the pending call: a task gets `tasks/cancel`, and stays pending
    /// until the server answers. False when the call is no task (yet).
    pub(super) fn cancel_task(&mut self) -> bool {
        if self.playback {
            return true;
        }
        let Some(run) = self.call.task_mut().filter(|r| !r.is_ended()) else { return false };
        if run.start_cancel() {
            let task_id = run.info.task_id.clone();
            let frame = self.client.task_request(TaskRequest::Cancel(task_id));
            self.send_frame(frame);
            self.changed.call = true;
        }
        true
    }

    /// The tasks known of the connection (its calls', and those `tasks/list` named).
    pub fn task_book(&self) -> &TaskBook {
        &self.book
    }

    /// Asks the server for its tasks (`tasks/list`, every page); refused when it lists none.
    pub fn list_tasks(&mut self) -> Result<(), Refused> {
        if self.conn != ConnState::Connected || self.playback {
            return Err(Refused::NotConnected);
        }
        if !self.server.as_ref().is_some_and(|s| s.task_list) {
            return Err(Refused::Unsupported("the server does not list its tasks (no tasks.list capability)"));
        }
        if !self.book.listing {
            self.book.listing = true;
            self.book.pages = Default::default();
            let frame = self.client.task_request(TaskRequest::List(None));
            self.send_frame(frame);
            self.changed.tasks = true;
        }
        Ok(())
    }

    /// Asks about any task of the connection: `tasks/get`, `tasks/result` or `tasks/cancel`.
    /// The pending call's own task is cancelled with [`cancel_call`](Self::cancel_call).
    pub fn ask_task(&mut self, request: TaskRequest) -> Result<(), Refused> {
        if self.conn != ConnState::Connected || self.playback {
            return Err(Refused::NotConnected);
        }
        let frame = self.client.task_request(request);
        self.send_frame(frame);
        Ok(())
    }

    pub(super) fn on_task_update(&mut self, update: Update, now_ms: f64) {
        self.changed.tasks = true;
        match update {
            Update::TasksListed { tasks, next_cursor } => {
                match tasks {
                    Ok(tasks) => {
                        self.book.list_error = None;
                        for t in tasks {
                            self.book.seen(t, None, now_ms);
                        }
                    }
                    Err(e) => self.book.list_error = Some(e),
                }
                // Paged as every list is; a failed page ends the listing.
                let next = next_cursor.filter(|_| self.book.list_error.is_none());
                match self.book.pages.read("tasks/list", next) {
                    Next::Page(cursor) => {
                        let frame = self.client.task_request(TaskRequest::List(Some(cursor)));
                        self.send_frame(frame);
                    }
                    Next::Done => self.book.listing = false,
                    Next::Stopped(why) => {
                        self.book.listing = false;
                        self.notice(why);
                    }
                }
            }
            Update::TaskCreated { id, task } => {
                let Some(tool) = self.call.tool_of(&id).map(str::to_owned) else { return };
                self.book.seen(task.clone(), Some(&tool), now_ms);
                let inline = self.negotiated().is_some_and(|n| n.revision == Revision::V2026_07_28);
                let (run, step) = TaskRun::started(&tool, task, inline, now_ms);
                let task_id = run.info.task_id.clone();
                self.call.became_task(run);
                self.changed.call = true;
                self.after_status(step, task_id, true);
            }
            Update::TaskStatus { task, polled, outcome } => {
                self.book.seen(task.clone(), None, now_ms);
                let outcome_due = outcome.is_none();
                // 2026-07-28: an ended task brings its outcome along.
                if let Some(outcome) = outcome {
                    let task_id = task.task_id.clone();
                    self.status_seen(task, polled, false, now_ms);
                    return self.on_task_update(Update::TaskOutcome { task_id, outcome }, now_ms);
                }
                self.status_seen(task, polled, outcome_due, now_ms);
            }
            Update::TaskPollFailed { task_id, message, lost } => {
                let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task_id) else {
                    return self.notice(format!("tasks/get of {task_id} failed: {message}"));
                };
                run.poll_answered(now_ms);
                let tool = run.tool.clone();
                // A poll that did not get through is tried again at the next interval.
                if !lost {
                    return self.notice(format!("a poll of task {task_id} failed ({message}); polling goes on"));
                }
                if self.call.pending().is_some() {
                    let message = format!("the server no longer knows the task {task_id}: {message}");
                    self.set_call(CallState::TaskLost { tool, message });
                }
            }
            Update::TaskFetchFailed { task_id } => {
                let pending = self.call.pending().is_some();
                let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task_id) else { return };
                let (step, ended, tool) = (run.fetch_failed(), run.is_ended(), run.tool.clone());
                match step {
                    Some(step) => self.send_task_step(step, task_id),
                    None if ended && pending => {
                        let message =
                            format!("the task ended, but its outcome could not be fetched (tasks/result of {task_id})");
                        self.set_call(CallState::TaskLost { tool, message });
                    }
                    None => {}
                }
            }
            // The cancel was taken (2026-07-28). The server need not ever say `cancelled`, so
            // the call ends here; the task stays in the tasks panel.
            Update::TaskCancelAcked { task_id } => {
                let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task_id) else { return };
                run.cancel_answered();
                let tool = run.tool.clone();
                if self.call.pending().is_some() {
                    let reason = "cancelled by the user: the server took the cancel (the task may still end otherwise)";
                    self.set_call(CallState::Cancelled { tool, reason: reason.into() });
                }
            }
            Update::TaskCancelRefused { task_id, message } => {
                if let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task_id) {
                    run.cancel_answered();
                }
                // The race: it ended while the cancel was on its way; its outcome comes.
                self.notice(format!("the task {task_id} could not be cancelled: {message}"));
            }
            Update::TaskOutcome { task_id, outcome } => {
                self.book.outcome(&task_id, outcome.clone());
                // A tool error fails a task too (2025-11-25).
                let failed = match &outcome {
                    crate::client::CallOutcome::Result { result, .. } => result.is_error == Some(true),
                    _ => true,
                };
                let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task_id) else { return };
                run.outcome_arrived(failed, now_ms);
                let created_ms = run.created_ms;
                self.changed.call = true;
                let Some((id, _)) = self.call.pending() else { return };
                let id = id.clone();
                let took = Some(now_ms - created_ms).filter(|d| *d >= 0.0 && !self.playback);
                self.update(Update::CallDone { id, outcome }, took, now_ms);
            }
            _ => {}
        }
    }

    /// A status of the call's task: recorded, and what it asks for done.
    fn status_seen(&mut self, task: crate::tasks::TaskInfo, polled: bool, outcome_due: bool, now_ms: f64) {
        let Some(run) = self.call.task_mut().filter(|r| r.info.task_id == task.task_id) else { return };
        let step = run.on_status(task, now_ms);
        if polled {
            run.poll_answered(now_ms);
        }
        let task_id = run.info.task_id.clone();
        self.changed.call = true;
        self.after_status(step, task_id, outcome_due);
    }

    /// What a new status of the task asks for: its outcome, or the end of a cancelled call.
    /// (`outcome_due`: no outcome came with this status.)
    fn after_status(&mut self, step: Option<TaskStep>, task_id: String, outcome_due: bool) {
        // An inline task (2026-07-28) that ended without its outcome: polled once more for it.
        let step = step.or_else(|| self.call.task_mut().filter(|_| outcome_due).and_then(TaskRun::poll_for_outcome));
        let Some(run) = self.call.task() else { return };
        if run.status() == TaskStatus::Cancelled && self.call.pending().is_some() {
            let by_person = run.is_cancelling();
            let said = run.info.status_message.clone().map(|m| format!(": {m}")).unwrap_or_default();
            let who = if by_person { "cancelled by the user" } else { "the server cancelled the task" };
            let (tool, reason) = (run.tool.clone(), format!("{who}{said}"));
            if let Some(run) = self.call.task_mut() {
                run.cancel_answered();
            }
            return self.set_call(CallState::Cancelled { tool, reason });
        }
        if let Some(step) = step {
            self.send_task_step(step, task_id);
        }
    }

    fn send_task_step(&mut self, step: TaskStep, task_id: String) {
        if self.playback {
            return;
        }
        let request = match step {
            TaskStep::Poll => TaskRequest::Get(task_id),
            TaskStep::FetchResult => TaskRequest::Result(task_id),
        };
        let frame = self.client.task_request(request);
        self.send_frame(frame);
    }
}
