//! The Resources and Prompts views against a server of our own on the official `mcp`
//! Python package, for what server-everything lacks: paged lists, image and audio
//! resources, prompts with image, audio and resource-link messages; then the session
//! recorded in the page and played back, each view following the recording.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::browser::Browser;
use tests::command::run;
use tests::{Playground, eventually, page, root};

async fn count(b: &Browser, css: &str, want: usize, what: &str) -> Result<()> {
    eventually(Duration::from_secs(20), what, || async { Ok((b.all(css).await?.len() == want).then_some(())) }).await
}

async fn types_in(b: &Browser, css: &str) -> Result<Vec<String>> {
    let mut types = Vec::new();
    for c in b.all(&format!("{css} [data-testid=result-content]")).await? {
        types.push(c.attr("data-content-type").await?.unwrap_or_default());
    }
    Ok(types)
}

#[tokio::test]
async fn every_page_every_content_type_and_the_session_played_back() -> Result<()> {
    let script = root().join("tests/servers/python/catalog_server.py");
    let script = script.to_string_lossy();
    let b = Browser::start().await?;
    let downloads = b.allow_downloads().await?;
    let pg = Playground::start(&["python3", &script])?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;

    // Resources: three pages, to the end.
    b.css("[data-testid=view-tab][data-view=resources]").await?.click().await?;
    count(&b, "[data-testid=resource-item]", 27, "all 27 resources").await?;
    let pages =
        page::timeline(&b).await?.iter().filter(|r| r.method == "resources/list" && r.direction == "out").count();
    ensure!(pages == 3, "{pages} pages of resources/list");
    // Its data: icon, as an image (never inline SVG).
    let icon = b.css("[data-testid=resource-item][data-uri=\"catalog://note/1\"] img.item-icon").await?;
    ensure!(icon.attr("src").await?.is_some_and(|s| s.starts_with("data:image/svg+xml")), "no icon");
    ensure!(b.all("[data-testid=resource-item] svg").await?.is_empty(), "an icon drawn inline");

    // An image and a sound resource, previewed as a result's would be.
    b.css("[data-testid=resource-item][data-uri=\"catalog://image/dot.png\"]").await?.click().await?;
    b.css("[data-testid=resource-contents] img").await?;
    b.css("[data-testid=resource-item][data-uri=\"catalog://audio/beep.wav\"]").await?.click().await?;
    b.css("[data-testid=resource-contents] audio[controls]").await?;
    b.css("[data-testid=resource-item][data-uri=\"catalog://data/numbers.json\"]").await?.click().await?;
    eventually(Duration::from_secs(10), "the JSON document", || async {
        let Ok(c) = b.id("resource-contents").await else { return Ok(None) };
        Ok(c.text().await?.contains("primes").then_some(()))
    })
    .await?;

    // A template's variable completed from the server's list.
    b.css("[data-testid=resource-template-item][data-uri-template=\"catalog://note/{id}\"]").await?.click().await?;
    let field = b.css("[data-testid=field][data-field-path=\"/id\"]").await?;
    b.set_value(&field, "2").await?;
    let option = b.css("[data-testid=completion-option][data-value=\"21\"]").await?;
    let offered = b.all("[data-testid=completion-option]").await?.len();
    ensure!(offered == 6, "{offered} suggestions for 2 (2, 20–24)");
    option.click().await?;
    b.id("resource-read").await?.click().await?;
    eventually(Duration::from_secs(10), "note 21", || async {
        let Ok(c) = b.id("resource-contents").await else { return Ok(None) };
        Ok(c.text().await?.contains("Note 21").then_some(()))
    })
    .await?;

    // Prompts: every page; image, audio and link messages.
    b.css("[data-testid=view-tab][data-view=prompts]").await?.click().await?;
    count(&b, "[data-testid=prompt-item]", 12, "all 12 prompts").await?;
    b.css("[data-testid=prompt-item][data-prompt-name=picture]").await?.click().await?;
    b.set_value(&b.css("[data-testid=field][data-field-path=\"/color\"]").await?, "gr").await?;
    b.css("[data-testid=completion-option][data-value=green]").await?.click().await?;
    b.id("prompt-get").await?.click().await?;
    count(&b, "[data-testid=prompt-message]", 3, "the picture's three messages").await?;
    let mut roles = Vec::new();
    for m in b.all("[data-testid=prompt-message]").await? {
        roles.push(m.attr("data-role").await?.unwrap_or_default());
    }
    ensure!(roles == ["user", "user", "assistant"], "{roles:?}");
    ensure!(types_in(&b, "[data-testid=prompt-messages]").await? == ["image", "text", "text"]);
    b.css("[data-testid=prompt-messages] img").await?;
    b.screenshot("prompts-python-light").await?;

    b.css("[data-testid=prompt-item][data-prompt-name=sound]").await?.click().await?;
    b.id("prompt-get").await?.click().await?;
    b.css("[data-testid=prompt-messages] audio[controls]").await?;
    b.css("[data-testid=prompt-item][data-prompt-name=linked]").await?.click().await?;
    b.id("prompt-get").await?.click().await?;
    count(&b, "[data-testid=prompt-message]", 2, "the linked prompt's messages").await?;
    ensure!(types_in(&b, "[data-testid=prompt-messages]").await? == ["text", "resource_link"]);
    // The link opens in the Resources view.
    b.css("[data-testid=prompt-messages] [data-testid=resource-open]").await?.click().await?;
    b.css("[data-testid=view-tab][data-view=resources][aria-selected=true]").await?;
    eventually(Duration::from_secs(10), "note 1", || async {
        let Ok(c) = b.id("resource-contents").await else { return Ok(None) };
        Ok(c.text().await?.contains("Note 1:").then_some(()))
    })
    .await?;

    // The session speaks 2026-07-28, which has no ping: no Ping button.
    let protocol = b.id("server-info").await?.attr("data-protocol-version").await?;
    ensure!(protocol.as_deref() == Some("2026-07-28"), "{protocol:?}");
    ensure!(b.all("[data-testid=ping-button]").await?.is_empty(), "a Ping button at 2026-07-28");

    // Recorded, then played back: the views follow the recording.
    b.id("recording-export").await?.click().await?;
    // The browser's downloads go with it: the file is kept apart.
    let file = std::env::temp_dir().join(format!("mcp-playground-catalog-py-{}.jsonl", std::process::id()));
    std::fs::copy(b.downloaded(".jsonl").await?, &file)?;
    let text = std::fs::read_to_string(&file)?;
    ensure!(text.contains("prompts/get") && text.contains("completion/complete"), "the recording holds them");
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    let mut views = Vec::new();
    let total: usize = b.id("replay-position").await?.attr("data-total").await?.unwrap_or_default().parse()?;
    for _ in 0..total {
        b.id("replay-step").await?.click().await?;
        let Some(tab) = b.all("[data-testid=view-tab][aria-selected=true]").await?.into_iter().next() else { continue };
        let view = tab.attr("data-view").await?.unwrap_or_default();
        if views.last() != Some(&view) {
            views.push(view);
        }
    }
    ensure!(
        views.ends_with(&["resources".to_owned(), "prompts".to_owned(), "resources".to_owned()]),
        "views followed: {views:?}"
    );
    ensure!(b.id("resource-contents").await?.text().await?.contains("Note 1:"), "the last read shows");
    b.css("[data-testid=view-tab][data-view=prompts]").await?.click().await?;
    ensure!(types_in(&b, "[data-testid=prompt-messages]").await? == ["text", "resource_link"], "the last prompt shows");
    b.screenshot("prompts-python-playback").await?;
    b.close().await?;
    drop(pg);

    // Replayed against the live server, and against the recording served as a mock: every
    // request re-sent and compared, none skipped.
    let kept = file.clone();
    let (file, script) = (file.to_string_lossy().into_owned(), script.into_owned());
    let mock = tests::command::bin().to_string_lossy().into_owned();
    let reports = tokio::task::spawn_blocking(move || -> Result<Vec<serde_json::Value>> {
        let live = run(&["replay", &file, "--json", "python3", &script])?;
        let mocked = run(&["replay", &file, "--json", &mock, "mock", &file])?;
        let mut out = Vec::new();
        for r in [live, mocked] {
            ensure!(r.code == 0, "{r}");
            out.push(serde_json::from_str(&r.stdout)?);
        }
        Ok(out)
    })
    .await??;
    for report in reports {
        let rows = report["rows"].as_array().cloned().unwrap_or_default();
        let methods: Vec<&str> = rows.iter().filter_map(|r| r["method"].as_str()).collect();
        for m in ["resources/list", "resources/read", "completion/complete", "prompts/list", "prompts/get"] {
            ensure!(methods.contains(&m), "{m} not replayed: {methods:?}");
        }
        let not_same: Vec<String> =
            rows.iter().filter(|r| r["state"] != "same").map(|r| format!("{} {}", r["method"], r["state"])).collect();
        ensure!(not_same.is_empty(), "rows not the same: {not_same:?}");
        ensure!(report["counts"]["skipped"] == 0, "{}", report["counts"]);
    }
    let _ = std::fs::remove_dir_all(downloads);
    let _ = std::fs::remove_file(kept);
    Ok(())
}
