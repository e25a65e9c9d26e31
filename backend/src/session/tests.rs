//! The session actor driven through channels in place of a WebSocket, with real processes.

use std::time::Duration;

use futures_util::{sink, stream};
use serde_json::{Value, json};
use tokio::sync::mpsc as tmpsc;

use super::*;
use crate::upstream::stdio::tests::alive;

struct Page {
    to_relay: Option<tmpsc::Sender<String>>,
    from_relay: tmpsc::Receiver<String>,
    /// Messages of a burst not read yet.
    unread: std::collections::VecDeque<String>,
    task: tokio::task::JoinHandle<()>,
    _shutdown: watch::Sender<bool>,
}

fn start() -> Page {
    start_recording(None)
}

fn start_recording(record_dir: Option<std::path::PathBuf>) -> Page {
    start_with(record_dir, 256)
}

/// A page whose socket holds at most `socket` messages it has not read.
fn start_with(record_dir: Option<std::path::PathBuf>, socket: usize) -> Page {
    start_full(record_dir, socket, crate::secrets::SecretStore::at(None))
}

fn start_full(record_dir: Option<std::path::PathBuf>, socket: usize, secrets: crate::secrets::SecretStore) -> Page {
    let (to_relay, relay_in) = tmpsc::channel::<String>(16);
    let (relay_out, from_relay) = tmpsc::channel::<String>(socket);
    let rx = Box::pin(stream::unfold(relay_in, |mut r| async move { r.recv().await.map(|m| (m, r)) }));
    let tx = Box::pin(sink::unfold(relay_out, |s, m: String| async move {
        s.send(m).await.map_err(|_| ())?;
        Ok::<_, ()>(s)
    }));
    let config = Arc::new(SessionConfig {
        preset_oauth: Default::default(),
        auth: Arc::new(crate::auth::Hub::for_relay(
            "http://127.0.0.1:1/oauth/callback".into(),
            crate::auth::store::Store::in_memory(),
        )),
        preset: Target::Demo,
        preset_protocol: Default::default(),
        servers: Vec::new(),
        config: None,
        limits: Limits { max_message_bytes: 1 << 20, max_stderr_line_bytes: 1024 },
        demo_command: ("true".into(), vec![]),
        record_dir,
        playback: false,
        inherit_env: Default::default(),
        secrets: Arc::new(secrets),
        sandbox: None,
    });
    let (shutdown_tx, shutdown) = watch::channel(false);
    let task = tokio::spawn(run(tx, rx, config, shutdown));
    Page { to_relay: Some(to_relay), from_relay, unread: Default::default(), task, _shutdown: shutdown_tx }
}

impl Page {
    async fn send(&self, msg: Value) {
        self.to_relay.as_ref().unwrap().send(msg.to_string()).await.unwrap();
    }

    async fn next(&mut self) -> Value {
        while self.unread.is_empty() {
            let text = tokio::time::timeout(Duration::from_secs(10), self.from_relay.recv())
                .await
                .expect("a relay message in time")
                .expect("relay still talking");
            self.unread.extend(shared::relay::split_burst(&text).expect("a message or a burst"));
        }
        serde_json::from_str(&self.unread.pop_front().unwrap()).unwrap()
    }

    /// Reads until a message matches, returning everything read.
    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let m = self.next().await;
            let done = pred(&m);
            seen.push(m);
            if done {
                return seen;
            }
        }
    }
}

fn is_event(kind: &str) -> impl Fn(&Value) -> bool + '_ {
    move |m| m["type"] == "event" && m["event"]["kind"] == kind
}

async fn connect_sh(page: &mut Page, script: &str) -> u32 {
    page.send(json!({"type": "connect", "target": {"transport": "stdio", "command": "sh", "args": ["-c", script]}}))
        .await;
    let spawned = page.until(is_event("spawned")).await.pop().unwrap();
    spawned["event"]["pid"].as_u64().unwrap() as u32
}

