//! The Streamable HTTP upstream against a small server on loopback that answers the ways
//! real servers do and fail: JSON and SSE bodies, a session id that must come back, the
//! protocol version header, a stream that breaks off mid-call, 401 and 500 answers. The
//! files beside it test order and lifetime, legacy SSE and detection, and bounded reads.

mod bounds;
mod legacy;
mod order;
mod resume;
mod revisions;
mod stateless;

use std::sync::Mutex;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_util::StreamExt;
use reqwest::header::CONTENT_TYPE;
use serde_json::json;
use tokio::sync::oneshot;

use super::http::MAX_BATCH_ITEMS;
use super::*;

/// What the test server saw: DELETEs with their session id.
static DELETED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn header(h: &HeaderMap, name: &str) -> Value {
    h.get(name).and_then(|v| v.to_str().ok()).map_or(Value::Null, |v| json!(v))
}

fn sse(events: &[Value]) -> Response {
    let body: String = events.iter().map(|e| format!("event: message\ndata: {e}\n\n")).collect();
    ([(CONTENT_TYPE, "text/event-stream")], body).into_response()
}

async fn mcp(headers: HeaderMap, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let id = msg["id"].clone();
    match msg["method"].as_str().unwrap_or("") {
        "initialize" => (
            [(SESSION_HEADER, "s-1"), (CONTENT_TYPE.as_str(), "application/json")],
            json!({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "t", "version": "1"}}}).to_string(),
        )
            .into_response(),
        "echo_headers" => axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": {
            "session": header(&headers, SESSION_HEADER), "version": header(&headers, VERSION_HEADER), "custom": header(&headers, "x-custom")
        }}))
        .into_response(),
        "streamed" => sse(&[
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}),
            json!({"jsonrpc": "2.0", "id": id, "result": {"done": true}}),
        ]),
        "drop" => sse(&[json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})]),
        "boom" => (StatusCode::INTERNAL_SERVER_ERROR, "boom").into_response(),
        "expired" => StatusCode::NOT_FOUND.into_response(),
        "batch" => axum::Json(json!([{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "a"}},
                                     {"jsonrpc": "2.0", "id": id, "result": {}}])).into_response(),
        // Written by hand: spacing, an exponent and an escape that re-encoding would change.
        "raw_batch" => json_body(format!(
            "[ {{\"jsonrpc\": \"2.0\", \"method\": \"n\", \"params\": {{\"x\": 1.0e3, \"s\": \"caf\\u00e9\"}}}} ,\n  {{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{ }}}} ]"
        )),
        "big_batch" => json_body(format!("[{}]", vec![r#"{"jsonrpc":"2.0","method":"n"}"#; 1005].join(","))),
        "huge" => json_body(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"text":"{}"}}}}"#, "x".repeat(2000))),
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

fn json_body(body: String) -> Response {
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}

async fn deleted(headers: HeaderMap) -> StatusCode {
    DELETED.lock().unwrap().push(header(&headers, SESSION_HEADER).as_str().unwrap_or("").to_owned());
    StatusCode::NO_CONTENT
}

async fn unauthorized() -> Response {
    (StatusCode::UNAUTHORIZED, [(WWW_AUTHENTICATE, r#"Bearer realm="test""#)], Body::empty()).into_response()
}

async fn serve() -> String {
    let app = Router::new()
        .route("/mcp", post(mcp).delete(deleted).get(|| async { StatusCode::METHOD_NOT_ALLOWED }))
        .route("/auth", post(unauthorized));
    serve_app(app).await
}

/// Serves `app` on a loopback port; its base URL.
async fn serve_app(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(crate::app::no_delay(listener), app).await.unwrap() });
    format!("http://{addr}")
}

const LIMITS: Limits = Limits { max_message_bytes: 1 << 20, max_stderr_line_bytes: 1024 };

/// A safety bound only: what a test waits for comes much sooner, or never without its fix.
const SAFETY: Duration = Duration::from_secs(10);

fn start(mode: Mode, url: &str, events: crate::upstream::EventSender, tuning: Tuning) -> RemoteUpstream {
    RemoteUpstream::start_with(mode, url, &BTreeMap::new(), LIMITS, events, tuning, None).unwrap().0
}

/// Says when it is dropped: put in a response body (or a handler), it tells the test that
/// the server let go of it, which hyper does when the client closed the connection.
struct OnDrop(Option<oneshot::Sender<()>>);

impl OnDrop {
    fn new() -> (Self, oneshot::Receiver<()>) {
        let (tx, rx) = oneshot::channel();
        (Self(Some(tx)), rx)
    }
}

impl Drop for OnDrop {
    fn drop(&mut self) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(());
        }
    }
}

