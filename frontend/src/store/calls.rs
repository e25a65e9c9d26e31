//! The call as a person makes it: held back while the arguments do not validate,
//! confirmed first where the policy asks (from annotation hints), then handed to the
//! session, which owns its life: progress, cancel, timeout, late answers.

use leptos::prelude::*;
use serde_json::Value;
use shared::calls::ConfirmPolicy;
use shared::mcp::Tool;
use shared::session::{CallLimits, CallState, Progress};
use shared::tasks::TaskRun;
use std::collections::BTreeSet;

use super::pace::Paced;
use super::{Store, now_ms};

const POLICY_KEY: &str = "mcp-playground.confirm-policy";
const TIMEOUT_KEY: &str = "mcp-playground.call-timeout-s";
const AS_TASK_KEY: &str = "mcp-playground.run-as-task";
const TTL_KEY: &str = "mcp-playground.task-ttl-s";
/// The log panel hears of new lines at once, but at most this often while they flood in:
/// nobody reads faster, and its 200 lines drawn anew every frame were most of a flood's cost.
const LOG_PACE_MS: f64 = 250.0;

/// A call waiting for a person to confirm it.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub tool: Tool,
    pub arguments: Value,
    /// The App's view asked for it (its request's id), not the person.
    pub for_view: Option<shared::jsonrpc::Id>,
}

/// Signals of the call life cycle.
#[derive(Clone, Copy)]
pub struct CallsState {
    pub policy: RwSignal<ConfirmPolicy>,
    pub confirm: RwSignal<Option<Confirm>>,
    pub progress: RwSignal<Option<Progress>>,
    /// Silence allowed before a call times out, in seconds (progress resets it).
    pub timeout_s: RwSignal<f64>,
    /// Total allowed for one call, in seconds, whatever the progress.
    pub max_total_s: RwSignal<f64>,
    /// Moves on each time the server's log changes; the lines stay in the session, read
    /// where they are shown (a copy of every line each frame made a flood of lines slow).
    pub logs_changed: RwSignal<u64>,
    log_pace: Paced,
    /// The task of the call under way (or of the last), as the session follows it.
    pub task: RwSignal<Option<TaskRun>>,
    /// Tools the person runs as tasks where they may ("Run as task"), remembered.
    pub as_task: RwSignal<BTreeSet<String>>,
    /// The time to live a task is asked for, in seconds, remembered.
    pub task_ttl_s: RwSignal<f64>,
    /// The connection's known tasks (the tasks panel).
    pub book: RwSignal<shared::tasks::TaskBook>,
}

impl CallsState {
    pub fn new() -> Self {
        let read = |key: &str| crate::storage::local().and_then(|s| s.get_item(key).ok().flatten());
        let policy = read(POLICY_KEY).and_then(|p| ConfirmPolicy::parse(&p)).unwrap_or_default();
        let timeout =
            read(TIMEOUT_KEY).and_then(|t| t.parse::<f64>().ok()).filter(|t| *t > 0.0).unwrap_or(CallLimits::TIMEOUT_S);
        Self {
            policy: RwSignal::new(policy),
            confirm: RwSignal::new(None),
            progress: RwSignal::new(None),
            timeout_s: RwSignal::new(timeout),
            max_total_s: RwSignal::new(CallLimits::MAX_TOTAL_S),
            logs_changed: RwSignal::new(0),
            log_pace: Paced::new(LOG_PACE_MS),
            task: RwSignal::new(None),
            book: RwSignal::new(Default::default()),
            as_task: RwSignal::new(read(AS_TASK_KEY).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()),
            task_ttl_s: RwSignal::new(
                read(TTL_KEY)
                    .and_then(|t| t.parse::<f64>().ok())
                    .filter(|t| *t >= 1.0)
                    .unwrap_or(shared::tasks::DEFAULT_TTL_MS / 1000.0),
            ),
        }
    }

    /// The server's log changed: tells the log panel now, or once the pace allows.
    pub(super) fn logs_moved(self) {
        let changed = self.logs_changed;
        self.log_pace.tell(move || changed.update(|n| *n += 1));
    }

    /// "Run as task" for `tool`, remembered.
    pub fn set_as_task(self, tool: &str, on: bool) {
        self.as_task.update(|set| {
            if on {
                set.insert(tool.to_owned());
            } else {
                set.remove(tool);
            }
        });
        if let Some(s) = crate::storage::local() {
            let _ = s.set_item(AS_TASK_KEY, &serde_json::to_string(&self.as_task.get_untracked()).unwrap_or_default());
        }
    }

