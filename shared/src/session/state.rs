//! What a session shows: the connection, the server, the last call and its progress,
//! server log lines and resource reads. Plain data, compared and cloned by the page.

use serde_json::Value;

use crate::client::CallOutcome;
use crate::jsonrpc::Id;
use crate::mcp::{InitializeResult, ResourceContents};
use crate::negotiation::Negotiated;
use crate::render::output::{OutputCheck, TextAgreement};

/// The upstream connection, as `connection-status` shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ConnState {
    #[default]
    Disconnected,
    Connecting,
    Connected,
    Error(String),
}

impl ConnState {
    pub fn as_str(&self) -> &'static str {
        match self {
            ConnState::Disconnected => "disconnected",
            ConnState::Connecting => "connecting",
            ConnState::Connected => "connected",
            ConnState::Error(_) => "error",
        }
    }

    /// Connecting or connected: a server is (being) reached.
    pub fn is_live(&self) -> bool {
        matches!(self, ConnState::Connecting | ConnState::Connected)
    }
}

/// Who the server says it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    pub name: String,
    pub title: Option<String>,
    pub version: String,
    pub protocol_version: String,
    /// The revision agreed and why (set by the session; `None` from [`ServerInfo::of`]).
    pub negotiated: Option<Negotiated>,
    pub capabilities: Vec<String>,
    pub instructions: Option<String>,
    /// Whether it takes `tools/call` as a task (`tasks.requests.tools.call`).
    pub tool_tasks: bool,
    /// Whether it may answer a call with a task of its own choosing (2026-07-28's extension).
    pub task_extension: bool,
    /// Whether it lists its tasks (`tasks.list`).
    pub task_list: bool,
    /// Whether it takes `resources/subscribe` (`resources.subscribe`).
    pub resource_subscribe: bool,
}

impl ServerInfo {
    pub fn of(result: &InitializeResult) -> Self {
        Self {
            name: result.server_info.name.clone(),
            title: result.server_info.title.clone(),
            version: result.server_info.version.clone(),
            protocol_version: result.protocol_version.clone(),
            negotiated: None,
            capabilities: result.capabilities.keys().cloned().collect(),
            instructions: result.instructions.clone(),
            tool_tasks: crate::tasks::server_runs_tool_tasks(&result.capabilities),
            task_extension: crate::tasks::server_has_extension(&result.capabilities),
            task_list: result.capabilities.get("tasks").and_then(|t| t.get("list")).is_some_and(|l| l.is_object()),
            resource_subscribe: result.capabilities.get("resources").and_then(|r| r.get("subscribe"))
                == Some(&serde_json::Value::Bool(true)),
        }
    }

    pub fn has(&self, capability: &str) -> bool {
        self.capabilities.iter().any(|c| c == capability)
    }
}

/// A `resources/read` a person asked for from a resource link.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadState {
    Loading,
    Done(Vec<ResourceContents>),
    Failed(String),
}

/// The last call, as the result pane shows it.
#[derive(Debug, Clone, PartialEq, Default)]
#[allow(clippy::large_enum_variant, reason = "one per session; boxing would only add a hop for the result pane")]
pub enum CallState {
    #[default]
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
    /// The call's task ended with no outcome: it outlived its time to live, or its server
    /// lost it.
    TaskLost {
        tool: String,
        message: String,
    },
    /// The person stopped watching the call's task, which goes on on the server (the
    /// tasks panel still has it).
    Unwatched {
        tool: String,
        task_id: String,
    },
}

impl CallState {
    /// The tool called; none when idle.
    pub fn tool(&self) -> Option<&str> {
        match self {
            CallState::Idle => None,
            CallState::Pending { tool, .. }
            | CallState::Done { tool, .. }
            | CallState::TransportError { tool, .. }
            | CallState::Cancelled { tool, .. }
            | CallState::Timeout { tool, .. }
            | CallState::TaskLost { tool, .. }
            | CallState::Unwatched { tool, .. } => Some(tool),
        }
    }

    /// The `data-state` of the result pane.
    pub fn as_str(&self) -> &'static str {
        match self {
            CallState::Idle => "idle",
            CallState::Pending { .. } => "pending",
            // A result that does not follow the schema is the server breaking the protocol.
            CallState::Done { outcome: CallOutcome::ProtocolError { .. } | CallOutcome::Unreadable { .. }, .. } => {
                "protocol-error"
            }
            CallState::Done { outcome: CallOutcome::Result { result, .. }, .. } if result.is_error == Some(true) => {
                "tool-error"
            }
            CallState::Done { .. } => "ok",
            CallState::TransportError { .. } => "transport-error",
            CallState::Cancelled { .. } => "cancelled",
            CallState::Timeout { .. } => "timeout",
            CallState::TaskLost { .. } => "task-lost",
            CallState::Unwatched { .. } => "unwatched",
        }
    }

    pub fn is_pending(&self) -> bool {
        matches!(self, CallState::Pending { .. })
    }
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

impl LogLine {
    pub(super) fn new(seq: usize, level: String, logger: Option<String>, data: Value) -> Self {
        let text = match data {
            Value::String(s) => s,
            other => other.to_string(),
        };
        Self { seq, level, logger, text }
    }
}

/// How long a call may take, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CallLimits {
    /// Silence allowed since the start or the last progress.
    pub timeout_ms: f64,
    /// Total allowed, whatever the progress.
    pub max_total_ms: f64,
}

impl CallLimits {
    /// Silence allowed by default, in seconds (the page's field and `--timeout` start here).
    pub const TIMEOUT_S: f64 = 60.0;
    /// Total allowed by default, in seconds.
    pub const MAX_TOTAL_S: f64 = 600.0;
}

impl Default for CallLimits {
    fn default() -> Self {
        Self { timeout_ms: Self::TIMEOUT_S * 1000.0, max_total_ms: Self::MAX_TOTAL_S * 1000.0 }
    }
}

/// Which parts of the state changed since the last [`Session::drain`](super::Session::drain):
/// the page copies only those into its signals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Changed {
    pub relay: bool,
    pub conn: bool,
    pub server: bool,
    /// The tool list, its loading flag or its error.
    pub tools: bool,
    /// The call's state or its progress.
    pub call: bool,
    pub rows: bool,
    pub notices: bool,
    pub stderr: bool,
    pub logs: bool,
    pub reads: bool,
    /// The server's requests waiting on the user.
    pub asks: bool,
    /// Where signing in stands.
    pub auth: bool,
    /// Answers for an App's view.
    pub view: bool,
    /// The tasks known of the connection.
    pub tasks: bool,
    /// Resources, templates, prompts, subscriptions, completions, the log level, ping.
    pub catalog: bool,
}

impl Changed {
    pub const ALL: Changed = Changed {
        relay: true,
        conn: true,
        server: true,
        tools: true,
        call: true,
        rows: true,
        notices: true,
        stderr: true,
        logs: true,
        reads: true,
        asks: true,
        auth: true,
        view: true,
        tasks: true,
        catalog: true,
    };

    pub fn any(&self) -> bool {
        *self != Changed::default()
    }
}

/// Why the session refused an action of a person or a script.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refused {
    #[error("a call is already running: cancel it or wait for it")]
    CallRunning,
    #[error("not connected to a server")]
    NotConnected,
    #[error("no elicitation #{0} is waiting for an answer")]
    NoElicitation(crate::jsonrpc::Id),
    #[error("no sampling request #{0} is waiting for an answer")]
    NoSampling(crate::jsonrpc::Id),
    #[error("{0}")]
    Unsupported(&'static str),
}
