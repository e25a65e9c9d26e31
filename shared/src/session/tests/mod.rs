//! Every transition of the session, driven as the relay would drive it: each message the
//! session sends is echoed back as an `out` message, as the relay does.

use expect_test::expect;
use serde_json::json;

use super::*;
use crate::relay::{Limits, RelayEvent};

const LIMITS: CallLimits = CallLimits { timeout_ms: 1000.0, max_total_ms: 5000.0 };

/// A session and a fake relay clock.
struct Harness {
    s: Session,
    at: f64,
    /// Every relay message fed to the session after Hello, as a recording would hold it.
    fed: Vec<ServerMsg>,
    /// The session's sends on this socket so far, as the relay numbers them.
    sends: u64,
}

impl Harness {
    fn new() -> Self {
        let mut s = Session::new("9.9.9");
        s.receive(
            ServerMsg::Hello(RelayInfo {
                preset_oauth: Default::default(),
                protocol: 1,
                version: "1.0.0".into(),
                preset: Target::Demo,
                preset_protocol: crate::session::tests_pin(),
                limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
                servers: Vec::new(),
                recording: false,
                playback: false,
                sandbox: None,
                config: None,
            }),
            0.0,
        );
        Self { s, at: 1000.0, fed: Vec::new(), sends: 0 }
    }

    /// Sends what the session wants sent (stamping frames as the relay does: `sent` with
    /// their numbers; the recording gets them whole); returns the frames and the other
    /// messages, for checking.
    fn flush(&mut self) -> (Vec<String>, Vec<ClientMsg>, Changed) {
        let fx = self.s.drain();
        let mut frames = Vec::new();
        let mut others = Vec::new();
        for msg in fx.send {
            match msg {
                ClientMsg::Send { frame } => frames.push(frame),
                other => others.push(other),
            }
        }
        for f in &frames {
            self.at += 1.0;
            let whole =
                ServerMsg::Message { direction: Direction::Out, at_ms: self.at, size: f.len(), frame: f.clone() };
            self.fed.push(whole);
            let stamp = ServerMsg::Sent { n: self.sends, at_ms: self.at, size: f.len() };
            self.sends += 1;
            self.s.receive(stamp, self.at);
        }
        (frames, others, fx.changed)
    }

    fn server_says(&mut self, frame: &str) {
        self.at += 1.0;
        let msg =
            ServerMsg::Message { direction: Direction::In, at_ms: self.at, size: frame.len(), frame: frame.into() };
        self.feed(msg);
    }

    fn event(&mut self, event: RelayEvent) {
        self.at += 1.0;
        self.feed(ServerMsg::Event { at_ms: self.at, event });
    }

    fn feed(&mut self, msg: ServerMsg) {
        self.fed.push(msg.clone());
        self.s.receive(msg, self.at);
    }

    /// Connects to a server with these tools (one page).
    fn connected(tools: serde_json::Value) -> Self {
        Self::connected_with(json!({"tools": {"listChanged": true}}), tools)
    }

    /// Connects to a server of these capabilities with these tools (one page).
    fn connected_with(capabilities: serde_json::Value, tools: serde_json::Value) -> Self {
        let mut h = Self::handshaken(capabilities);
        h.server_says(&json!({"jsonrpc":"2.0","id":2,"result":{"tools": tools}}).to_string());
        h.flush();
        h
    }

    /// Past the handshake with a server of these capabilities; its tools asked for (id 2).
    fn handshaken(capabilities: serde_json::Value) -> Self {
        let mut h = Self::new();
        h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
        h.flush();
        h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
        h.flush();
        let init = json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18",
            "capabilities": capabilities, "serverInfo": {"name": "s", "version": "1"}}});
        h.server_says(&init.to_string());
        h.flush();
        h
    }

    fn tool_names(&self) -> Vec<&str> {
        self.s.tools().iter().map(|t| t.name.as_str()).collect()
    }
}

fn echo_tool() -> serde_json::Value {
    json!([{"name": "echo", "inputSchema": {"type": "object"}}, {"name": "slow", "inputSchema": {}}])
}

