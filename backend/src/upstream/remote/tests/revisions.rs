//! `MCP-Protocol-Version` for every revision with `initialize`: whatever the server answers,
//! each later request names it, so a pinned 2024-11-05 session is not sent a newer one.

use super::*;

/// Answers `initialize` with the revision it was offered; echoes the version header.
async fn agreeable(headers: HeaderMap, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let id = msg["id"].clone();
    let result = match msg["method"].as_str() {
        Some("initialize") => json!({"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {}}),
        Some("echo_headers") => json!({"version": header(&headers, VERSION_HEADER)}),
        _ => return StatusCode::ACCEPTED.into_response(),
    };
    axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": result})).into_response()
}

#[tokio::test]
async fn every_revision_is_named_on_the_requests_after_initialize() {
    let base = serve_app(Router::new().route("/mcp", post(agreeable))).await;
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
        let url = format!("{base}/mcp");
        let (up, _) = RemoteUpstream::start(Mode::Http, &url, &BTreeMap::new(), LIMITS, tx).unwrap();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": revision}});
        up.send(init.to_string()).unwrap();
        assert!(next(&mut rx).await.contains(&format!(r#""protocolVersion":"{revision}""#)));
        up.send(request(2, "echo_headers")).unwrap();
        let echoed = next(&mut rx).await;
        assert!(echoed.contains(&format!(r#""version":"{revision}""#)), "{revision}: {echoed}");
        up.shutdown().await;
    }
}
