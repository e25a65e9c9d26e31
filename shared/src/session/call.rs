//! The call in flight, or the last one made: its state, its clock and its progress, apart
//! from the rest of the session. A call backed by a task, or made by an app's view, is one
//! more of these.

use std::collections::HashSet;

use super::{CallLimits, CallState, Progress};
use crate::calls::{Deadline, Expiry};
use crate::jsonrpc::Id;
use crate::tasks::{DEFAULT_TTL_MS, TaskRun};

/// Tools whose last finished call is kept (the result pane shows a picked tool's own).
const KEPT: usize = 32;

/// One tool call and its clock.
#[derive(Debug, Clone)]
pub struct Call {
    state: CallState,
    /// The last finished call of each tool called lately, the newest first.
    last: Vec<CallState>,
    /// Running while the call is pending, unless it was played back from a recording.
    deadline: Option<Deadline>,
    progress: Option<Progress>,
    /// The task the call runs as, once its server made one (kept after it ends, for its
    /// history, until the next call).
    task: Option<TaskRun>,
    /// Tools the person runs as tasks where they may (the "Run as task" switch, `--task`).
    as_task: HashSet<String>,
    /// The time to live a task is asked for.
    task_ttl_ms: f64,
}

impl Default for Call {
    fn default() -> Self {
        Self {
            state: CallState::default(),
            last: Vec::new(),
            deadline: None,
            progress: None,
            task: None,
            as_task: HashSet::new(),
            task_ttl_ms: DEFAULT_TTL_MS,
        }
    }
}

impl Call {
    pub fn state(&self) -> &CallState {
        &self.state
    }

    /// The call of `tool` to show: the one under way or the last that finished, if any.
    pub fn of_tool(&self, tool: &str) -> Option<&CallState> {
        if self.state.tool() == Some(tool) {
            return Some(&self.state);
        }
        self.last.iter().find(|c| c.tool() == Some(tool))
    }

    /// The latest progress of the pending call.
    pub fn progress(&self) -> Option<&Progress> {
        self.progress.as_ref()
    }

    /// The id and tool of the pending call.
    pub fn pending(&self) -> Option<(&Id, &str)> {
        match &self.state {
            CallState::Pending { id, tool } => Some((id, tool)),
            _ => None,
        }
    }

    /// Whether `id` is the pending call's.
    pub fn is_pending(&self, id: &Id) -> bool {
        self.tool_of(id).is_some()
    }

    /// The tool of the pending call, when `id` is its.
    pub fn tool_of(&self, id: &Id) -> Option<&str> {
        self.pending().filter(|(pending, _)| *pending == id).map(|(_, tool)| tool)
    }

    /// When the clock will next run out; `None` without a clock or while it stands still.
    pub fn due_ms(&self) -> Option<f64> {
        self.deadline.as_ref().filter(|d| !d.is_paused()).map(Deadline::due_ms)
    }

    /// The task of the pending (or last) call, if it became one.
    pub fn task(&self) -> Option<&TaskRun> {
        self.task.as_ref()
    }

    pub(super) fn task_mut(&mut self) -> Option<&mut TaskRun> {
        self.task.as_mut()
    }

    /// The server made a task of the pending call: the request's clock stops (a task
    /// answers to its time to live instead).
    pub(super) fn became_task(&mut self, run: TaskRun) {
        self.deadline = None;
        self.task = Some(run);
    }

    /// Whether the person runs `tool` as a task where it may.
    pub fn wants_task(&self, tool: &str) -> bool {
        self.as_task.contains(tool)
    }

    pub(super) fn set_wants_task(&mut self, tool: &str, on: bool) {
        if on {
            self.as_task.insert(tool.to_owned());
        } else {
            self.as_task.remove(tool);
        }
    }

    pub fn task_ttl_ms(&self) -> f64 {
        self.task_ttl_ms
    }

    pub(super) fn set_task_ttl_ms(&mut self, ttl_ms: f64) {
        self.task_ttl_ms = ttl_ms;
    }

    /// A call of `tool` was sent as `id`; `limits` start its clock (standing still from the
    /// start when `paused`: the server already waits on a person), `None` runs none.
    pub(super) fn start(&mut self, id: Id, tool: String, limits: Option<CallLimits>, paused: bool, now_ms: f64) {
        self.progress = None;
        self.task = None;
        self.deadline = limits.map(|l| {
            let mut d = Deadline::new(now_ms, l.timeout_ms, l.max_total_ms);
            if paused {
                d.pause(now_ms);
            }
            d
        });
        self.state = CallState::Pending { id, tool };
    }