#[test]
fn connect_handshake_and_tool_list() {
    let mut h = Harness::new();
    assert_eq!(h.s.relay().map(|r| r.version.as_str()), Some("1.0.0"));
    h.s.connect_with(
        Target::Stdio { command: "x".into(), args: vec![], env: Default::default(), cwd: None },
        crate::session::tests_pin(),
        true,
    );
    assert_eq!(h.s.conn(), &ConnState::Connecting);
    let (frames, others, changed) = h.flush();
    assert!(frames.is_empty());
    assert!(matches!(&others[..], [ClientMsg::Connect { target: Target::Stdio { .. }, .. }]));
    assert_eq!(changed, Changed::ALL, "a new session redraws everything");
    h.event(RelayEvent::Spawned { pid: Some(7), command: "x".into(), args: vec![] });
    let (frames, ..) = h.flush();
    assert!(frames[0].contains(r#""method":"initialize""#) && frames[0].contains(r#""version":"9.9.9""#));
    h.server_says(
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"resources":{}},"serverInfo":{"name":"srv","title":"Server","version":"2"},"instructions":"be nice"}}"#,
    );
    assert_eq!(h.s.conn(), &ConnState::Connected);
    assert!(h.s.tools_loading());
    let info = h.s.server().unwrap();
    assert_eq!(
        (info.name.as_str(), info.title.as_deref(), info.has("resources"), info.instructions.as_deref()),
        ("srv", Some("Server"), true, Some("be nice"))
    );
    let (frames, ..) = h.flush();
    expect![[r#"
        [
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        ]
    "#]]
    .assert_debug_eq(&frames);
    h.server_says(r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#);
    assert!(!h.s.tools_loading());
    assert_eq!(h.tool_names(), ["a"]);
    let rows: Vec<String> =
        h.s.timeline().rows().iter().map(|r| format!("{} {:?}", r.direction.as_str(), r.method)).collect();
    expect![[r#"
        [
            "relay Some(\"spawned\")",
            "out Some(\"initialize\")",
            "in Some(\"initialize\")",
            "out Some(\"notifications/initialized\")",
            "out Some(\"tools/list\")",
            "in Some(\"tools/list\")",
        ]
    "#]]
    .assert_debug_eq(&rows);
}

#[test]
fn a_new_connection_starts_from_nothing_but_keeps_the_relay() {
    let mut h = Harness::connected(echo_tool());
    h.s.notice("old".into());
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
    assert!(h.s.tools().is_empty() && h.s.notices().is_empty() && h.s.timeline().is_empty() && h.s.server().is_none());
    assert!(h.s.relay().is_some());
    // Request ids start again at 1 with the new client.
    h.flush();
    h.event(RelayEvent::Spawned { pid: None, command: "d".into(), args: vec![] });
    let (frames, ..) = h.flush();
    assert!(frames[0].starts_with(r#"{"jsonrpc":"2.0","id":1,"method":"initialize""#), "{frames:?}");
}

#[test]
fn remote_connected_starts_the_handshake_too() {
    let mut h = Harness::new();
    h.s.connect_with(
        Target::Auto { url: "http://127.0.0.1:1/mcp".into(), headers: Default::default() },
        crate::session::tests_pin(),
        true,
    );
    h.flush();
    h.event(RelayEvent::Connected { transport: "http".into(), url: "http://127.0.0.1:1/mcp".into(), headers: vec![] });
    let (frames, ..) = h.flush();
    assert!(frames[0].contains("initialize"));
}

#[test]
fn relay_error_while_connecting_fails_the_connection_and_later_is_a_notice() {
    let mut h = Harness::new();
    h.s.connect_with(
        Target::Http { url: "http://127.0.0.1:1/mcp".into(), headers: Default::default() },
        crate::session::tests_pin(),
        true,
    );
    h.flush();
    h.event(RelayEvent::Connected { transport: "http".into(), url: "http://127.0.0.1:1/mcp".into(), headers: vec![] });
    assert_eq!(h.flush().0.len(), 1, "initialize, id 1");
    h.event(RelayEvent::Error { message: "connection refused".into() });
    assert_eq!(h.s.conn(), &ConnState::Error("connection refused".into()));
    assert_eq!(h.flush().1, [ClientMsg::Disconnect {}]);
    // The request that failed with it does not hide the relay's explanation.
    h.event(RelayEvent::RequestFailed { id: json!(1), message: "HTTP 401".into() });
    assert_eq!(h.s.conn(), &ConnState::Error("connection refused".into()));
    assert!(h.flush().1.is_empty(), "one disconnect is enough");

    let mut h = Harness::connected(echo_tool());
    h.event(RelayEvent::Error { message: "not connected: the message was not sent".into() });
    assert_eq!(h.s.conn(), &ConnState::Connected);
    assert_eq!(h.s.notices(), ["not connected: the message was not sent"]);
}

#[test]
fn stderr_notes_oversized_and_invalid_frames() {
    let mut h = Harness::connected(echo_tool());
    for i in 0..(2 * MAX_STDERR_LINES + 1) {
        h.event(RelayEvent::Stderr { line: format!("line {i}"), truncated: false });
    }
    assert_eq!(h.s.stderr().len(), MAX_STDERR_LINES, "trimmed in bulk to the newest");
    assert_eq!(h.s.stderr().last().map(String::as_str), Some("line 1000"));
    h.event(RelayEvent::Note { message: "detected Streamable HTTP".into() });
    h.event(RelayEvent::Oversized { direction: Direction::In, size: 2000, limit: 1024 });
    h.event(RelayEvent::Oversized { direction: Direction::Out, size: 3000, limit: 1024 });
    h.event(RelayEvent::InvalidFrame { preview: "hello".into(), size: 5, error: "expected value".into() });
    expect![[r#"
        [
            "detected Streamable HTTP",
            "a message from the server of 2000 bytes exceeded the limit of 1024 bytes and was dropped",
            "a message to the server of 3000 bytes exceeded the limit of 1024 bytes and was dropped",
            "the server wrote a line that is not JSON-RPC (expected value)",
        ]
    "#]]
    .assert_debug_eq(&h.s.notices());
    let changed = h.flush().2;
    assert!(changed.notices && changed.stderr && changed.rows && !changed.call);
}

#[test]
fn an_exit_closes_with_the_reason_and_the_last_stderr_line() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.s.read_resource("demo://r");
    h.flush();
    h.event(RelayEvent::Stderr { line: "panic: boom".into(), truncated: false });
    h.event(RelayEvent::Exited { code: Some(3), signal: None });
    assert_eq!(h.s.conn(), &ConnState::Connected, "the close says it");
    h.event(RelayEvent::Closed { reason: "the server exited".into(), asked: false });
    assert_eq!(h.s.conn(), &ConnState::Error("the server exited with code 3; last stderr line: panic: boom".into()));
    assert_eq!(
        h.s.call(),
        &CallState::TransportError {
            tool: "slow".into(),
            message: "the connection to the server ended during the call: the server exited with code 3; last stderr line: panic: boom".into()
        }
    );
    assert!(matches!(h.s.reads().get("demo://r"), Some(ReadState::Failed(_))));
    assert_eq!(h.s.next_deadline_ms(), None, "the clock stopped");

    let mut h = Harness::connected(echo_tool());
    h.event(RelayEvent::Exited { code: None, signal: Some(9) });
    h.event(RelayEvent::Closed { reason: "the server exited".into(), asked: false });
    assert_eq!(h.s.conn(), &ConnState::Error("the server was ended by signal 9".into()));
}

#[test]
fn a_disconnect_asked_for_is_not_an_error() {
    let mut h = Harness::connected(echo_tool());
    h.s.disconnect();
    assert_eq!(h.flush().1, [ClientMsg::Disconnect {}]);
    h.event(RelayEvent::Exited { code: None, signal: Some(15) });
    h.event(RelayEvent::Closed { reason: "disconnected".into(), asked: true });
    assert_eq!(h.s.conn(), &ConnState::Disconnected);
}

#[test]
fn losing_the_relay_fails_the_connection_and_the_call() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("echo", json!({}), LIMITS, h.at).unwrap();
    h.s.relay_lost("the relay went away");
    assert_eq!(h.s.conn(), &ConnState::Error("the relay went away".into()));
    assert_eq!(h.s.call().as_str(), "transport-error");
    let mut idle = Session::new("0");
    idle.relay_lost("gone");
    assert_eq!(idle.conn(), &ConnState::Disconnected, "nothing was connected");
}

#[test]
fn a_call_and_its_result_checked_against_the_output_schema() {
    let mut h = Harness::connected(json!([{
        "name": "add", "inputSchema": {},
        "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}
    }]));
    assert!(h.s.call_tool("add", json!({"a": 1}), LIMITS, h.at).is_ok());
    assert_eq!(h.s.call_tool("add", json!({}), LIMITS, h.at), Err(Refused::CallRunning));
    let (frames, ..) = h.flush();
    assert_eq!(
        frames,
        [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":1},"_meta":{"progressToken":"call-3"}}}"#
        ]
    );
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"{\"sum\":\"x\"}"}],"structuredContent":{"sum":"x"}}}"#);
    let CallState::Done { tool, output, duration_ms, .. } = h.s.call() else { panic!("{:?}", h.s.call()) };
    assert_eq!(tool, "add");
    assert_eq!(*duration_ms, Some(1.0), "from the request's row to the response's");
    assert_eq!(output.state(), Some("invalid"));
    assert_eq!(h.s.call().as_str(), "ok");
    assert_eq!(h.s.next_deadline_ms(), None);
}

#[test]
fn a_call_is_refused_when_not_connected() {
    let mut s = Session::new("0");
    assert_eq!(s.call_tool("x", json!({}), LIMITS, 0.0), Err(Refused::NotConnected));
    assert!(s.drain().send.is_empty());
}

#[test]
fn protocol_and_tool_errors_are_told_apart() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("echo", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad"}}"#);
    assert_eq!(h.s.call().as_str(), "protocol-error");
    h.s.call_tool("echo", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"result":{"content":[],"isError":true}}"#);
    assert_eq!(h.s.call().as_str(), "tool-error");
}

#[test]
fn a_result_that_is_not_an_object_is_a_protocol_error() {
    let mut h = Harness::connected(echo_tool());
    let answers = [
        (r#"null"#, "the result is null: a tools/call result must be an object"),
        (r#"[1]"#, "the result is not an object: a tools/call result must be an object"),
        (r#"{"content":7}"#, ""),
    ];
    for (id, (result, message)) in (3..).zip(answers) {
        h.s.call_tool("echo", json!({}), LIMITS, h.at).unwrap();
        h.flush();
        h.server_says(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#));
        assert_eq!(h.s.call().as_str(), "protocol-error", "{result}");
        match h.s.call() {
            CallState::Done { outcome: CallOutcome::ProtocolError { error, .. }, .. } => {
                assert_eq!((error.code, error.message.as_str()), (-32603, message));
            }
            CallState::Done { outcome: CallOutcome::Unreadable { .. }, .. } => assert_eq!(message, "", "{result}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn progress_resets_the_timeout() {
    let mut h = Harness::connected(echo_tool());
    let start = h.at;
    let id = h.s.call_tool("slow", json!({}), LIMITS, start).unwrap();
    assert_eq!(h.s.next_deadline_ms(), Some(start + 1000.0));
    h.flush();
    h.s.tick(start + 900.0);
    assert!(h.s.call().is_pending());
    // Progress for another token changes nothing.
    h.s.receive(progress_msg("call-99", 1.0), start + 950.0);
    assert_eq!(h.s.progress(), None);
    h.s.receive(progress_msg(&format!("call-{id}"), 1.0), start + 950.0);
    assert_eq!(h.s.progress(), Some(&Progress { progress: 1.0, total: Some(4.0), message: Some("step".into()) }));
    assert_eq!(h.s.next_deadline_ms(), Some(start + 1950.0));
    h.s.tick(start + 1500.0);
    assert!(h.s.call().is_pending(), "progress bought another second");
    h.s.tick(start + 1950.0);
    assert_eq!(h.s.call(), &CallState::Timeout { tool: "slow".into(), after_ms: 1950.0 });
    let (frames, ..) = h.flush();
    assert_eq!(
        frames,
        [
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"timed out after 2 s without a response"}}"#
        ]
    );
}

fn progress_msg(token: &str, progress: f64) -> ServerMsg {
    let frame = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken": token, "progress": progress, "total": 4, "message": "step"}}).to_string();
    ServerMsg::Message { direction: Direction::In, at_ms: 0.0, size: frame.len(), frame }
}

#[test]
fn the_hard_cap_ends_a_call_that_keeps_reporting_progress() {
    let mut h = Harness::connected(echo_tool());
    let start = h.at;
    h.s.call_tool("slow", json!({}), LIMITS, start).unwrap();
    h.flush();
    for step in 1..=9 {
        let now = start + f64::from(step) * 500.0;
        h.s.receive(progress_msg("call-3", f64::from(step)), now);
        h.s.tick(now);
        assert!(h.s.call().is_pending(), "step {step}");
    }
    h.s.tick(start + 5000.0);
    assert_eq!(h.s.call(), &CallState::Timeout { tool: "slow".into(), after_ms: 5000.0 });
    assert!(h.flush().0[0].contains("still running after the maximum of 5 s"));
}

#[test]
fn cancel_then_a_late_answer_changes_nothing() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.s.cancel_call();
    assert_eq!(h.s.call(), &CallState::Cancelled { tool: "slow".into(), reason: "cancelled by the user".into() });
    let (frames, ..) = h.flush();
    assert_eq!(
        frames,
        [
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"cancelled by the user"}}"#
        ]
    );
    h.s.cancel_call();
    assert!(h.flush().0.is_empty(), "nothing pending: nothing to cancel");
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}"#);
    assert_eq!(h.s.call().as_str(), "cancelled", "the late answer does not overwrite");
    assert_eq!(
        h.s.notices(),
        ["a late response to request #3 arrived after it was given up on; it is in the timeline"]
    );
    let last = h.s.timeline().rows().last().unwrap();
    assert_eq!(
        (last.method.as_deref(), last.partner),
        (Some("tools/call"), Some(last.seq - 2)),
        "still paired in the timeline"
    );
}

#[test]
fn a_late_answer_after_a_timeout() {
    let mut h = Harness::connected(echo_tool());
    let start = h.at;
    h.s.call_tool("slow", json!({}), LIMITS, start).unwrap();
    h.flush();
    h.s.tick(start + 1000.0);
    assert_eq!(h.s.call().as_str(), "timeout");
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#);
    assert_eq!(h.s.call().as_str(), "timeout");
    assert_eq!(h.s.notices().len(), 1);
}

#[test]
fn the_server_cancels_a_call() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99,"reason":"other"}}"#);
    assert!(h.s.call().is_pending(), "not ours");
    h.server_says(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"shutting down"}}"#,
    );
    assert_eq!(
        h.s.call(),
        &CallState::Cancelled { tool: "slow".into(), reason: "cancelled by the server: shutting down".into() }
    );
    assert_eq!(h.s.next_deadline_ms(), None);
}

