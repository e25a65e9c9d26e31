//! The page's MCP client, sans-IO: it makes the frames to send and reads the frames that
//! arrive, and tells the caller what happened. The page only moves frames and shows updates.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::asks::{self, ServerAsk};
use crate::catalog::ListKind;
use crate::jsonrpc::{self, Classified, ErrorObject, Id, Kind};
use crate::mcp::{CallToolResult, InitializeResult, ListToolsResult, ResourceContents, Tool};
use crate::negotiation::{self, Negotiated};
use crate::pairing::Pairing;
use crate::relay::Direction;
use crate::revision::{ProtocolChoice, Revision};

mod server_requests;
mod stateless;

pub use stateless::{MAX_INPUT_ROUNDS, META_CAPABILITIES, META_CLIENT_INFO, META_VERSION};

mod listing;
mod observe;
pub mod pages;
mod requests;
mod tasks;

pub use listing::ListFacts;
pub use requests::Answer;
pub use tasks::TaskRequest;

/// What the caller should know after a frame was read.
#[derive(Debug, Clone, PartialEq)]
pub enum Update {
    /// `initialize` succeeded; `notifications/initialized` and `tools/list` are on their way.
    Ready(Box<InitializeResult>),
    /// `initialize` failed: the session cannot go on.
    InitializeFailed(String),
    /// The whole tool list, every page followed.
    Tools(Vec<Tool>),
    /// What a 2026-07-28 tool list says beyond its tools (sent just before `Tools`).
    ListFacts(ListFacts),
    /// `tools/list` failed or could not be read; `partial` holds the tools of the pages
    /// that came before the failure (empty when the first page failed).
    ToolsFailed { message: String, partial: Vec<Tool> },
    /// The server said its tool list changed; a new `tools/list` is on its way.
    ToolsChanged,
    /// A `tools/call` finished.
    CallDone { id: Id, outcome: CallOutcome },
    /// A `tools/call` got no answer because its transport failed (the relay said so).
    CallFailed { id: Id, message: String },
    /// A `resources/read` finished: the contents, or why there are none.
    ResourceRead { uri: String, outcome: Result<Vec<ResourceContents>, String> },
    /// A response to a request this client gave up on (cancelled or timed out): shown in
    /// the timeline, never as the call's result.
    Late { id: Id },
    /// The server cancelled one of our requests (`notifications/cancelled`).
    CancelledByServer { id: Id, reason: Option<String> },
    /// `notifications/message`: a log line from the server.
    Log { level: String, logger: Option<String>, data: Value },
    /// `notifications/progress` for a token.
    Progress { token: Value, progress: f64, total: Option<f64>, message: Option<String> },
    /// Something worth telling a person that is not an error of a call.
    Notice(String),
    /// The server asks the user something (elicitation, sampling): it waits for an answer.
    Asked(ServerAsk),
    /// The server withdrew one of its requests (`notifications/cancelled` of its id).
    AskWithdrawn { id: Id, reason: Option<String> },
    /// The answer to a request made for an App's view: its `result`, or its `error` object.
    ForView { id: Id, outcome: Result<Value, Value> },
    /// A `tools/call` sent as a task was answered with its task.
    TaskCreated { id: Id, task: crate::tasks::TaskInfo },
    /// How a task stands (`tasks/get` when `polled`, `notifications/tasks/status`,
    /// `tasks/cancel`).
    /// `tasks/cancel`). At 2026-07-28 an ended task carries its `outcome` (its `result` or
    /// `error`).
    TaskStatus { task: crate::tasks::TaskInfo, polled: bool, outcome: Option<CallOutcome> },
    /// `tasks/cancel` was taken (2026-07-28: the task may still end otherwise).
    TaskCancelAcked { task_id: String },
    /// A `tasks/get` failed: `lost` when the server says so (an unknown or expired task),
    /// not when the request did not get through or its answer could not be read.
    TaskPollFailed { task_id: String, message: String, lost: bool },
    /// `tasks/result` gave the outcome of the task's call.
    TaskOutcome { task_id: String, outcome: CallOutcome },
    /// `tasks/result` failed before the task ended.
    TaskFetchFailed { task_id: String },
    /// `tasks/cancel` was refused (the task had ended, or is unknown).
    TaskCancelRefused { task_id: String, message: String },
    /// A request of any method ended (a list's pages end as [`Update::Listed`]).
    Answered { id: Id, method: String, answer: Answer },
    /// A list beside the tools, every page of it; `error` says why it stopped early.
    Listed { kind: ListKind, items: Vec<Value>, error: Option<String> },
    /// The server said a list changed.
    ListChanged(ListKind),
    /// `notifications/resources/updated`.
    ResourceUpdated(String),
    /// A page of `tasks/list`, or why it failed.
    TasksListed { tasks: Result<Vec<crate::tasks::TaskInfo>, String>, next_cursor: Option<String> },
}

