//! The stdio transport against real processes: framing both ways, events, and shutdown.

use std::time::Duration;

use super::*;

const LIMITS: Limits = Limits { max_message_bytes: 4096, max_stderr_line_bytes: 64 };

fn sh(script: &str) -> (StdioUpstream, crate::upstream::EventReceiver) {
    let (tx, rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let (up, spawned) =
        StdioUpstream::start("sh", &["-c".into(), script.into()], &BTreeMap::new(), None, LIMITS, tx).unwrap();
    assert!(matches!(spawned, RelayEvent::Spawned { pid: Some(p), .. } if p == up.pid()));
    (up, rx)
}

async fn collect_until_exit(rx: &mut crate::upstream::EventReceiver) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let ev =
            tokio::time::timeout(Duration::from_secs(10), rx.recv_item()).await.expect("event in time").expect("open");
        let line = match ev {
            UpstreamEvent::Frame { frame, .. } => format!("frame {frame}"),
            UpstreamEvent::Written { frame, .. } => format!("written {frame}"),
            UpstreamEvent::Relay { event, .. } => serde_json::to_string(&event).unwrap(),
            UpstreamEvent::Ended { reason } => format!("ended {reason}"),
        };
        let done = line.contains("\"exited\"");
        out.push(line);
        if done {
            return out;
        }
    }
}

pub(crate) fn alive(pid: u32) -> bool {
    // A zombie is dead; whoever reaps it is not our concern.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

#[tokio::test]
async fn frames_pass_unchanged_and_the_rest_becomes_events() {
    let (up, mut rx) = sh(
        r#"read -r line; printf "%s\n" "$line"; echo 'hello, not json'; printf '%s\n' '{"jsonrpc":"2.0", "method":"n"}'; echo oops >&2; exit 3"#,
    );
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"é \u00e9"}}"#;
    up.send(frame.to_owned()).unwrap();
    let events = collect_until_exit(&mut rx).await;
    let stdout: Vec<&String> = events.iter().filter(|e| !e.contains("stderr")).collect();
    assert_eq!(stdout[0], &format!("written {frame}"));
    assert_eq!(stdout[1], &format!("frame {frame}"));
    assert_eq!(
        stdout[2],
        r#"{"kind":"invalid_frame","preview":"hello, not json","size":15,"error":"not JSON: expected value at line 1 column 1"}"#
    );
    assert_eq!(stdout[3], r#"frame {"jsonrpc":"2.0", "method":"n"}"#);
    assert_eq!(stdout[4], r#"{"kind":"exited","code":3,"signal":null}"#);
    assert!(events.contains(&r#"{"kind":"stderr","line":"oops","truncated":false}"#.to_owned()));
}

#[tokio::test]
async fn oversized_lines_are_dropped_and_said() {
    let (_up, mut rx) =
        sh("head -c 5000 /dev/zero | tr '\\0' x; echo; head -c 100 /dev/zero | tr '\\0' e >&2; echo >&2");
    let events = collect_until_exit(&mut rx).await;
    assert!(
        events.contains(&r#"{"kind":"oversized","direction":"in","size":5000,"limit":4096}"#.to_owned()),
        "{events:?}"
    );
    let stderr = events.iter().find(|e| e.contains("stderr")).unwrap();
    assert!(
        stderr.contains(&"e".repeat(64)) && !stderr.contains(&"e".repeat(65)) && stderr.contains("\"truncated\":true")
    );
}

#[tokio::test]
async fn an_oversized_answer_fails_its_call_at_once() {
    let (_up, mut rx) =
        sh(r#"printf '{"jsonrpc":"2.0","id":12,"result":{"text":"'; head -c 5000 /dev/zero | tr '\0' x; echo '"}}'"#);
    let events = collect_until_exit(&mut rx).await;
    assert_eq!(
        events[..2],
        [
            r#"{"kind":"oversized","direction":"in","size":5046,"limit":4096}"#,
            r#"{"kind":"request_failed","id":12,"message":"the answer of 5046 bytes is over the limit of 4096 bytes"}"#
        ],
        "{events:?}"
    );
}

#[tokio::test]
async fn bad_frames_from_the_page_are_refused() {
    let (up, _rx) = sh("sleep 5");
    assert!(matches!(up.send("{\"a\":\n1}".into()), Err(SendError::Invalid(m)) if m.contains("line break")));
    assert!(matches!(up.send("{nope".into()), Err(SendError::Invalid(_))));
    assert!(matches!(up.send("x".repeat(5000)), Err(SendError::Oversized { size: 5000, limit: 4096 })));
    up.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_a_server_that_ignores_stdin_and_sigterm() {
    let (up, mut rx) = sh(
        r#"trap '' TERM; sleep 300 & echo "{\"jsonrpc\":\"2.0\",\"method\":\"pid\",\"params\":$!}"; while true; do sleep 0.2; done"#,
    );
    let grandchild = loop {
        if let Some(UpstreamEvent::Frame { frame, .. }) = rx.recv_item().await {
            let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
            break v["params"].as_u64().unwrap() as u32;
        }
    };
    let pid = up.pid();
    assert!(alive(pid) && alive(grandchild));
    let started = std::time::Instant::now();
    up.shutdown().await;
    assert!(started.elapsed() < Duration::from_secs(10));
    for _ in 0..50 {
        if !alive(pid) && !alive(grandchild) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server {pid} or its child {grandchild} outlived shutdown");
}

#[tokio::test]
async fn dropping_the_upstream_kills_the_whole_group() {
    let (up, mut rx) = sh(r#"sleep 300 & echo "{\"jsonrpc\":\"2.0\",\"method\":\"pid\",\"params\":$!}"; wait"#);
    let grandchild = loop {
        if let Some(UpstreamEvent::Frame { frame, .. }) = rx.recv_item().await {
            let v: serde_json::Value = serde_json::from_str(&frame).unwrap();
            break v["params"].as_u64().unwrap() as u32;
        }
    };
    let pid = up.pid();
    drop(up);
    for _ in 0..50 {
        if !alive(pid) && !alive(grandchild) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server {pid} or its child {grandchild} outlived its guard");
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_daemon_that_left_the_group_ends_with_its_server() {
    use crate::upstream::process::tests::{carrying, daemon, detaching_server, eventually, unique_marker};
    let marker = unique_marker("shutdown");
    let (tx, _rx) = crate::upstream::queue::bounded(64, 1 << 30);
    let (up, _) = StdioUpstream::start("sh", &detaching_server(&marker), &BTreeMap::new(), None, LIMITS, tx).unwrap();
    eventually("the daemon to start", || !carrying(&daemon(&marker)).is_empty()).await;
    // The server (`cat`) exits as its stdin closes: what it left running goes with it.
    up.shutdown().await;
    eventually("the daemon to be killed", || carrying(&marker).is_empty()).await;
}

#[test]
fn blank_lines_are_skipped_and_non_utf8_reported() {
    assert_eq!(classify_line(b"   ".to_vec(), 3, 10), None);
    let bad = classify_line(vec![0xff, 0xfe], 2, 10).unwrap().unwrap_err();
    assert!(matches!(bad, RelayEvent::InvalidFrame { error, .. } if error == "not UTF-8"));
}
