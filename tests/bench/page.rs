//! What the page costs a person, measured in real Chromium: bytes on the wire and time
//! until the connect control shows (ours and the inspector's), filtering 10,000 tools, and
//! a timeline of 100,000 messages.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use tests::{Browser, Playground};

/// Neither page may reach the internet; the inspector's page asks for web fonts, which
/// would otherwise wait on a lookup that cannot succeed here.
pub const NO_INTERNET: &str =
    "--host-resolver-rules=MAP fonts.googleapis.com ~NOTFOUND, MAP fonts.gstatic.com ~NOTFOUND";

/// Installed in every new document before the page's own scripts: notes when `selector`
/// first matches (after the task that inserted it, as a person would first see it), and
/// when `later` does (a part drawn by code loaded on first use).
fn watch_script(selector: &str, later: Option<&str>) -> String {
    format!(
        r#"(() => {{
  const sel = {sel};
  const later = {later};
  const check = () => {{
    if (window.__shownAt === undefined && document.querySelector(sel)) window.__shownAt = performance.now();
    if (later && window.__laterAt === undefined && document.querySelector(later)) window.__laterAt = performance.now();
  }};
  new MutationObserver(check).observe(document, {{ childList: true, subtree: true }});
}})();"#,
        sel = serde_json::to_string(selector).unwrap_or_default(),
        later = serde_json::to_string(&later).unwrap_or_default()
    )
}

/// When the control appeared (ms after navigation started), the bytes fetched by then and
/// a second later (headers included, as on the wire), and when the later part appeared;
/// `null` until the control appeared.
const SHOWN_SCRIPT: &str = r#"
const done = arguments[arguments.length - 1];
if (window.__shownAt === undefined) { done(null); } else {
  setTimeout(() => {
    let total = 0, first = 0;
    for (const e of performance.getEntriesByType('navigation')) { total += e.transferSize; first += e.transferSize; }
    for (const e of performance.getEntriesByType('resource')) {
      total += e.transferSize;
      if (e.responseEnd <= window.__shownAt) first += e.transferSize;
    }
    const fetched = performance.getEntriesByType('resource').map(e => [e.name.split('/').pop().split('?')[0], Math.round(e.responseEnd)]);
    const n = performance.getEntriesByType('navigation')[0] || {};
    const nav = ['redirectEnd', 'requestStart', 'responseStart', 'responseEnd', 'domInteractive'].map(k => [k, Math.round(n[k] || 0)]);
    done({ at: window.__shownAt, bytes: total, first, later: window.__laterAt ?? null, fetched, nav });
  }, 1000);
}
"#;

/// One page load: ms to the control, bytes fetched (by then, and in all), ms to the part
/// drawn by code loaded on first use.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    pub ms: f64,
    pub bytes: f64,
    pub first_bytes: f64,
    pub later_ms: Option<f64>,
}

