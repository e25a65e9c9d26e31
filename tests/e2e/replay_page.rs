//! Replaying a recording against a live server in the page: row by row, with the tool
//! drift, the calls that may write confirmed first, and ignores.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, eventually, server_everything};

use tests::page;

/// Records a demo session in the page and saves it; returns the file's text.
async fn record_demo() -> Result<String> {
    let pg = Playground::start(&[])?;
    let b = Browser::start().await?;
    let downloads = b.allow_downloads().await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    page::call_tool(&b, "echo", r#"{"message": "again"}"#).await?;
    page::call_tool(&b, "get_weather", r#"{"city": "Porto"}"#).await?;
    page::call_tool(&b, "delete_everything", r#"{"confirm_phrase": "yes"}"#).await?;
    b.id("recording-export").await?.click().await?;
    let text = std::fs::read_to_string(b.downloaded(".jsonl").await?)?;
    let _ = std::fs::remove_dir_all(downloads);
    b.close().await?;
    Ok(text)
}

/// Opens `file` in a page connected to the playground's preset server and runs the replay.
async fn replay(pg: &Playground, file: &std::path::Path, confirm: bool) -> Result<(Browser, Vec<(String, String)>)> {
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    b.id("replay-run").await?.click().await?;
    // Either the question about the writes, or (with none to ask about) the finished run.
    b.css("[data-testid=confirm-dialog], [data-testid=replay-diff][data-state=done]").await?;
    if let Some(dialog) = b.all("[data-testid=confirm-dialog]").await?.into_iter().next() {
        let args = b.id("confirm-arguments").await?.text().await?;
        ensure!(args.contains("delete_everything") && args.contains("\"yes\""), "the exact call is shown: {args}");
        let button = if confirm { "confirm-accept" } else { "confirm-cancel" };
        dialog.find(fantoccini::Locator::Css(&format!("[data-testid={button}]"))).await?.click().await?;
    }
    b.css("[data-testid=replay-diff][data-state=done]").await?;
    let mut rows = Vec::new();
    for r in b.all("[data-testid=replay-diff-row]").await? {
        let method = r.attr("data-method").await?.unwrap_or_default();
        let tool = r.attr("data-tool-name").await?.unwrap_or_default();
        let state = r.attr("data-state").await?.unwrap_or_default();
        rows.push((format!("{method} {tool}").trim().to_owned(), state));
    }
    Ok((b, rows))
}

#[tokio::test]
async fn a_recording_replayed_against_the_same_and_another_server() -> Result<()> {
    let text = record_demo().await?;
    let file = std::env::temp_dir().join(format!("mcp-playground-replay-{}.jsonl", std::process::id()));
    std::fs::write(&file, &text)?;

    // The same server: every row the same, no drift; the write went again only after a yes.
    let pg = Playground::start(&[])?;
    let (b, rows) = replay(&pg, &file, true).await?;
    let calls: Vec<&(String, String)> = rows.iter().filter(|(m, _)| m.starts_with("tools/call")).collect();
    ensure!(calls.len() == 3, "{rows:?}");
    ensure!(rows.iter().all(|(_, s)| s == "same"), "{rows:?}");
    ensure!(b.all("[data-testid=replay-drift-item]").await?.is_empty());
    b.close().await?;

    // Declined: the write is not sent, and says so.
    let (b, rows) = replay(&pg, &file, false).await?;
    let write = rows.iter().find(|(m, _)| m == "tools/call delete_everything").context("the write's row")?;
    ensure!(write.1 == "skipped", "{rows:?}");
    b.close().await?;
    drop(pg);

    // Another server: the recorded tools are gone (breaking drift), the calls answer otherwise.
    let entry = server_everything()?.to_string_lossy().into_owned();
    let pg = Playground::start(&["node", &entry, "stdio"])?;
    let (b, rows) = replay(&pg, &file, true).await?;
    let drift = b.all("[data-testid=replay-drift-item][data-class=breaking][data-tool-name=get_weather]").await?;
    ensure!(!drift.is_empty(), "get_weather removed: breaking");
    let weather = rows.iter().find(|(m, _)| m == "tools/call get_weather").context("row")?;
    ensure!(weather.1 != "same", "{rows:?}");
    // Opened, a different row lists its changes by JSON Pointer.
    let row = b.css("[data-testid=replay-diff-row][data-method='initialize']").await?;
    ensure!(row.attr("data-state").await?.as_deref() == Some("different"), "another server says another name");
    row.find(fantoccini::Locator::Css(".diff-head")).await?.click().await?;
    let changes = b.css("[data-testid=replay-diff-row][data-method='initialize'] .diff-changes").await?.text().await?;
    ensure!(changes.contains("/result/serverInfo/name"), "{changes}");
    // Ignoring what differs turns the row into the same.
    b.set_value(
        &b.id("replay-ignore").await?,
        "/result/serverInfo\n/result/capabilities\n/result/instructions\n/result/protocolVersion",
    )
    .await?;
    b.id("replay-run").await?.click().await?;
    if let Some(accept) = b.all("[data-testid=confirm-accept]").await?.into_iter().next() {
        accept.click().await?;
    }
    eventually(Duration::from_secs(20), "the second run", || async {
        let row = b.css("[data-testid=replay-diff-row][data-method='initialize']").await?;
        let done = b.all("[data-testid=replay-diff][data-state=done]").await?.len() == 1;
        Ok((done && row.attr("data-state").await?.as_deref() == Some("same")).then_some(()))
    })
    .await?;
    b.screenshot("replay-diff").await?;
    b.close().await?;
    let _ = std::fs::remove_file(file);
    Ok(())
}
