//! A request's SSE stream closed before its answer (2025-11-25, SEP-1699): resumed with a
//! GET carrying `Last-Event-ID` after the stream's `retry` time, or failed when the stream
//! gave no id to resume from.

use super::*;

/// POST `tools/call`: a priming event (an id, `retry: 200`), then the stream ends. The GET
/// that resumes from `prime-1` gets the answer; any other GET gets 405.
async fn closing_server() -> String {
    async fn on_post(body: String) -> Response {
        let msg: Value = serde_json::from_str(&body).unwrap();
        match msg["method"].as_str() {
            Some("tools/call") => {
                let id = msg["id"].clone();
                let prime = if id == 1 { "id: prime-1\nretry: 200\ndata: \n\n" } else { "data: \n\n" };
                ([(CONTENT_TYPE, "text/event-stream")], prime).into_response()
            }
            _ => StatusCode::ACCEPTED.into_response(),
        }
    }
    async fn on_get(headers: HeaderMap) -> Response {
        if headers.get("last-event-id").and_then(|v| v.to_str().ok()) != Some("prime-1") {
            return StatusCode::METHOD_NOT_ALLOWED.into_response();
        }
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "resumed"}]}});
        ([(CONTENT_TYPE, "text/event-stream")], format!("id: prime-2\ndata: {answer}\n\n")).into_response()
    }
    serve_app(Router::new().route("/mcp", post(on_post).get(on_get))).await
}

#[tokio::test]
async fn a_stream_closed_before_its_answer_is_resumed_from_its_last_event_id() {
    let base = closing_server().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, Tuning::default());
    up.send(request(1, "tools/call")).unwrap();
    let note = next(&mut rx).await;
    assert!(note.contains("resuming it after 200 ms (Last-Event-ID: prime-1)"), "{note}");
    let answer = next(&mut rx).await;
    assert!(answer.starts_with("frame ") && answer.contains("resumed"), "{answer}");

    // No id given: nothing to resume, the call fails at once.
    up.send(request(2, "tools/call")).unwrap();
    let failed = next(&mut rx).await;
    assert!(
        failed.contains(r#""kind":"request_failed","id":2"#) && failed.contains("closed the stream before answering"),
        "{failed}"
    );
    up.shutdown().await;
}
