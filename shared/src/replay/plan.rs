//! The replay runner, sans-IO: the recording's client requests in order, each paired with
//! its recorded answer, re-sent one at a time through a live [`Session`]. The session does
//! what it always does (initialize, `notifications/initialized`, paging of `tools/list`,
//! answering pings) with fresh ids; each recorded request is matched with the live request
//! of the same kind and the two responses are compared without their `jsonrpc` and `id`.
//!
//! The driver connects the session, then loops: [`Replay::advance`] starts what comes next
//! (or settles what needs no wait) and says whether to wait; it waits until
//! [`Replay::answered`] holds (or gives up, [`Replay::give_up`]).

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{MAX_CHANGES, ReplayRow, ResendPolicy, RowState, diff_bounded};
use crate::jsonrpc::{self, Id, Kind};
use crate::mcp::Tool;
use crate::pairing::Pairing;
use crate::recording::{Entry, Recording};
use crate::relay::Direction;
use crate::session::{CallLimits, CallState, ReadState, Session};
use crate::timeline::{RowDirection, RowKind};

/// Left out of every comparison: the task a task's outcome names (its id is new each run).
pub const RELATED_TASK_POINTER: &str = "/result/_meta/io.modelcontextprotocol~1related-task";

/// One client request of a recording and its recorded answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// The recording's line (1-based, the header is line 1).
    pub line: usize,
    pub method: String,
    pub params: Value,
    /// The response without `jsonrpc` and `id`; `None` when the recording has none.
    pub response: Option<Value>,
}

/// The client requests of a recording, in order, paired with their responses by id (a
/// reused id pairs with its latest request). Notifications, our answers to the server's
/// requests, the subscription to list changes and the retries of input-required rounds
/// (2026-07-28) and the `tasks/*` requests are left out: the live session sends its own. A
/// call answered with a task is paired with the task's outcome (`tasks/result`).
pub fn recorded_requests(rec: &Recording) -> Vec<Recorded> {
    let mut out: Vec<Recorded> = Vec::new();
    let mut open: Pairing<usize> = Pairing::new();
    // The relay's echo of a request and the server's answer travel apart, so an answer
    // can be recorded just before its request: kept until the request comes.
    let mut early: HashMap<Id, Value> = HashMap::new();
    // A call that became a task is compared by its outcome: the answer of `tasks/result`
    // (2025-11-25), or the `tasks/get` answer that ended it (2026-07-28).
    let mut task_calls: HashMap<String, usize> = HashMap::new();
    let mut watched: HashMap<Id, usize> = HashMap::new();
    let mut skipped: std::collections::HashSet<Id> = Default::default();
    for (i, entry) in rec.entries.iter().enumerate() {
        let Entry::Message { direction, frame, .. } = entry else { continue };
        let Ok((mut value, c)) = jsonrpc::parse(frame) else { continue };
        match (direction, c.kind, c.id) {
            (Direction::Out, Kind::Request, Some(id))
                if c.method.as_deref().is_some_and(|m| m.starts_with("tasks/")) =>
            {
                let call = value["params"]["taskId"].as_str().and_then(|t| task_calls.get(t)).copied();
                match (c.method.as_deref(), call) {
                    (Some("tasks/result" | "tasks/get"), Some(call)) => match early.remove(&id) {
                        // Its answer came before its echo.
                        Some(answer) => task_outcome(&mut out[call], answer),
                        None => {
                            watched.insert(id, call);
                        }
                    },
                    _ => {
                        if early.remove(&id).is_none() {
                            skipped.insert(id);
                        }
                    }
                }
            }
            (Direction::In, Kind::Response | Kind::Error, Some(id)) if watched.contains_key(&id) => {
                let call = watched.remove(&id).unwrap_or_default();
                task_outcome(&mut out[call], strip(value));
            }
            (Direction::In, Kind::Response | Kind::Error, Some(id)) if skipped.remove(&id) => {}
            (Direction::Out, Kind::Request, Some(_))
                if c.method.as_deref() == Some("subscriptions/listen")
                    || value["params"].get("inputResponses").is_some() => {}
            (Direction::Out, Kind::Request, Some(id)) => {
                let params = value.get_mut("params").map(Value::take).unwrap_or(Value::Null);
                let response = early.remove(&id);
                if response.is_none() {
                    open.open(Direction::Out, id, out.len());
                }
                out.push(Recorded { line: i + 2, method: c.method.unwrap_or_default(), params, response });
            }
            (Direction::In, Kind::Response | Kind::Error, Some(id)) => match open.answer(Direction::In, &id) {
                Some(at) => {
                    let result = &value["result"];
                    let task = result["task"]["taskId"]
                        .as_str()
                        .or_else(|| (result["resultType"] == "task").then(|| result["taskId"].as_str()).flatten());
                    if let Some(task) = task {
                        task_calls.insert(task.to_owned(), at);
                    }
                    out[at].response = Some(strip(value));
                }
                None => {
                    early.insert(id, strip(value));
                }
            },
            _ => {}
        }
    }
    out
}

