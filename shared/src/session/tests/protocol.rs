//! The revision a session speaks: `server/discover` first for `auto`, what `initialize`
//! offers for each choice, what the session does with the server's answer, and what it
//! says about it.

use super::*;
use crate::revision::Revision;

/// Connects with `choice`, refuses `server/discover` as a server of an older revision
/// does, and answers `initialize` with `answered`; the `initialize` frame sent.
fn handshake(choice: ProtocolChoice, answered: &str) -> (Harness, Vec<String>) {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, choice, true);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let (mut frames, ..) = h.flush();
    if frames[0].contains("server/discover") {
        h.server_says(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#);
        frames = h.flush().0;
    }
    let id: Value = serde_json::from_str::<Value>(&frames[0]).unwrap()["id"].clone();
    let answer = json!({"jsonrpc": "2.0", "id": id, "result": {
        "protocolVersion": answered, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}});
    h.server_says(&answer.to_string());
    (h, frames)
}

fn offered(frames: &[String]) -> String {
    let v: Value = serde_json::from_str(&frames[0]).unwrap();
    v["params"]["protocolVersion"].as_str().unwrap().to_owned()
}

#[test]
fn auto_offers_the_newest_and_accepts_the_servers_pick() {
    let (mut h, frames) = handshake(ProtocolChoice::Auto, "2025-06-18");
    assert_eq!(offered(&frames), "2025-11-25");
    assert_eq!(h.s.conn(), &ConnState::Connected);
    assert_eq!(h.s.protocol(), ProtocolChoice::Auto);
    let n = *h.s.negotiated().unwrap();
    assert_eq!(n.revision, Revision::V2025_06_18);
    assert_eq!(n.to_string(), "2025-06-18 (server/discover refused; offered 2025-11-25, the server chose it)");
    let (frames, ..) = h.flush();
    assert!(frames[1].contains("tools/list"), "{frames:?}");
}

#[test]
fn auto_refuses_a_revision_it_does_not_speak() {
    let (mut h, _) = handshake(ProtocolChoice::Auto, "2099-01-01");
    let ConnState::Error(e) = h.s.conn() else { panic!("{:?}", h.s.conn()) };
    assert!(e.contains("answered protocol revision \"2099-01-01\"") && e.contains("offered 2025-11-25"), "{e}");
    assert!(h.s.negotiated().is_none());
    let (frames, others, _) = h.flush();
    assert!(frames.is_empty(), "nothing more is said to that server: {frames:?}");
    assert_eq!(others, [ClientMsg::Disconnect {}]);
}

#[test]
fn a_pinned_revision_is_offered_and_held_to() {
    let pinned = ProtocolChoice::Pinned(Revision::V2024_11_05);
    let (h, frames) = handshake(pinned, "2024-11-05");
    assert_eq!(offered(&frames), "2024-11-05");
    assert_eq!(h.s.conn(), &ConnState::Connected);
    assert_eq!(h.s.negotiated().unwrap().to_string(), "2024-11-05 (pinned)");

    let (h, _) = handshake(pinned, "2025-06-18");
    let ConnState::Error(e) = h.s.conn() else { panic!("{:?}", h.s.conn()) };
    assert!(e.starts_with("pinned 2024-11-05, the server answered 2025-06-18"), "{e}");
}

