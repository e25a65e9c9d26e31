//! The relay under load: 32 sessions at once, each on its own stdio server, each with 1,000
//! calls in flight a window at a time. Every answer must reach its own session with its own
//! id and content, exactly once; the relay's memory must stay flat; and once the sockets
//! close, no server is left.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};
use tests::procs::descendants;
use tests::relay::Session;
use tests::{Playground, eventually, say};

const SESSIONS: usize = 32;
const CALLS: u64 = 1_000;
const WARM_UP_CALLS: u64 = 200;
/// Calls in flight per session: pipelined, but bounded so that the warm-up reaches the
/// same peak of queued frames as the measured round (a memory check needs the same shape).
const WINDOW: u64 = 100;
/// Padding in every argument, so that a relay that kept each frame would show: 32,000
/// calls × (the frame out, its echo to the page, the answer in) × 1 KiB is about 94 MiB,
/// past the bound below.
const PAD: usize = 1024;
/// How much the relay's resident memory may grow over the measured round. Generous: the
/// allocator keeps freed pages, buffers grow to their peak once. A leak of every frame
/// would exceed it (see [`PAD`]).
const MAX_GROWTH_KIB: u64 = 64 * 1024;

/// The relay's resident set size, in KiB.
fn rss_kib(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).context("no VmRSS")?;
    line.split_whitespace().nth(1).context("no number")?.parse().context("VmRSS")
}

/// What call `call` of session `session` sends, and so must get back.
fn words(session: usize, call: u64) -> String {
    format!("s{session}-c{call}-{}", "x".repeat(PAD))
}

fn echo_call(session: usize, id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "echo", "arguments": {"text": words(session, id)}}})
    .to_string()
}

/// Calls `echo` with ids `ids` on one session, `WINDOW` at most in flight, and checks that
/// each answer is for an id asked and not yet answered, with this session's words.
async fn round(mut s: Session, session: usize, ids: std::ops::Range<u64>) -> Result<Session> {
    let mut next = ids.start;
    let mut answered = BTreeSet::new();
    let total = ids.end - ids.start;
    while (answered.len() as u64) < total {
        let in_flight = next - ids.start - answered.len() as u64;
        if next < ids.end && in_flight <= WINDOW / 2 {
            let upto = (next + WINDOW - in_flight).min(ids.end);
            let frames: Vec<String> = (next..upto).map(|id| echo_call(session, id)).collect();
            s.tx.frames(&frames).await?;
            next = upto;
        }
        let frame: Value = s.rx.next_in().await?;
        let id =
            frame["id"].as_u64().with_context(|| format!("session {session}: an answer without our id: {frame}"))?;
        ensure!(ids.contains(&id) && id < next, "session {session}: an answer to {id}, never asked here");
        ensure!(answered.insert(id), "session {session}: a second answer to {id}");
        let text = frame["result"]["content"][0]["text"].as_str().unwrap_or_default();
        if text != words(session, id) {
            bail!("session {session}: the answer to {id} is {:?}…", text.get(..40).unwrap_or(text));
        }
    }
    Ok(s)
}

/// Runs a round on every session at once.
async fn all_at_once(sessions: Vec<Session>, ids: std::ops::Range<u64>) -> Result<Vec<Session>> {
    let tasks: Vec<_> = sessions.into_iter().enumerate().map(|(i, s)| tokio::spawn(round(s, i, ids.clone()))).collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await??);
    }
    Ok(out)
}

#[tokio::test]
async fn thirty_two_sessions_of_a_thousand_calls_each_get_every_answer_right() -> Result<()> {
    let pg = Playground::start(&[])?;
    let script = tests::root().join("tests/servers/hostile.py").to_string_lossy().into_owned();
    let target = json!({"transport": "stdio", "command": "python3", "args": [script, "echo"]});
    let starts: Vec<_> = (0..SESSIONS).map(|_| Session::start(&pg, target.clone())).collect();
    let mut sessions = Vec::new();
    for s in futures_util::future::join_all(starts).await {
        sessions.push(s?);
    }
    ensure!(descendants(pg.pid()).len() >= SESSIONS, "a server per session");

    // Ids of the warm-up and of the measured round differ, so a late answer would be caught.
    let sessions = all_at_once(sessions, 1_000_000..1_000_000 + WARM_UP_CALLS).await?;
    let before = rss_kib(pg.pid())?;
    let started = Instant::now();
    let mut sessions = all_at_once(sessions, 1..CALLS + 1).await?;
    let took = started.elapsed();
    let after = rss_kib(pg.pid())?;

    // Nothing late: the next frame on every session answers one more call.
    for (i, s) in sessions.iter_mut().enumerate() {
        s.tx.frame(&echo_call(i, 0)).await?;
        let frame =
            tokio::time::timeout(Duration::from_secs(30), s.rx.next_in()).await.context("the last answer")??;
        ensure!(frame["id"] == 0, "session {i}: a frame after the round that answers nothing asked: {frame}");
    }

    let calls = (SESSIONS as u64 * CALLS) as f64;
    say(&format!(
        "load: {SESSIONS} sessions × {CALLS} calls ({PAD} B padding) in {:.2} s, {:.0} calls/s; \
         relay RSS {} MiB after warm-up, {} MiB after",
        took.as_secs_f64(),
        calls / took.as_secs_f64(),
        before / 1024,
        after / 1024
    ));
    ensure!(
        after.saturating_sub(before) < MAX_GROWTH_KIB,
        "relay RSS grew from {before} KiB to {after} KiB over {calls} calls"
    );

    drop(sessions);
    eventually(Duration::from_secs(15), "every server to end", || async {
        Ok(descendants(pg.pid()).is_empty().then_some(()))
    })
    .await?;
    Ok(())
}
