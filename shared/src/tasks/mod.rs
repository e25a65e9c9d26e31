//! Tasks: tool calls that outlive their request (2025-11-25 in the core protocol). A call
//! sent with `task: {ttl}` is answered with a task; the client then polls `tasks/get`,
//! fetches the outcome with `tasks/result` (which also carries the server's questions while
//! the task waits for input), and stops it with `tasks/cancel`. This module reads what a
//! server says of tasks and decides when a call is one; `run.rs` is one task's life on the
//! client (`TaskRun`: its statuses, its polling pace, its time to live), sans-IO;
//! `book.rs` the tasks of a connection the client knows of (`TaskBook`).

mod book;
pub(crate) mod run;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::mcp::Tool;

pub use book::{KnownTask, TaskBook};
pub use run::{StatusChange, TaskRun, TaskStep};

/// The time to live a call asks for when the person does not say: five minutes.
pub const DEFAULT_TTL_MS: f64 = 300_000.0;
/// How often a task is polled when its server suggests nothing.
pub const DEFAULT_POLL_MS: f64 = 1_000.0;
/// Never polled faster than this, whatever the server suggests.
pub const POLL_FLOOR_MS: f64 = 250.0;
/// The extension a 2026-07-28 client declares in each request's capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The `_meta` key that ties a message to its task.
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Where a task stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl TaskStatus {
    pub fn parse(s: &str) -> Option<TaskStatus> {
        Some(match s {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::InputRequired => "input_required",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// Completed, failed and cancelled tasks move no more.
    pub fn is_terminal(self) -> bool {
        matches!(self, TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled)
    }
}

/// A task as its server describes it (`CreateTaskResult.task`, a `tasks/get` result, a
/// `notifications/tasks/status`).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskInfo {
    pub task_id: String,
    pub status: TaskStatus,
    pub status_message: Option<String>,
    pub created_at: Option<String>,
    pub last_updated_at: Option<String>,
    /// How long the server keeps it from its creation; `None` for as long as it likes.
    pub ttl_ms: Option<f64>,
    pub poll_interval_ms: Option<f64>,
}

impl TaskInfo {
    /// Reads a task object; an error says what is missing or wrong.
    pub fn read(v: &Value) -> Result<TaskInfo, String> {
        let task_id = v.get("taskId").and_then(Value::as_str).ok_or("a task without a string taskId")?;
        let status = v.get("status").and_then(Value::as_str).ok_or("a task without a status")?;
        let status = TaskStatus::parse(status).ok_or_else(|| format!("a task of unknown status {status:?}"))?;
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let ms = |key: &str| v.get(key).and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 0.0);
        Ok(TaskInfo {
            task_id: task_id.to_owned(),
            status,
            status_message: text("statusMessage"),
            created_at: text("createdAt"),
            last_updated_at: text("lastUpdatedAt"),
            // 2026-07-28 names them `ttlMs` and `pollIntervalMs`.
            ttl_ms: ms("ttl").or_else(|| ms("ttlMs")),
            poll_interval_ms: ms("pollInterval").or_else(|| ms("pollIntervalMs")),
        })
    }
}

/// Whether a tool may, must or must not run as a task (`execution.taskSupport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskSupport {
    Forbidden,
    Optional,
    Required,
}

impl TaskSupport {
    /// A tool's: `forbidden` when it says nothing (or something unknown).
    pub fn of(tool: &Tool) -> TaskSupport {
        match tool.extra.get("execution").and_then(|e| e.get("taskSupport")).and_then(Value::as_str) {
            Some("optional") => TaskSupport::Optional,
            Some("required") => TaskSupport::Required,
            _ => TaskSupport::Forbidden,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// Whether the server's capabilities take `tools/call` as a task
/// (`tasks.requests.tools.call`).
pub fn server_runs_tool_tasks(capabilities: &Map<String, Value>) -> bool {
    capabilities.get("tasks").and_then(|t| t.pointer("/requests/tools/call")).is_some_and(Value::is_object)
}

/// Whether a 2026-07-28 server may answer calls with tasks (the extension, declared in its
/// `server/discover` capabilities).
pub fn server_has_extension(capabilities: &Map<String, Value>) -> bool {
    capabilities.get("extensions").and_then(|e| e.get(EXTENSION)).is_some_and(Value::is_object)
}

/// Whether a call of `tool` goes as a task: always when the tool requires it, when the
/// person asked and the tool allows it, never when the server or the tool forbids it.
pub fn call_as_task(tool: &Tool, server_runs_tasks: bool, person_asks: bool) -> bool {
    server_runs_tasks
        && match TaskSupport::of(tool) {
            TaskSupport::Required => true,
            TaskSupport::Optional => person_asks,
            TaskSupport::Forbidden => false,
        }
}

/// The `task` member of a call's params.
pub fn task_param(ttl_ms: f64) -> Value {
    json!({"ttl": ttl_ms.round() as u64})
}

/// The task a message belongs to, by its `_meta` (`io.modelcontextprotocol/related-task`).
pub fn related_task(message: &Value) -> Option<&str> {
    let meta = message.get("params").or_else(|| message.get("result")).and_then(|p| p.get("_meta"))?;
    meta.get(RELATED_TASK)?.get("taskId")?.as_str()
}
