//! A whole replay driven with canned frames: a recording's requests paired with their
//! answers, re-sent through a live session whose server is played by the test.

use serde_json::{Value, json};

use super::*;
use crate::calls::ConfirmPolicy;
use crate::recording::{Entry, Header, Recorder, Recording};
use crate::relay::{ClientMsg, Direction, Limits, RelayEvent, RelayInfo, ServerMsg, Target};
use crate::session::{CallLimits, Session};

const INIT: &str =
    r#"{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}"#;

fn tools_v1() -> Value {
    json!([
        {"name": "weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
         "annotations": {"readOnlyHint": true}},
        {"name": "wipe", "inputSchema": {"type": "object"}}
    ])
}

/// A recording: initialize, one page of tools, a weather call, a wipe call, a ping.
fn recording(weather_text: &str) -> Recording {
    let out = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::Out, frame: frame.to_string() };
    let inn = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::In, frame: frame.to_string() };
    let init: Value = serde_json::from_str(INIT).expect("json");
    let entries = vec![
        out(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})),
        inn(json!({"jsonrpc": "2.0", "id": 1, "result": init})),
        out(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})),
        out(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})),
        // A server request and our answer: not replayed.
        inn(json!({"jsonrpc": "2.0", "id": 2, "method": "ping"})),
        out(json!({"jsonrpc": "2.0", "id": 2, "result": {}})),
        inn(json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools_v1()}})),
        out(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "weather", "arguments": {"city": "Lisbon"}}})),
        inn(json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": weather_text}]}})),
        out(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "wipe"}})),
        inn(json!({"jsonrpc": "2.0", "id": 4, "result": {"content": []}})),
        out(json!({"jsonrpc": "2.0", "id": 5, "method": "ping"})),
        inn(json!({"jsonrpc": "2.0", "id": 5, "result": {}})),
    ];
    let mut header = Header::new(Recorder::Cli, "1", &Target::Demo, 0.0);
    header.ignore = vec!["/result/content/*/text/at".into()];
    Recording { header, entries, problems: Vec::new() }
}

/// A session connected through a fake relay whose server answers as told.
struct Live {
    s: Session,
    at: f64,
}

impl Live {
    fn connected(tools: Value) -> Self {
        let mut l = Live { s: Session::new("1"), at: 0.0 };
        let hello = ServerMsg::Hello(RelayInfo {
            preset_oauth: Default::default(),
            protocol: 1,
            version: "1".into(),
            preset: Target::Demo,
            preset_protocol: Default::default(),
            limits: Limits { max_message_bytes: 1 << 20, max_stderr_line_bytes: 64 },
            servers: Vec::new(),
            recording: false,
            playback: false,
            sandbox: None,
            config: None,
        });
        l.s.receive(hello, 0.0);
        l.s.connect_with(Target::Demo, crate::session::tests_pin(), false);
        l.flush();
        l.event(RelayEvent::Spawned { pid: Some(1), command: "x".into(), args: vec![] });
        l.flush();
        // Fresh ids: the live session numbers as it likes, pairing is by the live timeline.
        l.says(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{INIT}}}"#));
        l.flush();
        l.says(&json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": tools}}).to_string());
        l.flush();
        l
    }

    /// Echoes what the session sends as the relay does; the frames sent.
    fn flush(&mut self) -> Vec<Value> {
        let mut sent = Vec::new();
        for msg in self.s.drain().send {
            if let ClientMsg::Send { frame } = msg {
                sent.push(serde_json::from_str(&frame).expect("json"));
                self.at += 1.0;
                let m = ServerMsg::Message { direction: Direction::Out, at_ms: self.at, size: frame.len(), frame };
                self.s.receive(m, self.at);
            }
        }
        sent
    }

    fn says(&mut self, frame: &str) {
        self.at += 1.0;
        let m = ServerMsg::Message { direction: Direction::In, at_ms: self.at, size: frame.len(), frame: frame.into() };
        self.s.receive(m, self.at);
    }

    fn event(&mut self, event: RelayEvent) {
        self.at += 1.0;
        self.s.receive(ServerMsg::Event { at_ms: self.at, event }, self.at);
    }
}

