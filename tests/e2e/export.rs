//! A recording as one web page: made by `mcp-playground export` and by "Save as web page",
//! opened from `file://` with the network blocked, and stepped to its end with the results
//! the live page showed; nothing fetched, no CSP violation. `/api/export` refuses what the
//! rest of `/api` refuses.

use std::path::Path;

use anyhow::{Result, ensure};
use tests::{Browser, Playground, command, page};

use crate::recording_page::{pane, play_to_end, position, record, step_to_end};

/// Counts what the CSP refused and every resource the document loads, from its first line.
const WATCH: &str = "window.__violations = []; \
    document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));";

/// The share of a screenshot's pixels two looks of the same pane may differ by: the pane
/// sits at another height in each page (the playground shows the note's editor above it),
/// and a border at a fraction of a pixel is smoothed differently. Another text or picture
/// changes far more.
const SAME_PIXELS: f64 = 0.005;

/// The share of pixels that differ between two PNG screenshots; `None` when their sizes do.
fn differing(a: &[u8], b: &[u8]) -> Result<Option<f64>> {
    let read = |bytes: &[u8]| -> Result<(u32, u32, Vec<u8>)> {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes.to_vec())).read_info()?;
        let mut buf = vec![0; reader.output_buffer_size().unwrap_or_default()];
        let info = reader.next_frame(&mut buf)?;
        buf.truncate(info.buffer_size());
        Ok((info.width, info.height, buf))
    };
    let ((wa, ha, pa), (wb, hb, pb)) = (read(a)?, read(b)?);
    if (wa, ha) != (wb, hb) || pa.len() != pb.len() {
        return Ok(None);
    }
    let channels = pa.len() / (wa as usize * ha as usize).max(1);
    let differ = pa.chunks(channels).zip(pb.chunks(channels)).filter(|(x, y)| x != y).count();
    Ok(Some(differ as f64 / (wa as f64 * ha as f64)))
}

/// Opens the exported page from `file://` in a browser whose network is gone.
async fn open_offline(file: &Path) -> Result<Browser> {
    let b = Browser::start().await?;
    b.on_new_document(WATCH).await?;
    b.block_urls(&["http://*", "https://*", "ws://*", "wss://*"]).await?;
    b.client.goto(&format!("file://{}", file.display())).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    Ok(b)
}

/// What went wrong in the page as the browser saw it: CSP violations, and any resource it
/// loaded that is not `data:` or `blob:`.
async fn what_was_fetched_or_refused(b: &Browser) -> Result<(Vec<String>, Vec<String>)> {
    let violations = b.client.execute("return window.__violations", vec![]).await?;
    let loaded = b.client.execute("return performance.getEntriesByType('resource').map(e => e.name)", vec![]).await?;
    let strings = |v: serde_json::Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_owned)).collect()
    };
    let foreign = strings(loaded).into_iter().filter(|u| !u.starts_with("data:") && !u.starts_with("blob:")).collect();
    Ok((strings(violations), foreign))
}