    /// The call ended (or a new state replaces it): its clock stops.
    pub(super) fn end(&mut self, state: CallState) {
        if !matches!(state, CallState::Pending { .. }) {
            self.deadline = None;
        }
        if let Some(tool) = state.tool().filter(|_| !matches!(state, CallState::Pending { .. })) {
            self.last.retain(|c| c.tool() != Some(tool));
            self.last.insert(0, state.clone());
            self.last.truncate(KEPT);
        }
        self.state = state;
    }

    /// The server waits on a person: the clock stands still.
    pub(super) fn pause_clock(&mut self, now_ms: f64) {
        if let Some(d) = self.deadline.as_mut() {
            d.pause(now_ms);
        }
    }

    /// The person answered: the clock goes on.
    pub(super) fn resume_clock(&mut self, now_ms: f64) {
        if let Some(d) = self.deadline.as_mut() {
            d.resume(now_ms);
        }
    }

    /// Progress of the pending call arrived: shown, and the silence clock starts again.
    pub(super) fn on_progress(&mut self, progress: Progress, now_ms: f64) {
        if let Some(d) = self.deadline.as_mut() {
            d.on_progress(now_ms);
        }
        self.progress = Some(progress);
    }

    /// Whether the clock ran out at `now_ms`, and how.
    pub(super) fn expired(&self, now_ms: f64) -> Option<Expiry> {
        self.deadline.as_ref().and_then(|d| d.check(now_ms))
    }

    /// Stops the clock of the pending call, which is being given up on; its id and tool.
    pub(super) fn stop_clock(&mut self) -> Option<(Id, String)> {
        let (id, tool) = self.pending().map(|(id, tool)| (id.clone(), tool.to_owned()))?;
        self.deadline = None;
        Some((id, tool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_clock_stands_still_while_paused_and_stops_when_given_up() {
        let limits = CallLimits { timeout_ms: 100.0, max_total_ms: 1000.0 };
        let mut c = Call::default();
        c.start(Id::Number(7), "echo".into(), Some(limits), true, 0.0);
        assert_eq!((c.tool_of(&Id::Number(7)), c.tool_of(&Id::Number(8))), (Some("echo"), None));
        assert_eq!(c.due_ms(), None, "a person is being asked: no deadline runs");
        c.resume_clock(50.0);
        assert_eq!(c.due_ms(), Some(150.0));
        c.on_progress(Progress { progress: 1.0, total: None, message: None }, 120.0);
        assert_eq!((c.due_ms(), c.expired(200.0)), (Some(220.0), None));
        assert!(c.expired(220.0).is_some());
        assert_eq!(c.stop_clock(), Some((Id::Number(7), "echo".to_owned())));
        assert_eq!(c.expired(10_000.0), None, "given up: no clock");
        c.end(CallState::Idle);
        assert_eq!(c.pending(), None);
        // A recorded call runs no clock.
        c.start(Id::Number(9), "echo".into(), None, false, 0.0);
        assert_eq!((c.due_ms(), c.progress()), (None, None));
    }

    #[test]
    fn each_tool_keeps_its_own_last_call() {
        let mut c = Call::default();
        let ended = |tool: &str, reason: &str| CallState::Cancelled { tool: tool.into(), reason: reason.into() };
        c.start(Id::Number(1), "a".into(), None, false, 0.0);
        c.end(ended("a", "first"));
        c.start(Id::Number(2), "b".into(), None, false, 0.0);
        assert!(matches!(c.of_tool("b"), Some(CallState::Pending { .. })), "b's own call, under way");
        assert_eq!(c.of_tool("a"), Some(&ended("a", "first")), "a's last, not b's");
        assert_eq!(c.of_tool("z"), None, "a tool never called has none");
        c.end(ended("b", "second"));
        c.start(Id::Number(3), "a".into(), None, false, 0.0);
        c.end(ended("a", "third"));
        assert_eq!((c.of_tool("a"), c.of_tool("b")), (Some(&ended("a", "third")), Some(&ended("b", "second"))));
        for i in 0..40 {
            c.end(ended(&format!("t{i}"), "x"));
        }
        assert_eq!(c.of_tool("a"), None, "only the last {KEPT} tools are kept");
    }
}