/// A recorded answer about a call's task, as the call's answer where it gives the outcome:
/// a `tasks/result` answer, or a `tasks/get` answer of an ended task (its `result` or
/// `error`, 2026-07-28).
fn task_outcome(call: &mut Recorded, answer: Value) {
    let result = &answer["result"];
    let outcome = match result["status"].as_str() {
        Some("completed") if result.get("result").is_some() => json!({"result": result["result"]}),
        Some("failed") if result.get("error").is_some() => json!({"error": result["error"]}),
        // A status without an outcome, or a `tasks/result` answer (no status: it is one).
        Some(_) if result.get("taskId").is_some() => return,
        _ => answer,
    };
    call.response = Some(outcome);
}

/// The tools of the recording's `tools/list` answers (every page; a later definition of a
/// name wins). Definitions that cannot be read are left out.
pub fn recorded_tools(requests: &[Recorded]) -> Option<Vec<Tool>> {
    let mut tools: Vec<Tool> = Vec::new();
    let mut any = false;
    for r in requests.iter().filter(|r| r.method == "tools/list") {
        let Some(list) = r.response.as_ref().and_then(|v| v["result"]["tools"].as_array()) else { continue };
        any = true;
        for t in list.iter().filter_map(|t| serde_json::from_value::<Tool>(t.clone()).ok()) {
            match tools.iter_mut().find(|o| o.name == t.name) {
                Some(old) => *old = t,
                None => tools.push(t),
            }
        }
    }
    any.then_some(tools)
}

/// The roots the recording offered: the URIs of the client's last answer to the server's
/// `roots/list`. A replay offers the same, so that what the server does with them compares
/// equal; `None` when the server never asked (the live roots stay as they are).
pub fn recorded_roots(rec: &Recording) -> Option<Vec<String>> {
    let mut asked: Pairing<()> = Pairing::new();
    let mut roots = None;
    for entry in &rec.entries {
        let Entry::Message { direction, frame, .. } = entry else { continue };
        let Ok((value, c)) = jsonrpc::parse(frame) else { continue };
        match (direction, c.kind, c.id) {
            (Direction::In, Kind::Request, Some(id)) if c.method.as_deref() == Some("roots/list") => {
                asked.open(Direction::In, id, ());
            }
            (Direction::Out, Kind::Response, Some(id)) if asked.answer(Direction::Out, &id).is_some() => {
                let Some(list) = value["result"]["roots"].as_array() else { continue };
                roots = Some(list.iter().filter_map(|r| r["uri"].as_str().map(str::to_owned)).collect());
            }
            _ => {}
        }
    }
    roots
}

/// A response without the members that differ by nature (`jsonrpc`, `id`).
fn strip(mut value: Value) -> Value {
    if let Some(o) = value.as_object_mut() {
        o.remove("jsonrpc");
        o.remove("id");
    }
    value
}

/// What the driver does after [`Replay::advance`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Run the session until [`Replay::answered`] holds.
    Wait,
    /// Every request has its row.
    Done,
}

/// What is being waited for.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    Call(Id),
    /// A new listing the replay asked for.
    List,
    /// A live listing already sent (by the session itself), at this timeline row.
    ListAt(usize),
    Read(String),
    /// A request of any other method.
    Request(Id),
}