/// Runs the replay, the server answering each call with `answer(request)`.
fn run(rec: &Recording, live_tools: Value, answer: impl Fn(&Value) -> Value) -> Report {
    let mut live = Live::connected(live_tools);
    let mut replay = Replay::new(rec, &[], CallLimits::default());
    let allow = ResendPolicy::new(ConfirmPolicy::Unsafe, live.s.tools(), &[]);
    while replay.advance(&mut live.s, &allow, live.at) == Want::Wait {
        for request in live.flush() {
            // Every request is re-sent; a ping is answered as servers do.
            let mut reply = if request["method"] == "ping" { json!({"result": {}}) } else { answer(&request) };
            reply["jsonrpc"] = json!("2.0");
            reply["id"] = request["id"].clone();
            live.says(&reply.to_string());
        }
        assert!(replay.answered(&live.s));
    }
    let recorded = recorded_tools(replay.requests()).unwrap_or_default();
    let ignore = replay.ignore().to_vec();
    Report::new(replay.into_rows(), drift(&recorded, live.s.tools()), ignore)
}

fn states(r: &Report) -> Vec<String> {
    r.rows.iter().map(|r| format!("{} {}", r.method, r.state.as_str())).collect()
}

#[test]
fn requests_pair_with_their_answers_by_id() {
    let rec = recording("sunny");
    let reqs = recorded_requests(&rec);
    let methods: Vec<&str> = reqs.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(methods, ["initialize", "tools/list", "tools/call", "tools/call", "ping"]);
    // The server's ping (id 2, in) and our answer (id 2, out) do not pair with tools/list.
    assert!(reqs[1].response.as_ref().is_some_and(|r| r["result"]["tools"].is_array()));
    assert_eq!(reqs[2].response, Some(json!({"result": {"content": [{"type": "text", "text": "sunny"}]}})));
    assert_eq!(reqs[2].line, 9);
    assert_eq!(recorded_tools(&reqs).map(|t| t.len()), Some(2));
}

#[test]
fn an_answer_recorded_before_its_request_still_pairs() {
    let mut rec = recording("sunny");
    // The relay's echo of the call came after the server's answer.
    rec.entries.swap(7, 8);
    let reqs = recorded_requests(&rec);
    assert_eq!(reqs[2].method, "tools/call");
    assert!(reqs[2].response.is_some());
    assert!(reqs[3].response.is_some(), "the next request pairs as usual");
}

