//! One task's life on the client, sans-IO: the statuses it went through, when to poll it
//! next (the server's interval, never faster than [`POLL_FLOOR_MS`], not while a person
//! answers its question, not once it ended), when to fetch its outcome, and whether its
//! time to live ran out. The session sends what [`TaskStep`] says and feeds the answers.

use super::{DEFAULT_POLL_MS, POLL_FLOOR_MS, TaskInfo, TaskStatus};

/// A status the task was seen in, with when the client learnt it.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusChange {
    /// The client's clock.
    pub at_ms: f64,
    pub status: TaskStatus,
    pub message: Option<String>,
}

/// What the client sends next for a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStep {
    /// `tasks/get`: how it stands.
    Poll,
    /// `tasks/result`: its outcome (the server holds it until the task ends, and sends its
    /// questions meanwhile).
    FetchResult,
}

/// A task started by a call of `tool`, followed to its end.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRun {
    pub tool: String,
    /// What the server said last.
    pub info: TaskInfo,
    /// Every status seen, in order (a new message in the same status counts).
    pub history: Vec<StatusChange>,
    /// When the task was created, by the client's clock.
    pub created_ms: f64,
    next_poll_ms: f64,
    /// A `tasks/get` is out.
    polling: bool,
    /// A `tasks/result` is out.
    fetching: bool,
    /// A `tasks/cancel` is out.
    cancelling: bool,
    /// `tasks/get` requests sent.
    pub polls: u32,
    /// Its outcome comes with its status (2026-07-28): no `tasks/result` is asked for.
    pub inline: bool,
    /// `tasks/result` requests that failed without an answer.
    fetch_failures: u32,
    /// An ended inline task whose outcome did not come with its status was polled for it.
    outcome_polled: bool,
}

/// `tasks/result` is asked again this many times after failing to get through.
pub const FETCH_RETRIES: u32 = 3;

impl TaskRun {
    /// The task a call's answer created at `now_ms`, and what to send at once (its outcome,
    /// when it was created ended or waiting for input).
    pub fn new(tool: &str, info: TaskInfo, now_ms: f64) -> (TaskRun, Option<TaskStep>) {
        Self::started(tool, info, false, now_ms)
    }

    /// The same, `inline` when its outcome comes with its status (2026-07-28).
    pub fn started(tool: &str, info: TaskInfo, inline: bool, now_ms: f64) -> (TaskRun, Option<TaskStep>) {
        let mut run = TaskRun {
            tool: tool.to_owned(),
            history: Vec::new(),
            created_ms: now_ms,
            next_poll_ms: now_ms,
            polling: false,
            fetching: false,
            cancelling: false,
            polls: 0,
            inline,
            fetch_failures: 0,
            outcome_polled: false,
            info: info.clone(),
        };
        run.next_poll_ms = now_ms + run.interval_ms();
        let step = run.on_status(info, now_ms);
        (run, step)
    }

    /// How long between polls: the server's suggestion, never under the floor.
    pub fn interval_ms(&self) -> f64 {
        self.info.poll_interval_ms.unwrap_or(DEFAULT_POLL_MS).max(POLL_FLOOR_MS)
    }

    pub fn status(&self) -> TaskStatus {
        self.info.status
    }

    pub fn is_ended(&self) -> bool {
        self.info.status.is_terminal()
    }

    /// Whether a `tasks/cancel` is out.
    pub fn is_cancelling(&self) -> bool {
        self.cancelling
    }

    /// The server says how the task stands (a poll's answer, a notification, the answer to
    /// a cancel). A task that ended moves no more: a later word that it runs is ignored.
    pub fn on_status(&mut self, info: TaskInfo, now_ms: f64) -> Option<TaskStep> {
        if info.task_id != self.info.task_id || (self.is_ended() && !self.history.is_empty()) {
            return None;
        }
        let changed = self.history.last().is_none_or(|last| {
            last.status != info.status || (info.status_message.is_some() && last.message != info.status_message)
        });
        if changed {
            self.history.push(StatusChange {
                at_ms: now_ms,
                status: info.status,
                message: info.status_message.clone(),
            });
        }
        self.info = TaskInfo { ttl_ms: info.ttl_ms.or(self.info.ttl_ms), ..info };
        // A cancelled task has no outcome to fetch: its status is its end.
        let wants_outcome = !self.inline
            && matches!(self.info.status, TaskStatus::Completed | TaskStatus::Failed | TaskStatus::InputRequired);
        (wants_outcome && !self.fetching).then(|| {
            self.fetching = true;
            TaskStep::FetchResult
        })
    }

    /// `tasks/result` gave the outcome (answered only once the task ended): a task whose
    /// end no poll saw ends now, completed or failed as its outcome says.
    pub fn outcome_arrived(&mut self, failed: bool, now_ms: f64) {
        if self.is_ended() {
            return;
        }
        let status = if failed { TaskStatus::Failed } else { TaskStatus::Completed };
        self.info.status = status;
        self.history.push(StatusChange { at_ms: now_ms, status, message: None });
    }

    /// A poll was answered (or failed): the next one waits its interval.
    pub fn poll_answered(&mut self, now_ms: f64) {
        self.polling = false;
        self.next_poll_ms = now_ms + self.interval_ms();
    }

    /// `tasks/result` got no answer through: asked again when the task ends, or at once
    /// (a few times) when it ended already.
    pub fn fetch_failed(&mut self) -> Option<TaskStep> {
        self.fetching = false;
        self.fetch_failures += 1;
        (self.is_ended() && self.fetch_failures <= FETCH_RETRIES).then(|| {
            self.fetching = true;
            TaskStep::FetchResult
        })
    }

    /// An inline task (2026-07-28) that ended with no outcome in its status: one more poll
    /// for it, once.
    pub fn poll_for_outcome(&mut self) -> Option<TaskStep> {
        let wanted = self.inline
            && matches!(self.info.status, TaskStatus::Completed | TaskStatus::Failed)
            && !self.outcome_polled
            && !self.polling;
        wanted.then(|| {
            self.outcome_polled = true;
            self.polling = true;
            self.polls += 1;
            TaskStep::Poll
        })
    }

    /// What to send at `now_ms`: a poll when one is due, none while a person is `asking`,
    /// while a poll is out, or once the task ended.
    pub fn due(&mut self, now_ms: f64, asking: bool) -> Option<TaskStep> {
        if self.wake_ms(asking).is_none_or(|at| now_ms < at) {
            return None;
        }
        self.polling = true;
        self.polls += 1;
        Some(TaskStep::Poll)
    }

    /// When [`due`](Self::due) has something next; `None` while nothing can be due.
    pub fn wake_ms(&self, asking: bool) -> Option<f64> {
        (!self.is_ended() && !asking && !self.polling).then_some(self.next_poll_ms)
    }

    /// The time to live left at `now_ms`; `None` when the server keeps it indefinitely.
    pub fn ttl_left_ms(&self, now_ms: f64) -> Option<f64> {
        self.info.ttl_ms.map(|ttl| self.created_ms + ttl - now_ms)
    }

    /// Whether it outlived its time to live without ending.
    pub fn expired(&self, now_ms: f64) -> bool {
        !self.is_ended() && self.ttl_left_ms(now_ms).is_some_and(|left| left <= 0.0)
    }

    /// A cancel goes out; false when one is out already or the task ended.
    pub fn start_cancel(&mut self) -> bool {
        if self.cancelling || self.is_ended() {
            return false;
        }
        self.cancelling = true;
        true
    }

    /// The cancel was answered (or refused).
    pub fn cancel_answered(&mut self) {
        self.cancelling = false;
    }
}