/// A replay in progress.
#[derive(Debug)]
pub struct Replay {
    requests: Vec<Recorded>,
    ignore: Vec<String>,
    next: usize,
    rows: Vec<ReplayRow>,
    /// The request waited for, and the timeline's length when it was sent.
    pending: Option<(Pending, usize)>,
    /// Where the search for the next live `tools/list` request goes on.
    list_scan: usize,
    initialized: bool,
    discovered: bool,
    limits: CallLimits,
}

impl Replay {
    /// A replay of `rec`, leaving out the recording's ignore pointers and `ignore`.
    pub fn new(rec: &Recording, ignore: &[String], limits: CallLimits) -> Self {
        let mut all = vec![RELATED_TASK_POINTER.to_owned()];
        all.extend(rec.header.ignore.iter().cloned());
        all.extend(ignore.iter().cloned());
        all.dedup();
        Self {
            requests: recorded_requests(rec),
            ignore: all,
            next: 0,
            rows: Vec::new(),
            pending: None,
            list_scan: 0,
            initialized: false,
            discovered: false,
            limits,
        }
    }

    pub fn requests(&self) -> &[Recorded] {
        &self.requests
    }

    pub fn ignore(&self) -> &[String] {
        &self.ignore
    }

    /// The rows so far.
    pub fn rows(&self) -> &[ReplayRow] {
        &self.rows
    }

    /// Whether what is waited for has arrived (or nothing is waited for).
    pub fn answered(&self, s: &Session) -> bool {
        match &self.pending {
            None => true,
            Some((Pending::Call(_), _)) => !s.call().is_pending(),
            Some((Pending::Request(id), _)) => !s.is_request_open(id),
            // The relay's echo of a request and the server's answer travel apart: the
            // answer can be in before the request's own row, so both are waited for.
            _ if !s.conn().is_live() => true,
            Some((Pending::List, mark)) => match first_request(s, *mark, "tools/list", None) {
                Some(seq) => answer_of(s, seq).is_some(),
                None => !s.tools_loading(),
            },
            Some((Pending::ListAt(seq), _)) => answer_of(s, *seq).is_some(),
            Some((Pending::Read(uri), mark)) => {
                !matches!(s.reads().get(uri), Some(ReadState::Loading))
                    && first_request(s, *mark, "resources/read", None).is_some()
            }
        }
    }

    /// Settles what was waited for, then starts requests until one needs a wait. `policy`
    /// says whether a tool call is sent again (a refused one is skipped). Call it after
    /// the session connected (its initialize and tool list are matched as they are).
    pub fn advance(&mut self, s: &mut Session, policy: &ResendPolicy, now_ms: f64) -> Want {
        if self.pending.is_some() {
            self.settle(s, None);
        }
        while self.next < self.requests.len() {
            let i = self.next;
            self.next += 1;
            if !s.conn().is_live() {
                self.row(i, RowState::Error, None, Some("not sent: the connection to the server ended".into()));
                continue;
            }
            if self.start(i, s, policy, now_ms) {
                return Want::Wait;
            }
        }
        Want::Done
    }

    /// The wait ended without an answer: `why` is the driver's reason.
    pub fn give_up(&mut self, s: &Session, why: &str) {
        if self.pending.is_some() {
            self.settle(s, Some(why));
        }
    }

    /// The rows, once [`advance`](Self::advance) said `Done`.
    pub fn into_rows(self) -> Vec<ReplayRow> {
        self.rows
    }

