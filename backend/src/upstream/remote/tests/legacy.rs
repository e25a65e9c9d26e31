//! Legacy HTTP+SSE (the endpoint event, POSTs answered on the stream, an endpoint on another
//! origin refused) and Auto detection between it and Streamable HTTP.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::routing::get;

use super::*;

/// The stream of the one client, where answers go.
type Outbox = Arc<Mutex<Option<mpsc::UnboundedSender<String>>>>;

fn stream_naming(endpoint: &str, outbox: &Outbox) -> Response {
    let (tx, rx) = mpsc::unbounded_channel::<String>();
    *outbox.lock().unwrap() = Some(tx);
    let first = format!("event: endpoint\ndata: {endpoint}\n\n");
    let answers = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|m| (format!("event: message\ndata: {m}\n\n"), rx))
    });
    let chunks = futures_util::stream::once(async { first }).chain(answers).map(Ok::<_, Infallible>);
    ([(CONTENT_TYPE, "text/event-stream")], Body::from_stream(chunks)).into_response()
}

/// Answers every request on the stream (`huge` with 2,000 bytes of text); the POST gets 202.
async fn messages(State(outbox): State<Outbox>, body: String) -> StatusCode {
    let msg: Value = serde_json::from_str(&body).unwrap();
    if let (Some(method), Some(id)) = (msg["method"].as_str(), msg.get("id")) {
        let result = if method == "huge" { json!({"text": "x".repeat(2000)}) } else { json!({"method": method}) };
        let answer = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        outbox.lock().unwrap().as_ref().expect("the stream is open").send(answer).unwrap();
    }
    StatusCode::ACCEPTED
}

/// `/sse` refuses POSTs with 405 (axum's answer to a method it has no route for), `/gone`
/// with 404; `/elsewhere` names an endpoint on another origin.
async fn legacy_server() -> String {
    let app = Router::new()
        .route("/sse", get(|State(o): State<Outbox>| async move { stream_naming("/messages?session=1", &o) }))
        .route(
            "/gone",
            get(|State(o): State<Outbox>| async move { stream_naming("/messages", &o) })
                .post(|| async { StatusCode::NOT_FOUND }),
        )
        .route(
            "/elsewhere",
            get(|State(o): State<Outbox>| async move { stream_naming("http://127.0.0.1:1/messages", &o) }),
        )
        .route("/messages", post(messages))
        .with_state(Outbox::default());
    serve_app(app).await
}

/// Every event, `Written` ones too, until `done` says enough.
async fn until(rx: &mut crate::upstream::EventReceiver, done: impl Fn(&[String]) -> bool) -> Vec<String> {
    let mut seen = Vec::new();
    while !done(&seen) {
        let ev = tokio::time::timeout(SAFETY, rx.recv_item()).await.expect("an event in time").expect("open");
        seen.push(match ev {
            UpstreamEvent::Written { frame, .. } => format!("written {frame}"),
            UpstreamEvent::Frame { frame, .. } => format!("frame {frame}"),
            UpstreamEvent::Relay { event, .. } => serde_json::to_string(&event).unwrap(),
            UpstreamEvent::Ended { reason } => format!("ended {reason}"),
        });
    }
    seen
}

#[tokio::test]
async fn legacy_sse_answers_on_the_stream_and_fails_an_oversized_answer_at_once() {
    let base = legacy_server().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let limits = Limits { max_message_bytes: 1024, ..LIMITS };
    let up = RemoteUpstream::start_with(
        Mode::Sse,
        &format!("{base}/sse"),
        &BTreeMap::new(),
        limits,
        tx,
        Tuning::default(),
        None,
    )
    .unwrap()
    .0;
    up.send(request(1, "initialize")).unwrap();
    assert_eq!(next(&mut rx).await, r#"frame {"jsonrpc":"2.0","id":1,"result":{"method":"initialize"}}"#);
    up.send(request(2, "huge")).unwrap();
    let oversized = next(&mut rx).await;
    assert_eq!(oversized, r#"{"kind":"oversized","direction":"in","size":2065,"limit":1024}"#);
    // The call fails now, not at its timeout: the stream stays open and says nothing more.
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"request_failed","id":2,"message":"the answer of 2065 bytes is over the limit of 1024 bytes"}"#
    );
    up.send(request(3, "tools/list")).unwrap();
    assert!(next(&mut rx).await.contains(r#""id":3"#));
    up.shutdown().await;
}

#[tokio::test]
async fn an_endpoint_on_another_origin_is_refused() {
    let base = legacy_server().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Sse, &format!("{base}/elsewhere"), tx, Tuning::default());
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"error","message":"the server named an endpoint on another origin (http://127.0.0.1:1/messages); refused"}"#
    );
    up.shutdown().await;
}

#[tokio::test]
async fn auto_falls_back_to_legacy_on_404_and_405() {
    let base = legacy_server().await;
    for path in ["/sse", "/gone"] {
        let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
        let up = start(Mode::Auto, &format!("{base}{path}"), tx, Tuning::default());
        up.send(request(1, "initialize")).unwrap();
        let seen = until(&mut rx, |s| s.iter().any(|e| e.starts_with("frame"))).await;
        assert_eq!(
            seen,
            [
                format!("written {}", request(1, "initialize")),
                r#"{"kind":"note","message":"Streamable HTTP was refused; falling back to the legacy HTTP+SSE transport"}"#.into(),
                r#"frame {"jsonrpc":"2.0","id":1,"result":{"method":"initialize"}}"#.into(),
            ],
            "{path}"
        );
        up.shutdown().await;
    }
}

#[tokio::test]
async fn auto_stays_on_streamable_http_otherwise() {
    let base = serve().await;
    let streamable = r#"{"kind":"detected","transport":"http"}"#;
    // A 401 is the server's own answer, not a sign of the legacy transport.
    for (path, last) in [("/mcp", "frame"), ("/auth", r#"{"kind":"request_failed""#)] {
        let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
        let up = start(Mode::Auto, &format!("{base}{path}"), tx, Tuning::default());
        // Not `initialize`: no session, so `DELETED` stays the other test's to check.
        up.send(request(1, "echo_headers")).unwrap();
        let seen = until(&mut rx, |s| s.iter().any(|e| e == streamable) && s.iter().any(|e| e.starts_with(last))).await;
        assert!(!seen.iter().any(|e| e.contains("falling back")), "{path}: {seen:?}");
        if path == "/mcp" {
            // Later frames go over Streamable HTTP too.
            up.send(request(2, "echo_headers")).unwrap();
            assert!(next(&mut rx).await.contains(r#""id":2"#));
        }
        up.shutdown().await;
    }
}
