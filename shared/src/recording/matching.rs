//! A recording as a mock MCP server, sans-IO: each live request gets the recorded answer
//! that matches it (same method and params first, then the next unused one of the same
//! method and tool, resource or task, in recorded order, then the last of the same), with
//! the live request's id, followed
//! by the server notifications recorded around that answer at the recorded pace.
//!
//! A recording may be hostile or huge: delays are capped, the notifications kept per
//! answer are bounded, error messages quote what was asked and recorded only in part, and a
//! recorded text that would break newline framing is re-encoded compactly.

use serde::Deserialize;
use serde_json::{Map, Value, value::RawValue};

use super::{Entry, Header, Recording};
use crate::relay::Direction;

/// The longest a reply waits for its turn, in milliseconds, whatever the recording says.
pub const MAX_DELAY_MS: f64 = 3000.0;
/// Server notifications kept per recorded answer; later ones are dropped.
pub const MAX_NOTIFICATIONS: usize = 1000;
/// Characters of a request's params quoted in an error message.
const QUOTE_CHARS: usize = 200;
/// Recorded requests listed in an error message.
const LISTED: usize = 8;

/// One frame the mock sends, after waiting `delay_ms` from the previous reply (or from the
/// request, for the first).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub delay_ms: f64,
    pub frame: String,
}

/// The answer member of a recorded response: `result` or `error`, its raw text.
#[derive(Debug, Clone)]
struct Answer {
    member: &'static str,
    raw: String,
}

/// A recorded server notification and when it was read.
#[derive(Debug, Clone)]
struct Note {
    at_ms: f64,
    frame: String,
}

/// A recorded client request with what the server answered and notified around it.
#[derive(Debug, Clone)]
struct Exchange {
    method: String,
    /// Params without `_meta`; `None` when absent or empty.
    params: Option<Value>,
    /// The progress token the recorded request carried.
    token: Option<Value>,
    at_ms: f64,
    answer: Option<(f64, Answer)>,
    /// Notifications read after the request and before the next one, in order.
    notes: Vec<Note>,
    used: bool,
}

impl Exchange {
    /// What a request of this method is about: a tool or prompt `name`, a `uri`, a task, or
    /// what a completion completes.
    fn subject(&self) -> Option<&Value> {
        subject(self.params.as_ref())
    }
}

fn subject(params: Option<&Value>) -> Option<&Value> {
    let p = params?;
    p.get("name").or_else(|| p.get("uri")).or_else(|| p.get("taskId")).or_else(|| p.get("ref"))
}

/// A recording, answering requests as its server did.
#[derive(Debug, Clone)]
pub struct Mock {
    exchanges: Vec<Exchange>,
    /// The header's `initialize` facts, for a recording whose answer was cut off.
    header: Header,
}

/// The members of a frame the mock reads without re-encoding.
#[derive(Deserialize)]
struct RawFrame<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

impl Mock {
    pub fn new(recording: &Recording) -> Mock {
        let mut exchanges: Vec<Exchange> = Vec::new();
        // Recorded id (its JSON text) → the exchange waiting for its answer.
        let mut pending: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for entry in &recording.entries {
            let Entry::Message { at_ms, direction, frame } = entry else { continue };
            if frame.trim_start().starts_with('[') {
                continue;
            }
            let Ok(raw) = serde_json::from_str::<RawFrame<'_>>(frame) else { continue };
            match (direction, raw.method, raw.id) {
                (Direction::Out, Some(method), Some(id)) => {
                    pending.insert(id.get().to_owned(), exchanges.len());
                    let (params, token) = split_meta(raw.params);
                    exchanges.push(Exchange {
                        method,
                        params,
                        token,
                        at_ms: *at_ms,
                        answer: None,
                        notes: Vec::new(),
                        used: false,
                    });
                }
                (Direction::In, None, Some(id)) => {
                    let Some(i) = pending.remove(id.get()) else { continue };
                    let answer = match (raw.result, raw.error) {
                        (Some(r), _) => Answer { member: "result", raw: compact(r.get()) },
                        (None, Some(e)) => Answer { member: "error", raw: compact(e.get()) },
                        (None, None) => continue,
                    };
                    exchanges[i].answer = Some((*at_ms, answer));
                }
                (Direction::In, Some(_), None) => {
                    if let Some(last) = exchanges.last_mut()
                        && last.notes.len() < MAX_NOTIFICATIONS
                    {
                        last.notes.push(Note { at_ms: *at_ms, frame: compact(frame) });
                    }
                }
                // Client notifications and responses, and server requests, are not replayed.
                _ => {}
            }
        }
        Mock { exchanges, header: recording.header.clone() }
    }

