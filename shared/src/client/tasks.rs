//! The client's side of tasks: a `tools/call` sent as a task (2025-11-25) or answered with
//! one (2026-07-28, where the extension is declared on every request), the answer that is a
//! task rather than a result (a protocol error when none was asked for), and the answers to
//! `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list`. At 2026-07-28 an ended
//! task carries its outcome, and a task waiting for input lists its questions: each is asked
//! once, however often it is polled, and answered with `tasks/update`.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::{CallOutcome, Handled, McpClient, Purpose, Update, progress_token};
use crate::asks::{self, ServerAsk};
use crate::jsonrpc::{ErrorObject, Id};
use crate::mcp::CallToolResult;
use crate::tasks::{TaskInfo, TaskStatus, task_param};

/// The questions of tasks waiting for input (2026-07-28).
#[derive(Debug, Default)]
pub(super) struct Inputs {
    /// The id a question was asked under → its task and key.
    asked: HashMap<Id, (String, String)>,
    /// Every (task, key) asked or answered: a key is asked once however often it is polled.
    seen: HashSet<(String, String)>,
    /// The server's own requests tied to a task (2025-11-25, its related-task `_meta`).
    related: HashMap<Id, String>,
}

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
    /// `tasks/update`: answers to the task's questions (2026-07-28).
    Update(String),
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
            "tasks/update" => TaskRequest::Update(id),
            _ => return None,
        })
    }

    pub fn method(&self) -> &'static str {
        match self {
            TaskRequest::Get(_) => "tasks/get",
            TaskRequest::Result(_) => "tasks/result",
            TaskRequest::Cancel(_) => "tasks/cancel",
            TaskRequest::List(_) => "tasks/list",
            TaskRequest::Update(_) => "tasks/update",
        }
    }

    /// The task it is about; the cursor of a listing (empty for its first page).
    pub fn task_id(&self) -> &str {
        match self {
            TaskRequest::Get(id) | TaskRequest::Result(id) | TaskRequest::Cancel(id) | TaskRequest::Update(id) => id,
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
            TaskRequest::Update(_) => return self.task_update(request.task_id(), json!({})),
            TaskRequest::List(None) => json!({}),
            TaskRequest::List(Some(cursor)) => json!({"cursor": cursor}),
            other => json!({"taskId": other.task_id()}),
        };
        let method = request.method();
        self.request(Purpose::Task(request), method, Some(params)).1
    }

    /// `tasks/update` with `responses` (key → the answer's result).
    fn task_update(&mut self, task_id: &str, responses: Value) -> String {
        let params = json!({"taskId": task_id, "inputResponses": responses});
        self.request(Purpose::Task(TaskRequest::Update(task_id.to_owned())), "tasks/update", Some(params)).1
    }

    /// How a task stands, from a poll's answer or a notification: its outcome when it ended
    /// with one (2026-07-28), its questions when it waits for input (each asked once).
    /// (`polled`: the task a `tasks/get` asked about.)
    pub(super) fn on_task_status(&mut self, v: &Value, polled: Option<&str>, out: &mut Handled) {
        let task = match TaskInfo::read(v) {
            Ok(task) => task,
            Err(e) => {
                if let Some(task_id) = polled {
                    let message = format!("unreadable task: {e}");
                    out.updates.push(Update::TaskPollFailed { task_id: task_id.to_owned(), message, lost: false });
                }
                return;
            }
        };
        let polled = polled.is_some();
        let outcome = match (task.status, v.get("result"), v.get("error")) {
            (TaskStatus::Completed, Some(result), _) => Some(call_outcome(&json!({"result": result}), None)),
            (TaskStatus::Failed, _, Some(error)) => {
                let read = serde_json::from_value(error.clone()).unwrap_or_else(|_| ErrorObject {
                    code: -32603,
                    message: format!("the task failed with an unreadable error: {error}"),
                    data: None,
                });
                Some(call_outcome(&json!({"error": error}), Some(read)))
            }
            _ => None,
        };
        if task.status == TaskStatus::InputRequired
            && let Some(requests) = v.get("inputRequests").and_then(Value::as_object)
        {
            self.ask_task_inputs(&task.task_id, requests, out);
        }
        out.updates.push(Update::TaskStatus { task, polled, outcome });
    }

    /// The questions of a task waiting for input, each asked once; `roots/list` answered here.
    fn ask_task_inputs(&mut self, task_id: &str, requests: &serde_json::Map<String, Value>, out: &mut Handled) {
        let mut at_once = serde_json::Map::new();
        for (key, request) in requests {
            if !self.task_inputs.seen.insert((task_id.to_owned(), key.clone())) {
                continue;
            }
            let method = request["method"].as_str().unwrap_or_default();
            let ask_id = Id::String(format!("task:{task_id}/{key}"));
            if method == "roots/list" {
                at_once.insert(key.clone(), asks::roots_result(&self.roots));
            } else if let Some(ask) = ServerAsk::read(&ask_id, method, &request["params"]) {
                self.asked.insert(ask_id.clone());
                self.task_inputs.asked.insert(ask_id, (task_id.to_owned(), key.clone()));
                out.updates.push(Update::Asked(ask));
            } else {
                out.updates.push(Update::Notice(format!(
                    "task {task_id} asked for input this client cannot give: {key} ({method:?})"
                )));
            }
        }
        if !at_once.is_empty() {
            out.replies.push(self.task_update(task_id, Value::Object(at_once)));
        }
    }

    /// A server request tied to a task by its `_meta` (2025-11-25): withdrawn with the task.
    pub(super) fn note_related(&mut self, id: &Id, value: &Value) {
        if let Some(task) = crate::tasks::related_task(value) {
            self.task_inputs.related.insert(id.clone(), task.to_owned());
        }
    }

    /// The questions of `task_id` still waiting for the person, forgotten: their ids.
    pub fn forget_task_questions(&mut self, task_id: &str) -> Vec<Id> {
        let inputs = &mut self.task_inputs;
        let mut gone: Vec<Id> =
            inputs.asked.iter().filter(|(_, (t, _))| t == task_id).map(|(id, _)| id.clone()).collect();
        gone.extend(inputs.related.iter().filter(|(_, t)| *t == task_id).map(|(id, _)| id.clone()));
        for id in &gone {
            inputs.asked.remove(id);
            inputs.related.remove(id);
            self.asked.remove(id);
        }
        gone
    }

    /// The person answered a task's question: `tasks/update` carries it. `None` when `id` is
    /// no task's question.
    pub(super) fn answer_task_question(&mut self, id: &Id, frame: &str) -> Option<Handled> {
        let (task_id, key) = self.task_inputs.asked.remove(id)?;
        let answer: Value = serde_json::from_str(frame).unwrap_or_default();
        let mut out = Handled::default();
        match answer.get("result") {
            Some(result) => out.replies.push(self.task_update(&task_id, json!({ key: result }))),
            // A declined sampling request has no result to carry: the task is told nothing.
            None => out.updates.push(Update::Notice(format!("task {task_id}: {key} was declined"))),
        }
        Some(out)
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
            // A request that did not get through has no answer (`value` is null): not lost.
            (TaskRequest::Get(_), Some(e)) => {
                Update::TaskPollFailed { task_id, message: said(&e), lost: !value.is_null() }
            }
            (TaskRequest::Cancel(_), Some(e)) => Update::TaskCancelRefused { task_id, message: said(&e) },
            (TaskRequest::Get(_), None) => return self.on_task_status(&value["result"], Some(&task_id), out),
            // 2025-11-25 answers a cancel with the task; 2026-07-28 with a bare ack.
            (TaskRequest::Cancel(_), None) => match TaskInfo::read(&value["result"]) {
                Ok(task) => Update::TaskStatus { task, polled: false, outcome: None },
                Err(_) => Update::TaskCancelAcked { task_id },
            },
            (TaskRequest::Update(_), Some(e)) => {
                Update::Notice(format!("the answers to task {task_id} were refused: {}", said(&e)))
            }
            (TaskRequest::Update(_), None) => return,
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
    // 2025-11-25 nests the task (`result.task`); 2026-07-28 answers it flat (`resultType: task`).
    let result = &value["result"];
    let flat = (result["resultType"] == "task").then_some(result);
    let created = error.is_none().then(|| result.get("task").filter(|t| t.is_object()).or(flat)).flatten();
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
