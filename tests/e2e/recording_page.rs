//! Recording in the page and playing it back offline: record a session, save the file,
//! stop the server, open the file in a fresh page with no server, and step and play
//! through it: the same tools, the same results (images and audio included).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, eventually, server_everything};

use tests::page;

/// What the result pane shows: its state, its content types and texts.
pub(crate) async fn pane(b: &Browser) -> Result<String> {
    let state = b.id("result-pane").await?.attr("data-state").await?.unwrap_or_default();
    let mut parts = vec![state];
    for item in b.all("[data-testid=result-content]").await? {
        let kind = item.attr("data-content-type").await?.unwrap_or_default();
        // An image or a sound is drawn by code that may still be on its way: its element,
        // once there.
        let media = match kind.as_str() {
            "image" | "audio" => {
                let element = if kind == "image" { "img" } else { "audio" };
                let css = format!("[data-testid=result-content][data-content-type={kind}] {element}");
                b.css(&css).await?;
                b.all(&css).await?.len().to_string()
            }
            _ => item.text().await?,
        };
        parts.push(format!("{kind}:{media}"));
    }
    Ok(parts.join(" | "))
}

pub(crate) async fn position(b: &Browser) -> Result<(usize, usize)> {
    let p = b.id("replay-position").await?;
    let num = |v: Option<String>| v.and_then(|v| v.parse::<usize>().ok()).unwrap_or(0);
    Ok((num(p.attr("data-index").await?), num(p.attr("data-total").await?)))
}

/// Steps through all `total` messages; what the result pane showed after each call, once
/// each, in order.
pub(crate) async fn step_to_end(b: &Browser, total: usize) -> Result<Vec<String>> {
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..total {
        b.id("replay-step").await?.click().await?;
        // Before the first call there is no result pane yet.
        let state = match b.all("[data-testid=result-pane]").await?.into_iter().next() {
            Some(p) => p.attr("data-state").await?.unwrap_or_default(),
            None => String::new(),
        };
        if !matches!(state.as_str(), "" | "idle" | "pending") {
            let now = pane(b).await?;
            if seen.last() != Some(&now) {
                seen.push(now);
            }
        }
    }
    Ok(seen)
}

/// Plays the recording at full speed to its end.
pub(crate) async fn play_to_end(b: &Browser) -> Result<()> {
    b.id("replay-speed").await?.select_by_value("max").await?;
    b.id("replay-play").await?.click().await?;
    eventually(Duration::from_secs(20), "the end of playback", || async {
        let (i, t) = position(b).await?;
        Ok((t > 0 && i == t).then_some(()))
    })
    .await
}

/// Records `calls` in a live page, saves the file; returns it and what each call showed.
pub(crate) async fn record(pg: &Playground, calls: &[(&str, &str)]) -> Result<(String, Vec<String>, usize)> {
    let b = Browser::start().await?;
    let downloads = b.allow_downloads().await?;
    b.client.goto(&pg.url).await?;
    ensure!(b.id("record-toggle").await?.attr("data-state").await?.as_deref() == Some("on"), "on by default");
    page::connect(&b).await?;
    b.css("[data-testid=recording-indicator][data-source=page]").await?;
    let tools = page::tool_names(&b).await?.len();
    let mut shown = Vec::new();
    for (tool, args) in calls {
        page::call_tool(&b, tool, args).await?;
        shown.push(pane(&b).await?);
    }
    b.id("recording-export").await?.click().await?;
    let file = b.downloaded(".jsonl").await?;
    let text = std::fs::read_to_string(&file)?;
    let _ = std::fs::remove_dir_all(downloads);
    b.close().await?;
    Ok((text, shown, tools))
}

/// Opens `file` in a fresh page of a playground whose server is disconnected; the number
/// of tools the live page listed before.
async fn open(file: &Path) -> Result<(Playground, Browser, usize)> {
    let (pg, b) = page::open(Playground::start(&[])?).await?;
    ensure!(b.id("replay-mode").await?.attr("data-state").await?.as_deref() == Some("live"));
    let before = b.all("[data-testid=tool-item]").await?.len();
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    Ok((pg, b, before))
}

