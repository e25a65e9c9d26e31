//! The life of a call: confirmation (by policy, from annotation hints), sending, progress,
//! cancel, timeout, and the states the result pane shows. A late response after cancel or
//! timeout stays in the timeline and never overwrites the state.

use leptos::prelude::*;
use serde_json::Value;
use shared::calls::{ConfirmPolicy, Deadline, Expiry};
use shared::client::{CallOutcome, progress_token};
use shared::jsonrpc::Id;
use shared::mcp::Tool;
use shared::render::output::{OutputCheck, TextAgreement};

use super::Store;

const POLICY_KEY: &str = "mcp-playground.confirm-policy";
const TIMEOUT_KEY: &str = "mcp-playground.call-timeout-s";
/// Log lines kept.
const MAX_LOG_LINES: usize = 2000;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// The last call, as the result pane shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum CallState {
    Idle,
    Pending {
        id: Id,
        tool: String,
    },
    Done {
        tool: String,
        outcome: CallOutcome,
        duration_ms: Option<f64>,
        output: OutputCheck,
        agreement: Option<TextAgreement>,
    },
    TransportError {
        tool: String,
        message: String,
    },
    Cancelled {
        tool: String,
        reason: String,
    },
    Timeout {
        tool: String,
        after_ms: f64,
    },
}

impl CallState {
    pub fn as_str(&self) -> &'static str {
        match self {
            CallState::Idle => "idle",
            CallState::Pending { .. } => "pending",
            CallState::Done { outcome: CallOutcome::ProtocolError { .. }, .. } => "protocol-error",
            CallState::Done { outcome: CallOutcome::Result { result, .. }, .. } if result.is_error == Some(true) => {
                "tool-error"
            }
            CallState::Done { .. } => "ok",
            CallState::TransportError { .. } => "transport-error",
            CallState::Cancelled { .. } => "cancelled",
            CallState::Timeout { .. } => "timeout",
        }
    }
}

/// A call waiting for a person to confirm it.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm {
    pub tool: Tool,
    pub arguments: Value,
}

/// The latest progress of the pending call.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

/// One `notifications/message` line.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    pub seq: usize,
    pub level: String,
    pub logger: Option<String>,
    pub text: String,
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
    pub logs: RwSignal<Vec<LogLine>>,
    deadline: StoredValue<Option<Deadline>>,
}

impl CallsState {
    pub fn new() -> Self {
        let read = |key: &str| crate::storage::local().and_then(|s| s.get_item(key).ok().flatten());
        let policy = read(POLICY_KEY).and_then(|p| ConfirmPolicy::parse(&p)).unwrap_or_default();
        let timeout = read(TIMEOUT_KEY).and_then(|t| t.parse::<f64>().ok()).filter(|t| *t > 0.0).unwrap_or(60.0);
        Self {
            policy: RwSignal::new(policy),
            confirm: RwSignal::new(None),
            progress: RwSignal::new(None),
            timeout_s: RwSignal::new(timeout),
            max_total_s: RwSignal::new(600.0),
            logs: RwSignal::new(Vec::new()),
            deadline: StoredValue::new(None),
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
        if !anyway && !self.args.violations.get_untracked().is_empty() {
            return;
        }
        self.args.raw_error.set(None);
        if self.calls.policy.get_untracked().asks(tool.annotations.as_ref()) {
            self.calls.confirm.set(Some(Confirm { tool, arguments }));
        } else {
            self.send_call(&tool.name, arguments);
        }
    }

    /// Sends exactly the arguments the dialog showed.
    pub fn confirm_accept(self) {
        if let Some(c) = self.calls.confirm.get_untracked() {
            self.calls.confirm.set(None);
            self.send_call(&c.tool.name, c.arguments);
        }
    }

    /// Closes the dialog; nothing is sent.
    pub fn confirm_cancel(self) {
        self.calls.confirm.set(None);
    }

    fn send_call(self, tool: &str, arguments: Value) {
        if matches!(self.call.get_untracked(), CallState::Pending { .. }) {
            return;
        }
        self.args.remember(&arguments);
        let (id, frame) = self.client.try_update_value(|c| c.call_tool(tool, arguments)).expect("client lives");
        let c = self.calls;
        c.progress.set(None);
        c.deadline.set_value(Some(Deadline::new(
            now_ms(),
            c.timeout_s.get_untracked() * 1000.0,
            c.max_total_s.get_untracked() * 1000.0,
        )));
        self.call.set(CallState::Pending { id, tool: tool.to_owned() });
        self.send_frame(frame);
    }

    fn give_up(self, reason: &str) -> Option<String> {
        let CallState::Pending { id, tool } = self.call.get_untracked() else { return None };
        self.calls.deadline.set_value(None);
        if let Some(frame) = self.client.try_update_value(|c| c.cancel(&id, reason)).flatten() {
            self.send_frame(frame);
        }
        Some(tool)
    }

    /// Cancels the pending call: `notifications/cancelled`, and the `cancelled` state.
    pub fn cancel_call(self) {
        let reason = "cancelled by the user";
        if let Some(tool) = self.give_up(reason) {
            self.call.set(CallState::Cancelled { tool, reason: reason.into() });
        }
    }

    /// Called on a timer: ends a call that ran out of time.
    pub fn tick(self) {
        let Some(deadline) = self.calls.deadline.get_value() else { return };
        let Some(expiry) = deadline.check(now_ms()) else { return };
        let (after_ms, reason) = match expiry {
            Expiry::Silent { after_ms } => {
                (after_ms, format!("timed out after {:.0} s without a response", after_ms / 1000.0))
            }
            Expiry::TooLong { after_ms } => {
                (after_ms, format!("timed out: still running after the maximum of {:.0} s", after_ms / 1000.0))
            }
        };
        if let Some(tool) = self.give_up(&reason) {
            self.call.set(CallState::Timeout { tool, after_ms });
        }
    }

    /// A call ended one way or another: its clock stops.
    pub(super) fn call_finished(self) {
        self.calls.deadline.set_value(None);
    }

    pub(super) fn on_progress(self, token: Value, progress: f64, total: Option<f64>, message: Option<String>) {
        let CallState::Pending { id, .. } = self.call.get_untracked() else { return };
        if token != progress_token(&id) {
            return;
        }
        self.calls.deadline.update_value(|d| {
            if let Some(d) = d {
                d.on_progress(now_ms());
            }
        });
        self.calls.progress.set(Some(Progress { progress, total, message }));
    }

    pub(super) fn on_cancelled_by_server(self, id: Id, reason: Option<String>) {
        if let CallState::Pending { id: pending, tool } = self.call.get_untracked()
            && pending == id
        {
            self.call_finished();
            let reason = format!("cancelled by the server{}", reason.map(|r| format!(": {r}")).unwrap_or_default());
            self.call.set(CallState::Cancelled { tool, reason });
        }
    }

    pub(super) fn on_log(self, level: String, logger: Option<String>, data: Value) {
        let text = match data {
            Value::String(s) => s,
            other => other.to_string(),
        };
        self.calls.logs.update(|l| {
            let seq = l.last().map_or(0, |x| x.seq + 1);
            l.push(LogLine { seq, level, logger, text });
            // Trimmed in bulk, so a flood of log lines costs O(1) per line.
            if l.len() > 2 * MAX_LOG_LINES {
                l.drain(..l.len() - MAX_LOG_LINES);
            }
        });
    }
}
