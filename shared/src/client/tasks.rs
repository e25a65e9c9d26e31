//! The client's side of tasks (2025-11-25): a `tools/call` sent as a task, the answer
//! that is a task rather than a result (a protocol error when none was asked for), and the
//! answers to `tasks/get`, `tasks/result` and `tasks/cancel`.

use serde_json::{Value, json};

use super::{CallOutcome, Handled, McpClient, Purpose, Update, progress_token};
use crate::jsonrpc::ErrorObject;
use crate::jsonrpc::Id;
use crate::mcp::CallToolResult;
use crate::tasks::{TaskInfo, task_param};

/// A request about one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskRequest {
    /// `tasks/get`
    Get(String),
    /// `tasks/result`
    Result(String),
    /// `tasks/cancel`
    Cancel(String),
    /// `tasks/list` from this cursor (the first page without one).
    List(Option<String>),
}

impl TaskRequest {
    /// The request of `method` about `task_id`.
    pub fn of(method: &str, task_id: &str) -> Option<TaskRequest> {
        let id = task_id.to_owned();
        Some(match method {
            "tasks/get" => TaskRequest::Get(id),
            "tasks/result" => TaskRequest::Result(id),
            "tasks/cancel" => TaskRequest::Cancel(id),
            "tasks/list" => TaskRequest::List((!id.is_empty()).then_some(id)),
            _ => return None,
        })
    }

    pub fn method(&self) -> &'static str {
        match self {
            TaskRequest::Get(_) => "tasks/get",
            TaskRequest::Result(_) => "tasks/result",
            TaskRequest::Cancel(_) => "tasks/cancel",
            TaskRequest::List(_) => "tasks/list",
        }
    }

    /// The task it is about; the cursor of a listing (empty for its first page).
    pub fn task_id(&self) -> &str {
        match self {
            TaskRequest::Get(id) | TaskRequest::Result(id) | TaskRequest::Cancel(id) => id,
            TaskRequest::List(cursor) => cursor.as_deref().unwrap_or_default(),
        }
    }
}

impl McpClient {
    /// A `tools/call` sent as a task kept for `ttl_ms` (with a progress token, which stays
    /// valid for the task's life).
    pub fn call_tool_as_task(&mut self, name: &str, arguments: Value, ttl_ms: f64) -> (Id, String) {
        let id = Id::Number(self.next_id);
        let params = json!({
            "name": name, "arguments": arguments, "task": task_param(ttl_ms),
            "_meta": {"progressToken": progress_token(&id)},
        });
        self.request(Purpose::CallTool { task: true }, "tools/call", Some(params))
    }

    /// The request `request` as a frame.
    pub fn task_request(&mut self, request: TaskRequest) -> String {
        let params = match &request {
            TaskRequest::List(None) => json!({}),
            TaskRequest::List(Some(cursor)) => json!({"cursor": cursor}),
            other => json!({"taskId": other.task_id()}),
        };
        let method = request.method();
        self.request(Purpose::Task(request), method, Some(params)).1
    }

    pub(super) fn on_task_answer(
        &mut self,
        request: TaskRequest,
        value: &Value,
        error: Option<ErrorObject>,
        out: &mut Handled,
    ) {
        let task_id = request.task_id().to_owned();
        let said = |e: &ErrorObject| format!("{} ({})", e.message, e.code);
        let update = match (request, error) {
            (TaskRequest::List(_), Some(e)) => Update::TasksListed { tasks: Err(said(&e)), next_cursor: None },
            (TaskRequest::List(_), None) => {
                let result = &value["result"];
                let tasks = match result.get("tasks").and_then(Value::as_array) {
                    Some(list) => list.iter().map(TaskInfo::read).collect::<Result<Vec<_>, _>>(),
                    None => Err("a tasks/list result without tasks".to_owned()),
                };
                let next_cursor = result.get("nextCursor").and_then(Value::as_str).map(str::to_owned);
                Update::TasksListed { tasks, next_cursor }
            }
            (TaskRequest::Get(_), Some(e)) => Update::TaskPollFailed { task_id, message: said(&e) },
            (TaskRequest::Cancel(_), Some(e)) => Update::TaskCancelRefused { task_id, message: said(&e) },
            (request @ (TaskRequest::Get(_) | TaskRequest::Cancel(_)), None) => {
                match TaskInfo::read(&value["result"]) {
                    Ok(task) => Update::TaskStatus { task, polled: matches!(request, TaskRequest::Get(_)) },
                    Err(e) => Update::TaskPollFailed { task_id, message: format!("unreadable task: {e}") },
                }
            }
            // The server's own failure to hold the request open is no outcome: asked again later.
            (TaskRequest::Result(_), Some(e)) if e.code == -32603 && value.is_null() => {
                Update::TaskFetchFailed { task_id }
            }
            (TaskRequest::Result(_), error) => Update::TaskOutcome { task_id, outcome: call_outcome(value, error) },
        };
        out.updates.push(update);
    }
}

/// The update for an answer to a `tools/call` (sent as a task when `task`): its task, its
/// outcome, or a protocol error for a task nobody asked for.
pub(super) fn call_answer(id: &Id, value: &Value, error: Option<ErrorObject>, task: bool) -> Update {
    let created = error.is_none().then(|| value["result"].get("task")).flatten().filter(|t| t.is_object());
    match (created, task) {
        (Some(t), true) => match TaskInfo::read(t) {
            Ok(task) => Update::TaskCreated { id: id.clone(), task },
            Err(e) => {
                let error = ErrorObject { code: -32603, message: format!("the task cannot be read: {e}"), data: None };
                Update::CallDone { id: id.clone(), outcome: CallOutcome::ProtocolError { error, raw: value.clone() } }
            }
        },
        (Some(_), false) => {
            let message = "the server answered with a task, but the call did not ask for one".to_owned();
            let error = ErrorObject { code: -32603, message, data: None };
            Update::CallDone { id: id.clone(), outcome: CallOutcome::ProtocolError { error, raw: value.clone() } }
        }
        (None, _) => Update::CallDone { id: id.clone(), outcome: call_outcome(value, error) },
    }
}

/// How a `tools/call` (or the task that ran it) ended, from its answer.
pub(super) fn call_outcome(value: &Value, error: Option<ErrorObject>) -> CallOutcome {
    match error {
        Some(error) => CallOutcome::ProtocolError { error, raw: value.clone() },
        // A result that is no object at all breaks the protocol, not the tool.
        None if !value["result"].is_object() => {
            let what = if value["result"].is_null() { "null" } else { "not an object" };
            let message = format!("the result is {what}: a tools/call result must be an object");
            let error = ErrorObject { code: -32603, message, data: None };
            CallOutcome::ProtocolError { error, raw: value.clone() }
        }
        None => match serde_json::from_value::<CallToolResult>(value["result"].clone()) {
            Ok(result) => CallOutcome::Result { result: Box::new(result), raw: value.clone() },
            Err(e) => CallOutcome::Unreadable { raw: value.clone(), error: e.to_string() },
        },
    }
}
