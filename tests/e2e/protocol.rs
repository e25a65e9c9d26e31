//! Choosing the protocol revision: the headless command line pinned to each revision that
//! opens with `initialize`, and on `auto`, against `server-everything` over stdio,
//! Streamable HTTP and legacy SSE; the revision it prints and the recording's header.

use anyhow::{Result, ensure};
use tests::{NodeServer, page};

use tests::command::run;

fn everything() -> Result<String> {
    Ok(tests::server_everything()?.to_string_lossy().into_owned())
}

#[test]
fn cli_pins_a_revision_or_takes_the_newest_over_stdio() -> Result<()> {
    let entry = everything()?;
    let r = run(&["tools", "--protocol", "2024-11-05", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2024-11-05 (pinned)"), "{r}");
    ensure!(r.stdout.contains("echo") && r.stdout.contains("get-sum"), "the tools are listed: {r}");

    let r = run(&["tools", "--protocol", "auto", "node", &entry, "stdio"])?;
    ensure!(
        r.code == 0
            && r.stderr
                .contains("protocol 2025-11-25 (server/discover refused; offered 2025-11-25, the server accepted it)"),
        "{r}"
    );
    ensure!(r.stdout.contains("echo"), "{r}");

    // Without --protocol: auto.
    let r = run(&["call", "echo", "--arg", "message=hi", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("Echo: hi") && r.stderr.contains("protocol 2025-11-25"), "{r}");

    // server-everything predates 2026-07-28: pinned, that is the end of it.
    let r = run(&["tools", "--protocol", "2026-07-28", "node", &entry, "stdio"])?;
    ensure!(r.code == 2 && r.stderr.contains("pinned 2026-07-28, but the server refused server/discover"), "{r}");
    Ok(())
}

#[test]
fn cli_records_and_replays_the_revision_it_asked_for() -> Result<()> {
    let entry = everything()?;
    let dir = std::env::temp_dir().join(format!("mcp-playground-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("pinned.jsonl");
    let file_arg = file.to_string_lossy().into_owned();
    let r = run(&[
        "call",
        "echo",
        "--arg",
        "message=hi",
        "--protocol",
        "2025-03-26",
        "--record",
        &file_arg,
        "node",
        &entry,
        "stdio",
    ])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2025-03-26 (pinned)"), "{r}");
    let header = std::fs::read_to_string(&file)?.lines().next().unwrap_or_default().to_owned();
    ensure!(header.contains(r#""protocol":"2025-03-26""#), "the revision asked for: {header}");
    ensure!(header.contains(r#""protocol_version":"2025-03-26""#), "the revision negotiated: {header}");

    // The replay asks for what the recording asked for, unless told otherwise.
    let r = run(&["replay", &file_arg, "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2025-03-26 (pinned)"), "{r}");
    let r = run(&["replay", &file_arg, "--protocol", "auto", "node", &entry, "stdio"])?;
    let _ = std::fs::remove_dir_all(&dir);
    ensure!(
        r.code == 1 && r.stderr.contains("protocol 2025-11-25 (server/discover refused; offered 2025-11-25"),
        "{r}"
    );
    ensure!(
        r.stdout.contains(r#"/result/protocolVersion: "2025-03-26" → "2025-11-25""#),
        "the difference is shown: {r}"
    );
    Ok(())
}

#[test]
fn cli_speaks_each_revision_over_http_and_2024_over_legacy_sse() -> Result<()> {
    let http = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", http.port);
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        // The relay sends MCP-Protocol-Version with the revision agreed; a server that checks
        // it refuses a revision it does not know, so each call succeeding shows it is one.
        let r = run(&[
            "call",
            "echo",
            "--arg",
            "message=over http",
            "--protocol",
            revision,
            "--transport",
            "http",
            "--url",
            &url,
        ])?;
        ensure!(r.code == 0 && r.stdout.contains("Echo: over http"), "{revision}: {r}");
        ensure!(r.stderr.contains(&format!("protocol {revision} (pinned)")), "{revision}: {r}");
    }
    let sse = NodeServer::everything("sse")?;
    let url = format!("http://127.0.0.1:{}/sse", sse.port);
    let r = run(&[
        "call",
        "echo",
        "--arg",
        "message=over sse",
        "--protocol",
        "2024-11-05",
        "--transport",
        "sse",
        "--url",
        &url,
    ])?;
    ensure!(
        r.code == 0 && r.stdout.contains("Echo: over sse") && r.stderr.contains("protocol 2024-11-05 (pinned)"),
        "{r}"
    );
    Ok(())
}

/// The page: a pinned revision chosen in `connect-protocol` is the one spoken and shown.
#[tokio::test]
async fn page_pins_2025_03_26_and_shows_it() -> anyhow::Result<()> {
    use std::time::Duration;
    use tests::Playground;

    let entry = everything()?;
    let (_pg, b) = page::open(Playground::start(&["node", &entry, "stdio"])?).await?;
    let select = b.id("connect-protocol").await?;
    ensure!(select.prop("value").await?.as_deref() == Some("auto"), "auto is the default");

    // The stateless revision pinned: server-everything refuses server/discover, and the
    // page says why nothing more is tried.
    b.set_value(&select, "2026-07-28").await?;
    b.id("connect-button").await?.click().await?;
    let (_, text) = page::connection_becomes(&b, &["error"], Duration::from_secs(10)).await?;
    ensure!(text.contains("pinned 2026-07-28, but the server refused server/discover"), "{text}");

    b.set_value(&select, "2025-03-26").await?;
    page::connect(&b).await?;
    let info = b.id("server-info").await?;
    ensure!(info.attr("data-protocol-version").await?.as_deref() == Some("2025-03-26"));
    let shown = info.text().await?;
    ensure!(shown.contains("2025-03-26") && shown.contains("pinned"), "the revision and why: {shown}");
    let state = page::call_tool(&b, "echo", r#"{"message": "on 2025-03-26"}"#).await?;
    ensure!(state == "ok", "result state {state}");
    b.screenshot("protocol-pinned-light").await?;
    b.prefer_dark().await?;
    b.screenshot("protocol-pinned-dark").await?;
    b.close().await?;
    Ok(())
}

/// `--protocol` on the playground's command line reaches the page with its preset.
#[tokio::test]
async fn page_takes_the_revision_of_the_preset() -> anyhow::Result<()> {
    use tests::Playground;

    let entry = everything()?;
    let (_pg, b) =
        page::open(Playground::start_with(&["--protocol", "2024-11-05"], &["node", &entry, "stdio"])?).await?;
    page::connect(&b).await?;
    let select = b.id("connect-protocol").await?;
    ensure!(select.prop("value").await?.as_deref() == Some("2024-11-05"), "the preset's revision is chosen");
    let info = b.id("server-info").await?;
    ensure!(info.attr("data-protocol-version").await?.as_deref() == Some("2024-11-05"));
    b.close().await?;
    Ok(())
}

/// An imported `mcpServers` entry's `protocolVersion` is kept with the saved server (across
/// reloads) and chosen when it is picked; legacy SSE speaks 2024-11-05 from the page too.
#[tokio::test]
async fn page_keeps_the_revision_of_a_saved_server() -> anyhow::Result<()> {
    use tests::Playground;

    let server = NodeServer::everything("sse")?;
    let url = format!("http://127.0.0.1:{}/sse", server.port);
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("server-import-toggle").await?.click().await?;
    let config =
        format!(r#"{{"mcpServers": {{"old": {{"type": "sse", "url": "{url}", "protocolVersion": "2024-11-05"}}}}}}"#);
    b.set_value(&b.id("server-import").await?, &config).await?;
    b.id("server-import-button").await?.click().await?;
    b.client.refresh().await?;
    page::settle(&b).await?;
    b.id("saved-servers").await?.select_by_value("old").await?;
    let select = b.id("connect-protocol").await?;
    ensure!(select.prop("value").await?.as_deref() == Some("2024-11-05"), "the saved revision is chosen");
    page::connect(&b).await?;
    let info = b.id("server-info").await?;
    ensure!(info.attr("data-protocol-version").await?.as_deref() == Some("2024-11-05"));
    let state = page::call_tool(&b, "echo", r#"{"message": "over legacy sse"}"#).await?;
    ensure!(state == "ok", "result state {state}");
    b.close().await?;
    Ok(())
}