/// Loads `url` in `b` (started with an eager `goto`, watching for the control).
pub async fn load(b: &Browser, url: &str) -> Result<Load> {
    b.client.goto("about:blank").await?;
    b.client.goto(url).await?;
    let started = Instant::now();
    let out = loop {
        // Until the new document is the current one, this asks the old one.
        let href = b.client.execute("return location.href", vec![]).await?;
        if href.as_str().is_some_and(|h| h != "about:blank") {
            let out = b.client.execute_async(SHOWN_SCRIPT, vec![]).await?;
            if !out.is_null() {
                break out;
            }
        }
        if started.elapsed() > Duration::from_secs(30) {
            bail!("{url} showed no connect control within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let ms = out["at"].as_f64().context("no time")?;
    let bytes = out["bytes"].as_f64().context("no byte count")?;
    if std::env::var_os("BENCH_VERBOSE").is_some() {
        tests::say(&format!(
            "{url}: control at {ms:.0} ms; navigation {}; resources done at {}",
            out["nav"], out["fetched"]
        ));
    }
    let first_bytes = out["first"].as_f64().context("no first byte count")?;
    Ok(Load { ms, bytes, first_bytes, later_ms: out["later"].as_f64() })
}

/// A page to load: its control's selector, the selector of a part drawn by code loaded on
/// first use (if it has one), its URL.
pub type Page = (&'static str, Option<&'static str>, String);

/// `rounds` cold loads (a new browser profile each) and as many warm ones (the same
/// browser again, its cache filled), alternating between the pages so both see the same
/// machine. Returns, per page, (cold, warm).
pub async fn loads(pages: &[Page], rounds: usize) -> Result<Vec<(Vec<Load>, Vec<Load>)>> {
    let mut out = vec![(Vec::new(), Vec::new()); pages.len()];
    for _ in 0..rounds {
        for (i, (selector, later, url)) in pages.iter().enumerate() {
            let b = Browser::start_with(&[NO_INTERNET], true).await?;
            b.on_new_document(&watch_script(selector, *later)).await?;
            let cold = load(&b, url).await?;
            let warm = load(&b, url).await?;
            b.close().await?;
            out[i].0.push(cold);
            out[i].1.push(warm);
        }
    }
    Ok(out)
}

/// Done when the count says `wantText` and the items are drawn: all of them up to 2,000,
/// the first ones in view of a longer (windowed) list.
const FILTER_SCRIPT: &str = r#"
const [value, want, wantText] = arguments;
const done = arguments[arguments.length - 1];
const el = document.querySelector('[data-testid=tool-filter]');
const started = performance.now();
el.value = value;
el.dispatchEvent(new Event('input', { bubbles: true }));
function check() {
  const n = document.querySelectorAll('[data-testid=tool-item]').length;
  const text = (document.querySelector('[data-testid=tool-count]') || {}).textContent || '';
  const drawn = want > 2000 ? n > 0 : n === want;
  if (drawn && text.trim() === wantText) { requestAnimationFrame(() => done(performance.now() - started)); }
  else if (performance.now() - started > 60000) { done(-1); }
  else { requestAnimationFrame(check); }
}
check();
"#;

/// Filtering a list of `tools` tools: (ms to narrow it to one, ms to show all again).
pub async fn filter(bin: &std::path::Path, flood: &str, tools: usize, rounds: usize) -> Result<Vec<(f64, f64)>> {
    let count = tools.to_string();
    let pg = Playground::start_bin(bin.to_path_buf(), &["python3", flood, "0", "--tools", &count])?;
    let b = Browser::start().await?;
    // The page connects by itself.
    b.client.goto(&pg.url).await?;
    let started = Instant::now();
    loop {
        let script = "return (document.querySelector('[data-testid=tool-count]') || {}).textContent || ''";
        let n = b.client.execute(script, vec![]).await?;
        if n.as_str().map(str::trim) == Some(count.as_str()) {
            break;
        }
        if started.elapsed() > Duration::from_secs(300) {
            bail!("the page showed {n} of {tools} tools after 5 minutes");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut out = Vec::new();
    let one = format!("tool_{:05}", tools - 1);
    for _ in 0..rounds {
        let narrowed = format!("1 of {tools}");
        let narrow = b.client.execute_async(FILTER_SCRIPT, vec![json!(one), json!(1), json!(narrowed)]).await?;
        let widen = b.client.execute_async(FILTER_SCRIPT, vec![json!(""), json!(tools), json!(count)]).await?;
        out.push((narrow.as_f64().unwrap_or(-1.0), widen.as_f64().unwrap_or(-1.0)));
    }
    b.close().await?;
    Ok(out)
}

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

/// The timeline of `messages` notifications from a real stdio server.
pub struct TimelineRun {
    pub shown_s: f64,
    pub rows_in_dom: usize,
    /// Frame intervals while scrolling end to end, sorted, in ms.
    pub frames: Vec<f64>,
    /// The longest frame while the messages came in, in ms, and the rows shown after it.
    pub ingest_longest: (f64, usize),
    /// The longest frame around the switch to a windowed list (2,000 to 3,000 rows after it).
    pub switch_longest: f64,
}

/// Watches every animation frame from now on, with the timeline's row count after it
/// (`window.__frames`: [ms since the frame before, rows]).
const INGEST_WATCH: &str = "window.__frames = []; let last = performance.now(); \
    const f = t => { const c = document.querySelector('.timeline-panel .count'); \
    window.__frames.push([t - last, c ? Number(c.textContent) : 0]); last = t; \
    if (!window.__stop) requestAnimationFrame(f); }; requestAnimationFrame(f);";

pub async fn timeline(bin: &std::path::Path, flood: &str, messages: usize) -> Result<TimelineRun> {
    let count = messages.to_string();
    let pg = Playground::start_bin(bin.to_path_buf(), &["python3", flood, &count])?;
    let b = Browser::start().await?;
    // From the load: the page connects by itself.
    // BENCH_PROFILE=FILE: a DevTools CPU profile of the page from the load until all are shown.
    let profile = std::env::var_os("BENCH_PROFILE");
    if profile.is_some() {
        b.cdp("Profiler.enable", json!({})).await?;
        b.cdp("Profiler.setSamplingInterval", json!({"interval": 250})).await?;
        b.cdp("Profiler.start", json!({})).await?;
    }
    let verbose = std::env::var_os("BENCH_VERBOSE").is_some();
    if verbose {
        b.cdp("Performance.enable", json!({})).await?;
    }
    let started = Instant::now();
    b.client.goto(&pg.url).await?;
    b.client.execute(INGEST_WATCH, vec![]).await?;
    // initialize, initialized and tools/list both ways, besides the flood.
    let want = messages + 5;
    let shown = loop {
        let n = b
            .client
            .execute("return Number(document.querySelector('.timeline-panel .count')?.textContent ?? 0)", vec![])
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
    if verbose {
        // Where the main thread's time went (DevTools' own counters, seconds).
        let metrics = b.cdp("Performance.getMetrics", json!({})).await?;
        let said: Vec<String> = metrics["metrics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["name"].as_str().is_some_and(|n| n.ends_with("Duration") || n.ends_with("Count")))
            .map(|m| format!("{} {}", m["name"].as_str().unwrap_or(""), m["value"]))
            .collect();
        tests::say(&format!("while ingesting: {}", said.join(", ")));
    }
    if let Some(file) = profile {
        let taken = b.cdp("Profiler.stop", json!({})).await?;
        std::fs::write(file, taken["profile"].to_string())?;
    }
    let watched = b.client.execute("window.__stop = true; return window.__frames", vec![]).await?;
    let watched: Vec<(f64, usize)> = watched
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f.get(0)?.as_f64()?, f.get(1)?.as_u64()? as usize)))
        .collect();
    let ingest_longest = watched.iter().copied().fold((0.0, 0), |a, f| if f.0 > a.0 { f } else { a });
    let switch_longest = watched.iter().filter(|f| (2000..=3000).contains(&f.1)).map(|f| f.0).fold(0.0, f64::max);
    if std::env::var_os("BENCH_VERBOSE").is_some() {
        let mut top = watched.clone();
        top.sort_by(|a, b| b.0.total_cmp(&a.0));
        tests::say(&format!(
            "{} frames while ingesting; longest (ms, rows after): {:?}",
            top.len(),
            &top[..top.len().min(12)]
        ));
    }
    let rows_in_dom = b.all("[data-testid=timeline-row]").await?.len();
    let frames = b.client.execute_async(SCROLL_SCRIPT, vec![]).await?;
    let mut frames: Vec<f64> =
        frames.as_array().context("frame list")?.iter().filter_map(Value::as_f64).skip(1).collect();
    frames.sort_by(f64::total_cmp);
    b.close().await?;
    Ok(TimelineRun { shown_s: shown.as_secs_f64(), rows_in_dom, frames, ingest_longest, switch_longest })
}