#[test]
fn a_matching_server_replays_the_same() {
    let rec = recording(r#"{"temp": 20, "at": "09:00"}"#);
    let report = run(&rec, tools_v1(), |req| {
        assert_eq!(req["params"]["name"], "weather", "only the read-only tool is re-sent");
        json!({"result": {"content": [{"type": "text", "text": r#"{"at": "10:00", "temp": 20}"#}]}})
    });
    assert_eq!(
        states(&report),
        ["initialize same", "tools/list same", "tools/call same", "tools/call skipped", "ping same"]
    );
    assert!(report.drift.is_empty());
    assert!(!report.failed(FailOn::Any));
    assert_eq!(report.counts.skipped, 1, "only the call the policy refused");
}

#[test]
fn a_changed_server_differs_and_drifts() {
    let rec = recording(r#"{"temp": 20}"#);
    let tools = json!([{"name": "weather", "inputSchema": {"type": "object",
        "properties": {"city": {"type": "string"}, "units": {"type": "string"}}, "required": ["units"]},
        "annotations": {"readOnlyHint": true}}]);
    let report = run(&rec, tools, |_| json!({"result": {"content": [{"type": "text", "text": r#"{"temp": 25}"#}]}}));
    assert_eq!(
        states(&report),
        ["initialize same", "tools/list different", "tools/call different", "tools/call skipped", "ping same"]
    );
    let call = &report.rows[2];
    assert_eq!(call.changes[0].pointer, "/result/content/0/text/temp");
    let drift: Vec<String> = report.drift.iter().map(|d| format!("{:?} {} {}", d.class, d.tool, d.what)).collect();
    assert_eq!(drift, ["Breaking weather new required argument \"units\"", "Breaking wipe tool removed"]);
    assert!(report.failed(FailOn::Breaking));
}

#[test]
fn an_error_where_a_result_was_recorded() {
    let rec = recording("sunny");
    let report = run(&rec, tools_v1(), |_| json!({"error": {"code": -32603, "message": "down"}}));
    assert_eq!(report.rows[2].state, RowState::Error);
    assert!(report.failed(FailOn::Breaking));
    // Without difference otherwise, `breaking` passes while `any` does not.
    let mut only_different = report.clone();
    only_different.rows.retain(|r| r.state != RowState::Error);
    let only_different = Report::new(only_different.rows, vec![], vec![]);
    assert!(!only_different.failed(FailOn::Breaking));
}

#[test]
fn the_connection_ending_makes_the_rest_errors() {
    let rec = recording("sunny");
    let mut live = Live::connected(tools_v1());
    let mut replay = Replay::new(&rec, &[], CallLimits::default());
    let mut allow = ResendPolicy::new(ConfirmPolicy::Always, &[], &[]);
    allow.allow_writes(true);
    assert_eq!(replay.advance(&mut live.s, &allow, 0.0), Want::Wait);
    live.flush();
    live.event(RelayEvent::Closed { reason: "gone".into(), asked: false });
    replay.give_up(&live.s, "gone");
    assert_eq!(replay.advance(&mut live.s, &allow, 0.0), Want::Done);
    let rows = replay.into_rows();
    let got: Vec<&str> = rows.iter().map(|r| r.state.as_str()).collect();
    assert_eq!(got, ["same", "same", "error", "error", "error"]);
}

#[test]
fn ten_thousand_calls_stay_quick() {
    let mut rec = recording("x");
    rec.entries.truncate(7);
    for i in 0..10_000 {
        let id = 10 + i;
        rec.entries.push(Entry::Message {
            at_ms: 0.0,
            direction: Direction::Out,
            frame: json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "weather"}})
                .to_string(),
        });
        rec.entries.push(Entry::Message {
            at_ms: 0.0,
            direction: Direction::In,
            frame: json!({"jsonrpc": "2.0", "id": id, "result": {"content": [], "n": i}}).to_string(),
        });
    }
    let started = std::time::Instant::now();
    let report = run(&rec, tools_v1(), |_| json!({"result": {"content": [], "n": 0}}));
    assert_eq!(report.rows.len(), 10_002);
    assert_eq!(report.counts.different, 9_999);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

fn tool(name: &str, annotations: Value) -> crate::mcp::Tool {
    serde_json::from_value(json!({"name": name, "inputSchema": {"type": "object"}, "annotations": annotations}))
        .unwrap()
}

#[test]
fn the_resend_policy_asks_for_what_may_write_and_the_live_annotations_win() {
    let live = [tool("weather", json!({"readOnlyHint": true})), tool("wipe", json!({}))];
    // The recording says `wipe` was read-only, the live server no longer does.
    let recorded = [tool("wipe", json!({"readOnlyHint": true})), tool("old", json!({"readOnlyHint": true}))];
    let mut p = ResendPolicy::new(ConfirmPolicy::Unsafe, &live, &recorded);
    assert!(!p.needs_confirmation("weather"));
    assert!(p.needs_confirmation("wipe"));
    assert!(!p.needs_confirmation("old"), "a tool gone from the live server is judged by the recording");
    assert!(p.needs_confirmation("unknown"), "a tool nobody annotated may write");
    assert_eq!(p.check("weather"), Ok(()));
    assert_eq!(p.check("wipe"), Err(NOT_ALLOWED.to_owned()));
    let hinted = p.clone().how_to_allow("--allow-writes re-sends it");
    assert_eq!(hinted.check("wipe"), Err(format!("{NOT_ALLOWED} (--allow-writes re-sends it)")));
    p.allow_writes(true);
    assert_eq!(p.check("wipe"), Ok(()));
}

#[test]
fn the_resend_policy_follows_the_confirmation_policy_except_never() {
    let live = [tool("weather", json!({"readOnlyHint": true}))];
    assert!(ResendPolicy::new(ConfirmPolicy::Always, &live, &[]).needs_confirmation("weather"));
    assert!(!ResendPolicy::new(ConfirmPolicy::Unsafe, &live, &[]).needs_confirmation("weather"));
    let never = ResendPolicy::new(ConfirmPolicy::Never, &live, &[]);
    assert!(never.needs_confirmation("wipe"), "a recording is not a person's choice: never counts as unsafe");
    let rec = recording("sunny");
    let requests = recorded_requests(&rec);
    let asked: Vec<String> = never.to_confirm(&requests).into_iter().map(|(name, _)| name).collect();
    assert!(asked.iter().all(|n| n != "weather") && !asked.is_empty(), "{asked:?}");
}

#[test]
fn the_roots_offered_are_the_last_answer_to_the_servers_roots_list() {
    let out = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::Out, frame: frame.to_string() };
    let inn = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::In, frame: frame.to_string() };
    let mut rec = recording("sunny");
    assert_eq!(recorded_roots(&rec), None, "the server never asked: the live roots stay");
    let roots =
        |uris: &[&str]| json!({"roots": uris.iter().map(|u| json!({"uri": u, "name": "x"})).collect::<Vec<_>>()});
    rec.entries.extend([
        inn(json!({"jsonrpc": "2.0", "id": 7, "method": "roots/list"})),
        out(json!({"jsonrpc": "2.0", "id": 7, "result": roots(&["file:///srv/a"])})),
        // Our answer to a tools/call of ours with the same id is not an answer to roots/list.
        out(json!({"jsonrpc": "2.0", "id": 8, "result": roots(&["file:///not/asked"])})),
        inn(json!({"jsonrpc": "2.0", "id": 9, "method": "roots/list"})),
        out(json!({"jsonrpc": "2.0", "id": 9, "result": roots(&["file:///srv/b", "file:///srv/c"])})),
    ]);
    assert_eq!(recorded_roots(&rec), Some(vec!["file:///srv/b".to_owned(), "file:///srv/c".to_owned()]));
    rec.entries.extend([
        inn(json!({"jsonrpc": "2.0", "id": 10, "method": "roots/list"})),
        out(json!({"jsonrpc": "2.0", "id": 10, "result": {"roots": []}})),
    ]);
    assert_eq!(recorded_roots(&rec), Some(vec![]), "an empty list is offered as empty");
}

#[test]
fn every_ordinary_request_is_re_sent_and_compared() {
    let out = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::Out, frame: frame.to_string() };
    let inn = |frame: Value| Entry::Message { at_ms: 0.0, direction: Direction::In, frame: frame.to_string() };
    let mut rec = recording("sunny");
    rec.entries.truncate(7);
    let complete =
        json!({"ref": {"type": "ref/resource", "uri": "demo://t/{id}"}, "argument": {"name": "id", "value": "1"}});
    rec.entries.extend([
        out(json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": "greet", "arguments": {"who": "Ada"}}})),
        inn(json!({"jsonrpc": "2.0", "id": 3, "result": {"messages": [{"role": "user", "content": {"type": "text", "text": "Hi Ada"}}]}})),
        out(json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "demo://t/7"}})),
        inn(json!({"jsonrpc": "2.0", "id": 4, "result": {"contents": [{"uri": "demo://t/7", "text": "seven"}]}})),
        out(json!({"jsonrpc": "2.0", "id": 5, "method": "completion/complete", "params": complete})),
        inn(json!({"jsonrpc": "2.0", "id": 5, "result": {"completion": {"values": ["1", "10"]}}})),
        out(json!({"jsonrpc": "2.0", "id": 6, "method": "resources/list", "params": {"cursor": "p2"}})),
        inn(json!({"jsonrpc": "2.0", "id": 6, "result": {"resources": [{"uri": "demo://b", "name": "b"}]}})),
        out(json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})),
        inn(json!({"jsonrpc": "2.0", "id": 7, "result": {}})),
    ]);
    let report = run(&rec, tools_v1(), |req| {
        let p = &req["params"];
        match req["method"].as_str().unwrap_or_default() {
            "prompts/get" => {
                json!({"result": {"messages": [{"role": "user", "content": {"type": "text", "text": format!("Hi {}", p["arguments"]["who"].as_str().unwrap_or("?"))}}]}})
            }
            "resources/read" => json!({"result": {"contents": [{"uri": p["uri"], "text": "eight"}]}}),
            "completion/complete" => {
                assert_eq!(
                    p,
                    &json!({"ref": {"type": "ref/resource", "uri": "demo://t/{id}"}, "argument": {"name": "id", "value": "1"}})
                );
                json!({"result": {"completion": {"values": ["1", "10"]}}})
            }
            "resources/list" => {
                assert_eq!(p["cursor"], "p2", "the recorded page is asked for");
                json!({"result": {"resources": [{"uri": "demo://b", "name": "b"}]}})
            }
            other => panic!("{other} was not expected"),
        }
    });
    assert_eq!(
        states(&report),
        [
            "initialize same",
            "tools/list same",
            "prompts/get same",
            "resources/read different",
            "completion/complete same",
            "resources/list same",
            "ping same"
        ]
    );
    assert_eq!(report.counts.skipped, 0);
    assert_eq!(report.rows[3].changes[0].pointer, "/result/contents/0/text");
}
