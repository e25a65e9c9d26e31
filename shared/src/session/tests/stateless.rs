//! 2026-07-28 end to end through the session: discovery, `_meta` on every request, the
//! listen subscription, the tool list's caching hints and the tools left out, and the
//! input-required rounds answered by the user and retried under new ids.

use super::*;
use crate::asks::{AskKind, ElicitAnswer, SampleAnswer};
use crate::client::{META_CAPABILITIES, META_CLIENT_INFO, META_VERSION};
use crate::revision::Revision;

fn frame(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// A session that discovered a 2026-07-28 server with these tools.
pub(super) fn discovered(tools: Value) -> Harness {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, ProtocolChoice::Auto, true);
    h.flush();
    h.event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] });
    let (frames, ..) = h.flush();
    let discover = frame(&frames[0]);
    assert_eq!(discover["method"], "server/discover");
    assert_eq!(discover["params"]["_meta"][META_VERSION], "2026-07-28");
    h.server_says(
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"py","version":"2.3"}},"ttlMs":0,"cacheScope":"private"}}"#,
    );
    assert_eq!(h.s.conn(), &ConnState::Connected);
    let n = h.s.negotiated().unwrap();
    assert_eq!(n.to_string(), "2026-07-28 (the server answered server/discover)");
    assert_eq!(h.s.server().unwrap().name, "py");
    let (frames, ..) = h.flush();
    let methods: Vec<Value> = frames.iter().map(|f| frame(f)["method"].clone()).collect();
    assert_eq!(methods, [json!("tools/list"), json!("subscriptions/listen")], "no initialize, no initialized");
    for f in &frames {
        let meta = &frame(f)["params"]["_meta"];
        assert_eq!(meta[META_VERSION], "2026-07-28", "{f}");
        assert_eq!(meta[META_CLIENT_INFO]["name"], "mcp-playground", "{f}");
        assert!(meta[META_CAPABILITIES]["elicitation"].is_object(), "{f}");
    }
    assert_eq!(frame(&frames[1])["params"]["notifications"], json!({"toolsListChanged": true}));
    h.server_says(&json!({"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools": tools,"ttlMs":60000,"cacheScope":"public"}}).to_string());
    h.flush();
    h
}

fn tools() -> Value {
    json!([
        {"name": "ask", "inputSchema": {"type": "object"}},
        {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}},
    ])
}

