//! The recording format: round trips byte for byte, masking, the live handshake hold,
//! files cut off or of a newer version, and reading a slice at a time.

use expect_test::expect;
use serde_json::json;

use super::*;

fn stdio() -> Target {
    Target::Stdio {
        command: "node".into(),
        args: vec!["server.js".into()],
        env: [
            ("API_KEY".to_string(), "sk-live-123456".to_string()),
            ("AUTH".to_string(), "Bearer abc.def".to_string()),
        ]
        .into(),
        cwd: Some("/srv".into()),
    }
}

fn session() -> Vec<ServerMsg> {
    let msg = |direction, at_ms: f64, frame: &str| ServerMsg::Message {
        direction,
        at_ms,
        size: frame.len(),
        frame: frame.to_owned(),
    };
    vec![
        ServerMsg::Event {
            at_ms: 1000.0,
            event: RelayEvent::Spawned { pid: Some(4), command: "node".into(), args: vec![] },
        },
        msg(Direction::Out, 1001.0, r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#),
        msg(
            Direction::In,
            1010.5,
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        // Bytes as the server wrote them: spacing, an exponent, escaped unicode.
        msg(
            Direction::In,
            1011.0,
            "{\"jsonrpc\":\"2.0\", \"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1.0e3,\"x\":\"\\u00e9\"}}",
        ),
        ServerMsg::Event { at_ms: 1012.0, event: RelayEvent::Stderr { line: "ready".into(), truncated: false } },
    ]
}

#[test]
fn a_live_recording_holds_the_handshake_then_writes_each_line_at_once() {
    let mut live = LiveRecorder::new(Header::new(Recorder::Relay, "0.1.0", &stdio(), 1000.0));
    let msgs = session();
    assert!(live.push(&msgs[0]).is_empty());
    assert!(live.push(&msgs[1]).is_empty(), "held until initialize is answered");
    let released = live.push(&msgs[2]);
    assert_eq!(released.len(), 4, "header and the three held lines");
    assert_eq!(live.push(&msgs[3]).len(), 1);
    assert_eq!(live.push(&msgs[4]).len(), 1);
    assert!(live.finish().is_empty());
    expect![[r#"{"format":"mcp-playground-recording","version":3,"started_at_ms":1000.0,"recorded_by":"relay","relay_version":"0.1.0","target":{"transport":"stdio","command":"node","args":["server.js"],"env":{"API_KEY":"••••","AUTH":"Bearer ••••"},"cwd":"/srv"},"protocol_version":"2025-06-18","server_info":{"name":"s","version":"1"},"capabilities":{"tools":{"listChanged":true}}}"#]]
        .assert_eq(&released[0]);
    expect![[r#"{"t":1011.0,"dir":"in","frame":"{\"jsonrpc\":\"2.0\", \"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1.0e3,\"x\":\"\\u00e9\"}}"}"#]]
        .assert_eq(&live.push(&msgs[3])[0]);
}

#[test]
fn a_session_that_never_initializes_still_gets_its_header() {
    let mut live = LiveRecorder::new(Header::new(Recorder::Cli, "0.1.0", &Target::Demo, 5.0));
    let closed = ServerMsg::Event { at_ms: 6.0, event: RelayEvent::Closed { reason: "x".into(), asked: false } };
    assert!(live.push(&closed).is_empty());
    let out = live.finish();
    assert_eq!(out.len(), 2);
    assert!(out[0].contains("\"recorded_by\":\"cli\"") && !out[0].contains("protocol_version"));
    // Nor does a server that never answers hold lines forever.
    let mut live = LiveRecorder::new(Header::new(Recorder::Relay, "0", &Target::Demo, 0.0));
    let lines: usize = (0..live::HOLD_LINES).map(|_| live.push(&closed).len()).sum();
    assert_eq!(lines, live::HOLD_LINES + 1);
}

#[test]
fn round_trip_keeps_every_frame_byte_for_byte() {
    let header = Header::new(Recorder::Page, "0.1.0", &stdio(), 1000.0);
    let entries: Vec<Entry> = session().iter().filter_map(Entry::of).collect();
    let text = write(&header, &entries);
    let back = parse(&text).unwrap();
    assert_eq!(back.header, header);
    assert_eq!(back.entries, entries);
    assert!(back.problems.is_empty());
    let msgs: Vec<ServerMsg> = back.entries.iter().filter_map(Entry::to_server_msg).collect();
    assert_eq!(msgs, session(), "playback feeds the session exactly what it saw");
}

#[test]
fn secrets_are_masked() {
    assert_eq!(mask_value("Bearer sk-123"), "Bearer ••••");
    assert_eq!(mask_value("sk-123"), "••••");
    assert_eq!(mask_value(""), "••••");
    assert_eq!(mask_value("a very long secret phrase"), "a ••••", "only a short first word is kept");
    assert_eq!(
        mask_url("https://u:pw@example.com:8443/mcp?key=s3cret&x=1#f"),
        "https://u:••••@example.com:8443/mcp?key=••••&x=••••#f"
    );
    assert_eq!(mask_url("http://127.0.0.1:1/mcp"), "http://127.0.0.1:1/mcp");
    let t = masked_target(&Target::Http {
        url: "http://h/mcp?token=abc".into(),
        headers: [("Authorization".to_string(), "Bearer t0k3n".to_string())].into(),
    });
    let text = serde_json::to_string(&t).unwrap();
    assert!(!text.contains("abc") && !text.contains("t0k3n"), "{text}");
    let Target::Stdio { env, .. } = masked_target(&stdio()) else { panic!() };
    assert!(env.values().all(|v| v.ends_with("••••")));
}

#[test]
fn a_sign_in_approval_url_loses_its_state_in_every_recording() {
    use crate::relay::AuthState;
    let url = "https://as.example/authorize?response_type=code&client_id=c1&state=S3CR3T&code_challenge=CH4L";
    let approve =
        RelayEvent::Auth { auth: AuthState::Approve { issuer: "https://as.example".into(), url: url.into() } };
    let masked = "https://as.example/authorize?response_type=••••&client_id=••••&state=••••&code_challenge=••••";
    let RelayEvent::Auth { auth: AuthState::Approve { url: kept, issuer } } = recorded_event(&approve) else {
        panic!()
    };
    assert_eq!((kept.as_str(), issuer.as_str()), (masked, "https://as.example"));
    let other = RelayEvent::Auth { auth: AuthState::SigningIn { step: "discovery".into() } };
    assert_eq!(recorded_event(&other), other, "other events are kept as they are");
    // The live writer (the relay's `--record`) goes through `Entry::of`.
    let mut live = LiveRecorder::new(Header::new(Recorder::Relay, "1", &Target::Demo, 0.0));
    live.push(&ServerMsg::Event { at_ms: 1.0, event: approve });
    let text = live.finish().join("\n");
    assert!(text.contains("state=••••") && !text.contains("S3CR3T") && !text.contains("CH4L"), "{text}");
}

#[test]
fn bad_lines_are_named_and_the_rest_plays() {
    let header = Header::new(Recorder::Page, "0.1.0", &Target::Demo, 0.0).to_line();
    let good = Entry::Event { at_ms: 1.0, event: RelayEvent::Note { message: "n".into() } }.to_line();
    let text =
        format!("{header}\n{good}\nnot json\n{{\"t\":2,\"dir\":\"in\"}}\n\n{good}\n{{\"t\":3,\"dir\":\"in\",\"fra");
    let r = parse(&text).unwrap();
    assert_eq!(r.entries.len(), 2);
    let problems: Vec<String> = r.problems.iter().map(ToString::to_string).collect();
    expect![[r#"
        [
            "line 3: not an entry of a recording (expected ident at line 1 column 2)",
            "line 4: an entry has either \"dir\" and \"frame\", or \"event\"",
            "line 7: cut off: the file ends in the middle of this line",
        ]
    "#]]
    .assert_debug_eq(&problems);
}

#[test]
fn what_is_not_a_recording_is_refused_and_a_newer_one_is_read_as_far_as_possible() {
    let refused: Vec<String> = [
        "",
        "hello",
        r#"{"rows": []}"#,
        r#"{"format": "mcp-playground-timeline/1", "rows": []}"#,
        r#"{"format": "mcp-playground-recording", "version": 1}"#,
    ]
    .iter()
    .map(|t| parse(t).unwrap_err().to_string())
    .collect();
    expect![[r#"
        [
            "line 1: the file is empty: a recording starts with a header line",
            "line 1: not a recording: the first line is not JSON (expected value at line 1 column 1); a recording starts with {\"format\": \"mcp-playground-recording\", …}",
            "line 1: not a recording: the header has no \"format\", not \"mcp-playground-recording\"",
            "line 1: not a recording: the header has \"format\": \"mcp-playground-timeline/1\", not \"mcp-playground-recording\"",
            "line 1: the header cannot be read: missing field `started_at_ms`",
        ]
    "#]]
    .assert_debug_eq(&refused);
    let mut newer = serde_json::to_value(Header::new(Recorder::Relay, "9", &Target::Demo, 0.0)).unwrap();
    newer["version"] = json!(4);
    newer["something_new"] = json!(true);
    let text = format!(
        "{newer}\n{}\n",
        Entry::Event { at_ms: 1.0, event: RelayEvent::Note { message: "n".into() } }.to_line()
    );
    let r = parse(&text).unwrap();
    assert_eq!(r.entries.len(), 1);
    assert_eq!(r.problems[0].line, 1);
    assert!(r.problems[0].message.contains("format version 4"), "{:?}", r.problems);
}

#[test]
fn a_large_file_is_read_a_slice_at_a_time() {
    let header = Header::new(Recorder::Page, "0.1.0", &Target::Demo, 0.0);
    let entries: Vec<Entry> = (0..1000)
        .map(|i| Entry::Event { at_ms: f64::from(i), event: RelayEvent::Note { message: format!("{i}") } })
        .collect();
    let text = write(&header, &entries);
    let mut reader = Reader::start(&text).unwrap();
    let mut slices = 0;
    while reader.read(&text, 100) {
        slices += 1;
    }
    assert_eq!(slices, 9, "ten slices of 100 lines, the last one reports the end");
    assert_eq!(reader.progress().1, text.len());
    assert_eq!(reader.finish().entries, entries);
    // A few huge lines make a slice too.
    let big = Entry::Message {
        at_ms: 0.0,
        direction: Direction::In,
        frame: format!("{{\"x\":\"{}\"}}", "a".repeat(3 << 20)),
    };
    let text = write(&header, &[big.clone(), big.clone(), big]);
    let mut reader = Reader::start(&text).unwrap();
    assert!(reader.read(&text, usize::MAX), "two lines of 3 MB pass 4 MB: the slice ends there");
    assert_eq!(reader.progress().0, 3, "the header and two entries");
    assert!(!reader.read(&text, usize::MAX));
    assert_eq!(reader.finish().entries.len(), 3);
}

#[test]
fn file_names_say_when_and_what() {
    assert_eq!(utc_stamp(0.0), "1970-01-01T00-00-00Z");
    assert_eq!(utc_stamp(1_795_390_885_000.0), "2026-11-22T23-41-25Z");
    assert_eq!(utc_stamp(951_782_400_000.0), "2000-02-29T00-00-00Z", "a leap day");
    assert_eq!(file_name(0.0, &stdio()), "1970-01-01T00-00-00Z-server.js.jsonl");
    let remote = Target::Http { url: "https://api.example.com:8443/mcp?k=v".into(), headers: Default::default() };
    assert_eq!(file_name(0.0, &remote), "1970-01-01T00-00-00Z-api.example.com-8443.jsonl");
    assert_eq!(file_name(0.0, &Target::Demo), "1970-01-01T00-00-00Z-demo.jsonl");
}

#[test]
fn bytes_read_in_slices_that_end_anywhere_give_the_same_recording() {
    let header = Header::new(Recorder::Page, "0.1.0", &Target::Demo, 0.0);
    let entries: Vec<Entry> = (0..50)
        .map(|i| Entry::Message {
            at_ms: f64::from(i),
            direction: Direction::In,
            frame: format!("{{\"é\":\"ünïcödé {i}\"}}"),
        })
        .collect();
    let text = format!("{}{{\"t\":9,\"dir\":\"in\",\"fr", write(&header, &entries));
    let whole = parse(&text).unwrap();
    for slice in [1, 3, 7, 64, 4096] {
        let mut r = ByteReader::new();
        for chunk in text.as_bytes().chunks(slice) {
            r.feed(chunk).unwrap();
        }
        let got = r.finish().unwrap();
        assert_eq!(got, whole, "slices of {slice} bytes");
    }
    assert_eq!(whole.problems.len(), 1, "the cut-off last line");
    let mut r = ByteReader::new();
    assert!(r.feed(b"hello\n").unwrap_err().message.starts_with("not a recording"));
    assert!(ByteReader::new().finish().is_err());
}

/// A player over `session()`, written and read back as a file is.
fn player() -> Player {
    let mut live = LiveRecorder::new(Header::new(Recorder::Page, "0.1.0", &stdio(), 1000.0));
    let mut lines: Vec<String> = session().iter().flat_map(|m| live.push(m)).collect();
    lines.extend(live.finish());
    let text = lines.join("\n") + "\n";
    let rec = parse(&text).unwrap();
    Player::new("s.jsonl".into(), rec.header, rec.entries, text)
}

#[test]
fn the_player_steps_forward_and_back_through_the_same_session_core() {
    let mut p = player();
    let mut s = p.fresh_session();
    assert_eq!((p.view().index, p.view().total), (0, 5));
    assert!(p.step(&mut s) && p.step(&mut s) && p.step(&mut s));
    assert_eq!(p.view().index, 3);
    let rows = s.timeline().len();
    let back = p.back();
    assert_eq!(p.view().index, 2);
    assert_eq!(back.timeline().len(), rows - 1, "one message fewer, played again from the start");
    let mut s = back;
    while p.step(&mut s) {}
    assert_eq!(p.view().index, 5);
    assert!(!p.step(&mut s), "nothing after the end");
    let back = p.back();
    assert_eq!((p.view().index, back.timeline().len()), (4, rows + 1), "back from the end: the notification is in");
}

#[test]
fn the_player_paces_at_the_recorded_gaps_and_stops_at_the_end() {
    let mut p = player();
    let mut s = p.fresh_session();
    let clock = || 0.0;
    let (generation, rewound) = p.play();
    assert!(rewound.is_none() && p.view().playing);
    // Entries at 1000, 1001, 1010.5, 1011, 1012 ms: each tick applies one and waits the gap.
    let waits: Vec<Next> = (0..5).map(|_| p.tick(generation, &mut s, &clock)).collect();
    assert_eq!(waits, [Next::After(1.0), Next::After(9.5), Next::After(0.5), Next::After(1.0), Next::After(0.0)]);
    assert_eq!(p.tick(generation, &mut s, &clock), Next::Stop);
    assert!(!p.view().playing, "paused at the end");
    // Playing at the end starts again, in a fresh session; a faster speed shortens waits.
    let (generation, rewound) = p.play();
    assert_eq!((rewound.map(|s| s.timeline().len()), p.view().index), (Some(0), 0));
    p.set_speed(Speed::Times(4.0));
    assert_eq!(p.tick(generation, &mut s, &clock), Next::After(0.25));
    // A timer of an earlier play finds itself stale; so does every timer after a pause.
    assert_eq!(p.tick(generation - 1, &mut s, &clock), Next::Stop);
    p.pause();
    assert_eq!(p.tick(generation, &mut s, &clock), Next::Stop);
    assert_eq!(p.view().index, 1);
}

#[test]
fn the_player_caps_long_pauses_and_fits_a_frame_at_full_speed() {
    let mut p = player();
    let mut s = p.fresh_session();
    p.set_speed(Speed::Max);
    // Each look at the clock costs 5 ms: a 12 ms frame holds the first entry and two more.
    let now = std::cell::Cell::new(0.0);
    let clock = || {
        now.set(now.get() + 5.0);
        now.get()
    };
    let (generation, _) = p.play();
    assert_eq!(p.tick(generation, &mut s, &clock), Next::Frame);
    assert_eq!(p.view().index, 3);
    assert_eq!(p.tick(generation, &mut s, &clock), Next::Frame);
    assert_eq!(p.view().index, 5);
    assert_eq!(p.tick(generation, &mut s, &clock), Next::Stop);
    // A minute of silence in a recording plays as LONGEST_PAUSE_MS.
    let header = p.header().clone();
    let entries = vec![
        Entry::Event { at_ms: 0.0, event: RelayEvent::Stderr { line: "a".into(), truncated: false } },
        Entry::Event { at_ms: 60_000.0, event: RelayEvent::Stderr { line: "b".into(), truncated: false } },
    ];
    let mut p = Player::new("x".into(), header, entries, String::new());
    let (generation, _) = p.play();
    assert_eq!(p.tick(generation, &mut s, &|| 0.0), Next::After(LONGEST_PAUSE_MS));
}

#[test]
fn the_player_exports_the_file_as_it_came_unless_the_ignore_list_changed() {
    let p = player();
    let text = p.text_with_ignore(&[]);
    assert_eq!(text, p.text_with_ignore(&[]));
    let changed = p.text_with_ignore(&["/result/x".to_owned()]);
    let (head, rest) = changed.split_once('\n').unwrap();
    assert!(head.contains(r#""ignore":["/result/x"]"#), "{head}");
    assert_eq!(rest, text.split_once('\n').unwrap().1);
    assert_eq!(parse(&changed).unwrap().header.ignore, ["/result/x"]);
}

#[test]
fn a_header_summary_names_the_server_when_and_who() {
    let mut h = Header::new(Recorder::Cli, "0.1.0", &Target::Demo, 1_763_854_860_000.0);
    assert_eq!(h.summary(), "a demo server · recorded 2025-11-22 23:41 UTC by the command line");
    h.server_info = Some(json!({"name": "server-everything", "version": "2.0", "title": "Everything"}));
    assert!(h.summary().starts_with("Everything 2.0 · "), "{}", h.summary());
    h.server_info = Some(json!({"name": "", "version": ""}));
    assert!(h.summary().starts_with("a server · "), "{}", h.summary());
}

/// A page's recording of an App: the view's resource read, a call of the App tool, and the
/// view's own call of an app-only tool, on the server lane and on the App lane.
fn app_recording() -> String {
    let header = Header::new(Recorder::Page, "0.1.0", &Target::Demo, 1000.0);
    let m =
        |at_ms: f64, direction, frame: serde_json::Value| Entry::Message { at_ms, direction, frame: frame.to_string() };
    let v = |at_ms: f64, to_view, frame: serde_json::Value| Entry::View { at_ms, to_view, frame: frame.to_string() };
    let html = json!({"contents": [{"uri": "ui://w/chart.html", "mimeType": "text/html;profile=mcp-app", "text": "<p>chart</p>"}]});
    let entries = vec![
        m(
            1001.0,
            Direction::Out,
            json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "ui://w/chart.html"}}),
        ),
        m(1002.0, Direction::In, json!({"jsonrpc": "2.0", "id": 1, "result": html})),
        v(1003.0, false, json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize", "params": {}})),
        v(1004.0, true, json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2026-01-26"}})),
        v(
            1005.0,
            false,
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "refresh", "arguments": {"days": 3}}}),
        ),
        m(
            1006.0,
            Direction::Out,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "refresh", "arguments": {"days": 3}}}),
        ),
        m(
            1007.0,
            Direction::In,
            json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "3 days"}]}}),
        ),
        v(
            1008.0,
            true,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "3 days"}]}}),
        ),
    ];
    write(&header, &entries)
}

