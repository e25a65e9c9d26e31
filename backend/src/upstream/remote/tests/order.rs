//! Order and lifetime: frames reach the server in the order the page sent them, and no
//! request or stream outlives the session.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use tokio::sync::Notify;

use super::*;

/// What a server saw, in order.
type Seen = Arc<Mutex<Vec<String>>>;

fn answer(id: &Value) -> Response {
    axum::Json(json!({"jsonrpc": "2.0", "id": id, "result": {}})).into_response()
}

/// Answers `notifications/initialized` slowly, recording when it started and finished.
async fn slow_initialized(State(seen): State<Seen>, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    let method = msg["method"].as_str().unwrap_or("").to_owned();
    if method == "notifications/initialized" {
        seen.lock().unwrap().push("initialized: start".into());
        // Long enough for a `tools/list` sent at once to overtake it, were it allowed to.
        tokio::time::sleep(Duration::from_millis(500)).await;
        seen.lock().unwrap().push("initialized: done".into());
        return StatusCode::ACCEPTED.into_response();
    }
    seen.lock().unwrap().push(method);
    answer(&msg["id"])
}

#[tokio::test]
async fn initialized_reaches_the_server_before_the_next_request() {
    let seen = Seen::default();
    let base = serve_app(Router::new().route("/mcp", post(slow_initialized)).with_state(seen.clone())).await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, Tuning::default());
    up.send(request(1, "initialize")).unwrap();
    assert!(next(&mut rx).await.contains(r#""id":1"#));
    up.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into()).unwrap();
    up.send(request(2, "tools/list")).unwrap();
    assert!(next(&mut rx).await.contains(r#""id":2"#));
    assert_eq!(*seen.lock().unwrap(), ["initialize", "initialized: start", "initialized: done", "tools/list"]);
    up.shutdown().await;
}

/// Holds `tools/call` until its cancellation arrived.
async fn cancellable(State(cancelled): State<Arc<Notify>>, body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    match msg["method"].as_str() {
        Some("tools/call") => {
            cancelled.notified().await;
            answer(&msg["id"])
        }
        Some("notifications/cancelled") => {
            cancelled.notify_one();
            StatusCode::ACCEPTED.into_response()
        }
        _ => answer(&msg["id"]),
    }
}

#[tokio::test]
async fn a_slow_request_does_not_hold_its_cancellation() {
    let base = serve_app(Router::new().route("/mcp", post(cancellable)).with_state(Arc::new(Notify::new()))).await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, Tuning::default());
    up.send(request(1, "tools/call")).unwrap();
    up.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#.into()).unwrap();
    // Were every POST awaited in turn, the call would wait for a cancellation never sent.
    assert!(next(&mut rx).await.contains(r#""id":1"#));
    up.shutdown().await;
}

/// A Streamable HTTP server with a GET stream that says when it opened and when it closed.
#[derive(Clone)]
struct Streams {
    opened: mpsc::Sender<()>,
    closed: Arc<Mutex<Option<OnDrop>>>,
}

async fn with_get_stream(State(s): State<Streams>) -> Response {
    let guard = s.closed.lock().unwrap().take().expect("one GET stream");
    let _ = s.opened.send(()).await;
    open_sse(": open\n\n".into(), guard)
}

async fn session_server(body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    if msg["method"] == "initialize" {
        let result = json!({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-06-18"}});
        return ([(SESSION_HEADER, "s-9")], axum::Json(result)).into_response();
    }
    if msg.get("id").is_some() { answer(&msg["id"]) } else { StatusCode::ACCEPTED.into_response() }
}

/// A session server whose GET stream says when it opened and when it closed; its URL.
async fn get_stream_server() -> (String, mpsc::Receiver<()>, oneshot::Receiver<()>) {
    let (opened, is_open) = mpsc::channel(1);
    let (guard, closed) = OnDrop::new();
    let streams = Streams { opened, closed: Arc::new(Mutex::new(Some(guard))) };
    let app = Router::new()
        .route("/mcp", post(session_server).get(with_get_stream).delete(|| async { StatusCode::NO_CONTENT }))
        .with_state(streams);
    (format!("{}/mcp", serve_app(app).await), is_open, closed)
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

#[tokio::test]
async fn the_get_stream_ends_with_the_session() {
    let (url, mut is_open, closed) = get_stream_server().await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let up = start(Mode::Http, &url, tx, Tuning::default());
    up.send(request(1, "initialize")).unwrap();
    next(&mut rx).await;
    up.send(INITIALIZED.into()).unwrap();
    tokio::time::timeout(SAFETY, is_open.recv()).await.expect("the GET stream opened");
    up.shutdown().await;
    tokio::time::timeout(SAFETY, closed).await.expect("the GET stream was closed with the session").unwrap();
}

#[tokio::test]
async fn shutdown_aborts_an_actor_stuck_past_its_grace() {
    let (url, mut is_open, closed) = get_stream_server().await;
    // Room for one event, and after `initialize` nobody reads.
    let (tx, mut rx) = crate::upstream::queue::bounded(1, 1 << 30);
    let tuning = Tuning { grace: Duration::from_millis(200), ..Tuning::default() };
    let up = start(Mode::Http, &url, tx, tuning);
    up.send(request(1, "initialize")).unwrap();
    next(&mut rx).await;
    // `Written` of `initialized` fills the channel; once it is accepted the actor opens the
    // GET stream and blocks on `Written` of `tools/list`, where it cannot see the stop.
    // (The test runtime has one thread: the GET reaches the server only once it blocked.)
    up.send(INITIALIZED.into()).unwrap();
    up.send(request(2, "tools/list")).unwrap();
    tokio::time::timeout(SAFETY, is_open.recv()).await.expect("the GET stream opened");
    tokio::time::timeout(SAFETY, up.shutdown()).await.expect("shutdown returned");
    tokio::time::timeout(SAFETY, closed).await.expect("the GET stream was closed with the actor").unwrap();
}

/// A probe the server never answers; it says when the probe came and when it was given up.
#[derive(Clone)]
struct Stuck {
    arrived: mpsc::Sender<()>,
    gone: Arc<Mutex<Option<OnDrop>>>,
}

async fn never_answers(State(s): State<Stuck>) -> Response {
    let _guard = s.gone.lock().unwrap().take();
    let _ = s.arrived.send(()).await;
    std::future::pending().await
}

#[tokio::test]
async fn stop_during_detection_is_obeyed_at_once() {
    for how in ["shutdown", "drop"] {
        let (guard, gone) = OnDrop::new();
        let (arrived, mut has_arrived) = mpsc::channel(1);
        let stuck = Stuck { arrived, gone: Arc::new(Mutex::new(Some(guard))) };
        let base = serve_app(Router::new().route("/mcp", post(never_answers)).with_state(stuck)).await;
        let (tx, _rx) = crate::upstream::queue::bounded(64, 1 << 30);
        // A grace far past the safety bound: only a stop seen at once returns in time.
        let tuning = Tuning { grace: Duration::from_secs(600), ..Tuning::default() };
        let up = start(Mode::Auto, &format!("{base}/mcp"), tx, tuning);
        up.send(request(1, "initialize")).unwrap();
        up.send(request(2, "tools/list")).unwrap();
        tokio::time::timeout(SAFETY, has_arrived.recv()).await.expect("the probe arrived");
        if how == "shutdown" {
            tokio::time::timeout(SAFETY, up.shutdown()).await.expect("shutdown returned at once");
        } else {
            drop(up);
        }
        tokio::time::timeout(SAFETY, gone).await.expect("the probe ended").unwrap();
    }
}

#[tokio::test]
async fn a_held_queue_says_backlog_instead_of_growing() {
    let (guard, _gone) = OnDrop::new();
    let (arrived, mut has_arrived) = mpsc::channel(1);
    let stuck = Stuck { arrived, gone: Arc::new(Mutex::new(Some(guard))) };
    let base = serve_app(Router::new().route("/mcp", post(never_answers)).with_state(stuck)).await;
    let (tx, _rx) = crate::upstream::queue::bounded(1 << 12, 1 << 30);
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, Tuning::default());
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message"}"#;
    up.send(note.into()).unwrap();
    tokio::time::timeout(SAFETY, has_arrived.recv()).await.expect("the first POST arrived");
    // The server never answers it, so every later frame waits; the actor gets every chance
    // to take frames off the channel, and must not hoard them.
    let mut accepted = 0;
    let refused = loop {
        match up.send(note.into()) {
            Ok(()) => accepted += 1,
            Err(e) => break e,
        }
        for _ in 0..4 {
            tokio::task::yield_now().await;
        }
        assert!(accepted <= 10 * FRAMES_AHEAD, "never refused");
    };
    assert!(matches!(refused, SendError::Backlog), "{refused:?}");
    assert!(accepted <= FRAMES_AHEAD + 1, "{accepted} frames accepted while the queue was held");
    tokio::time::timeout(SAFETY, up.shutdown()).await.expect("shutdown returned");
}

/// Never gives a status for `notifications/initialized`; answers everything else.
async fn mute_on_notifications(body: String) -> Response {
    let msg: Value = serde_json::from_str(&body).unwrap();
    if msg.get("id").is_none() {
        std::future::pending::<()>().await;
    }
    answer(&msg["id"])
}

#[tokio::test]
async fn a_notification_without_a_status_holds_the_rest_only_for_a_while() {
    let base = serve_app(Router::new().route("/mcp", post(mute_on_notifications))).await;
    let (tx, mut rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let tuning = Tuning { hold: Duration::from_millis(300), ..Tuning::default() };
    let up = start(Mode::Http, &format!("{base}/mcp"), tx, tuning);
    up.send(request(1, "initialize")).unwrap();
    assert!(next(&mut rx).await.contains(r#""id":1"#));
    up.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into()).unwrap();
    up.send(request(2, "tools/list")).unwrap();
    let note = next(&mut rx).await;
    assert!(note.contains("gave no HTTP status for a message within 300 ms"), "{note}");
    // Without the bound the list would wait for ever behind the mute notification.
    assert!(next(&mut rx).await.contains(r#""id":2"#));
    up.shutdown().await;
}
