//! The timeline: pairing both ways, filters, exports, marks of rows, subjects and falls back.

use super::*;
use expect_test::expect;

fn dump(t: &Timeline) -> String {
    t.rows()
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} id={} partner={:?} dur={:?}",
                r.seq,
                r.direction.as_str(),
                r.kind.as_str(),
                r.method.as_deref().unwrap_or("-"),
                r.id.as_ref().map(|i| i.to_string()).unwrap_or("-".into()),
                r.partner,
                r.duration_ms
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_call_and_its_answer_name_their_tool_and_the_filter_finds_it() {
    let mut t = Timeline::new();
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"submit_order","arguments":{}}}"#;
    t.push_message(Direction::Out, 1.0, 0, call.into());
    t.push_message(Direction::In, 2.0, 0, r#"{"jsonrpc":"2.0","id":7,"result":{"content":[]}}"#.into());
    let read = r#"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"file:///notes.md"}}"#;
    t.push_message(Direction::Out, 3.0, 0, read.into());
    t.push_message(Direction::Out, 4.0, 0, r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#.into());
    let labels: Vec<String> = (0..4).filter_map(|i| t.view(i)).map(|v| v.label()).collect();
    assert_eq!(
        labels,
        ["tools/call · submit_order", "tools/call · submit_order", "resources/read · file:///notes.md", "tools/list"]
    );
    let only = |text: &str| t.filter(&RowFilter { text: text.into(), ..RowFilter::default() });
    assert_eq!(only("SUBMIT"), [0, 1], "the call and its answer, by the tool's name");
    assert_eq!(only("notes.md"), [2], "a resource by its URI");
    assert_eq!(only("tools/"), [0, 1, 3], "methods as before");
}

#[test]
fn a_refused_discover_that_initialize_followed_is_a_fall_back_not_an_error() {
    let refusal = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#;
    let quiet = |auto: bool| {
        let mut t = Timeline::new();
        t.set_discover_falls_back(auto);
        t.push_message(Direction::Out, 1.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#.into());
        t.push_message(Direction::In, 2.0, 0, refusal.into());
        t.view(1).map(|v| (v.fell_back, v.label(), v.kind))
    };
    assert_eq!(quiet(true), Some((true, "server/discover · fell back to initialize".to_owned(), "error")));
    assert_eq!(quiet(false), Some((false, "server/discover".to_owned(), "error")), "pinned, it is an error");
}

/// The 2025 SDKs over Streamable HTTP refuse `server/discover` with an HTTP 400 whose
/// error has no id ("Server not initialized"): it answers the discover still open.
#[test]
fn a_refusal_without_an_id_answers_the_open_discover() {
    let refusal =
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Server not initialized"}}"#;
    let mut t = Timeline::new();
    t.set_discover_falls_back(true);
    t.push_message(Direction::Out, 1.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#.into());
    t.push_message(Direction::In, 3.0, 0, refusal.into());
    let v = t.view(1).unwrap();
    assert_eq!(
        (v.fell_back, v.label(), v.duration_ms),
        (true, "server/discover · fell back to initialize".to_owned(), Some(2.0))
    );
    // Once answered, a later error without an id is the server's own trouble.
    t.push_message(Direction::In, 4.0, 0, refusal.into());
    assert!(!t.view(2).unwrap().fell_back);
}

#[test]
fn pairs_both_ways_and_times_round_trips() {
    let mut t = Timeline::new();
    t.push_event(0.0, &RelayEvent::Spawned { pid: Some(1), command: "x".into(), args: vec![] });
    t.push_message(Direction::Out, 10.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into());
    t.push_message(Direction::Out, 11.0, 0, r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#.into());
    // The server asks something with an id that collides with ours: kept apart by direction.
    t.push_message(Direction::In, 12.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into());
    t.push_message(Direction::Out, 13.0, 0, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
    t.push_message(Direction::In, 25.5, 0, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
    t.push_message(Direction::In, 26.0, 0, r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#.into());
    t.push_message(Direction::In, 40.0, 0, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}"#.into());
    // A response nobody asked for stays unpaired.
    t.push_message(Direction::In, 41.0, 0, r#"{"jsonrpc":"2.0","id":99,"result":{}}"#.into());
    expect![[r#"
        0 relay event spawned id=- partner=None dur=None
        1 out request initialize id=1 partner=Some(5) dur=None
        2 out request tools/call id=2 partner=Some(7) dur=None
        3 in request ping id=1 partner=Some(4) dur=None
        4 out response ping id=1 partner=Some(3) dur=Some(1.0)
        5 in response initialize id=1 partner=Some(1) dur=Some(15.5)
        6 in notification notifications/progress id=- partner=None dur=None
        7 in error tools/call id=2 partner=Some(2) dur=Some(29.0)
        8 in response - id=99 partner=None dur=None"#]]
    .assert_eq(&dump(&t));
    assert_eq!(t.open_requests(), 0);
    let f = |text: &str, direction: Option<RowDirection>, kind: Option<RowKind>| {
        t.filter(&RowFilter { text: text.into(), direction, kind, auth: false })
    };
    assert_eq!(f("TOOLS/", None, None), [2, 7], "part of the method, any case; a response has its request's method");
    assert_eq!(f(" 1 ", None, None), [1, 3, 4, 5], "an id matches exactly");
    assert_eq!(f("9", None, None), Vec::<usize>::new(), "99 is not 9");
    assert_eq!(f("", Some(RowDirection::Relay), None), [0]);
    assert_eq!(f("", Some(RowDirection::In), Some(RowKind::Response)), [5, 8]);
    assert_eq!(f("ping", Some(RowDirection::Out), None), [4]);
    assert_eq!(f("", None, None).len(), 9);
    assert!(RowFilter::default().is_empty());
    let v = t.view(7).unwrap();
    assert_eq!(
        (v.rel_ms, v.direction, v.kind, v.method.as_str(), v.id.as_deref()),
        (40.0, "in", "error", "tools/call", Some("2"))
    );
    assert_eq!(t.tail(2).iter().map(|r| r.seq).collect::<Vec<_>>(), [7, 8]);
    assert_eq!(RowKind::parse("notification"), Some(RowKind::Notification));
    assert_eq!(RowDirection::parse("relay"), Some(RowDirection::Relay));
}

#[test]
fn sign_in_rows_read_as_exchanges_and_filter_apart() {
    use crate::relay::AuthState;
    let mut t = Timeline::new();
    t.push_event(0.0, &RelayEvent::Connected { transport: "http".into(), url: "http://h/mcp".into(), headers: vec![] });
    t.push_event(1.0, &RelayEvent::Auth { auth: AuthState::SigningIn { step: "discovery".into() } });
    let exchange = AuthExchange {
        step: "token".into(),
        method: "POST".into(),
        url: "http://127.0.0.1:9/token?x=1".into(),
        status: Some(200),
        request: "grant_type=authorization_code&code=••••".into(),
        response: "{\"access_token\":\"••••\"}".into(),
        ms: 35,
    };
    t.push_event(2.0, &RelayEvent::AuthExchange { exchange: exchange.clone() });
    t.push_event(
        3.0,
        &RelayEvent::AuthExchange {
            exchange: AuthExchange { status: None, url: "https://as.example".into(), ms: 4, ..exchange.clone() },
        },
    );
    t.push_message(Direction::Out, 4.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into());
    let shown: Vec<String> = (0..t.len())
        .map(|i| {
            let v = t.view(i).unwrap();
            let took = v.duration_ms.map(|d| format!(" · {d} ms")).unwrap_or_default();
            format!("{:?} {}{took}", v.auth.map(AuthRow::as_str), v.summary.unwrap_or(v.method))
        })
        .collect();
    expect![[r#"
        None connected
        Some("state") auth · signing in (discovery)
        Some("exchange") auth · POST /token → 200 · 35 ms
        Some("exchange") auth · POST / → failed · 4 ms
        None initialize"#]]
    .assert_eq(&shown.join("\n"));
    let only_auth = RowFilter { auth: true, ..Default::default() };
    assert!(!only_auth.is_empty());
    assert_eq!(t.filter(&only_auth), [1, 2, 3]);
    assert_eq!(t.filter(&RowFilter { text: "/token".into(), ..only_auth.clone() }), [2], "the summary is searched");
    assert_eq!(t.auth_exchange(2), Some(exchange));
    assert_eq!(t.auth_exchange(1), None);
}

#[test]
fn string_and_number_ids_do_not_collide() {
    let mut t = Timeline::new();
    t.push_message(Direction::Out, 0.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#.into());
    t.push_message(Direction::In, 1.0, 0, r#"{"jsonrpc":"2.0","id":"1","result":{}}"#.into());
    assert_eq!(t.rows()[1].partner, None);
    assert_eq!(t.open_requests(), 1);
}

#[test]
fn the_app_lane_pairs_its_own_and_is_not_checked_against_mcp() {
    let mut t = Timeline::new();
    t.set_revision(crate::revision::Revision::V2025_11_25);
    // The server lane and the view's lane may use the same ids: they pair apart.
    t.push_message(Direction::Out, 1.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into());
    t.push_view(false, 2.0, r#"{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{}}"#.into());
    t.push_view(true, 5.0, r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2026-01-26"}}"#.into());
    t.push_view(false, 6.0, r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"poll"}}"#.into());
    let rows = t.rows();
    assert_eq!(rows[1].direction, RowDirection::FromView);
    assert_eq!(rows[2].direction, RowDirection::ToView);
    assert_eq!(
        (rows[2].partner, rows[2].method.as_deref(), rows[2].duration_ms),
        (Some(1), Some("ui/initialize"), Some(3.0))
    );
    assert_eq!(rows[0].partner, None, "the server's request still waits");
    assert_eq!(rows[3].subject.as_deref(), Some("poll"));
    assert!(rows[1].direction.is_app() && !rows[0].direction.is_app());
    assert_eq!(t.schema_mark(1), None, "the bridge's methods are not MCP's");
    assert_eq!(RowDirection::parse("to-view"), Some(RowDirection::ToView));
    assert_eq!(RowDirection::parse("from-view"), Some(RowDirection::FromView));
}
