//! Playback and the page's own recording: a recorded session shown again through the same
//! core, and the capture a page exports.

use serde_json::json;

use super::*;

/// What a person sees of a session, for comparing live and playback.
fn shown(s: &Session) -> String {
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{}",
        s.conn(),
        s.server(),
        s.tools().iter().map(|t| &t.name).collect::<Vec<_>>(),
        s.tools_error(),
        s.call(),
        s.progress(),
        s.logs(),
        s.reads(),
        s.timeline().len()
    )
}

pub(super) fn relay_info() -> RelayInfo {
    RelayInfo {
        protocol: crate::relay::RELAY_PROTOCOL,
        preset_oauth: Default::default(),
        version: "1.0.0".into(),
        preset: Target::Demo,
        preset_protocol: crate::session::tests_pin(),
        limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
        servers: vec![],
        recording: false,
        playback: false,
        sandbox: None,
        config: None,
    }
}

#[test]
fn playback_shows_what_the_live_session_showed_at_every_step() {
    let mut h = Harness::connected(echo_tool());
    let mut live_views = vec![shown(&h.s)];
    let mut marks = vec![h.fed.len()];
    let mut step = |h: &mut Harness| {
        live_views.push(shown(&h.s));
        marks.push(h.fed.len());
    };
    h.s.call_tool("slow", json!({"n": 1}), LIMITS, h.at).unwrap();
    h.flush();
    step(&mut h);
    h.s.receive(progress_msg("call-3", 1.0), h.at);
    h.fed.push(progress_msg("call-3", 1.0));
    step(&mut h);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}]}}"#);
    step(&mut h);
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.s.cancel_call();
    h.flush();
    step(&mut h);
    // The relay stamps the request when it goes and the cancel when it goes, as the clock says.
    let start = h.at + 1.0;
    h.s.call_tool("slow", json!({}), LIMITS, start).unwrap();
    h.flush();
    h.s.tick(start + 1000.0);
    h.at = start + 999.0;
    h.flush();
    step(&mut h);
    h.s.read_resource("demo://r");
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":6,"result":{"contents":[{"uri":"demo://r","text":"hi"}]}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"fresh","inputSchema":{}}]}}"#);
    h.event(RelayEvent::Exited { code: Some(0), signal: None });
    h.event(RelayEvent::Closed { reason: "the server exited".into(), asked: false });
    step(&mut h);

    let mut p = Session::for_playback("9.9.9", relay_info());
    let mut fed = 0;
    for (mark, live) in marks.iter().zip(&live_views) {
        for msg in &h.fed[fed..*mark] {
            p.receive(msg.clone(), 0.0);
        }
        fed = *mark;
        assert_eq!(&shown(&p), live, "after {mark} messages");
        assert!(p.drain().send.is_empty(), "playback sends nothing");
    }
    // The timeout reads as a timeout, with how long it ran.
    assert!(live_views[5].contains("Timeout"), "{}", live_views[5]);
}

#[test]
fn the_page_exports_what_it_captured_as_a_recording() {
    let mut h = Harness::connected(echo_tool());
    assert!(h.s.is_recording() && h.s.has_recording());
    h.s.call_tool("echo", json!({"message": "hi"}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}]}}"#);
    let text = h.s.export_recording().unwrap();
    let r = crate::recording::parse(&text).unwrap();
    assert!(r.problems.is_empty());
    assert_eq!(r.header.recorded_by, crate::recording::Recorder::Page);
    assert_eq!(r.header.relay_version, "1.0.0");
    assert_eq!(r.header.protocol_version.as_deref(), Some("2025-06-18"));
    assert_eq!(r.entries.len(), h.fed.len(), "every message and event, from the first");
    let fed: Vec<crate::recording::Entry> = h.fed.iter().filter_map(crate::recording::Entry::of).collect();
    assert_eq!(r.entries, fed, "exactly what the relay said, frames byte for byte");

    // Stopped, then started again: both stretches, nothing of the gap.
    h.s.set_recording(false);
    assert!(!h.s.is_recording());
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"unseen"}}"#);
    h.s.set_recording(true);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"seen"}}"#);
    let text = h.s.export_recording().unwrap();
    assert!(text.contains("seen") && !text.contains("unseen"));
    assert_eq!(crate::recording::parse(&text).unwrap().entries.len(), fed.len() + 1);

    // Not recording at connect: a session started later holds only what came after.
    let mut s = Session::new("0");
    s.connect_with(Target::Demo, crate::session::tests_pin(), false);
    assert!(!s.has_recording() && s.export_recording().is_none());
}

#[test]
fn a_tools_last_arguments_are_those_its_last_request_carried() {
    let mut h = Harness::connected(json!([{"name": "echo", "inputSchema": {}}, {"name": "add", "inputSchema": {}}]));
    assert_eq!(h.s.last_arguments("echo"), None, "never called");
    h.s.call_tool("echo", json!({"message": "one"}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#);
    h.s.call_tool("add", json!({"a": 1}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"result":{"content":[]}}"#);
    h.s.call_tool("echo", json!({"message": "two"}), LIMITS, h.at).unwrap();
    h.flush();
    assert_eq!(h.s.last_arguments("echo"), Some(json!({"message": "two"})), "the newest, even under way");
    assert_eq!(h.s.last_arguments("add"), Some(json!({"a": 1})));
    assert_eq!(h.s.last_arguments("ech"), None, "by the whole name");
}