    /// How many recorded requests have an answer.
    pub fn answers(&self) -> usize {
        self.exchanges.iter().filter(|e| e.answer.is_some()).count()
    }

    /// What the mock sends for one frame from the client, in order; nothing for a
    /// notification or a response.
    pub fn answer(&mut self, request_frame: &str) -> Vec<Reply> {
        // serde reads a struct from an array too: a batch is refused before it is read.
        if request_frame.trim_start().starts_with('[') {
            return vec![now(error_frame("null", -32600, "batches are not supported"))];
        }
        let raw = match serde_json::from_str::<RawFrame<'_>>(request_frame) {
            Ok(raw) => raw,
            Err(e) => return vec![now(error_frame("null", -32700, &format!("not a JSON-RPC object: {e}")))],
        };
        let (Some(method), Some(id)) = (raw.method, raw.id) else { return Vec::new() };
        let id = id.get();
        let (params, token) = split_meta(raw.params);
        if method == "ping" {
            return vec![now(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#))];
        }
        if method == "initialize" {
            // A new session: the recording starts over.
            self.exchanges.iter_mut().for_each(|e| e.used = false);
        }
        let found = self.find(&method, params.as_ref());
        let found = found.or_else(|| {
            (method == "initialize").then(|| self.exchanges.iter().position(|e| answered(e, "initialize"))).flatten()
        });
        match found {
            Some(i) => {
                self.exchanges[i].used = true;
                replies(&self.exchanges[i], id, token.as_ref())
            }
            None if method == "initialize" && self.header.protocol_version.is_some() => {
                let h = &self.header;
                let result = serde_json::json!({
                    "protocolVersion": h.protocol_version,
                    "capabilities": h.capabilities.clone().unwrap_or_default(),
                    "serverInfo": h.server_info.clone().unwrap_or_else(|| serde_json::json!({"name": "mock", "version": "0"})),
                });
                vec![now(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#))]
            }
            None => {
                let (code, message) = self.unmatched(&method, params.as_ref());
                vec![now(error_frame(id, code, &message))]
            }
        }
    }

    /// The exchange that answers `method` with `params`, by the rules in order.
    fn find(&self, method: &str, params: Option<&Value>) -> Option<usize> {
        let all = || self.exchanges.iter().enumerate().filter(|(_, e)| answered(e, method));
        all()
            .find(|(_, e)| !e.used && e.params.as_ref() == params)
            .or_else(|| all().find(|(_, e)| !e.used && e.subject() == subject(params)))
            // Asked again once every recorded answer was used: the last one (a task polled
            // longer than recorded stays in its last status).
            .or_else(|| all().rfind(|(_, e)| e.params.as_ref() == params))
            .map(|(i, _)| i)
    }

    /// The error code and message for a request the recording cannot answer.
    fn unmatched(&self, method: &str, params: Option<&Value>) -> (i64, String) {
        let asked = params.map_or_else(|| "no params".to_owned(), |p| quote(&p.to_string()));
        let same: Vec<&Exchange> = self.exchanges.iter().filter(|e| answered(e, method)).collect();
        if same.is_empty() {
            let mut methods: Vec<&str> = Vec::new();
            for e in self.exchanges.iter().filter(|e| e.answer.is_some()) {
                if !methods.contains(&e.method.as_str()) && methods.len() < LISTED * 4 {
                    methods.push(&e.method);
                }
            }
            let holds = if methods.is_empty() { "no answered requests".to_owned() } else { methods.join(", ") };
            let message =
                format!("the recording holds no answer to {} ({asked}); it holds answers to: {holds}", quote(method));
            return (-32601, message);
        }
        let listed: Vec<String> = same
            .iter()
            .take(LISTED)
            .map(|e| {
                let p = e.params.as_ref().map_or_else(|| "no params".to_owned(), |p| quote(&p.to_string()));
                if e.used { format!("{p} (used)") } else { p }
            })
            .collect();
        let more = same.len().saturating_sub(LISTED);
        let more = if more > 0 { format!("; and {more} more") } else { String::new() };
        let message = format!(
            "the recording holds no answer to {} with {asked}; for {} it holds: {}{more}",
            quote(method),
            quote(method),
            listed.join("; ")
        );
        (-32602, message)
    }
}

fn answered(e: &Exchange, method: &str) -> bool {
    e.method == method && e.answer.is_some()
}

/// The replies for one matched exchange: the notifications read before its answer, the
/// answer with the live id, then the notifications after it, each after its recorded gap.
fn replies(e: &Exchange, id: &str, live_token: Option<&Value>) -> Vec<Reply> {
    let Some((answer_at, answer)) = &e.answer else { return Vec::new() };
    let mut out = Vec::new();
    let mut last = e.at_ms;
    let mut answer_sent = false;
    for note in &e.notes {
        if !answer_sent && note.at_ms > *answer_at {
            out.push(Reply { delay_ms: gap(last, *answer_at, out.is_empty()), frame: answer_frame(id, answer) });
            last = *answer_at;
            answer_sent = true;
        }
        let Some(frame) = with_token(&note.frame, e.token.as_ref(), live_token) else { continue };
        out.push(Reply { delay_ms: gap(last, note.at_ms, false), frame });
        last = note.at_ms;
    }
    if !answer_sent {
        out.push(Reply { delay_ms: gap(last, *answer_at, out.is_empty()), frame: answer_frame(id, answer) });
    }
    out
}

/// The wait between two recorded times, capped; an answer with nothing before it is
/// immediate (the mock has no work to do).
fn gap(from: f64, to: f64, immediate: bool) -> f64 {
    let d = to - from;
    if immediate || !d.is_finite() || d <= 0.0 { 0.0 } else { d.min(MAX_DELAY_MS) }
}

fn answer_frame(id: &str, answer: &Answer) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"{}":{}}}"#, answer.member, answer.raw)
}

