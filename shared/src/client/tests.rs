//! The client alone, frame by frame: the handshake, paging, calls and their failures, the
//! server's requests and notifications.

use super::*;
use expect_test::expect;

fn feed(c: &mut McpClient, raw: &str) -> Handled {
    let (v, cl) = jsonrpc::parse(raw).unwrap();
    c.handle(&v, &cl)
}

#[test]
fn handshake_then_paged_tool_list() {
    let mut c = McpClient::new("0.1.0", "2025-06-18");
    expect![[r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"elicitation":{}},"clientInfo":{"name":"mcp-playground","title":"MCP Playground","version":"0.1.0"}}}"#]]
        .assert_eq(&c.initialize());
    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    expect![[r#"
        [
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
        ]"#]]
    .assert_eq(&format!("{:#?}", h.replies));
    assert!(matches!(&h.updates[..], [Update::Ready(r)] if r.server_info.name == "s"));

    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"p2"}}"#,
    );
    expect![[r#"["{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"cursor\":\"p2\"}}"]"#]]
        .assert_eq(&format!("{:?}", h.replies));
    assert!(h.updates.is_empty());
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"b","inputSchema":{}}]}}"#);
    let names: Vec<String> = match &h.updates[..] {
        [Update::Tools(t)] => t.iter().map(|t| t.name.clone()).collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn cancelled_and_late_and_server_cancelled() {
    let mut c = McpClient::new("0", "2025-06-18");
    let (id, _) = c.call_tool("slow", json!({}));
    assert_eq!(
        c.cancel(&id, "cancelled by the user").unwrap(),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"cancelled by the user"}}"#
    );
    assert!(c.cancel(&id, "again").is_none(), "cancelled twice");
    assert!(!c.is_waiting(&id));
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#);
    assert_eq!(h.updates, [Update::Late { id: id.clone() }]);
    let (id2, _) = c.call_tool("slow", json!({}));
    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"shutting down"}}"#,
    );
    assert_eq!(h.updates, [Update::CancelledByServer { id: id2, reason: Some("shutting down".into()) }]);
    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":{"x":1}}}"#,
    );
    assert_eq!(h.updates, [Update::Log { level: "warning".into(), logger: Some("db".into()), data: json!({"x": 1}) }]);
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":"r","method":"roots/list"}"#);
    assert_eq!(h.replies, [r#"{"jsonrpc":"2.0","id":"r","result":{"roots":[]}}"#]);
}

#[test]
fn reads_resources() {
    let mut c = McpClient::new("0", "2025-06-18");
    let (_, frame) = c.read_resource("demo://a");
    assert_eq!(frame, r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"demo://a"}}"#);
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"demo://a","text":"hi"}]}}"#);
    assert!(
        matches!(&h.updates[..], [Update::ResourceRead { uri, outcome: Ok(c) }] if uri == "demo://a" && c[0].text.as_deref() == Some("hi"))
    );
    c.read_resource("demo://b");
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found"}}"#);
    assert!(matches!(&h.updates[..], [Update::ResourceRead { outcome: Err(e), .. }] if e.contains("-32002")));
}

#[test]
fn two_listings_at_once_give_each_tool_once() {
    let mut c = McpClient::new("0", "2025-06-18");
    c.list_tools();
    c.list_tools();
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#);
    assert!(h.updates.is_empty(), "the older listing's answer is dropped");
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#);
    assert!(matches!(&h.updates[..], [Update::Tools(t)] if t.len() == 1), "{h:?}");
}

#[test]
fn a_repeated_cursor_stops_paging() {
    let mut c = McpClient::new("0", "2025-06-18");
    c.list_tools();
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[],"nextCursor":"x"}}"#);
    assert_eq!(h.replies.len(), 1);
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":"x"}}"#);
    assert!(h.replies.is_empty());
    assert!(matches!(&h.updates[..], [Update::Notice(_), Update::Tools(_)]));
}

#[test]
fn call_outcomes() {
    let mut c = McpClient::new("0", "2025-06-18");
    let (id1, frame) = c.call_tool("echo", json!({"message": "hi"}));
    assert_eq!(
        frame,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":"call-1"}}}"#
    );
    let (id2, _) = c.call_tool("nope", json!({}));
    let (id3, _) = c.call_tool("weird", json!({}));
    assert!(c.is_waiting(&id1));
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}"#);
    assert!(
        matches!(&h.updates[..], [Update::CallDone { id, outcome: CallOutcome::Result { result, .. } }] if *id == id1 && result.content.len() == 1)
    );
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool"}}"#);
    assert!(
        matches!(&h.updates[..], [Update::CallDone { id, outcome: CallOutcome::ProtocolError { error, .. } }] if *id == id2 && error.code == -32602)
    );
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":3,"result":{"content":"not a list"}}"#);
    assert!(matches!(&h.updates[..], [Update::CallDone { id, outcome: CallOutcome::Unreadable { .. } }] if *id == id3));
    assert!(!c.is_waiting(&id1));
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    assert!(matches!(&h.updates[..], [Update::Notice(n)] if n.contains("unknown request id 1")));
}

#[test]
fn answers_server_requests_and_reads_notifications() {
    let mut c = McpClient::new("0", "2025-06-18");
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":"s1","method":"ping"}"#);
    assert_eq!(h.replies, [r#"{"jsonrpc":"2.0","id":"s1","result":{}}"#]);
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}"#);
    assert!(h.replies.is_empty(), "the user answers, later");
    assert!(matches!(&h.updates[..], [Update::Asked(a)] if a.id == Id::Number(5)));
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#);
    assert_eq!(h.updates, [Update::AskWithdrawn { id: Id::Number(5), reason: None }]);
    assert_eq!(c.answer(&Id::Number(5), "late".into()), Handled::default(), "a withdrawn request is not answered");
    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":2,"total":5,"message":"half"}}"#,
    );
    assert_eq!(
        h.updates,
        [Update::Progress { token: json!("t"), progress: 2.0, total: Some(5.0), message: Some("half".into()) }]
    );
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert_eq!(h, Handled::default(), "nothing but pings before initialization");
    c.initialize();
    feed(
        &mut c,
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
    );
    // A burst of changes while the first listing is out: one more listing once it ends.
    for _ in 0..5 {
        let h = feed(&mut c, r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
        assert!(h.replies.is_empty(), "one listing at a time");
    }
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#);
    assert_eq!(h.replies, [r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#]);
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}"#);
    assert!(h.replies.is_empty(), "{h:?}");
    let h = feed(&mut c, r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert_eq!(h.updates, [Update::ToolsChanged]);
    assert_eq!(h.replies.len(), 1);
}

#[test]
fn a_url_elicitation_said_complete_is_a_notice() {
    let mut c = McpClient::new("0.1.0", "2025-11-25");
    let h = feed(
        &mut c,
        r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e-1"}}"#,
    );
    assert_eq!(h.updates, [Update::Notice("the server says elicitation \"e-1\" is complete".into())]);
}
