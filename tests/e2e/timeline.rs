//! A timeline you can read (issue 23, item 8): short relative times with the wall-clock
//! time in a tooltip, in columns that never wrap; the view stays at the bottom while the
//! person is there, and a "N new" chip brings them back when they have scrolled up.

use std::time::Duration;

use anyhow::{Result, ensure};
use serde_json::Value;
use tests::{Browser, Playground, eventually, page};

/// Each row's time, its tooltip, and whether any of its cells wraps or cuts its label.
const ROWS: &str = r#"
return [...document.querySelectorAll('[data-testid=timeline-row]')].map(r => {
  const time = r.querySelector('.t-time'), method = r.querySelector('.t-method');
  const cells = [...r.children].filter(c => c.getBoundingClientRect().width > 0);
  const wraps = cells.some(c => c.scrollHeight > c.clientHeight + 1 || c.getClientRects().length > 1);
  return {time: time.textContent, at: time.title, label: method.textContent,
          cut: method.scrollWidth > method.clientWidth + 1, wraps, height: r.getBoundingClientRect().height};
});
"#;

/// Where the timeline is scrolled: (scrollTop, whether it is at the bottom).
async fn position(b: &Browser) -> Result<(f64, bool)> {
    let v = b
        .client
        .execute(
            "const t = document.querySelector('[data-testid=timeline]'); \
             return [t.scrollTop, t.scrollTop + t.clientHeight >= t.scrollHeight - 30];",
            vec![],
        )
        .await?;
    Ok((v[0].as_f64().unwrap_or(-1.0), v[1].as_bool().unwrap_or(false)))
}