#[tokio::test]
async fn a_demo_session_recorded_in_the_page_plays_back_offline_step_by_step() -> Result<()> {
    let calls = [
        ("echo", r#"{"message": "recorded hi"}"#),
        ("get_image", r#"{"width": 64, "height": 32}"#),
        ("get_audio", r#"{"duration_ms": 300}"#),
        ("get_weather", r#"{"city": "Lisbon"}"#),
        ("fail", r#"{"reason": "on purpose"}"#),
    ];
    let pg = Playground::start(&[])?;
    let (text, live, tools) = record(&pg, &calls).await?;
    drop(pg);
    ensure!(!text.contains(&format!("e2e-token-{}", std::process::id())), "the token is not in the file");
    ensure!(text.lines().next().is_some_and(|h| h.contains(r#""recorded_by":"page""#)), "{text:.300}");
    let file = std::env::temp_dir().join(format!("mcp-playground-demo-{}.jsonl", std::process::id()));
    std::fs::write(&file, &text)?;

    let (_pg, b, live_tools) = open(&file).await?;
    let (index, total) = position(&b).await?;
    ensure!(index == 0 && total == text.lines().count() - 1, "{index}/{total}");
    // Step through every message; each call shows what it showed live, in the same order.
    let seen = step_to_end(&b, total).await?;
    ensure!(seen == live, "playback showed\n{seen:#?}\nlive showed\n{live:#?}");
    ensure!(position(&b).await? == (total, total));
    ensure!(b.all("[data-testid=tool-item]").await?.len() == tools, "the same tool list");
    ensure!(b.id("call-button").await?.prop("disabled").await?.as_deref() == Some("true"), "read-only");
    // ← steps back (the key as the browser delivers it to the page).
    let key = "window.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))";
    b.client.execute(key, vec![]).await?;
    let (index, _) = position(&b).await?;
    ensure!(index == total - 1, "← stepped back one: {index}/{total}");
    // Played again from the start, as fast as possible.
    b.id("replay-speed").await?.select_by_value("max").await?;
    b.id("replay-play").await?.click().await?;
    eventually(Duration::from_secs(20), "the end of playback", || async {
        let done = position(&b).await? == (total, total)
            && b.id("replay-play").await?.attr("data-state").await?.as_deref() == Some("paused");
        Ok(done.then_some(()))
    })
    .await?;
    ensure!(pane(&b).await? == *live.last().context("calls")?);
    b.screenshot("playback-demo").await?;
    // Back to live, nothing lost: the page is as it was before the file was opened.
    b.id("replay-exit").await?.click().await?;
    b.css("[data-testid=replay-mode][data-state=live]").await?;
    ensure!(b.all("[data-testid=tool-item]").await?.len() == live_tools);
    b.close().await?;
    let _ = std::fs::remove_file(file);
    Ok(())
}

#[tokio::test]
async fn a_server_everything_session_plays_back_with_its_image() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let pg = Playground::start(&["node", &entry, "stdio"])?;
    let calls = [("echo", r#"{"message": "hello"}"#), ("get-tiny-image", "{}")];
    let (text, live, _) = record(&pg, &calls).await?;
    drop(pg);
    let file = std::env::temp_dir().join(format!("mcp-playground-everything-{}.jsonl", std::process::id()));
    std::fs::write(&file, &text)?;
    // This time the fresh page is connected to a live server when the file is opened.
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let live_tools = page::tool_names(&b).await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    play_to_end(&b).await?;
    let end = pane(&b).await?;
    ensure!(end == live[1] && end.contains("image:1"), "{end} vs {:?}", live);
    // Back to live: still connected to the demo server, its tools as they were.
    b.id("replay-exit").await?.click().await?;
    b.css("[data-testid=connection-status][data-state=connected]").await?;
    ensure!(page::tool_names(&b).await? == live_tools, "the live session came back as it was");
    ensure!(page::call_tool(&b, "echo", r#"{"message": "still live"}"#).await? == "ok");
    b.close().await?;
    let _ = std::fs::remove_file(file);
    Ok(())
}

#[tokio::test]
async fn bad_files_are_explained_and_what_can_be_played_is() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let not = dir.join("notes.jsonl");
    std::fs::write(&not, "hello\n")?;
    let header = r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"relay","relay_version":"0","target":{"transport":"demo"}}"#;
    let cut = dir.join("cut.jsonl");
    std::fs::write(
        &cut,
        format!(
            "{header}\n{{\"t\":1,\"event\":{{\"kind\":\"note\",\"message\":\"n\"}}}}\n{{\"t\":2,\"dir\":\"in\",\"fr"
        ),
    )?;

    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("recording-import").await?.send_keys(&not.to_string_lossy()).await?;
    let notices = b.id("notices").await?.text().await?;
    ensure!(
        notices.contains("notes.jsonl") && notices.contains("line 1") && notices.contains("not a recording"),
        "{notices}"
    );
    ensure!(b.id("replay-mode").await?.attr("data-state").await?.as_deref() == Some("live"));
    // Dropped on the page rather than picked: the same.
    let drop = "const [name, text] = arguments; const dt = new DataTransfer(); \
        dt.items.add(new File([text], name)); \
        document.querySelector('.app').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));";
    let cut_text = std::fs::read_to_string(&cut)?;
    b.client.execute(drop, vec![serde_json::json!("cut.jsonl"), serde_json::json!(cut_text)]).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    ensure!(position(&b).await? == (0, 1), "the one whole entry");
    let notices = b.id("notices").await?.text().await?;
    ensure!(notices.contains("line 3") && notices.contains("cut off"), "{notices}");
    b.close().await?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn what_the_relay_records_opens_in_the_page_with_play() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-relay-rec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (pg, b) = page::connected(Playground::start_with(&["--record", &dir.to_string_lossy()], &[])?).await?;
    // The page says the relay records, whatever the page's own switch says.
    b.id("record-toggle").await?.click().await?;
    b.css("[data-testid=record-toggle][data-state=off]").await?;
    b.css("[data-testid=recording-indicator][data-source=relay]").await?;
    page::call_tool(&b, "echo", r#"{"message": "kept by the relay"}"#).await?;
    b.id("connect-button").await?.click().await?;
    b.css("[data-testid=connection-status][data-state=disconnected]").await?;
    b.close().await?;
    drop(pg);
    let files: Vec<_> = std::fs::read_dir(&dir)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    ensure!(files.len() == 1, "one file per session: {files:?}");

    let player = Playground::start_sub(&["play", &files[0].to_string_lossy()])?;
    let b = Browser::start().await?;
    b.client.goto(&player.url).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    play_to_end(&b).await?;
    ensure!(page::result_texts(&b).await? == ["kept by the relay"]);
    b.close().await?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn playback_says_what_it_plays_and_a_picked_tool_shows_its_recorded_call() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (text, shown, _) =
        record(&pg, &[("get_weather", r#"{"city": "Lisbon"}"#), ("echo", r#"{"message": "said last"}"#)]).await?;
    drop(pg);
    let dir = std::env::temp_dir().join(format!("mcp-playground-named-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("weather demo.jsonl");
    std::fs::write(&file, text)?;

    let player = Playground::start_sub(&["play", &file.to_string_lossy()])?;
    let b = Browser::start().await?;
    b.client.goto(&player.url).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    // Before a single step, the page says it plays a file, not that it connects.
    let pill = b.id("status-pill").await?.text().await?;
    ensure!(pill == "Playing back weather demo.jsonl", "{pill}");
    let status = b.id("connection-status").await?.text().await?;
    ensure!(status == "Playing back weather demo.jsonl", "{status}");
    play_to_end(&b).await?;
    ensure!(b.id("status-pill").await?.text().await? == pill, "the pill says playback to the end");
    // Picking the first call's tool shows the arguments it was sent with and its result.
    b.css("[data-testid=tool-item][data-tool-name=get_weather]").await?.click().await?;
    b.css("[data-testid=tool-detail][data-tool-name=get_weather]").await?;
    ensure!(page::arguments(&b).await? == serde_json::json!({"city": "Lisbon"}));
    ensure!(pane(&b).await? == shown[0], "{} vs {}", pane(&b).await?, shown[0]);
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?.click().await?;
    b.css("[data-testid=tool-detail][data-tool-name=echo]").await?;
    ensure!(page::arguments(&b).await? == serde_json::json!({"message": "said last"}));
    ensure!(page::result_texts(&b).await? == ["said last"]);
    b.close().await?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