#[test]
fn a_request_the_relay_could_not_carry_fails_its_call() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.event(RelayEvent::RequestFailed { id: json!(3), message: "the response stream ended".into() });
    assert_eq!(
        h.s.call(),
        &CallState::TransportError { tool: "slow".into(), message: "the response stream ended".into() }
    );
    h.s.refresh_tools();
    h.flush();
    h.event(RelayEvent::RequestFailed { id: json!(4), message: "HTTP 502".into() });
    assert_eq!(h.s.tools_error(), Some("tools/list failed: HTTP 502"));
    assert!(!h.s.tools_loading());
    assert_eq!(h.tool_names(), ["echo", "slow"], "the list before stays");
}

#[test]
fn resources_logs_and_server_requests() {
    let mut h = Harness::connected(echo_tool());
    h.s.read_resource("demo://a");
    assert_eq!(h.s.reads().get("demo://a"), Some(&ReadState::Loading));
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"demo://a","text":"hi"}]}}"#);
    assert!(matches!(h.s.reads().get("demo://a"), Some(ReadState::Done(c)) if c[0].text.as_deref() == Some("hi")));
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":{"x":1}}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"plain"}}"#);
    let logs: Vec<(usize, &str, Option<&str>, &str)> =
        h.s.logs().iter().map(|l| (l.seq, l.level.as_str(), l.logger.as_deref(), l.text.as_str())).collect();
    assert_eq!(logs, [(0, "warning", Some("db"), r#"{"x":1}"#), (1, "info", None, "plain")]);
    h.s.clear_logs();
    assert!(h.s.logs().is_empty() && h.s.drain().changed.logs);
    h.server_says(r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
    let (frames, ..) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":"p","result":{}}"#]);
    let answer = h.s.timeline().rows().last().unwrap();
    assert_eq!((answer.direction.as_str(), answer.method.as_deref()), ("out", Some("ping")));
}

#[test]
fn only_what_changed_is_flagged() {
    let mut h = Harness::connected(echo_tool());
    h.flush();
    h.s.call_tool("echo", json!({}), LIMITS, h.at).unwrap();
    let fx = h.s.drain();
    assert_eq!(fx.changed, Changed { call: true, ..Changed::default() });
    assert_eq!(h.s.drain(), Effects::default(), "drained");
}

#[test]
fn notices_keep_the_newest_few_hundred() {
    let mut h = Harness::new();
    for i in 0..5 * MAX_NOTICES {
        h.s.notice(format!("n{i}"));
    }
    let n = h.s.notices();
    assert!((MAX_NOTICES..=2 * MAX_NOTICES).contains(&n.len()), "{} kept", n.len());
    assert_eq!(n.last().map(String::as_str), Some(format!("n{}", 5 * MAX_NOTICES - 1).as_str()));
}

mod apps;
mod asks;
mod auth;
mod catalog;
mod handover;
mod playback;
mod protocol;
mod stamps;
mod stateless;
mod tasks;
mod tool_list;
