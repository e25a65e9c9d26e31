//! Resources, templates, prompts, completions, subscriptions, the log level, ping and a
//! script's request of any method: live, timed, and played back as they were.

use serde_json::json;

use super::*;
use crate::catalog::{Got, ListKind, Target};

/// What a person sees of the catalog.
fn shown(s: &Session) -> String {
    let c = s.catalog();
    let field = (Target::Template("demo://t/{id}".into()), "id".to_owned());
    format!(
        "{:?}\n{:?}\n{:?}\n{:?} {:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        c.resources.items.iter().map(|r| &r.uri).collect::<Vec<_>>(),
        c.templates.items.iter().map(|t| &t.uri_template).collect::<Vec<_>>(),
        c.prompts.items.iter().map(|p| &p.name).collect::<Vec<_>>(),
        c.subscription("demo://a"),
        c.is_updated("demo://a"),
        c.prompts_got.get("greet"),
        c.completer.suggestions(&field).map(|s| &s.values),
        c.log_level,
        c.ping,
    )
}

fn connected() -> Harness {
    let caps = json!({"tools": {}, "resources": {"subscribe": true, "listChanged": true}, "prompts": {}, "logging": {}, "completions": {}});
    Harness::connected_with(caps, json!([]))
}

#[test]
fn every_request_beside_the_tools_live_and_played_back() {
    let mut h = connected();
    let mut marks = Vec::new();
    let mut views = Vec::new();

    // Every page of the resources, then the templates.
    h.s.list(ListKind::Resources);
    let (frames, ..) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#]);
    assert!(h.s.catalog().is_loading(ListKind::Resources));
    h.server_says(
        r#"{"jsonrpc":"2.0","id":3,"result":{"resources":[{"uri":"demo://a","name":"a"}],"nextCursor":"p2"}}"#,
    );
    let (frames, ..) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"cursor":"p2"}}"#]);
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"result":{"resources":[{"uri":"demo://b","name":"b"}]}}"#);
    h.s.list(ListKind::Templates);
    h.flush();
    h.server_says(
        r#"{"jsonrpc":"2.0","id":5,"result":{"resourceTemplates":[{"uriTemplate":"demo://t/{id}","name":"t"}]}}"#,
    );
    h.s.list(ListKind::Prompts);
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":6,"result":{"prompts":[{"name":"greet","arguments":[{"name":"who","required":true}]}]}}"#);
    marks.push(h.fed.len());
    views.push(shown(&h.s));
    assert!(views[0].starts_with(r#"["demo://a", "demo://b"]"#), "{}", views[0]);

    // A change lists the resources again; a list never listed is not.
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#);
    let (frames, ..) = h.flush();
    assert_eq!(frames.len(), 2, "resources and templates again: {frames:?}");
    h.server_says(r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[{"uri":"demo://a","name":"a"}]}}"#);
    h.server_says(
        r#"{"jsonrpc":"2.0","id":8,"result":{"resourceTemplates":[{"uriTemplate":"demo://t/{id}","name":"t"}]}}"#,
    );

    // Subscribe, an update marks it, reading clears the mark.
    h.s.subscribe("demo://a", true, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"demo://a"}}"#);
    marks.push(h.fed.len());
    views.push(shown(&h.s));
    assert!(views[1].contains("Some(Subscribed) true"), "{}", views[1]);
    h.s.read_resource("demo://a");
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":10,"result":{"contents":[{"uri":"demo://a","text":"x"}]}}"#);
    assert!(!h.s.catalog().is_updated("demo://a"));

    // A prompt, with its arguments.
    let args = json!({"who": "Ada"}).as_object().cloned().unwrap();
    h.s.get_prompt("greet", args, h.at).unwrap();
    let (frames, ..) = h.flush();
    assert!(
        frames[0].contains(r#""method":"prompts/get","params":{"name":"greet","arguments":{"who":"Ada"}}"#),
        "{frames:?}"
    );
    h.server_says(r#"{"jsonrpc":"2.0","id":11,"result":{"messages":[{"role":"user","content":{"type":"text","text":"Hi Ada"}}]}}"#);
    let Some(Got::Done(got)) = h.s.catalog().prompts_got.get("greet") else { panic!("no prompt") };
    assert_eq!(got.messages[0].role, "user");

    // A completion waits for typing to pause, then carries the other fields.
    let field = (Target::Template("demo://t/{id}".into()), "id".to_owned());
    let ctx = json!({"id": "1", "other": "x"}).as_object().cloned().unwrap();
    h.s.complete(field.clone(), "1".into(), ctx, h.at);
    assert!(h.flush().0.is_empty(), "asked before typing paused");
    let due = h.s.next_deadline_ms().unwrap();
    h.s.tick(due);
    let (frames, ..) = h.flush();
    assert!(
        frames[0].contains(r#""params":{"ref":{"type":"ref/resource","uri":"demo://t/{id}"},"argument":{"name":"id","value":"1"},"context":{"arguments":{"other":"x"}}}"#),
        "{frames:?}"
    );
    h.server_says(r#"{"jsonrpc":"2.0","id":12,"result":{"completion":{"values":["1","10","11"],"hasMore":true}}}"#);

    // The log level and a ping with its round trip.
    h.s.set_log_level("warning", h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":13,"result":{}}"#);
    h.s.ping(h.at).unwrap();
    h.flush();
    h.at += 40.0;
    h.server_says(r#"{"jsonrpc":"2.0","id":14,"result":{}}"#);
    marks.push(h.fed.len());
    views.push(shown(&h.s));
    assert!(
        views[2].contains(r#"["1", "10", "11"]"#) && views[2].contains("level: \"warning\", state: Done(())"),
        "{}",
        views[2]
    );
    assert!(matches!(h.s.catalog().ping, Some(Got::Done(ms)) if ms >= 40.0), "{:?}", h.s.catalog().ping);

    // Played back: each step shows what the live page showed.
    let mut p = Session::for_playback("9.9.9", super::playback::relay_info());
    let mut fed = 0;
    for (mark, live) in marks.iter().zip(&views) {
        for msg in &h.fed[fed..*mark] {
            p.receive(msg.clone(), 0.0);
        }
        fed = *mark;
        assert_eq!(&shown(&p), live, "after {mark} messages");
        assert!(p.drain().send.is_empty(), "playback sends nothing");
    }
}

#[test]
fn a_scripts_request_is_answered_timed_out_or_cancelled() {
    let mut h = connected();
    let id = h.s.request("prompts/get", Some(json!({"name": "x"})), h.at).unwrap();
    h.flush();
    assert!(h.s.is_request_open(&id));
    h.server_says(&json!({"jsonrpc":"2.0","id":id,"error":{"code":-32602,"message":"no such prompt"}}).to_string());
    let a = h.s.answer(&id).unwrap();
    assert_eq!((a.method.as_str(), a.answer.failure().as_deref()), ("prompts/get", Some("no such prompt (-32602)")));
    assert_eq!(a.answer.wire(), Some(json!({"error": {"code": -32602, "message": "no such prompt"}})));

    // Silent for the limit: given up on, and the server told.
    let start = h.at;
    let id = h.s.request("ping", None, start).unwrap();
    h.flush();
    h.s.tick(start + CallLimits::TIMEOUT_S * 1000.0);
    let (frames, ..) = h.flush();
    assert!(frames[0].contains("notifications/cancelled") && frames[0].contains("timed out after 60 s"), "{frames:?}");
    assert_eq!(
        h.s.answer(&id).unwrap().answer,
        crate::client::Answer::Failed("timed out after 60 s without a response".into())
    );

    let id =
        h.s.request(
            "completion/complete",
            Some(json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}})),
            h.at,
        )
        .unwrap();
    h.flush();
    h.s.cancel_request(&id);
    let (frames, ..) = h.flush();
    assert!(frames[0].contains("notifications/cancelled"));
    assert!(!h.s.is_request_open(&id));

    // Not connected: refused.
    h.s.disconnect();
    h.event(crate::relay::RelayEvent::Closed { reason: "bye".into(), asked: false });
    assert_eq!(h.s.request("ping", None, h.at), Err(Refused::NotConnected));
}

#[test]
fn what_is_under_way_ends_with_the_connection_or_a_servers_cancel() {
    let mut h = connected();
    h.s.list(ListKind::Prompts);
    h.s.get_prompt("greet", Default::default(), h.at).unwrap();
    h.s.ping(h.at).unwrap();
    h.flush();
    // The server gives up on the prompt.
    h.server_says(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"too busy"}}"#,
    );
    assert_eq!(h.s.catalog().prompts_got.get("greet"), Some(&Got::Failed("cancelled by the server: too busy".into())));
    // The connection ends: the ping and the listing end with it, not 60 s later.
    h.event(crate::relay::RelayEvent::Closed { reason: "gone".into(), asked: false });
    assert!(
        matches!(&h.s.catalog().ping, Some(Got::Failed(why)) if why.contains("connection")),
        "{:?}",
        h.s.catalog().ping
    );
    assert!(!h.s.catalog().is_loading(ListKind::Prompts));
    assert_eq!(h.s.next_deadline_ms(), None, "nothing left to time out");
    // Reading without a connection fails at once.
    h.s.read_resource("demo://a");
    assert_eq!(h.s.reads().get("demo://a"), Some(&ReadState::Failed("not connected to a server".into())));
}