    /// Starts request `i`; true when its answer must be waited for.
    fn start(&mut self, i: usize, s: &mut Session, policy: &ResendPolicy, now: f64) -> bool {
        let r = &self.requests[i];
        let (method, params, has_response) = (r.method.clone(), r.params.clone(), r.response.is_some());
        let mark = s.timeline().len();
        match method.as_str() {
            // The live session's own handshake: its first answer is compared (it discovers
            // too, unless an older revision is pinned); a second connection is not replayed.
            "initialize" | "server/discover" => {
                let first = if method == "initialize" { &mut self.initialized } else { &mut self.discovered };
                if std::mem::replace(first, true) {
                    self.row(i, RowState::Skipped, None, Some(format!("a second {method} is not replayed")));
                } else {
                    let live = live_answer(s, 0, &method, None);
                    self.compare(i, live, None);
                }
                false
            }
            "tools/list" => match self.next_live_list(s) {
                Some(seq) => match answer_of(s, seq) {
                    Some(live) => {
                        self.compare(i, Some(live), None);
                        false
                    }
                    None => {
                        self.pending = Some((Pending::ListAt(seq), mark));
                        true
                    }
                },
                None if params.get("cursor").is_none() => {
                    s.refresh_tools();
                    self.pending = Some((Pending::List, mark));
                    true
                }
                None => {
                    let note = "the live server sent no such page".to_owned();
                    self.row(i, RowState::Missing, None, Some(note));
                    false
                }
            },
            _ if !has_response => {
                let note = "not re-sent: the recording holds no answer to compare with".to_owned();
                self.row(i, RowState::Skipped, None, Some(note));
                false
            }
            "tools/call" => {
                let name = params["name"].as_str().unwrap_or_default().to_owned();
                let args = match &params["arguments"] {
                    Value::Null => Value::Object(Default::default()),
                    a => a.clone(),
                };
                if let Err(why) = policy.check(&name) {
                    self.row(i, RowState::Skipped, None, Some(why));
                    return false;
                }
                // Sent as a task again where it was one (a tool that requires it always is).
                let task = params.get("task");
                s.set_run_as_task(&name, task.is_some());
                if let Some(ttl) = task.and_then(|t| t["ttl"].as_f64()) {
                    s.set_task_ttl_ms(ttl);
                }
                match s.call_tool(&name, args, self.limits, now) {
                    Ok(id) => {
                        self.pending = Some((Pending::Call(id), mark));
                        true
                    }
                    Err(e) => {
                        self.row(i, RowState::Error, None, Some(e.to_string()));
                        false
                    }
                }
            }
            "resources/read" => {
                let uri = params["uri"].as_str().unwrap_or_default().to_owned();
                s.read_resource(&uri);
                self.pending = Some((Pending::Read(uri), mark));
                true
            }
            _ => match s.request(&method, Some(params).filter(|p| !p.is_null()), now) {
                Ok(id) => {
                    self.pending = Some((Pending::Request(id), mark));
                    true
                }
                Err(crate::session::Refused::Unsupported(why)) => {
                    self.row(i, RowState::Skipped, None, Some(format!("not re-sent: {why}")));
                    false
                }
                Err(e) => {
                    self.row(i, RowState::Error, None, Some(e.to_string()));
                    false
                }
            },
        }
    }

    /// The `seq` of the next live `tools/list` request not yet matched.
    fn next_live_list(&mut self, s: &Session) -> Option<usize> {
        let rows = s.timeline().rows();
        let found = rows[self.list_scan.min(rows.len())..]
            .iter()
            .find(|r| r.direction == RowDirection::Out && r.method.as_deref() == Some("tools/list") && r.id.is_some())?
            .seq;
        self.list_scan = found + 1;
        Some(found)
    }

    /// The row of the request waited for, from the live timeline.
    fn settle(&mut self, s: &Session, why: Option<&str>) {
        let Some((pending, mark)) = self.pending.take() else { return };
        let i = self.next - 1;
        let live = match &pending {
            // A call that became a task ends with the answer of `tasks/result`.
            Pending::Call(_) if s.task().is_some() => {
                live_answer(s, mark, "tasks/result", None).or_else(|| inline_outcome(s))
            }
            Pending::Call(id) => live_answer(s, mark, "tools/call", Some(id)),
            Pending::Read(_) => live_answer(s, mark, "resources/read", None),
            Pending::List => self.next_live_list(s).and_then(|seq| answer_of(s, seq)),
            Pending::ListAt(seq) => answer_of(s, *seq),
            Pending::Request(id) => match s.answer(id) {
                Some(a) if a.answer.wire().is_none() => {
                    let note = a.answer.failure().unwrap_or_default();
                    return self.row(i, RowState::Error, None, Some(note));
                }
                Some(a) => a.answer.wire(),
                None => None,
            },
        };
        if live.is_some() {
            return self.compare(i, live, None);
        }
        let (state, note) = match s.call() {
            CallState::Timeout { after_ms, .. } if matches!(pending, Pending::Call(_)) => {
                (RowState::Missing, format!("no answer: timed out after {:.1} s", after_ms / 1000.0))
            }
            CallState::Cancelled { reason, .. } if matches!(pending, Pending::Call(_)) => {
                (RowState::Missing, format!("no answer: {reason}"))
            }
            CallState::TransportError { message, .. } if matches!(pending, Pending::Call(_)) => {
                (RowState::Error, message.clone())
            }
            _ if !s.conn().is_live() => (RowState::Error, why.unwrap_or("the connection ended").to_owned()),
            _ => (RowState::Missing, format!("no answer{}", why.map(|w| format!(": {w}")).unwrap_or_default())),
        };
        self.row(i, state, None, Some(note));
    }