/// How a `tools/call` ended.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
    /// A result (which may still be a tool error: see `is_error`).
    Result { result: Box<CallToolResult>, raw: Value },
    /// A result that is not a valid `CallToolResult`: shown raw.
    Unreadable { raw: Value, error: String },
    /// A JSON-RPC error response.
    ProtocolError { error: ErrorObject, raw: Value },
}

impl CallOutcome {
    /// The answer it was read from (`{"result": …}` or `{"error": …}`, with or without the
    /// JSON-RPC envelope).
    pub fn raw(&self) -> &Value {
        match self {
            CallOutcome::Result { raw, .. }
            | CallOutcome::Unreadable { raw, .. }
            | CallOutcome::ProtocolError { raw, .. } => raw,
        }
    }
}

#[derive(Debug, Clone)]
enum Purpose {
    Initialize,
    /// `server/discover` (2026-07-28).
    Discover,
    /// `subscriptions/listen`: open for as long as the session.
    Listen,
    /// A page of the listing started as number `.0`: a newer listing makes it stale.
    ListTools(u64),
    /// A `tools/call`, sent as a task or not.
    CallTool {
        task: bool,
    },
    /// `tasks/get`, `tasks/result` or `tasks/cancel` of a task.
    Task(TaskRequest),
    ReadResource(String),
    /// A request of any method, answered as it came ([`Update::Answered`]).
    Request(String),
    /// A page of a list beside the tools, of the listing number `.1`.
    List(ListKind, u64),
    /// A request an App's view made: its answer goes back to the view as it came.
    ForView,
}

/// Frames to send and updates to show, from reading one frame.
#[derive(Debug, Default, PartialEq)]
pub struct Handled {
    pub replies: Vec<String>,
    pub updates: Vec<Update>,
}

/// Protocol state of one connection.
#[derive(Debug)]
pub struct McpClient {
    next_id: i64,
    waiting: Pairing<Purpose>,
    client_name: String,
    client_version: String,
    protocol_version: String,
    tools: Vec<Tool>,
    /// The number of the newest `tools/list` listing.
    listing: u64,
    pages: pages::Pages,
    /// Whether `initialize` has succeeded; until then only pings are answered.
    ready: bool,
    /// Requests given up on: their late responses are reported as such.
    abandoned: HashSet<Id>,
    /// What the person chose; it decides whether the server's revision may stand.
    choice: ProtocolChoice,
    /// The revision agreed in `initialize`, once it is.
    negotiated: Option<Negotiated>,
    /// The server's requests waiting for the user's answer.
    asked: HashSet<Id>,
    /// The roots `roots/list` answers with.
    roots: Vec<String>,
    /// The stateless revision's state (2026-07-28).
    stateless: stateless::Stateless,
    /// What the listing under way says beyond its tools (2026-07-28).
    facts: ListFacts,
    /// A `tools/list` listing is under way.
    listing_open: bool,
    /// The list changed while one was under way: list again once it ends.
    relist: bool,
    /// The questions of tasks waiting for input (2026-07-28).
    task_inputs: tasks::Inputs,
    /// The listings of the lists beside the tools.
    lists: std::collections::HashMap<ListKind, requests::Listing>,
}