async fn gone(pid: u32) -> bool {
    for _ in 0..50 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn a_flood_of_server_lines_comes_in_bursts_in_order() {
    let mut page = start();
    page.next().await;
    // 500 lines written at once, after the page is ready for them.
    connect_sh(&mut page, r#"read -r l; i=0; while [ $i -lt 500 ]; do printf '{"jsonrpc":"2.0","method":"n","params":{"i":%d}}\n' $i; i=$((i+1)); done; sleep 5"#).await;
    page.send(json!({"type": "send", "frame": "{}"})).await;
    let (mut socket_messages, mut seen) = (0, Vec::new());
    while seen.len() < 500 {
        // Straight off the socket, as a browser gets them.
        let text = tokio::time::timeout(Duration::from_secs(10), page.from_relay.recv()).await.unwrap().unwrap();
        socket_messages += 1;
        for m in shared::relay::split_burst(&text).unwrap() {
            let v: Value = serde_json::from_str(&m).unwrap();
            if v["direction"] == "in" {
                let frame: Value = serde_json::from_str(v["frame"].as_str().unwrap()).unwrap();
                seen.push(frame["params"]["i"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(seen, (0..500).collect::<Vec<_>>(), "every line, in order");
    // One socket message per burst: far fewer than lines (the relay takes up to 64 lines a turn).
    assert!(socket_messages <= 250, "{socket_messages} socket messages for 500 lines");
}

#[tokio::test]
async fn relays_frames_both_ways_and_disconnect_ends_the_server() {
    let mut page = start();
    let hello = page.next().await;
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["preset"], json!({"transport": "demo"}));
    let pid = connect_sh(&mut page, r#"while read -r l; do printf '%s\n' "$l"; done"#).await;
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    page.send(json!({"type": "send", "frame": frame})).await;
    // The page's own frame is stamped, not echoed: its number on the socket, when, its size.
    let out = page.next().await;
    assert_eq!((out["type"].as_str(), out["n"].as_u64(), out["size"].as_u64()), (Some("sent"), Some(0), Some(40)));
    assert!(out["at_ms"].as_f64().is_some() && out.get("frame").is_none(), "{out}");
    let back = page.next().await;
    assert_eq!((back["direction"].as_str(), back["frame"].as_str()), (Some("in"), Some(frame)));
    assert!(back["at_ms"].as_f64().unwrap() >= out["at_ms"].as_f64().unwrap());

    page.send(json!({"type": "disconnect"})).await;
    let rest = page.until(is_event("closed")).await;
    assert!(rest.iter().any(is_event("exited")), "{rest:?}");
    assert_eq!(rest.last().unwrap()["event"]["reason"], "disconnected");
    assert!(gone(pid).await, "server outlived disconnect");

    // The socket stays usable: a second server on the same session.
    let pid2 = connect_sh(&mut page, "sleep 30").await;
    assert_ne!(pid, pid2);
    page.to_relay = None; // the page goes away
    tokio::time::timeout(Duration::from_secs(10), page.task).await.unwrap().unwrap();
    assert!(gone(pid2).await, "server outlived its socket");
}

#[tokio::test]
async fn bad_input_gets_clear_errors_and_the_session_goes_on() {
    let mut page = start();
    page.next().await;
    page.send(json!({"type": "launch"})).await;
    let e = page.next().await;
    assert!(e["event"]["message"].as_str().unwrap().starts_with("unreadable message from the page"), "{e}");
    page.send(json!({"type": "send", "frame": "{}"})).await;
    assert_eq!(page.next().await["event"]["message"], "not connected: the message was not sent");
    page.send(json!({"type": "connect", "target": {"transport": "stdio", "command": "/nonexistent/server"}})).await;
    let e = page.next().await;
    assert!(e["event"]["message"].as_str().unwrap().contains("could not start \"/nonexistent/server\""), "{e}");
    assert_eq!(page.next().await["event"]["kind"], "closed");

    connect_sh(&mut page, "sleep 30").await;
    page.send(json!({"type": "connect", "target": {"transport": "demo"}})).await;
    assert_eq!(page.next().await["event"]["message"], "already connected: disconnect first");
    page.send(json!({"type": "send", "frame": "{\"broken\""})).await;
    assert!(page.next().await["event"]["message"].as_str().unwrap().starts_with("not a JSON-RPC message"));
}

#[tokio::test]
async fn a_server_that_exits_closes_the_upstream() {
    let mut page = start();
    page.next().await;
    connect_sh(&mut page, "echo bye >&2; exit 7").await;
    let rest = page.until(is_event("closed")).await;
    let exited = rest.iter().find(|m| is_event("exited")(m)).unwrap();
    assert_eq!(exited["event"]["code"], 7);
    assert_eq!(rest.last().unwrap()["event"]["reason"], "the server exited");
}

#[tokio::test]
async fn with_record_dir_each_connection_is_a_file_of_what_the_page_saw() {
    let dir = std::env::temp_dir().join(format!("mcp-playground-session-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut page = start_recording(Some(dir.clone()));
    assert_eq!(page.next().await["recording"], true);
    let echo = r#"while read -r l; do printf '%s\n' "$l"; done"#;
    let target = json!({"transport": "stdio", "command": "sh", "args": ["-c", echo], "env": {"SECRET": "hush-123"}});
    page.send(json!({"type": "connect", "target": target})).await;
    let mut seen = page.until(is_event("spawned")).await;
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    page.send(json!({"type": "send", "frame": frame})).await;
    seen.extend(page.until(|m| m["direction"] == "in").await);
    page.send(json!({"type": "disconnect"})).await;
    seen.extend(page.until(is_event("closed")).await);

    // A failed start is a connection too; the page leaving ends the third one.
    page.send(json!({"type": "connect", "target": {"transport": "stdio", "command": "/nonexistent/server"}})).await;
    page.until(is_event("closed")).await;
    connect_sh(&mut page, "sleep 30").await;
    page.to_relay = None;
    tokio::time::timeout(Duration::from_secs(10), page.task).await.unwrap().unwrap();

    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 3, "{files:?}");
    let texts: Vec<String> = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
    let first = texts.iter().find(|t| t.contains(r#""SECRET""#)).expect("the echo server's file");
    assert!(!first.contains("hush-123"), "an environment value reached the file: {first}");
    let recording = shared::recording::parse(first).unwrap();
    assert!(recording.problems.is_empty(), "{:?}", recording.problems);
    assert_eq!(recording.header.recorded_by, shared::recording::Recorder::Relay);
    let recorded: Vec<Value> =
        recording.entries.iter().filter_map(|e| serde_json::to_value(e.to_server_msg()?).ok()).collect();
    // What the page was told, its stamps made whole again with the frames it sent (the
    // only one here: the ping).
    let told: Vec<Value> = seen
        .into_iter()
        .map(|m| match m["type"].as_str() {
            Some("sent") => {
                json!({"type": "message", "direction": "out", "at_ms": m["at_ms"], "size": m["size"], "frame": frame})
            }
            _ => m,
        })
        .collect();
    assert_eq!(recorded, told, "the file holds exactly what the page was told");
    for text in &texts {
        let r = shared::recording::parse(text).unwrap();
        assert!(r.problems.is_empty(), "{text}");
        assert!(matches!(
            r.entries.last(),
            Some(shared::recording::Entry::Event { event: RelayEvent::Closed { .. } | RelayEvent::Spawned { .. }, .. })
        ));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_page_that_does_not_read_holds_its_server_back_by_bytes() {
    // Frames of ~1 MB: the old queue of 256 messages would have taken 256 MB of them.
    let dir = std::env::temp_dir().join(format!("mcp-playground-slow-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let count_file = dir.join("written");
    let script = format!(
        r#"import sys
line = '{{"jsonrpc":"2.0","method":"notifications/message","params":{{"data":"' + 'x' * 1000000 + '"}}}}\n'
n = 0
while True:
    sys.stdout.write(line)
    sys.stdout.flush()
    n += 1
    open({path:?}, "w").write(str(n))
"#,
        path = count_file.to_str().unwrap()
    );
    let mut page = start_with(None, 1);
    page.send(
        json!({"type": "connect", "target": {"transport": "stdio", "command": "python3", "args": ["-c", script]}}),
    )
    .await;
    page.until(is_event("spawned")).await;
    // From here on the page reads nothing. The server writes until the relay stops reading
    // it; wait until its count has not moved for a second.
    let written = || std::fs::read_to_string(&count_file).ok().and_then(|t| t.parse::<u64>().ok()).unwrap_or(0);
    let (mut last, mut still) = (written(), 0);
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = written();
        still = if now == last { still + 1 } else { 0 };
        last = now;
        if still >= 10 && now > 0 {
            break;
        }
    }
    assert!(still >= 10, "the server never stopped writing: {last} frames");
    // The byte budget (64 MiB) holds 67 frames; a pipe, the socket and one batch in hand a
    // few more. Bounded by count alone, the relay would have read 256 and more.
    assert!(last < 100, "the relay read {last} frames of 1 MB for a page that reads nothing");
    // Once the page reads again, everything comes, in order.
    let mut seen = 0;
    while seen < 150 {
        let m = page.next().await;
        if m["type"] == "message" {
            seen += 1;
        }
    }
    drop(page);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_saved_servers_secrets_are_kept_and_recalled_apart_from_the_connection() {
    let dir = std::env::temp_dir().join(format!("mcp-playground-session-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = crate::secrets::SecretStore::at(Some(dir.join("secrets.json")));
    let mut page = start_full(None, 256, store);
    page.next().await;
    let server = "stdio node s.js";
    page.send(json!({"type": "keep_secrets", "server": server, "secrets": {"env": {"API_KEY": "s3cret"}}})).await;
    page.send(json!({"type": "recall_secrets", "server": server})).await;
    let got = page.next().await;
    assert_eq!(got, json!({"type": "secrets", "server": server, "secrets": {"env": {"API_KEY": "s3cret"}}}));
    page.send(json!({"type": "recall_secrets", "server": "demo"})).await;
    assert_eq!(page.next().await, json!({"type": "secrets", "server": "demo", "secrets": {}}), "none kept");
    // A store with nowhere to write says so, and the session goes on.
    let mut page = start();
    page.next().await;
    page.send(json!({"type": "keep_secrets", "server": server, "secrets": {"env": {"A": "1"}}})).await;
    let said = page.next().await;
    assert_eq!(said["event"]["kind"], "error", "{said}");
    assert!(said["event"]["message"].as_str().unwrap().contains("nowhere to keep secrets"), "{said}");
    let _ = std::fs::remove_dir_all(dir);
}