#[tokio::test]
async fn times_are_short_and_relative_and_rows_never_wrap() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    ensure!(page::call_tool(&b, "get_weather", r#"{"city": "Lisbon"}"#).await? == "ok");
    let rows = b.client.execute(ROWS, vec![]).await?;
    let rows = rows.as_array().cloned().unwrap_or_default();
    ensure!(rows.len() > 8, "{rows:?}");
    for row in &rows {
        let time = row["time"].as_str().unwrap_or_default();
        ensure!(is_relative(time), "time {time:?} in {row}");
        ensure!(is_wall_clock(row["at"].as_str().unwrap_or_default()), "tooltip of {row}");
        ensure!(row["wraps"] == Value::Bool(false) && row["height"].as_f64() == Some(28.0), "{row}");
    }
    // The call names its tool, whole, in the list.
    let call =
        rows.iter().find(|r| r["label"] == "tools/call · get_weather").ok_or_else(|| anyhow::anyhow!("{rows:?}"))?;
    ensure!(call["cut"] == Value::Bool(false), "the label is cut: {call}");
    b.screenshot("timeline-light").await?;
    b.prefer_dark().await?;
    b.screenshot("timeline-dark").await?;
    b.close().await?;
    Ok(())
}

/// `+420 ms`, `+1.2 s` or `+3 min 22 s`.
fn is_relative(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    let Some(rest) = s.strip_prefix('+') else { return false };
    match rest.split(' ').collect::<Vec<_>>().as_slice() {
        [n, "ms"] => digits(n),
        [n, "s"] => n.split_once('.').is_some_and(|(a, b)| digits(a) && b.len() == 1 && digits(b)),
        [m, "min", s, "s"] => digits(m) && digits(s),
        _ => false,
    }
}

/// `2026-11-24 12:03:04.123`.
fn is_wall_clock(s: &str) -> bool {
    let shape: String = s.chars().map(|c| if c.is_ascii_digit() { '9' } else { c }).collect();
    shape == "9999-99-99 99:99:99.999"
}

#[tokio::test]
async fn new_rows_keep_the_bottom_or_wait_behind_a_chip() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.client.set_window_size(1440, 520).await?;
    for i in 0..8 {
        ensure!(page::call_tool(&b, "echo", &format!(r#"{{"message": "m{i}"}}"#)).await? == "ok");
    }
    // At the bottom, new rows keep the view there.
    let (_, at_bottom) = position(&b).await?;
    ensure!(at_bottom, "the view left the bottom while new rows came");
    // Scrolled up, it stays put and a chip counts what came.
    b.client
        .execute(
            "const t = document.querySelector('[data-testid=timeline]'); t.scrollTop = 0; \
             t.dispatchEvent(new Event('scroll'));",
            vec![],
        )
        .await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "while away"}"#).await? == "ok");
    let chip = eventually(Duration::from_secs(10), "the new-rows chip", || async {
        let Some(chip) = b.all("[data-testid=timeline-new-rows]").await?.into_iter().next() else { return Ok(None) };
        Ok(Some(chip.text().await?))
    })
    .await?;
    ensure!(chip.starts_with("2 new"), "{chip}");
    ensure!(position(&b).await?.0 == 0.0, "the view moved while the person read");
    b.id("timeline-new-rows").await?.click().await?;
    ensure!(position(&b).await?.1, "the chip did not bring the view down");
    ensure!(b.all("[data-testid=timeline-new-rows]").await?.is_empty(), "the chip stayed");
    b.close().await?;
    Ok(())
}

/// The rows in the page: (how many, their `data-seq` in page order, the highest).
const DRAWN: &str = r#"
const seqs = [...document.querySelectorAll('[data-testid=timeline-row]')].map(r => Number(r.dataset.seq));
return [seqs.length, seqs.every((s, i) => i === 0 || s > seqs[i - 1]), Math.max(-1, ...seqs)];
"#;

/// A flood of `n` server messages at once, counted: the page and the rows it counts.
async fn flood(n: usize) -> Result<(Playground, Browser, usize)> {
    let script = tests::root().join("tests/servers/flood.py");
    let pg = Playground::start(&["python3", &script.to_string_lossy(), &n.to_string()])?;
    let (pg, b) = page::connected(pg).await?;
    // initialize, initialized and tools/list both ways, beside the flood.
    let want = n + 5;
    let count = eventually(Duration::from_secs(60), "every message counted", || async {
        let count =
            b.client.execute("return document.querySelector('.timeline-panel .count')?.textContent", vec![]).await?;
        Ok(count.as_str().and_then(|c| c.parse::<usize>().ok()).filter(|c| *c >= want))
    })
    .await?;
    Ok((pg, b, count))
}

async fn drawn(b: &Browser) -> Result<(usize, bool, i64)> {
    let v = b.client.execute(DRAWN, vec![]).await?;
    Ok((v[0].as_u64().unwrap_or(0) as usize, v[1].as_bool().unwrap_or(false), v[2].as_i64().unwrap_or(-1)))
}

#[tokio::test]
async fn a_burst_is_drawn_over_frames_all_of_it_up_to_two_thousand_rows_and_only_the_view_above() -> Result<()> {
    // 1,500 messages in one burst: the rows in view come first, the rest a few frames later,
    // and then every row is in the page, in order (tests and find-in-page rely on it).
    let (_pg, b, count) = flood(1500).await?;
    let all = eventually(Duration::from_secs(20), "every row drawn", || async {
        let (n, ordered, last) = drawn(&b).await?;
        Ok((n >= count).then_some((n, ordered, last)))
    })
    .await?;
    ensure!(all.0 == count && all.1 && all.2 == count as i64 - 1, "{all:?} of {count} rows");
    let at = b.client.execute("const t = document.querySelector('[data-testid=timeline]'); return [t.scrollTop, t.clientHeight, t.scrollHeight]", vec![]).await?;
    ensure!(position(&b).await?.1, "the view left the newest rows: {at}");
    b.close().await?;
    // 3,000: windowed. The rows drawn while it was not are taken out over a few frames; the
    // newest are in view, and the list scrolls as if every row were there.
    let (_pg, b, count) = flood(3000).await?;
    let windowed = eventually(Duration::from_secs(20), "only the rows in view drawn", || async {
        let (n, ordered, last) = drawn(&b).await?;
        Ok((n <= 120 && last == count as i64 - 1).then_some((n, ordered)))
    })
    .await?;
    ensure!(windowed.0 >= 10 && windowed.1, "{windowed:?} of {count} rows");
    ensure!(position(&b).await?.1, "the view left the newest rows");
    let height = b.client.execute("return document.querySelector('.timeline-space').offsetHeight", vec![]).await?;
    ensure!(height.as_f64() == Some(count as f64 * 28.0), "the list's height is not that of {count} rows: {height}");
    // The server log, told at its own pace while the lines flooded in, ends on every line:
    // the count and the newest line, last of the 200 shown.
    let log = "const lines = [...document.querySelectorAll('[data-testid=log-line]')]; \
        return [document.querySelector('.log-panel .count')?.textContent, lines.length, lines.at(-1)?.textContent];";
    let (counted, shown, newest) = eventually(Duration::from_secs(10), "the log's last line", || async {
        let v = b.client.execute(log, vec![]).await?;
        let newest = v[2].as_str().unwrap_or_default().to_owned();
        Ok(newest.ends_with("message 2999").then(|| (v[0].clone(), v[1].clone(), newest)))
    })
    .await?;
    ensure!(
        counted.as_str() == Some("3000") && shown.as_u64() == Some(200),
        "{counted} lines, {shown} shown: {newest}"
    );
    b.close().await?;
    Ok(())
}