#[test]
fn a_pinned_stateless_revision_needs_a_server_that_discovers() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Pinned(Revision::V2026_07_28), false);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let (frames, ..) = h.flush();
    assert!(frames[0].contains(r#""method":"server/discover""#), "{frames:?}");
    h.server_says(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#);
    let ConnState::Error(e) = h.s.conn() else { panic!("{:?}", h.s.conn()) };
    assert!(
        e.starts_with("pinned 2026-07-28, but the server refused server/discover (Method not found (-32601))"),
        "{e}"
    );
    let (frames, ..) = h.flush();
    assert!(frames.is_empty(), "no initialize for a pinned 2026-07-28: {frames:?}");
}

#[test]
fn an_unanswered_discover_has_initialize_follow_and_the_first_answer_settles_it() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Auto, false);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let spawned = h.at;
    h.flush();
    let due = h.s.next_deadline_ms().expect("discover has a deadline");
    assert_eq!(due, spawned + crate::session::DISCOVER_WAIT_MS);
    h.s.tick(due - 1.0);
    assert!(h.flush().0.is_empty());
    h.s.tick(due);
    let (frames, ..) = h.flush();
    assert!(frames[0].contains(r#""method":"initialize""#) && frames[0].contains(r#""id":2"#), "{frames:?}");
    assert_eq!(h.s.next_deadline_ms(), None);
    h.server_says(
        r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    assert_eq!(
        h.s.negotiated().unwrap().reason(),
        "server/discover unanswered; offered 2025-11-25, the server accepted it"
    );
    // The discover answer that comes after is old news.
    h.server_says(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}}"#);
    assert_eq!(h.s.negotiated().unwrap().revision, Revision::V2025_11_25);
}

#[test]
fn the_page_recording_keeps_the_revision_asked_for_and_agreed() {
    let (h, _) = handshake(ProtocolChoice::Pinned(Revision::V2025_03_26), "2025-03-26");
    let text = h.s.export_recording().unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains(r#""protocol":"2025-03-26","protocol_version":"2025-03-26""#), "{header}");
    // Auto is left out, as an older recording has it.
    let (h, _) = handshake(ProtocolChoice::Auto, "2025-06-18");
    let text = h.s.export_recording().unwrap();
    assert!(!text.lines().next().unwrap().contains(r#""protocol":"#), "{text}");
    let back = crate::recording::parse(&text).unwrap();
    assert_eq!(back.header.protocol, ProtocolChoice::Auto);
}

#[test]
fn playback_holds_a_recording_to_the_revision_it_asked_for() {
    let (h, _) = handshake(ProtocolChoice::Pinned(Revision::V2024_11_05), "2025-06-18");
    let live = h.s.conn().clone();
    let rec = crate::recording::parse(&h.s.export_recording().unwrap()).unwrap();
    let relay = RelayInfo {
        protocol: crate::relay::RELAY_PROTOCOL,
        preset_oauth: Default::default(),
        version: "1".into(),
        preset: rec.header.target.clone(),
        preset_protocol: rec.header.protocol,
        limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
        servers: vec![],
        recording: false,
        playback: false,
        sandbox: None,
        config: None,
    };
    let mut p = Session::for_playback("1", relay);
    for e in &rec.entries {
        p.receive(e.to_server_msg().unwrap(), 0.0);
    }
    assert!(matches!(&live, ConnState::Error(e) if e.starts_with("pinned 2024-11-05")), "{live:?}");
    assert_eq!(p.conn(), &live, "played back as it went live");
    assert_eq!(p.protocol(), ProtocolChoice::Pinned(Revision::V2024_11_05));
}

/// Streamable HTTP servers of 2025 refuse `server/discover` with an HTTP 400 whose error has
/// no id, and the relay then fails the request: the session falls back to `initialize`
/// without a word to the person.
#[test]
fn a_discover_refused_without_an_id_falls_back_quietly() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Auto, false);
    h.flush();
    h.event(RelayEvent::Connected { transport: "http".into(), url: "http://127.0.0.1:1/mcp".into(), headers: vec![] });
    h.flush();
    h.server_says(
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#,
    );
    h.event(RelayEvent::RequestFailed { id: json!(1), message: "the server answered HTTP 400 Bad Request".into() });
    let (frames, ..) = h.flush();
    assert!(frames[0].contains(r#""method":"initialize""#), "{frames:?}");
    assert!(h.s.notices().is_empty(), "{:?}", h.s.notices());
    // After the handshake, an error without an id is worth a word again.
    h.server_says(r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"oops"}}"#);
    assert_eq!(h.s.notices().len(), 1, "{:?}", h.s.notices());
}

/// A server that could not be reached fails the connection; the discover that fails with
/// it sends nothing more (before, its fall-back `initialize` met "not connected").
#[test]
fn a_connection_that_failed_sends_nothing_more() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Auto, false);
    h.flush();
    h.event(RelayEvent::Connected { transport: "http".into(), url: "http://127.0.0.1:1/mcp".into(), headers: vec![] });
    h.flush();
    h.event(RelayEvent::Error { message: "connection refused at 127.0.0.1:1".into() });
    h.event(RelayEvent::RequestFailed { id: json!(1), message: "the request did not reach the server".into() });
    let (frames, others, _) = h.flush();
    assert!(frames.is_empty(), "{frames:?}");
    assert_eq!(others, [ClientMsg::Disconnect {}]);
    assert_eq!(h.s.conn(), &ConnState::Error("connection refused at 127.0.0.1:1".into()));
}
