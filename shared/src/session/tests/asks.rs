//! The server's own requests: queued in order, answered with their own ids, withdrawn,
//! cleared with the connection; the call's clock standing still meanwhile; roots.

use serde_json::json;

use super::*;
use crate::asks::{ElicitAnswer, SampleAnswer};

const ELICIT_3: &str = r#"{"jsonrpc":"2.0","id":"e3","method":"elicitation/create","params":{"message":"Who?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ann"},"age":{"type":"integer"}},"required":["age"]}}}"#;
const SAMPLE_4: &str = r#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi?"}}],"systemPrompt":"Be brief","maxTokens":10}}"#;

#[test]
fn asks_queue_in_order_and_are_answered_with_their_own_ids() {
    let mut h = Harness::connected(json!([]));
    h.server_says(ELICIT_3);
    h.server_says(SAMPLE_4);
    let (frames, _, changed) = h.flush();
    assert!(frames.is_empty(), "nothing is answered before the user does");
    assert!(changed.asks);
    let ids: Vec<String> = h.s.asks().iter().map(|a| a.id.to_string()).collect();
    assert_eq!(ids, ["\"e3\"", "4"]);

    // Answered out of order: each answer carries its request's id.
    let now = h.at;
    h.s.answer_sampling(&Id::Number(4), SampleAnswer::Reply("Hello".into()), now).unwrap();
    h.s.answer_elicitation(&Id::String("e3".into()), ElicitAnswer::Accept(json!({"age": 7})), now).unwrap();
    let (frames, _, _) = h.flush();
    expect![[r#"
        [
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"Hello\"},\"model\":\"mcp-playground-user\",\"stopReason\":\"endTurn\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"e3\",\"result\":{\"action\":\"accept\",\"content\":{\"age\":7,\"name\":\"Ann\"}}}",
        ]"#]]
    .assert_eq(&format!("{frames:#?}"));
    assert!(h.s.asks().is_empty());
    assert!(h.s.answer_sampling(&Id::Number(4), SampleAnswer::Decline, now).is_err(), "a request is answered once");
    // Each request and its answer is a timeline row, paired by id.
    let methods: Vec<_> = h.s.timeline().rows().iter().rev().take(4).map(|r| r.method.clone()).collect();
    assert!(methods.iter().all(|m| m.is_some()), "{methods:?}");
}

#[test]
fn decline_and_cancel_shapes() {
    let mut h = Harness::connected(json!([]));
    h.server_says(ELICIT_3);
    h.server_says(&ELICIT_3.replace("\"e3\"", "\"e5\""));
    h.server_says(SAMPLE_4);
    h.flush();
    h.s.answer_elicitation(&Id::String("e3".into()), ElicitAnswer::Decline, h.at).unwrap();
    h.s.answer_elicitation(&Id::String("e5".into()), ElicitAnswer::Cancel, h.at).unwrap();
    assert!(
        h.s.answer_elicitation(&Id::Number(4), ElicitAnswer::Cancel, h.at).is_err(),
        "a sampling request is no elicitation"
    );
    h.s.answer_sampling(&Id::Number(4), SampleAnswer::Decline, h.at).unwrap();
    let (frames, _, _) = h.flush();
    expect![[r#"
        [
            "{\"jsonrpc\":\"2.0\",\"id\":\"e3\",\"result\":{\"action\":\"decline\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"e5\",\"result\":{\"action\":\"cancel\"}}",
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-1,\"message\":\"User rejected sampling request\"}}",
        ]"#]]
    .assert_eq(&format!("{frames:#?}"));
}

#[test]
fn the_call_clock_stands_still_while_the_user_answers() {
    let mut h = Harness::connected(json!([{"name": "ask", "inputSchema": {}}]));
    let start = h.at;
    h.s.call_tool("ask", json!({}), LIMITS, start).unwrap();
    h.flush();
    h.server_says(SAMPLE_4);
    assert_eq!(h.s.next_deadline_ms(), None, "no deadline while the server waits on the user");
    // The user takes a minute, far past the 1 s timeout and the 5 s maximum.
    h.s.tick(start + 60_000.0);
    assert!(h.s.call().is_pending(), "{:?}", h.s.call());
    h.s.answer_sampling(&Id::Number(4), SampleAnswer::Reply("ok".into()), start + 60_000.0).unwrap();
    assert_eq!(h.s.next_deadline_ms(), Some(start + 61_000.0), "the silence clock starts from the answer");
    h.s.tick(start + 61_000.0);
    assert!(matches!(h.s.call(), CallState::Timeout { .. }), "and runs again: {:?}", h.s.call());
}

#[test]
fn withdrawn_and_disconnected_asks_leave_the_queue() {
    let mut h = Harness::connected(json!([]));
    h.server_says(ELICIT_3);
    h.server_says(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"e3","reason":"took too long"}}"#,
    );
    assert!(h.s.asks().is_empty());
    assert!(h.s.notices().iter().any(|n| n.contains("withdrew") && n.contains("took too long")));
    h.server_says(SAMPLE_4);
    assert_eq!(h.s.asks().len(), 1);
    h.s.disconnect();
    h.event(RelayEvent::Closed { reason: "bye".into(), asked: false });
    assert!(h.s.asks().is_empty(), "nothing can be answered on a closed connection");
}

#[test]
fn roots_are_listed_and_their_changes_announced() {
    let mut h = Harness::new();
    h.s.set_roots(vec!["file:///srv/a".into()]);
    assert!(h.flush().0.is_empty(), "nobody to tell before a connection");
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), false);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let (frames, _, _) = h.flush();
    assert!(frames[0].contains(r#""roots":{"listChanged":true}"#), "{}", frames[0]);
    h.server_says(
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":"r1","method":"roots/list"}"#);
    let (frames, _, _) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":"r1","result":{"roots":[{"uri":"file:///srv/a","name":"a"}]}}"#]);
    h.s.set_roots(vec!["file:///srv/a".into()]);
    assert!(h.flush().0.is_empty(), "the same roots are no change");
    h.s.set_roots(vec![]);
    let (frames, _, _) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#]);
    h.server_says(r#"{"jsonrpc":"2.0","id":"r2","method":"roots/list"}"#);
    assert_eq!(h.flush().0, [r#"{"jsonrpc":"2.0","id":"r2","result":{"roots":[]}}"#]);

    // Once the connection is over, new roots wait for the next one: nothing goes to a relay
    // with no server (its refusal used to fail the next connect).
    h.event(RelayEvent::Closed { reason: "disconnected".into(), asked: true });
    h.flush();
    h.s.set_roots(vec!["file:///srv/b".into()]);
    let (frames, others, _) = h.flush();
    assert!(frames.is_empty() && others.is_empty(), "{frames:?} {others:?}");
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), false);
    let (frames, others, _) = h.flush();
    assert!(frames.is_empty() && matches!(others.as_slice(), [ClientMsg::Connect { .. }]), "{frames:?} {others:?}");
}