#[test]
fn the_app_lane_is_written_as_its_own_lines_and_read_back() {
    let text = app_recording();
    assert!(text.starts_with(r#"{"format":"mcp-playground-recording","version":3,"#), "{text}");
    let view_lines: Vec<&str> = text.lines().filter(|l| l.contains(r#""lane":"app""#)).collect();
    assert_eq!(view_lines.len(), 4);
    assert!(view_lines[0].starts_with(r#"{"t":1003.0,"lane":"app","dir":"in","frame":"#), "{}", view_lines[0]);
    let back = parse(&text).unwrap();
    assert!(back.problems.is_empty(), "{:?}", back.problems);
    assert_eq!(write(&back.header, &back.entries), text, "byte for byte");
    assert!(matches!(&back.entries[3], Entry::View { to_view: true, .. }));
    assert_eq!(
        back.entries.iter().filter(|e| e.to_server_msg().is_none()).count(),
        4,
        "the App lane never crossed the relay"
    );
    // An unknown lane is one problem, not a lost file.
    let odd = format!("{text}{}\n", r#"{"t":1,"lane":"audio","dir":"in","frame":"{}"}"#);
    let read = parse(&odd).unwrap();
    assert_eq!(read.entries.len(), 8);
    assert_eq!(read.problems[0].message, r#"an entry of an unknown lane "audio""#);
    // A version 1 file (no lanes) is read as it is, with no complaint.
    let v1 = text.replacen(r#""version":3"#, r#""version":1"#, 1);
    let v1: String = v1.lines().filter(|l| !l.contains(r#""lane""#)).map(|l| format!("{l}\n")).collect();
    let read = parse(&v1).unwrap();
    assert!(read.problems.is_empty() && read.entries.len() == 4, "{:?}", read.problems);
}

#[test]
fn playback_shows_the_app_lane_and_answers_the_views_calls_from_the_recording() {
    let text = app_recording();
    let rec = parse(&text).unwrap();
    let mut p = Player::new("app.jsonl".into(), rec.header, rec.entries, text);
    let mut s = p.fresh_session();
    while p.step(&mut s) {}
    let lanes: Vec<&str> = s.timeline().rows().iter().map(|r| r.direction.as_str()).collect();
    assert_eq!(lanes, ["out", "in", "from-view", "to-view", "from-view", "out", "in", "to-view"]);
    // The server call the view caused is labelled so, and is not the result pane's call.
    assert_eq!(s.timeline().view(5).unwrap().label(), "tools/call · refresh · for the App's view (#1)");
    assert_eq!(s.timeline().view(4).unwrap().label(), "tools/call · refresh · sent to the server as #2");
    assert_eq!(s.call().as_str(), "idle");
    assert!(s.take_view_answers().is_empty(), "the live view is not fed the recorded answer");
    let call = |name: &str, days: i64| crate::apps::ViewRequest::CallTool {
        name: name.into(),
        arguments: json!({"days": days}),
    };
    assert_eq!(p.answer_view(&call("refresh", 3)).unwrap()["content"][0]["text"], "3 days");
    // Asked again, the same recorded answer (a demo may be clicked twice).
    assert_eq!(p.answer_view(&call("refresh", 3)).unwrap()["content"][0]["text"], "3 days");
    let read = crate::apps::ViewRequest::ReadResource { uri: "ui://w/chart.html".into() };
    assert_eq!(p.answer_view(&read).unwrap()["contents"][0]["text"], "<p>chart</p>");
    let unknown = p.answer_view(&call("delete_everything", 1)).unwrap_err();
    let message = unknown["message"].as_str().unwrap();
    assert!(message.contains("holds no answer") && message.contains("delete_everything"), "{message}");
}

#[test]
fn notes_written_while_stepping_are_saved_in_the_header_and_shown_at_their_step() {
    // A version 2 file, with no notes: played as it is.
    let text = app_recording().replacen(r#""version":3"#, r#""version":2"#, 1);
    let rec = parse(&text).unwrap();
    let mut p = Player::new("demo.jsonl".into(), rec.header, rec.entries, text.clone());
    assert_eq!(p.text_with_ignore(&[]), text, "unchanged until a note is written");
    assert_eq!(p.view().note, None);
    p.set_note("Welcome", "What this demo shows.").unwrap();
    let mut s = p.fresh_session();
    p.step(&mut s);
    p.step(&mut s);
    p.set_note("The call", "").unwrap();
    assert_eq!(p.view().note.map(|n| n.title), Some("The call".to_owned()));
    assert!(p.set_note(&"t".repeat(crate::recording::notes::MAX_TITLE + 1), "").is_err());
    let saved = p.text_with_ignore(&[]);
    let header = saved.lines().next().unwrap();
    assert!(header.contains(r#""version":3"#), "{header}");
    assert!(
        header.ends_with(
            r#""notes":[{"at":0,"title":"Welcome","text":"What this demo shows."},{"at":2,"title":"The call"}]}"#
        ),
        "{header}"
    );
    assert_eq!(saved.split_once('\n').unwrap().1, text.split_once('\n').unwrap().1, "every other line as it was");
    // Read back: each note at its step, none elsewhere.
    let back = parse(&saved).unwrap();
    assert!(back.problems.is_empty());
    let mut p = Player::new("demo.jsonl".into(), back.header, back.entries, saved);
    let mut s = p.fresh_session();
    let mut shown = vec![p.view().note.map(|n| n.title)];
    while p.step(&mut s) {
        shown.push(p.view().note.map(|n| n.title));
    }
    let at: Vec<usize> = shown.iter().enumerate().filter(|(_, n)| n.is_some()).map(|(i, _)| i).collect();
    assert_eq!(at, [0, 2]);
}
