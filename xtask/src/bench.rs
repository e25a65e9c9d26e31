//! `cargo xtask bench`: figures that matter to users, measured in real Chromium against
//! the real relay, printed (never asserted): a timeline of 100,000 messages, how long it
//! takes to show them and the longest frame while scrolling through them.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;
use tests::{Browser, Playground};

use crate::util::{root, say};

const MESSAGES: usize = 100_000;

/// Scrolls the timeline from top to bottom over `steps` animation frames and returns the
/// frame intervals in milliseconds.
const SCROLL_SCRIPT: &str = r#"
const done = arguments[arguments.length - 1];
const el = document.querySelector('[data-testid=timeline]');
const steps = 240;
const frames = [];
let last = performance.now();
let i = 0;
el.scrollTop = 0;
function step(now) {
  frames.push(now - last);
  last = now;
  el.scrollTop = (el.scrollHeight - el.clientHeight) * (i / steps);
  el.dispatchEvent(new Event('scroll'));
  if (++i <= steps) { requestAnimationFrame(step); } else { done(frames); }
}
requestAnimationFrame(step);
"#;

pub fn run() -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(timeline())
}

async fn timeline() -> Result<()> {
    let flood = root().join("tests/servers/flood.py");
    let count = MESSAGES.to_string();
    let bin = root().join("target/release/mcp-playground");
    let pg = Playground::start_bin(bin, &["python3", &flood.to_string_lossy(), &count])?;
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    b.id("connect-transport").await?;
    let started = Instant::now();
    b.id("connect-button").await?.click().await?;
    let want = MESSAGES + 5;
    let shown = loop {
        let n = b
            .client
            .execute("return Number(document.querySelector('.timeline-panel .count').textContent)", vec![])
            .await?
            .as_u64()
            .unwrap_or(0) as usize;
        if n >= want {
            break started.elapsed();
        }
        if started.elapsed() > Duration::from_secs(600) {
            bail!("only {n} of {want} rows after 10 minutes");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let in_dom = b.all("[data-testid=timeline-row]").await?.len();
    let frames = b.client.execute_async(SCROLL_SCRIPT, vec![]).await?;
    let mut frames: Vec<f64> =
        frames.as_array().context("frame list")?.iter().filter_map(Value::as_f64).skip(1).collect();
    frames.sort_by(f64::total_cmp);
    let p = |q: f64| frames[((frames.len() - 1) as f64 * q) as usize];
    say(&format!("timeline: {MESSAGES} messages from a real stdio server shown in {:.1} s", shown.as_secs_f64()));
    say(&format!("timeline: {in_dom} rows in the page at once (windowed)"));
    say(&format!(
        "timeline: scrolling end to end over {} frames: median {:.1} ms, p95 {:.1} ms, longest {:.1} ms",
        frames.len(),
        p(0.5),
        p(0.95),
        frames.last().copied().unwrap_or(0.0)
    ));
    b.close().await?;
    Ok(())
}