impl McpClient {
    pub fn new(client_version: &str, protocol_version: &str) -> Self {
        Self {
            next_id: 1,
            waiting: Pairing::new(),
            client_name: "mcp-playground".into(),
            client_version: client_version.into(),
            protocol_version: protocol_version.into(),
            tools: Vec::new(),
            listing: 0,
            pages: Default::default(),
            ready: false,
            abandoned: HashSet::new(),
            choice: ProtocolChoice::Auto,
            negotiated: None,
            asked: HashSet::new(),
            roots: Vec::new(),
            stateless: stateless::Stateless::default(),
            facts: ListFacts::default(),
            listing_open: false,
            relist: false,
            task_inputs: Default::default(),
            lists: Default::default(),
        }
    }

    /// A client that offers what `choice` asks for and holds the server to it.
    pub fn with_choice(client_version: &str, choice: ProtocolChoice) -> Self {
        let offered = negotiation::offer(choice);
        Self { choice, ..Self::new(client_version, offered.as_str()) }
    }

    /// The revision agreed in `initialize` and why, once the server has answered.
    pub fn negotiated(&self) -> Option<&Negotiated> {
        self.negotiated.as_ref()
    }

    /// The revision `initialize` offered (a playback takes the recorded one).
    fn offered(&self) -> Revision {
        Revision::parse(&self.protocol_version).unwrap_or(Revision::NEWEST_WITH_INITIALIZE)
    }

    fn request(&mut self, purpose: Purpose, method: &str, params: Option<Value>) -> (Id, String) {
        let id = Id::Number(self.next_id);
        self.next_id += 1;
        self.waiting.open(Direction::Out, id.clone(), purpose);
        let params = self.with_meta(&id, method, params);
        let frame = jsonrpc::request(&id, method, params);
        (id, frame)
    }

    /// The `initialize` request (sessions open with [`open`](Self::open)).
    pub fn initialize(&mut self) -> String {
        let params = json!({
            "protocolVersion": self.protocol_version,
            "capabilities": asks::capabilities(Revision::parse(&self.protocol_version)),
            "clientInfo": {"name": self.client_name, "title": "MCP Playground", "version": self.client_version},
        });
        let (id, frame) = self.request(Purpose::Initialize, "initialize", Some(params));
        self.stateless.initialize = Some(id);
        frame
    }

    /// A fresh `tools/list` from the first page.
    pub fn list_tools(&mut self) -> String {
        self.new_listing();
        self.listing_open = true;
        self.request(Purpose::ListTools(self.listing), "tools/list", None).1
    }

    /// A listing starts from its first page; pages of an older one are read no more (two
    /// quick `list_changed` notifications must not give every tool twice).
    fn new_listing(&mut self) {
        self.listing += 1;
        self.tools.clear();
        self.pages = Default::default();
    }

    /// A `tools/call` request with its id. It asks for progress with the token
    /// [`progress_token`] of that id.
    pub fn call_tool(&mut self, name: &str, arguments: Value) -> (Id, String) {
        let id = Id::Number(self.next_id);
        let params = json!({"name": name, "arguments": arguments, "_meta": {"progressToken": progress_token(&id)}});
        self.request(Purpose::CallTool { task: false }, "tools/call", Some(params))
    }

    /// Gives up on a request: it no longer counts as pending, and the server is told with
    /// `notifications/cancelled`. `None` when the request is not pending.
    /// A request waiting on the user's answers (2026-07-28) has nothing out to cancel:
    /// its questions are withdrawn and `None` comes back.
    pub fn cancel(&mut self, id: &Id, reason: &str) -> Option<String> {
        if self.drop_round(id) {
            return None;
        }
        let attempt = self.attempt_of(id);
        self.waiting.forget(Direction::Out, &attempt)?;
        self.settle(&attempt);
        self.abandoned.insert(attempt.clone());
        let params = json!({"requestId": attempt, "reason": reason});
        Some(jsonrpc::notification("notifications/cancelled", Some(params)))
    }