#[tokio::test]
async fn a_demo_recording_becomes_one_page_that_plays_from_file_with_no_network() -> Result<()> {
    let calls = [
        ("echo", r#"{"message": "exported hi"}"#),
        ("get_image", r#"{"width": 64, "height": 32}"#),
        ("get_audio", r#"{"duration_ms": 300}"#),
        ("get_weather", r#"{"city": "Lisbon"}"#),
    ];
    let pg = Playground::start(&[])?;
    let (text, live, tools) = record(&pg, &calls).await?;
    drop(pg);
    let dir = std::env::temp_dir().join(format!("mcp-playground-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("demo.jsonl");
    std::fs::write(&file, &text)?;
    let html = dir.join("demo.html");
    let run = command::run(&["export", &file.to_string_lossy(), "-o", &html.to_string_lossy()])?;
    ensure!(run.code == 0 && run.stdout.contains("demo.html"), "{run}");
    let bytes = std::fs::metadata(&html)?.len();
    tests::say(&format!("the exported demo: {} KB, its recording {} KB", bytes / 1024, text.len() / 1024));

    let b = open_offline(&html).await?;
    // Nothing of a live page: no relay to reach, nothing to record, no way back to live.
    for absent in ["record-toggle", "recording-export-html", "replay-exit", "connect-button"] {
        ensure!(b.all(&format!("[data-testid={absent}]")).await?.is_empty(), "{absent} is shown offline");
    }
    let (index, total) = position(&b).await?;
    ensure!(index == 0 && total == text.lines().count() - 1, "{index}/{total}");
    let seen = step_to_end(&b, total).await?;
    ensure!(seen == live, "the exported page showed\n{seen:#?}\nlive showed\n{live:#?}");
    let offline_pane = b.id("result-pane").await?.screenshot().await?;
    ensure!(b.all("[data-testid=tool-item]").await?.len() == tools, "the same tool list");
    ensure!(!b.all("[data-testid=timeline-row]").await?.is_empty(), "the timeline");
    // The flow view, whose code is a chunk of its own, comes from the file too.
    b.id("flow-toggle").await?.click().await?;
    b.id("flow-view").await?;
    b.id("flow-toggle").await?.click().await?;
    // ← steps back, as in the playground.
    let key = "window.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))";
    b.client.execute(key, vec![]).await?;
    ensure!(position(&b).await?.0 == total - 1, "← stepped back");
    b.client.execute(&key.replace("ArrowLeft", "ArrowRight"), vec![]).await?;
    ensure!(position(&b).await?.0 == total, "→ stepped on");
    b.screenshot("export-light").await?;
    b.prefer_dark().await?;
    b.screenshot("export-dark").await?;
    let (violations, fetched) = what_was_fetched_or_refused(&b).await?;
    ensure!(violations.is_empty(), "CSP violations: {violations:?}");
    ensure!(fetched.is_empty(), "fetched: {fetched:?}");
    b.close().await?;

    // "Save as web page" in the playground makes the same page of the same file.
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    let downloads = b.allow_downloads().await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    // Played to its end there, the last result looks as in the exported page, pixel for pixel.
    play_to_end(&b).await?;
    ensure!(pane(&b).await? == *live.last().unwrap_or(&String::new()));
    let played_pane = b.id("result-pane").await?.screenshot().await?;
    let differ = differing(&played_pane, &offline_pane)?;
    if differ.is_none_or(|d| d > SAME_PIXELS) {
        std::fs::write(tests::artifacts().join("export-pane-offline.png"), &offline_pane)?;
        std::fs::write(tests::artifacts().join("export-pane-played.png"), &played_pane)?;
        anyhow::bail!("the result pane differs between the exported page and playback: {differ:?} of its pixels");
    }
    b.id("recording-export-html").await?.click().await?;
    let saved = b.downloaded(".html").await?;
    ensure!(saved.file_name().is_some_and(|n| n == "demo.html"), "{}", saved.display());
    ensure!(std::fs::read(&saved)? == std::fs::read(&html)?, "the page's file and the command's are the same");
    b.close().await?;
    let _ = std::fs::remove_dir_all(downloads);
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn what_is_no_recording_makes_no_page() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-export-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "hello\n")?;
    let out = dir.join("notes.html");
    let run = command::run(&["export", &notes.to_string_lossy(), "-o", &out.to_string_lossy()])?;
    ensure!(run.code == 1 && run.stderr.contains("cannot be read as a recording"), "{run}");
    ensure!(!out.exists(), "nothing written");
    let missing = dir.join("missing.jsonl");
    let run = command::run(&["export", &missing.to_string_lossy()])?;
    ensure!(run.code == 1 && run.stderr.contains("cannot read the recording"), "{run}");
    let run = command::run(&["export", &notes.to_string_lossy(), "--assets", &dir.to_string_lossy()])?;
    ensure!(run.code == 1 && run.stderr.contains("offline player is not built"), "{run}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn the_export_endpoint_refuses_strangers_and_what_is_no_recording() -> Result<()> {
    let pg = Playground::start(&[])?;
    let header = r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"relay","relay_version":"0","target":{"transport":"demo"}}"#;
    let recording = format!("{header}\n{{\"t\":1,\"event\":{{\"kind\":\"note\",\"message\":\"n\"}}}}\n");
    let client = reqwest::Client::new();
    let origin = format!("http://{}", pg.authority());
    let post = |url: String, origin: &str, body: String| {
        client.post(url).header("Origin", origin.to_owned()).body(body).send()
    };
    let with_token = format!("{}/api/export?token={}&name=x.jsonl", pg.base, pg.token);
    let cases = [
        ("no token", format!("{}/api/export", pg.base), origin.as_str(), recording.clone(), 401),
        ("a forged Origin", with_token.clone(), "http://evil.example", recording.clone(), 403),
        ("no recording", with_token.clone(), origin.as_str(), "hello\n".to_owned(), 400),
        ("a recording", with_token.clone(), origin.as_str(), recording.clone(), 200),
    ];
    for (what, url, origin, body, expected) in cases {
        let answer = post(url, origin, body).await?;
        let status = answer.status().as_u16();
        let text = answer.text().await?;
        ensure!(status == expected, "{what}: {status}, not {expected}: {text:.200}");
        if expected == 200 {
            ensure!(text.contains(r#"id="mcp-recording" data-name="x.jsonl""#), "{text:.300}");
        }
        if expected == 400 {
            ensure!(text.contains("no recording") && text.contains("line 1"), "{text}");
        }
    }
    Ok(())
}

/// The note the page shows now: (title, text), or none.
async fn note_shown(b: &Browser) -> Result<Option<String>> {
    Ok(match b.all("[data-testid=note-view]").await?.into_iter().next() {
        Some(n) => Some(n.text().await?),
        None => None,
    })
}

/// Writes the note of the step shown and waits for it to show.
async fn write_note(b: &Browser, title: &str, text: &str) -> Result<()> {
    let editor = b.id("note-editor").await?;
    b.set_value(&editor.find(fantoccini::Locator::Css("[data-testid=note-title]")).await?, title).await?;
    b.set_value(&editor.find(fantoccini::Locator::Css("[data-testid=note-text]")).await?, text).await?;
    editor.find(fantoccini::Locator::Css("[data-testid=note-save]")).await?.click().await?;
    let shown = note_shown(b).await?.unwrap_or_default();
    ensure!(shown.contains(title) && shown.contains(text), "{shown}");
    Ok(())
}

#[tokio::test]
async fn notes_are_written_while_stepping_saved_in_the_file_and_shown_in_the_exported_page() -> Result<()> {
    let pg = Playground::start(&[])?;
    let calls = [("echo", r#"{"message": "noted"}"#), ("get_weather", r#"{"city": "Porto"}"#)];
    let (text, _, _) = record(&pg, &calls).await?;
    drop(pg);
    let dir = std::env::temp_dir().join(format!("mcp-playground-notes-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("talk.jsonl");
    std::fs::write(&file, &text)?;

    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    let downloads = b.allow_downloads().await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    ensure!(note_shown(&b).await?.is_none(), "no note yet");
    write_note(&b, "Welcome", "A tour of the demo server.").await?;
    for _ in 0..3 {
        b.id("replay-step").await?.click().await?;
    }
    ensure!(note_shown(&b).await?.is_none(), "step 3 has no note of its own");
    write_note(&b, "The first call", "Echo says it back.").await?;
    b.id("replay-step").await?.click().await?;
    ensure!(note_shown(&b).await?.is_none());
    b.id("replay-back").await?.click().await?;
    ensure!(note_shown(&b).await?.is_some_and(|n| n.contains("The first call")));

    // The presenter view: one key away, the note and the result, nothing else.
    let press =
        |key: &str| format!("window.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true}}))");
    b.client.execute(&press("p"), vec![]).await?;
    b.css("[data-testid=presenter-toggle][data-state=on]").await?;
    let hidden =
        b.client.execute("return getComputedStyle(document.querySelector('.sidebar')).display", vec![]).await?;
    ensure!(hidden == "none", "the sidebar is hidden: {hidden}");
    ensure!(b.all("[data-testid=note-editor]").await?.is_empty(), "no editor while presenting");
    b.screenshot("presenter-light").await?;
    b.client.execute(&press("Escape"), vec![]).await?;
    b.css("[data-testid=presenter-toggle][data-state=off]").await?;
    b.id("presenter-toggle").await?.click().await?;
    b.css("[data-testid=presenter-toggle][data-state=on]").await?;
    b.id("presenter-toggle").await?.click().await?;

    // Saved into the file, in its header.
    b.id("recording-export").await?.click().await?;
    let saved = b.downloaded(".jsonl").await?;
    let saved_text = std::fs::read_to_string(&saved)?;
    let header: serde_json::Value = serde_json::from_str(saved_text.lines().next().unwrap_or_default())?;
    ensure!(header["version"] == 3, "{header}");
    ensure!(header["notes"][0]["at"] == 0 && header["notes"][1]["at"] == 3, "{header}");
    ensure!(header["notes"][1]["title"] == "The first call", "{header}");
    b.id("recording-export-html").await?.click().await?;
    let html = b.downloaded(".html").await?;
    let page_file = dir.join("talk.html");
    std::fs::copy(&html, &page_file)?;

    // A fresh page reads the notes back from the file.
    b.client.refresh().await?;
    b.id("recording-import").await?.send_keys(&saved.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    ensure!(note_shown(&b).await?.is_some_and(|n| n.contains("Welcome")));
    b.close().await?;

    // The exported page shows them to the audience, with no editor.
    let b = open_offline(&page_file).await?;
    ensure!(note_shown(&b).await?.is_some_and(|n| n.contains("A tour of the demo server.")));
    ensure!(b.all("[data-testid=note-editor]").await?.is_empty(), "the audience has no editor");
    for _ in 0..3 {
        b.id("replay-step").await?.click().await?;
    }
    ensure!(note_shown(&b).await?.is_some_and(|n| n.contains("Echo says it back.")));
    b.id("presenter-toggle").await?.click().await?;
    b.css("[data-testid=presenter-toggle][data-state=on]").await?;
    b.screenshot("export-presenter").await?;
    let (violations, fetched) = what_was_fetched_or_refused(&b).await?;
    ensure!(violations.is_empty() && fetched.is_empty(), "{violations:?} {fetched:?}");
    b.close().await?;
    let _ = std::fs::remove_dir_all(downloads);
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