    pub fn set_task_ttl(self, seconds: f64) {
        if seconds.is_finite() && seconds >= 1.0 {
            self.task_ttl_s.set(seconds);
            if let Some(s) = crate::storage::local() {
                let _ = s.set_item(TTL_KEY, &seconds.to_string());
            }
        }
    }

    pub fn set_policy(self, policy: ConfirmPolicy) {
        self.policy.set(policy);
        if let Some(s) = crate::storage::local() {
            let _ = s.set_item(POLICY_KEY, policy.as_str());
        }
    }

    pub fn set_timeout(self, seconds: f64) {
        if seconds.is_finite() && seconds > 0.0 {
            self.timeout_s.set(seconds);
            if let Some(s) = crate::storage::local() {
                let _ = s.set_item(TIMEOUT_KEY, &seconds.to_string());
            }
        }
    }

    fn limits(self) -> CallLimits {
        CallLimits {
            timeout_ms: self.timeout_s.get_untracked() * 1000.0,
            max_total_ms: self.max_total_s.get_untracked() * 1000.0,
        }
    }
}

impl Default for CallsState {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// Calls the selected tool with the arguments being edited: held back while they do not
    /// validate (unless `anyway`), and confirmed first where the policy asks.
    pub fn call_selected(self, anyway: bool) {
        let Some(name) = self.selected.get_untracked() else { return };
        let Some(tool) = self.tools.with_untracked(|t| t.iter().find(|t| t.name == name).cloned()) else { return };
        let arguments = match self.args.current() {
            Ok(v) => v,
            Err(e) => return self.args.raw_error.set(Some(e)),
        };
        self.args.reveal();
        if !anyway && !self.args.violations.get_untracked().is_empty() {
            return;
        }
        self.args.raw_error.set(None);
        if self.calls.policy.get_untracked().needs_confirmation(tool.annotations.as_ref()) {
            self.calls.confirm.set(Some(Confirm { tool, arguments, for_view: None }));
        } else {
            self.send_call(&tool, arguments);
        }
    }

    /// Sends exactly the arguments the dialog showed.
    pub fn confirm_accept(self) {
        if let Some(c) = self.calls.confirm.get_untracked() {
            self.calls.confirm.set(None);
            match c.for_view {
                Some(view_id) => self.view_call_confirmed(view_id, &c.tool.name, c.arguments, true),
                None => self.send_call(&c.tool, c.arguments),
            }
        }
    }

    /// The call of `tool` to show: under way, or its last that finished; idle when it was
    /// never called. Tracks every change of the call.
    pub fn call_of(self, tool: &str) -> CallState {
        self.call.track();
        self.session.with_value(|s| s.call_of(tool).cloned()).unwrap_or(CallState::Idle)
    }

    /// Closes the dialog; nothing is sent.
    pub fn confirm_cancel(self) {
        if let Some(Confirm { for_view: Some(view_id), tool, arguments }) = self.calls.confirm.get_untracked() {
            self.view_call_confirmed(view_id, &tool.name, arguments, false);
        }
        self.calls.confirm.set(None);
    }

    fn send_call(self, tool: &Tool, arguments: Value) {
        let limits = self.calls.limits();
        let remembered = arguments.clone();
        let sent = arguments.clone();
        let as_task = self.calls.as_task.with_untracked(|set| set.contains(&tool.name));
        let ttl_ms = self.calls.task_ttl_s.get_untracked() * 1000.0;
        let called = self.act(|s| {
            s.set_run_as_task(&tool.name, as_task);
            s.set_task_ttl_ms(ttl_ms);
            s.call_tool(&tool.name, arguments, limits, now_ms())
        });
        if called.is_ok() {
            self.args.remember(&remembered);
            let call_id = self.with_session(|s| match s.call() {
                CallState::Pending { id, .. } => Some(id.clone()),
                _ => None,
            });
            self.view_for_call(tool, call_id, sent);
        }
    }

    /// Cancels the pending call: `notifications/cancelled`, and the `cancelled` state.
    pub fn cancel_call(self) {
        self.act(shared::session::Session::cancel_call);
    }

    /// Called on a timer: ends a call that ran out of time.
    pub fn tick(self) {
        self.replay_tick();
        if self.with_session(|s| s.next_deadline_ms().is_some_and(|due| due <= now_ms())) {
            self.act(|s| s.tick(now_ms()));
        }
    }
}
