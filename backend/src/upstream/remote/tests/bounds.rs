//! Bounded reads: an error body read up to 4 KiB, a body that stops delivering, an SSE answer
//! over the limit that fails its call at once.

use std::convert::Infallible;

use super::*;

/// A body that sends `first`, then nothing, without ending.
fn stalling(first: &'static str) -> Body {
    let first = futures_util::stream::once(async move { Ok::<_, Infallible>(first) });
    Body::from_stream(first.chain(futures_util::stream::pending()))
}

async fn misbehaving(body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    let error = StatusCode::INTERNAL_SERVER_ERROR;
    match msg["method"].as_str().unwrap_or("") {
        "endless_error" => {
            let endless = futures_util::stream::repeat_with(|| Ok::<_, Infallible>("e".repeat(1000)));
            (error, Body::from_stream(endless)).into_response()
        }
        "stalled_error" => (error, stalling("partial")).into_response(),
        "stalled_json" => ([(CONTENT_TYPE, "application/json")], stalling(r#"{"jsonrpc":"2.0","id":"#)).into_response(),
        "huge_sse" => {
            let answer = json!({"jsonrpc": "2.0", "id": msg["id"], "result": {"text": "x".repeat(3000)}});
            // Kept open after the answer: only failing the call at once ends it.
            open_sse(format!("event: message\ndata: {answer}\n\n"), OnDrop::new().0)
        }
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

async fn misbehaving_server(tx: crate::upstream::EventSender) -> RemoteUpstream {
    let base = serve_app(Router::new().route("/mcp", post(misbehaving))).await;
    let limits = Limits { max_message_bytes: 1024, ..LIMITS };
    let tuning = Tuning { idle: Duration::from_millis(300), ..Tuning::default() };
    RemoteUpstream::start_with(Mode::Http, &format!("{base}/mcp"), &BTreeMap::new(), limits, tx, tuning, None)
        .unwrap()
        .0
}

#[tokio::test]
async fn an_error_body_is_read_up_to_4_kib() {
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = misbehaving_server(tx).await;
    up.send(request(1, "endless_error")).unwrap();
    let message = format!(
        "the server answered HTTP 500 Internal Server Error; body (cut at {ERROR_BODY_BYTES} bytes): {}",
        "e".repeat(ERROR_BODY_BYTES)
    );
    assert_eq!(next(&mut rx).await, serde_json::to_string(&RelayEvent::Error { message }).unwrap());
    assert!(next(&mut rx).await.contains(r#""kind":"request_failed","id":1"#));

    up.send(request(2, "stalled_error")).unwrap();
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"error","message":"the server answered HTTP 500 Internal Server Error; body (cut: no data for 300 ms): partial"}"#
    );
    assert!(next(&mut rx).await.contains(r#""kind":"request_failed","id":2"#));
    up.shutdown().await;
}

#[tokio::test]
async fn a_json_body_that_stops_delivering_fails_its_call() {
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = misbehaving_server(tx).await;
    up.send(request(3, "stalled_json")).unwrap();
    let said = "the server stopped sending its answer: no data for 300 ms";
    assert_eq!(next(&mut rx).await, format!(r#"{{"kind":"error","message":"{said}"}}"#));
    assert_eq!(next(&mut rx).await, format!(r#"{{"kind":"request_failed","id":3,"message":"{said}"}}"#));
    up.shutdown().await;
}

#[tokio::test]
async fn an_oversized_sse_answer_fails_its_call_at_once() {
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = misbehaving_server(tx).await;
    up.send(request(4, "huge_sse")).unwrap();
    assert_eq!(next(&mut rx).await, r#"{"kind":"oversized","direction":"in","size":3065,"limit":1024}"#);
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"request_failed","id":4,"message":"the answer of 3065 bytes is over the limit of 1024 bytes"}"#
    );
    up.shutdown().await;
}