/// A recorded notification as sent live: its progress token swapped for the live request's;
/// `None` for progress of a recorded token the live request did not ask for.
fn with_token(frame: &str, recorded: Option<&Value>, live: Option<&Value>) -> Option<String> {
    let Some(recorded) = recorded else { return Some(frame.to_owned()) };
    if !frame.contains("notifications/progress") {
        return Some(frame.to_owned());
    }
    let Ok(mut v) = serde_json::from_str::<Value>(frame) else { return Some(frame.to_owned()) };
    let is_ours = v.get("method").and_then(Value::as_str) == Some("notifications/progress")
        && v.pointer("/params/progressToken") == Some(recorded);
    if !is_ours {
        return Some(frame.to_owned());
    }
    let live = live?;
    if let Some(t) = v.pointer_mut("/params/progressToken") {
        *t = live.clone();
    }
    Some(v.to_string())
}

/// Params without `_meta` (`None` when nothing else is left), and the progress token.
fn split_meta(params: Option<Value>) -> (Option<Value>, Option<Value>) {
    match params {
        Some(Value::Object(mut map)) => {
            let token = map.remove("_meta").and_then(|m| m.get("progressToken").cloned());
            let params = (!map.is_empty()).then_some(Value::Object(map));
            (params, token)
        }
        Some(Value::Null) | None => (None, None),
        Some(other) => (Some(other), None),
    }
}

/// Text that fits on one line: JSON with a line break in it is re-encoded compactly.
fn compact(text: &str) -> String {
    if !text.contains(['\n', '\r']) {
        return text.to_owned();
    }
    serde_json::from_str::<Value>(text).map_or_else(|_| text.replace(['\n', '\r'], " "), |v| v.to_string())
}

/// At most [`QUOTE_CHARS`] characters of `text`, marked when cut.
fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

fn error_frame(id: &str, code: i64, message: &str) -> String {
    let mut error = Map::new();
    error.insert("code".into(), code.into());
    error.insert("message".into(), message.into());
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{}}}"#, Value::Object(error))
}