    /// Whether the server's question `id` still waits for the user.
    pub fn is_asked(&self, id: &Id) -> bool {
        self.asked.contains(id)
    }

    /// A `resources/read` request for `uri`.
    pub fn read_resource(&mut self, uri: &str) -> (Id, String) {
        self.request(Purpose::ReadResource(uri.to_owned()), "resources/read", Some(json!({"uri": uri})))
    }

    /// A request an App's view made (`tools/call`, `resources/read`), answered as it came.
    pub fn view_request(&mut self, method: &str, mut params: Value) -> (Id, String) {
        // An App's view takes a result, never a task (2026-07-28): its requests do not
        // declare the tasks extension.
        if self.stateless.on
            && let Some(revision) = Revision::parse(&self.protocol_version)
        {
            let mut caps = asks::capabilities(Some(revision));
            if let Some(ext) = caps.get_mut("extensions").and_then(Value::as_object_mut) {
                ext.remove(crate::tasks::EXTENSION);
            }
            params["_meta"] = json!({stateless::META_CAPABILITIES: caps});
        }
        self.request(Purpose::ForView, method, Some(params))
    }

    /// The relay could not carry request `id` to an answer (its response stream broke):
    /// the request ends as what it was for says.
    pub fn request_failed(&mut self, id: &Id, message: &str) -> Handled {
        let mut out = Handled::default();
        let purpose = self.waiting.forget(Direction::Out, id);
        let id = &self.settle(id);
        match purpose {
            Some(Purpose::Discover) => self.on_discovered(Err(message.to_owned()), &mut out),
            Some(Purpose::Initialize) if self.ready => {}
            Some(Purpose::Initialize) => {
                out.updates.push(Update::InitializeFailed(format!("initialize failed: {message}")))
            }
            Some(Purpose::ListTools(n)) if n == self.listing => {
                self.tools_failed(format!("failed: {message}"), &mut out)
            }
            Some(Purpose::CallTool { .. }) => {
                out.updates.push(Update::CallFailed { id: id.clone(), message: message.into() })
            }
            Some(Purpose::Task(request)) => {
                let error = ErrorObject { code: -32603, message: format!("the request failed: {message}"), data: None };
                self.on_task_answer(request, &Value::Null, Some(error), &mut out)
            }
            Some(Purpose::ReadResource(uri)) => out
                .updates
                .push(Update::ResourceRead { uri, outcome: Err(format!("resources/read failed: {message}")) }),
            Some(Purpose::Listen) => out.updates.push(Update::Notice(format!("subscriptions/listen ended: {message}"))),
            Some(Purpose::ForView) => out.updates.push(Update::ForView {
                id: id.clone(),
                outcome: Err(json!({"code": -32603, "message": format!("the request failed: {message}")})),
            }),
            Some(Purpose::Request(method)) => {
                out.updates.push(Update::Answered { id: id.clone(), method, answer: Answer::Failed(message.into()) })
            }
            Some(Purpose::List(kind, n)) => self.on_list_page(kind, n, Answer::Failed(message.into()), &mut out),
            Some(Purpose::ListTools(_)) | None => {}
        }
        out
    }

    /// Whether a request of ours is still unanswered.
    pub fn is_waiting(&self, id: &Id) -> bool {
        self.waiting.is_open(Direction::Out, id)
    }

