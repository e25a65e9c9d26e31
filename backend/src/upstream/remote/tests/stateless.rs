//! 2026-07-28 over Streamable HTTP: each request names its revision in `_meta` and the
//! `MCP-Protocol-Version` header says the same; `Mcp-Method`, `Mcp-Name` and the
//! `Mcp-Param-*` of a tool's `x-mcp-header` marks go with it; no session; a JSON-RPC error
//! in a 400 body is an answer; and a request is cancelled by closing its stream.

use super::*;

/// The server of this file: a tool list with a mark, header echoes, a refusal, and a
/// request that stays open until the client lets go of it.
async fn stateless_server(closed: std::sync::Arc<Mutex<Option<OnDrop>>>) -> String {
    let app = Router::new().route(
        "/mcp",
        post(move |headers: HeaderMap, body: String| {
            let closed = closed.clone();
            async move {
                let msg: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let id = msg["id"].clone();
                let echo = |h: &HeaderMap| {
                    json!({"method": header(h, "mcp-method"), "name": header(h, "mcp-name"),
                        "region": header(h, "mcp-param-region"), "version": header(h, VERSION_HEADER),
                        "session": header(h, SESSION_HEADER)})
                };
                match msg["method"].as_str() {
                    Some("tools/list") => axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": {
                        "resultType": "complete", "tools": [{"name": "where", "inputSchema": {"type": "object",
                        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}}]}}))
                    .into_response(),
                    Some("tools/call") if msg["params"]["name"] == "wait" => {
                        let guard = closed.lock().unwrap().take().expect("one wait");
                        open_sse(": open\n\n".into(), guard)
                    }
                    Some("tools/call") => {
                        axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": echo(&headers)})).into_response()
                    }
                    Some("refused") => (
                        StatusCode::BAD_REQUEST,
                        [(CONTENT_TYPE, "application/json")],
                        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022, "message": "Unsupported protocol version",
                            "data": {"supported": ["2026-07-28"]}}}).to_string(),
                    )
                        .into_response(),
                    _ => StatusCode::ACCEPTED.into_response(),
                }
            }
        }),
    );
    serve_app(app).await
}

/// A request as the stateless client writes it.
fn stateless(id: u64, method: &str, params: Value) -> String {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28"});
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

#[tokio::test]
async fn stateless_requests_carry_their_headers_and_cancel_by_closing() {
    let (guard, closed_rx) = OnDrop::new();
    let base = stateless_server(std::sync::Arc::new(Mutex::new(Some(guard)))).await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, Tuning::default());
    up.send(stateless(1, "tools/list", json!({}))).unwrap();
    assert!(next(&mut rx).await.contains("x-mcp-header"));
    let call = json!({"name": "where", "arguments": {"region": "Zürich"}});
    up.send(stateless(2, "tools/call", call)).unwrap();
    let echoed: Value = serde_json::from_str(next(&mut rx).await.trim_start_matches("frame ")).unwrap();
    let want = json!({"method": "tools/call", "name": "where", "region": "=?base64?WsO8cmljaA==?=",
        "version": "2026-07-28", "session": null});
    assert_eq!(echoed["result"], want);

    // A refusal in a 400 body is the server's answer to that request, not a broken link.
    up.send(stateless(3, "refused", json!({}))).unwrap();
    let refused = next(&mut rx).await;
    assert!(refused.starts_with("frame ") && refused.contains("-32022"), "{refused}");

    up.send(stateless(4, "tools/call", json!({"name": "wait"}))).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}});
    up.send(cancel.to_string()).unwrap();
    let said = next(&mut rx).await;
    assert!(said.contains("request 4 cancelled: its stream was closed"), "{said}");
    tokio::time::timeout(SAFETY, closed_rx).await.expect("the stream was closed").unwrap();
    up.shutdown().await;
}