fn now(frame: String) -> Reply {
    Reply { delay_ms: 0.0, frame }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::parse;
    use expect_test::expect;

    /// A recording from `(t, dir, frame)` lines.
    fn mock(lines: &[(f64, &str, &str)]) -> Mock {
        let mut text = String::from(
            r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"cli","relay_version":"0","target":{"transport":"demo"},"protocol_version":"2025-06-18"}"#,
        );
        text.push('\n');
        for (t, dir, frame) in lines {
            let line = serde_json::json!({"t": t, "dir": dir, "frame": frame});
            text.push_str(&line.to_string());
            text.push('\n');
        }
        let recording = parse(&text).expect("a recording");
        assert!(recording.problems.is_empty(), "{:?}", recording.problems);
        Mock::new(&recording)
    }

    fn show(replies: &[Reply]) -> String {
        replies.iter().map(|r| format!("+{} {}", r.delay_ms, r.frame)).collect::<Vec<_>>().join("\n")
    }

    const INIT_OUT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"a"}}}"#;
    const INIT_IN: &str =
        r#"{"result":{"protocolVersion":"2024-11-05","serverInfo":{"name":"s"}},"jsonrpc":"2.0","id":1}"#;

    fn echo_recording() -> Mock {
        mock(&[
            (0.0, "out", INIT_OUT),
            (5.0, "in", INIT_IN),
            (6.0, "out", r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            (
                10.0,
                "out",
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
            ),
            (
                11.0,
                "out",
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"yo"}}}"#,
            ),
            (12.0, "in", r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"yo" }]}}"#),
            (13.0, "in", r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}"#),
        ])
    }

    fn call(id: u32, message: &str) -> String {
        serde_json::json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"echo","arguments":{"message":message}}}).to_string()
    }

    #[test]
    fn initialize_answers_as_recorded_with_the_live_id() {
        let mut m = echo_recording();
        let live = r#"{"jsonrpc":"2.0","id":"abc","method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"other"}}}"#;
        expect![[
            r#"+0 {"jsonrpc":"2.0","id":"abc","result":{"protocolVersion":"2024-11-05","serverInfo":{"name":"s"}}}"#
        ]]
        .assert_eq(&show(&m.answer(live)));
        // Again: still answered (a new session starts the recording over).
        assert_eq!(m.answer(live).len(), 1);
    }

    #[test]
    fn params_match_first_whatever_the_recorded_order() {
        let mut m = echo_recording();
        expect![[r#"+0 {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#]]
            .assert_eq(&show(&m.answer(&call(7, "hi"))));
        // The recorded text is kept as it was, spacing included.
        expect![[r#"+0 {"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"yo" }]}}"#]]
            .assert_eq(&show(&m.answer(&call(8, "yo"))));
    }

    #[test]
    fn other_params_take_the_next_unused_answer_of_the_same_tool_then_fail() {
        let mut m = echo_recording();
        assert!(m.answer(&call(1, "other"))[0].frame.contains(r#""text":"hi""#));
        assert!(m.answer(&call(2, "other"))[0].frame.contains(r#""text":"yo" "#));
        // Both used: an identical request is answered again, a new one is not.
        assert!(m.answer(&call(3, "hi"))[0].frame.contains(r#""text":"hi""#));
        expect![[r#"+0 {"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"the recording holds no answer to tools/call with {\"name\":\"echo\",\"arguments\":{\"message\":\"other\"}}; for tools/call it holds: {\"name\":\"echo\",\"arguments\":{\"message\":\"hi\"}} (used); {\"name\":\"echo\",\"arguments\":{\"message\":\"yo\"}} (used)"}}"#]]
            .assert_eq(&show(&m.answer(&call(4, "other"))));
    }

    #[test]
    fn another_tool_or_method_is_an_error_naming_what_is_held() {
        let mut m = echo_recording();
        let nope = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}"#;
        let reply = m.answer(nope);
        assert!(reply[0].frame.contains("-32602") && reply[0].frame.contains(r#"\"name\":\"echo\""#), "{reply:?}");
        expect![[r#"+0 {"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"the recording holds no answer to prompts/list (no params); it holds answers to: initialize, tools/call"}}"#]]
            .assert_eq(&show(&m.answer(r#"{"jsonrpc":"2.0","id":6,"method":"prompts/list"}"#)));
    }

    #[test]
    fn ping_notifications_and_responses() {
        let mut m = echo_recording();
        expect![[r#"+0 {"jsonrpc":"2.0","id":9,"result":{}}"#]]
            .assert_eq(&show(&m.answer(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)));
        assert!(m.answer(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
        assert!(m.answer(r#"{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}"#).is_empty());
        expect![[r#"+0 {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC object: expected ident at line 1 column 2"}}"#]]
            .assert_eq(&show(&m.answer("nonsense")));
        assert!(m.answer(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)[0].frame.contains("-32600"));
    }

    #[test]
    fn notifications_follow_at_the_recorded_pace_with_the_live_progress_token() {
        let mut m = mock(&[
            (
                100.0,
                "out",
                r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"call-4"}}}"#,
            ),
            (
                150.0,
                "in",
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"call-4","progress":1}}"#,
            ),
            (
                9150.0,
                "in",
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"call-4","progress":2}}"#,
            ),
            (9200.0, "in", r#"{"jsonrpc":"2.0","id":4,"result":{"content":[]}}"#),
            (9300.0, "in", r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#),
            (9400.0, "out", r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#),
            (9500.0, "in", r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#),
        ]);
        let live =
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":7}}}"#;
        expect![[r#"
            +50 {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}
            +3000 {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":2}}
            +50 {"jsonrpc":"2.0","id":1,"result":{"content":[]}}
            +100 {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#]]
        .assert_eq(&show(&m.answer(live)));
        // Without a token asked for, no progress is sent; a request never answered is unmatched.
        let live = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}"#;
        expect![[r#"
            +0 {"jsonrpc":"2.0","id":2,"result":{"content":[]}}
            +100 {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#]]
        .assert_eq(&show(&m.answer(live)));
        assert!(m.answer(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)[0].frame.contains("-32601"));
    }

    #[test]
    fn meta_and_empty_params_do_not_count_and_errors_are_kept() {
        let mut m = mock(&[
            (0.0, "out", r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"x":1}}}"#),
            (1.0, "in", r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"down"}}"#),
        ]);
        expect![[r#"+0 {"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":-1,"message":"down"}}"#]].assert_eq(
            &show(&m.answer(r#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/list","params":{}}"#)),
        );
    }

    #[test]
    fn hostile_recordings_stay_bounded_and_on_one_line() {
        let huge = "x".repeat(10_000);
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\n    \"tools\": []\n  }\n}";
        let call = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{huge}"}}}}"#);
        let mut m = mock(&[
            (0.0, "out", r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            (f64::MAX, "in", pretty),
            (1.0, "out", &call),
            (2.0, "in", r#"{"jsonrpc":"2.0","id":2,"result":{}}"#),
        ]);
        let reply = m.answer(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
        expect![[r#"+0 {"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#]].assert_eq(&show(&reply));
        let reply = m.answer(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"y"}}"#);
        assert!(reply[0].frame.len() < 1000, "{}", reply[0].frame.len());
        assert_eq!(m.answers(), 2);
    }

    #[test]
    fn a_header_alone_still_initializes() {
        let mut m = mock(&[]);
        expect![[r#"+0 {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"mock","version":"0"}}}"#]]
            .assert_eq(&show(&m.answer(INIT_OUT)));
    }

    #[test]
    fn a_task_is_polled_through_its_recorded_statuses_and_stays_in_its_last() {
        let get = |id: u32| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tasks/get","params":{{"taskId":"t1"}}}}"#);
        let status =
            |id: u32, s: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"taskId":"t1","status":"{s}"}}}}"#);
        let mut other = get(9).replace("t1", "t2");
        other.push(' ');
        let mut m = mock(&[
            (0.0, "out", &get(2)),
            (1.0, "in", &status(2, "working")),
            (2.0, "out", &get(3)),
            (3.0, "in", &status(3, "completed")),
            (4.0, "out", &other),
            (5.0, "in", &status(9, "working").replace("t1", "t2")),
        ]);
        let seen: Vec<String> = (20..24)
            .map(|id| {
                let reply: Value = serde_json::from_str(&m.answer(&get(id))[0].frame).unwrap();
                reply["result"]["status"].as_str().unwrap_or_default().to_owned()
            })
            .collect();
        assert_eq!(seen, ["working", "completed", "completed", "completed"], "never another task's status");
    }
}