#[test]
fn a_discovered_server_lists_its_tools_with_caching_hints_and_leaves_out_bad_headers() {
    let h = discovered(tools());
    assert_eq!(h.tool_names(), ["ask"]);
    let facts = h.s.list_facts().unwrap();
    assert_eq!((facts.ttl_ms, facts.cache_scope.as_deref()), (Some(60000), Some("public")));
    assert_eq!(facts.left_out.len(), 1);
    assert!(facts.left_out[0].0 == "bad" && facts.left_out[0].1.contains("type number"), "{facts:?}");
    let rec = h.s.export_recording().unwrap();
    assert!(rec.lines().next().unwrap().contains(r#""protocol_version":"2026-07-28""#), "{rec}");
}

#[test]
fn an_input_required_call_asks_the_user_and_goes_again_under_a_new_id() {
    let mut h = discovered(tools());
    let id = h.s.call_tool("ask", json!({"x": 1}), LIMITS, h.at).unwrap();
    let (frames, ..) = h.flush();
    let first = frame(&frames[0]);
    assert_eq!(first["params"]["_meta"]["progressToken"], "call-4");
    assert_eq!(first["params"]["_meta"][META_VERSION], "2026-07-28");
    h.server_says(&json!({"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","requestState":"s-1\u{0}x",
        "inputRequests":{
            "who":{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","default":"Ann"}}}}},
            "model":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"maxTokens":5}},
            "where":{"method":"roots/list"}}}}).to_string());
    assert!(h.s.call().is_pending(), "still the same call");
    let asks: Vec<(Id, bool)> =
        h.s.asks().iter().map(|a| (a.id.clone(), matches!(a.kind, AskKind::Elicit(_)))).collect();
    assert_eq!(asks, [(Id::String("4/model".into()), false), (Id::String("4/who".into()), true)]);
    assert_eq!(h.s.next_deadline_ms(), None, "the call's clock stands still while the user answers");
    h.s.answer_elicitation(&Id::String("4/who".into()), ElicitAnswer::Accept(json!({})), h.at).unwrap();
    assert!(h.flush().0.is_empty(), "the retry waits for every answer");
    h.s.answer_sampling(&Id::String("4/model".into()), SampleAnswer::Reply("4".into()), h.at).unwrap();
    let (frames, ..) = h.flush();
    let retry = frame(&frames[0]);
    assert_eq!(retry["id"], 5, "a new id");
    assert_eq!(retry["params"]["name"], "ask");
    assert_eq!(retry["params"]["arguments"], json!({"x": 1}));
    assert_eq!(retry["params"]["requestState"], "s-1\u{0}x", "echoed exactly");
    assert_eq!(retry["params"]["inputResponses"]["who"], json!({"action": "accept", "content": {"name": "Ann"}}));
    assert_eq!(retry["params"]["inputResponses"]["model"]["content"]["text"], "4");
    assert_eq!(retry["params"]["inputResponses"]["where"], json!({"roots": []}));
    assert_eq!(retry["params"]["_meta"]["progressToken"], "call-4", "progress keeps the call's token");
    // A second round without state: the retry carries no `requestState` at all.
    h.server_says(&json!({"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required",
        "inputRequests":{"ok":{"method":"elicitation/create","params":{"message":"Sure?","requestedSchema":{"type":"object","properties":{}}}}}}}).to_string());
    h.s.answer_elicitation(&Id::String("4/ok".into()), ElicitAnswer::Decline, h.at).unwrap();
    let (frames, ..) = h.flush();
    let retry = frame(&frames[0]);
    assert_eq!(retry["id"], 6);
    assert!(retry["params"].get("requestState").is_none(), "{retry}");
    assert_eq!(retry["params"]["inputResponses"], json!({"ok": {"action": "decline"}}));
    h.server_says(
        r#"{"jsonrpc":"2.0","id":6,"result":{"resultType":"complete","content":[{"type":"text","text":"done"}]}}"#,
    );
    let CallState::Done { outcome: CallOutcome::Result { result, .. }, .. } = h.s.call() else {
        panic!("{:?}", h.s.call())
    };
    assert_eq!(result.content.len(), 1);
    let _ = id;
}

#[test]
fn a_declined_sampling_or_a_cancel_ends_the_round() {
    let mut h = discovered(tools());
    h.s.call_tool("ask", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    let sampling = json!({"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required",
        "inputRequests":{"m":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}});
    h.server_says(&sampling.to_string());
    h.s.answer_sampling(&Id::String("4/m".into()), SampleAnswer::Decline, h.at).unwrap();
    assert!(h.flush().0.is_empty(), "nothing goes again");
    let CallState::TransportError { message, .. } = h.s.call() else { panic!("{:?}", h.s.call()) };
    assert!(message.contains("m was declined"), "{message}");

    h.s.call_tool("ask", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(&json!({"jsonrpc":"2.0","id":5,"result":sampling["result"]}).to_string());
    assert_eq!(h.s.asks().len(), 1);
    h.s.cancel_call();
    let (frames, ..) = h.flush();
    assert!(frames.is_empty(), "nothing is out to cancel: {frames:?}");
    assert!(h.s.asks().is_empty(), "its question went with it");
    assert!(matches!(h.s.call(), CallState::Cancelled { .. }));
}

#[test]
fn a_result_without_result_type_is_complete_and_cancel_names_the_attempt_under_way() {
    let mut h = discovered(tools());
    h.s.call_tool("ask", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","requestState":"r"}}"#);
    let (frames, ..) = h.flush();
    assert_eq!(frame(&frames[0])["id"], 5, "no question: the retry goes at once");
    h.s.cancel_call();
    let (frames, ..) = h.flush();
    assert_eq!(frame(&frames[0])["params"]["requestId"], 5);
    h.s.call_tool("ask", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":6,"result":{"content":[]}}"#);
    assert!(matches!(h.s.call(), CallState::Done { .. }), "{:?}", h.s.call());
    assert!(h.flush().0.is_empty(), "not retried");
}

#[test]
fn tool_list_changes_come_on_the_listen_stream() {
    let mut h = discovered(tools());
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true}}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}}"#);
    let (frames, ..) = h.flush();
    assert_eq!(frame(&frames[0])["method"], "tools/list");
    assert_eq!(frame(&frames[0])["params"]["_meta"][META_VERSION], "2026-07-28");
    let _ = Revision::V2026_07_28;
}