    /// Reads one frame that came from the server.
    pub fn handle(&mut self, value: &Value, c: &Classified) -> Handled {
        let mut out = Handled::default();
        match c.kind {
            Kind::Response | Kind::Error => {
                let Some(id) = &c.id else {
                    // While discovering, it is the refusal of `server/discover` by a server
                    // that never read its id (the relay fails that request next): normal for
                    // every 2025 server, so not worth a word.
                    if c.kind == Kind::Error && !self.is_discovering() {
                        out.updates.push(Update::Notice(format!(
                            "the server sent an error without an id: {}",
                            error_text(value)
                        )));
                    }
                    return out;
                };
                let Some(purpose) = self.waiting.answer(Direction::In, id) else {
                    if self.abandoned.remove(id) {
                        out.updates.push(Update::Late { id: id.clone() });
                    } else {
                        out.updates.push(Update::Notice(format!("a response to unknown request id {id}")));
                    }
                    return out;
                };
                if c.kind == Kind::Response && self.wants_input(value) {
                    self.on_input_required(purpose, id, value, &mut out);
                    return out;
                }
                if c.kind == Kind::Error && self.retry_version(&purpose, id, value, &mut out) {
                    return out;
                }
                let id = &self.settle(id);
                self.on_response(purpose, id, value, c.kind, &mut out);
            }
            Kind::Request => self.on_request(value, c, &mut out),
            Kind::Notification => match c.method.as_deref() {
                // Before initialization a client may send nothing but pings, and the first
                // tools/list follows `initialize` anyway.
                Some("notifications/tools/list_changed") if self.ready => self.on_tools_changed(&mut out),
                Some("notifications/resources/list_changed") if self.ready => {
                    out.updates.push(Update::ListChanged(ListKind::Resources));
                    out.updates.push(Update::ListChanged(ListKind::Templates));
                }
                Some("notifications/prompts/list_changed") if self.ready => {
                    out.updates.push(Update::ListChanged(ListKind::Prompts))
                }
                Some("notifications/resources/updated") => {
                    if let Some(uri) = value["params"]["uri"].as_str() {
                        out.updates.push(Update::ResourceUpdated(uri.to_owned()));
                    }
                }
                Some("notifications/cancelled") => {
                    let p = &value["params"];
                    let id = serde_json::from_value::<Id>(p["requestId"].clone()).ok();
                    let reason = p["reason"].as_str().map(str::to_owned);
                    // Its own request first: that is what the server's cancellation means.
                    if let Some(id) = &id
                        && self.asked.remove(id)
                    {
                        out.updates.push(Update::AskWithdrawn { id: id.clone(), reason });
                    } else if let Some(id) = id
                        && self.waiting.forget(Direction::Out, &id).is_some()
                    {
                        out.updates.push(Update::CancelledByServer { id, reason });
                    }
                }
                // URL elicitation (2025-11-25): the out-of-band step the user was sent to is done.
                Some("notifications/elicitation/complete") => {
                    let id = value["params"]["elicitationId"].as_str().unwrap_or("?");
                    out.updates.push(Update::Notice(format!("the server says elicitation {id:?} is complete")));
                }
                Some("notifications/message") => {
                    let p = &value["params"];
                    out.updates.push(Update::Log {
                        level: p["level"].as_str().unwrap_or("info").to_owned(),
                        logger: p["logger"].as_str().map(str::to_owned),
                        data: p["data"].clone(),
                    });
                }
                Some("notifications/tasks/status" | "notifications/tasks") => {
                    self.on_task_status(&value["params"], None, &mut out);
                }
                Some("notifications/progress") => {
                    let p = &value["params"];
                    if let Some(progress) = p["progress"].as_f64() {
                        out.updates.push(Update::Progress {
                            token: p["progressToken"].clone(),
                            progress,
                            total: p["total"].as_f64(),
                            message: p["message"].as_str().map(str::to_owned),
                        });
                    }
                }
                _ => {}
            },
        }
        out
    }

