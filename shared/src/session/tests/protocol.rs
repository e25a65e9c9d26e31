//! The revision a session speaks: what `initialize` offers for each choice, what the
//! session does with the server's answer, and what it says about it.

use super::*;
use crate::revision::Revision;

/// Connects with `choice` and answers `initialize` with `answered`; the frames sent first.
fn handshake(choice: ProtocolChoice, answered: &str) -> (Harness, Vec<String>) {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, choice, true);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let (frames, ..) = h.flush();
    let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {
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
    assert_eq!(n.to_string(), "2025-06-18 (offered 2025-11-25, the server chose it)");
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
    assert_eq!(others, [ClientMsg::Disconnect]);
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
fn the_stateless_revision_is_refused_before_anything_is_sent() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Pinned(Revision::V2026_07_28), false);
    let ConnState::Error(e) = h.s.conn() else { panic!("{:?}", h.s.conn()) };
    assert!(e.contains("2026-07-28 is not spoken by MCP Playground yet"), "{e}");
    let (frames, others, changed) = h.flush();
    assert!(frames.is_empty() && others.is_empty(), "no Connect: {others:?}");
    assert!(changed.conn);
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
        version: "1".into(),
        preset: rec.header.target.clone(),
        preset_protocol: rec.header.protocol,
        limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
        servers: vec![],
        recording: false,
        playback: false,
    };
    let mut p = Session::for_playback("1", relay);
    for e in &rec.entries {
        p.receive(e.to_server_msg(), 0.0);
    }
    assert!(matches!(&live, ConnState::Error(e) if e.starts_with("pinned 2024-11-05")), "{live:?}");
    assert_eq!(p.conn(), &live, "played back as it went live");
    assert_eq!(p.protocol(), ProtocolChoice::Pinned(Revision::V2024_11_05));
}