/// An SSE body that sends `first`, then stays open, silent, until the client goes.
fn open_sse(first: String, guard: OnDrop) -> Response {
    let chunks = futures_util::stream::once(async move { Ok::<_, std::convert::Infallible>(first) })
        .chain(futures_util::stream::pending())
        .map(move |c| {
            let _ = &guard;
            c
        });
    ([(CONTENT_TYPE, "text/event-stream")], Body::from_stream(chunks)).into_response()
}

/// A JSON-RPC request as the page writes it.
fn request(id: u64, method: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {}}).to_string()
}

async fn next(rx: &mut crate::upstream::EventReceiver) -> String {
    loop {
        let ev = tokio::time::timeout(SAFETY, rx.recv_item()).await.expect("an event in time").expect("open");
        match ev {
            UpstreamEvent::Frame { frame, .. } => return format!("frame {frame}"),
            UpstreamEvent::Written { .. } => continue,
            UpstreamEvent::Relay { event, .. } => return serde_json::to_string(&event).unwrap(),
            UpstreamEvent::Ended { reason } => return format!("ended {reason}"),
        }
    }
}

#[tokio::test]
async fn streamable_http_round_trips_and_failures() {
    let base = serve().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let headers: BTreeMap<String, String> = [("X-Custom".to_string(), "yes".to_string())].into();
    let (up, connected) = RemoteUpstream::start(Mode::Http, &format!("{base}/mcp"), &headers, LIMITS, tx).unwrap();
    assert!(matches!(connected, RelayEvent::Connected { headers, .. } if headers == ["X-Custom: ••••"]));
    let (other, connected) = RemoteUpstream::start(
        Mode::Http,
        "http://u:pw@127.0.0.1:9/mcp?key=s3cret",
        &headers,
        LIMITS,
        crate::upstream::queue::bounded(1, 1 << 30).0,
    )
    .unwrap();
    assert!(
        matches!(&connected, RelayEvent::Connected { url, .. } if url == "http://u:••••@127.0.0.1:9/mcp?key=••••"),
        "{connected:?}"
    );
    other.shutdown().await;

    up.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.into()).unwrap();
    assert!(next(&mut rx).await.contains(r#""protocolVersion":"2025-06-18""#));
    up.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into()).unwrap();
    // The session id and the negotiated version come back on every later request.
    up.send(r#"{"jsonrpc":"2.0","id":2,"method":"echo_headers"}"#.into()).unwrap();
    let echoed = next(&mut rx).await;
    assert!(
        echoed.contains(r#""session":"s-1""#)
            && echoed.contains(r#""version":"2025-06-18""#)
            && echoed.contains(r#""custom":"yes""#),
        "{echoed}"
    );

    up.send(r#"{"jsonrpc":"2.0","id":3,"method":"streamed"}"#.into()).unwrap();
    assert!(next(&mut rx).await.contains("notifications/progress"));
    assert!(next(&mut rx).await.contains(r#""done":true"#));

    up.send(r#"{"jsonrpc":"2.0","id":4,"method":"drop"}"#.into()).unwrap();
    assert!(next(&mut rx).await.contains("notifications/progress"));
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"request_failed","id":4,"message":"the server closed the stream before answering"}"#
    );

    up.send(r#"{"jsonrpc":"2.0","id":5,"method":"boom"}"#.into()).unwrap();
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"error","message":"the server answered HTTP 500 Internal Server Error; body: boom"}"#
    );
    assert!(next(&mut rx).await.contains(r#""kind":"request_failed","id":5"#));

    up.send(r#"{"jsonrpc":"2.0","id":7,"method":"expired"}"#.into()).unwrap();
    let gone = next(&mut rx).await;
    assert!(gone.contains("HTTP 404") && gone.contains("no longer knows this session"), "{gone}");
    assert!(next(&mut rx).await.contains(r#""kind":"request_failed","id":7"#));

    up.send(r#"{"jsonrpc":"2.0","id":6,"method":"batch"}"#.into()).unwrap();
    assert!(next(&mut rx).await.contains("notifications/message"));
    assert!(next(&mut rx).await.contains(r#""id":6"#));

    up.shutdown().await;
    assert_eq!(DELETED.lock().unwrap().as_slice(), ["s-1"], "the session was not deleted");
}

#[tokio::test]
async fn batches_pass_byte_for_byte_and_are_bounded() {
    let base = serve().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(2048, 1 << 30);
    let (up, _) = RemoteUpstream::start(Mode::Http, &format!("{base}/mcp"), &BTreeMap::new(), LIMITS, tx).unwrap();
    up.send(r#"{"jsonrpc":"2.0","id":1,"method":"raw_batch"}"#.into()).unwrap();
    assert_eq!(
        next(&mut rx).await,
        r#"frame {"jsonrpc": "2.0", "method": "n", "params": {"x": 1.0e3, "s": "caf\u00e9"}}"#
    );
    assert_eq!(next(&mut rx).await, r#"frame {"jsonrpc":"2.0","id":1,"result":{ }}"#);

    up.send(r#"{"jsonrpc":"2.0","id":2,"method":"big_batch"}"#.into()).unwrap();
    for _ in 0..MAX_BATCH_ITEMS {
        assert_eq!(next(&mut rx).await, r#"frame {"jsonrpc":"2.0","method":"n"}"#);
    }
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"error","message":"the server answered a batch of 1005 messages; the first 1000 were forwarded, the rest dropped"}"#
    );

    up.shutdown().await;

    // Too large to forward: the call fails now, not at its timeout.
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let limits = Limits { max_message_bytes: 1024, ..LIMITS };
    let (up, _) = RemoteUpstream::start(Mode::Http, &format!("{base}/mcp"), &BTreeMap::new(), limits, tx).unwrap();
    up.send(r#"{"jsonrpc":"2.0","id":3,"method":"huge"}"#.into()).unwrap();
    assert_eq!(next(&mut rx).await, r#"{"kind":"oversized","direction":"in","size":2045,"limit":1024}"#);
    assert_eq!(
        next(&mut rx).await,
        r#"{"kind":"request_failed","id":3,"message":"the answer of 2045 bytes is over the limit of 1024 bytes"}"#
    );
    up.shutdown().await;
}

#[test]
fn header_values_are_masked_whatever_their_characters() {
    let headers: BTreeMap<String, String> = [
        ("Authorization".to_string(), "Bearer sk-123".to_string()),
        ("X-Name".to_string(), "Grüße aus Köln".to_string()),
        // The old rule cut this at byte 7, inside the `é`.
        ("X-Key".to_string(), "Beareré token".to_string()),
    ]
    .into();
    assert_eq!(masked(&headers), ["Authorization: Bearer ••••", "X-Key: Beareré ••••", "X-Name: Grüße ••••"]);
}

#[tokio::test]
async fn unauthorized_says_so_with_www_authenticate() {
    let base = serve().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let (up, _) = RemoteUpstream::start(Mode::Http, &format!("{base}/auth"), &BTreeMap::new(), LIMITS, tx).unwrap();
    up.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.into()).unwrap();
    let e = next(&mut rx).await;
    assert!(
        e.contains("HTTP 401") && e.contains(r#"Bearer realm=\"test\""#) && e.contains("Authorization header"),
        "{e}"
    );
    up.shutdown().await;
}

#[tokio::test]
async fn refuses_bad_urls_headers_and_unreachable_servers() {
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    assert!(
        RemoteUpstream::start(Mode::Http, "ftp://x/", &BTreeMap::new(), LIMITS, tx.clone())
            .unwrap_err()
            .to_string()
            .contains("only http and https")
    );
    assert!(RemoteUpstream::start(Mode::Http, "not a url", &BTreeMap::new(), LIMITS, tx.clone()).is_err());
    let bad: BTreeMap<String, String> = [("Bad Name".to_string(), "x".to_string())].into();
    assert!(
        RemoteUpstream::start(Mode::Http, "http://127.0.0.1:1/", &bad, LIMITS, tx.clone())
            .unwrap_err()
            .to_string()
            .contains("not a valid header name")
    );
    // Nothing listens on port 1: a clear error, and the request fails.
    let (up, _) = RemoteUpstream::start(Mode::Http, "http://127.0.0.1:1/mcp", &BTreeMap::new(), LIMITS, tx).unwrap();
    up.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#.into()).unwrap();
    assert!(next(&mut rx).await.contains("connection refused at 127.0.0.1:1"));
    assert!(next(&mut rx).await.contains("request_failed"));
    up.shutdown().await;
}