    fn on_response(&mut self, purpose: Purpose, id: &Id, value: &Value, kind: Kind, out: &mut Handled) {
        let error = (kind == Kind::Error).then(|| read_error(value));
        match purpose {
            Purpose::Discover => match error {
                Some(e) => self.on_discovered(Err(format!("{} ({})", e.message, e.code)), out),
                None => self.on_discovered(Ok(&value["result"]), out),
            },
            Purpose::Listen => {
                let how = match error {
                    Some(e) => format!("failed: {} ({})", e.message, e.code),
                    None => "was ended by the server".to_owned(),
                };
                out.updates.push(Update::Notice(format!("the subscription to list changes {how}")));
            }
            // `server/discover` was answered first: this `initialize` is old news.
            Purpose::Initialize if self.ready => {}
            Purpose::Initialize if error.is_some() && self.stateless.discovering.is_some() => {
                // Discovery is still out and may yet settle the session.
                self.stateless.initialize = None;
            }
            Purpose::Initialize => match error {
                Some(e) => {
                    out.updates.push(Update::InitializeFailed(format!("initialize failed: {} ({})", e.message, e.code)))
                }
                None => match serde_json::from_value::<InitializeResult>(value["result"].clone()) {
                    Ok(r) => {
                        match negotiation::accept(self.choice, self.offered(), &r.protocol_version) {
                            Ok(n) => self.negotiated = Some(Negotiated { discovery: self.stateless.discovery, ..n }),
                            Err(e) => return out.updates.push(Update::InitializeFailed(e.to_string())),
                        }
                        self.stateless.discovering = None;
                        self.ready = true;
                        out.replies.push(jsonrpc::notification("notifications/initialized", None));
                        out.replies.push(self.list_tools());
                        out.updates.push(Update::Ready(Box::new(r)));
                    }
                    Err(e) => out.updates.push(Update::InitializeFailed(format!("unreadable initialize result: {e}"))),
                },
            },
            // A page of a listing that a newer one replaced: its tools are old news.
            Purpose::ListTools(n) if n != self.listing => {}
            Purpose::ListTools(_) => match error {
                Some(e) => self.tools_failed(format!("failed: {} ({})", e.message, e.code), out),
                None => match serde_json::from_value::<ListToolsResult>(value["result"].clone()) {
                    Ok(page) => self.on_tools_page(page, out),
                    Err(e) => self.tools_failed(format!("could not be read: {e}"), out),
                },
            },
            Purpose::CallTool { task } => {
                out.updates.push(tasks::call_answer(id, value, error, task || self.stateless.on))
            }
            Purpose::Task(request) => self.on_task_answer(request, value, error, out),
            Purpose::ReadResource(uri) => {
                let outcome = match error {
                    Some(e) => Err(format!("resources/read failed: {} ({})", e.message, e.code)),
                    None => {
                        match serde_json::from_value::<Vec<ResourceContents>>(value["result"]["contents"].clone()) {
                            Ok(contents) => Ok(contents),
                            Err(e) => Err(format!("unreadable resources/read result: {e}")),
                        }
                    }
                };
                out.updates.push(Update::ResourceRead { uri, outcome });
            }
            Purpose::ForView => {
                let outcome = match kind {
                    Kind::Error => Err(value["error"].clone()),
                    _ => Ok(value["result"].clone()),
                };
                out.updates.push(Update::ForView { id: id.clone(), outcome });
            }
            Purpose::Request(method) => {
                let answer = Answer::of(value, error);
                out.updates.push(Update::Answered { id: id.clone(), method, answer });
            }
            Purpose::List(kind, n) => self.on_list_page(kind, n, Answer::of(value, error), out),
        }
    }
}

/// The progress token a call with this id asks for.
pub fn progress_token(id: &Id) -> Value {
    json!(format!("call-{id}"))
}

fn read_error(value: &Value) -> ErrorObject {
    serde_json::from_value(value["error"].clone()).unwrap_or_else(|_| ErrorObject {
        code: 0,
        message: format!("malformed error object: {}", value["error"]),
        data: None,
    })
}

fn error_text(value: &Value) -> String {
    let e = read_error(value);
    format!("{} ({})", e.message, e.code)
}

#[cfg(test)]
mod tests;
