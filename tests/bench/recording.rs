//! Opening a large recording in the page: a generated file of echo calls (about 1 KB a
//! message), picked with `recording-import`. Measured: time until playback is ready, then
//! time to play it all as fast as possible, and the longest gap between animation frames
//! during each (the page must never freeze).

use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde_json::Value;
use tests::{Browser, Playground};

/// Counts the gaps between animation frames from now on (`window.__gaps`).
const FRAME_WATCH: &str = "window.__gaps = []; let last = performance.now(); \
    const f = t => { window.__gaps.push(t - last); last = t; requestAnimationFrame(f); }; requestAnimationFrame(f);";

pub struct RecordingRun {
    pub megabytes: f64,
    pub entries: usize,
    pub ready_s: f64,
    pub ready_longest_frame_ms: f64,
    pub played_s: f64,
    pub played_longest_frame_ms: f64,
}

/// Writes a recording of about `megabytes` MB: initialize, tools/list, then echo calls.
fn generate(path: &std::path::Path, megabytes: usize) -> Result<usize> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(
        out,
        r#"{{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"relay","relay_version":"bench","target":{{"transport":"demo"}},"protocol_version":"2025-06-18","server_info":{{"name":"bench","version":"1"}}}}"#
    )?;
    let line = |out: &mut std::io::BufWriter<std::fs::File>, t: usize, dir: &str, frame: &str| {
        writeln!(out, "{{\"t\":{t},\"dir\":\"{dir}\",\"frame\":{}}}", serde_json::to_string(frame).expect("a string"))
    };
    line(&mut out, 1, "out", r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)?;
    line(
        &mut out,
        2,
        "in",
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}"#,
    )?;
    line(&mut out, 3, "out", r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)?;
    line(
        &mut out,
        4,
        "in",
        r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"message":{"type":"string"}}}}]}}"#,
    )?;
    let text = "x".repeat(900);
    let mut written = 0;
    let mut entries = 4;
    let mut id = 3;
    while written < megabytes << 20 {
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"message":"{text}"}},"_meta":{{"progressToken":"call-{id}"}}}}}}"#
        );
        let answer =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"{text}"}}]}}}}"#);
        line(&mut out, 10 + id, "out", &call)?;
        line(&mut out, 11 + id, "in", &answer)?;
        written += call.len() + answer.len() + 80;
        entries += 2;
        id += 1;
    }
    out.flush()?;
    Ok(entries)
}

async fn longest_gap(b: &Browser) -> Result<f64> {
    let gaps = b.client.execute("const g = window.__gaps; window.__gaps = []; return g;", vec![]).await?;
    let gaps: Vec<f64> = gaps.as_array().into_iter().flatten().filter_map(Value::as_f64).collect();
    if std::env::var_os("BENCH_VERBOSE").is_some() {
        let mut top: Vec<(usize, f64)> = gaps.iter().copied().enumerate().collect();
        top.sort_by(|a, b| b.1.total_cmp(&a.1));
        tests::say(&format!("{} frames; longest (frame, ms): {:?}", gaps.len(), &top[..top.len().min(8)]));
    }
    Ok(gaps.into_iter().fold(0.0, f64::max))
}

async fn position(b: &Browser) -> Result<(usize, usize)> {
    let get = "const p = document.querySelector('[data-testid=replay-position]'); \
        return p ? [Number(p.dataset.index), Number(p.dataset.total)] : [0, 0];";
    let v = b.client.execute(get, vec![]).await?;
    let n = |i: usize| v.get(i).and_then(Value::as_u64).unwrap_or(0) as usize;
    Ok((n(0), n(1)))
}

/// Polls the playback position until `done` holds for it, or `limit` passes.
async fn wait_for(b: &Browser, done: impl Fn((usize, usize)) -> bool, limit: Duration, what: &str) -> Result<()> {
    let started = Instant::now();
    loop {
        let at = position(b).await?;
        if done(at) {
            return Ok(());
        }
        if started.elapsed() > limit {
            bail!("no {what} within {limit:?} (at {} of {})", at.0, at.1);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub async fn open_large(bin: &std::path::Path, megabytes: usize) -> Result<RecordingRun> {
    let file = std::env::temp_dir().join(format!("mcp-playground-bench-{megabytes}mb-{}.jsonl", std::process::id()));
    let entries = generate(&file, megabytes)?;
    let size = std::fs::metadata(&file)?.len() as f64 / f64::from(1 << 20);
    let pg = Playground::start_bin(bin.to_path_buf(), &[])?;
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    b.id("recording-import").await?;
    b.client.execute(FRAME_WATCH, vec![]).await?;
    let started = Instant::now();
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    wait_for(&b, |(_, total)| total == entries, Duration::from_secs(300), "the recording ready to play").await?;
    let ready_s = started.elapsed().as_secs_f64();
    let ready_longest_frame_ms = longest_gap(&b).await?;
    b.id("replay-speed").await?.select_by_value("max").await?;
    // BENCH_PROFILE=FILE: a DevTools CPU profile of the playing.
    let profile = std::env::var_os("BENCH_PROFILE");
    if profile.is_some() {
        b.cdp("Profiler.enable", serde_json::json!({})).await?;
        b.cdp("Profiler.setSamplingInterval", serde_json::json!({"interval": 250})).await?;
        b.cdp("Profiler.start", serde_json::json!({})).await?;
    }
    let started = Instant::now();
    b.id("replay-play").await?.click().await?;
    wait_for(&b, |(index, total)| index == total, Duration::from_secs(600), "the end of playback").await?;
    if let Some(file) = profile {
        let taken = b.cdp("Profiler.stop", serde_json::json!({})).await?;
        std::fs::write(file, taken["profile"].to_string())?;
    }
    let played_s = started.elapsed().as_secs_f64();
    let played_longest_frame_ms = longest_gap(&b).await?;
    b.close().await?;
    let _ = std::fs::remove_file(file);
    Ok(RecordingRun { megabytes: size, entries, ready_s, ready_longest_frame_ms, played_s, played_longest_frame_ms })
}