    /// The row comparing request `i`'s recorded answer with `live`.
    fn compare(&mut self, i: usize, live: Option<Value>, note: Option<String>) {
        let Some(live) = live else {
            return self.row(i, RowState::Missing, None, Some(note.unwrap_or_else(|| "no answer".into())));
        };
        let recorded = self.requests[i].response.clone().unwrap_or(Value::Null);
        let (changes, truncated) = diff_bounded(&recorded, &live, &self.ignore, MAX_CHANGES);
        let state = if recorded.get("result").is_some() && live.get("error").is_some() {
            RowState::Error
        } else if changes.is_empty() {
            RowState::Same
        } else {
            RowState::Different
        };
        self.push_row(i, state, (changes, truncated), note, Some(live));
    }

    /// Adds the row of request `i`, with the recorded answer beside the live one.
    fn push_row(
        &mut self,
        i: usize,
        state: RowState,
        (changes, truncated): (Vec<super::Change>, bool),
        note: Option<String>,
        live: Option<Value>,
    ) {
        let r = &self.requests[i];
        let recorded = r.response.clone().unwrap_or(Value::Null);
        self.rows.push(ReplayRow {
            index: i,
            line: r.line,
            method: r.method.clone(),
            tool: tool_of(r),
            state,
            changes,
            truncated,
            note,
            recorded,
            live,
        });
    }

    fn row(&mut self, i: usize, state: RowState, live: Option<Value>, note: Option<String>) {
        self.push_row(i, state, (Vec::new(), false), note, live);
    }
}

fn tool_of(r: &Recorded) -> Option<String> {
    (r.method == "tools/call").then(|| r.params["name"].as_str().unwrap_or_default().to_owned())
}

/// The `seq` of the first request of `method` (with `id`, when given) sent at or after
/// timeline row `from`.
fn first_request(s: &Session, from: usize, method: &str, id: Option<&Id>) -> Option<usize> {
    let rows = s.timeline().rows();
    let request = rows[from.min(rows.len())..].iter().find(|r| {
        r.direction == RowDirection::Out
            && r.method.as_deref() == Some(method)
            && r.id.is_some()
            && id.is_none_or(|id| r.id.as_ref() == Some(id))
    })?;
    Some(request.seq)
}

/// The live answer to the first request of `method` sent at or after timeline row `from`.
fn live_answer(s: &Session, from: usize, method: &str, id: Option<&Id>) -> Option<Value> {
    match (first_request(s, from, method, id), id) {
        (Some(seq), _) => answer_of(s, seq),
        (None, Some(id)) => answer_by_id(s, id),
        (None, None) => None,
    }
}

/// The outcome a 2026-07-28 task brought with its last status, as an answer.
fn inline_outcome(s: &Session) -> Option<Value> {
    match s.call() {
        CallState::Done { outcome, .. } => Some(strip(outcome.raw().clone())),
        _ => None,
    }
}

/// The answer to the request at `seq`, without `jsonrpc` and `id`.
fn answer_of(s: &Session, seq: usize) -> Option<Value> {
    let rows = s.timeline().rows();
    let request = rows.get(seq)?;
    match request.partner.and_then(|p| rows.get(p)) {
        Some(answer) => serde_json::from_str(&answer.raw).ok().map(strip),
        None => answer_by_id(s, request.id.as_ref()?),
    }
}

/// The latest answer with `id` (ids are not reused within one connection), for an answer
/// whose row came before its request's.
fn answer_by_id(s: &Session, id: &Id) -> Option<Value> {
    let answer = s.timeline().rows().iter().rev().find(|r| {
        r.direction == RowDirection::In
            && matches!(r.kind, RowKind::Response | RowKind::Error)
            && r.id.as_ref() == Some(id)
    })?;
    serde_json::from_str(&answer.raw).ok().map(strip)
}
