//! Remote servers through the relay: `server-everything` on loopback in Streamable HTTP and
//! legacy SSE modes, auto-detection, custom headers (masked in the timeline), and
//! `--config`/`--server` from an `mcpServers` file.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Browser, NodeServer, Playground};

use tests::page;

/// Echo and a long-running operation with progress, on whatever server the page is on.
async fn echo_and_progress(b: &Browser) -> Result<()> {
    let names = page::tool_names(b).await?;
    ensure!(names.iter().any(|n| n == "echo"), "no echo in {names:?}");
    b.id("confirm-policy").await?.select_by_value("never").await?;
    ensure!(page::call_tool(b, "echo", r#"{"message": "over the network"}"#).await? == "ok");
    ensure!(page::result_texts(b).await?.iter().any(|t| t.contains("over the network")));
    page::assert_call_pair(b).await?;
    let before = b.all("[data-testid=timeline-row][data-method=\"notifications/progress\"]").await?.len();
    ensure!(page::call_tool(b, "trigger-long-running-operation", r#"{"duration": 1, "steps": 3}"#).await? == "ok");
    let after = b.all("[data-testid=timeline-row][data-method=\"notifications/progress\"]").await?.len();
    ensure!(after >= before + 2, "progress notifications: {before} then {after}");
    Ok(())
}

#[tokio::test]
async fn streamable_http_with_headers_masked() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::open(Playground::start_with(&["--url", &url, "--transport", "http"], &[])?).await?;
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("http"));
    ensure!(b.id("connect-url").await?.prop("value").await?.as_deref() == Some(url.as_str()));
    let headers = b.id("connect-headers").await?;
    b.set_value(&headers, "X-Api-Key: secret-key-123456").await?;
    page::connect(&b).await?;
    echo_and_progress(&b).await?;
    // The headers were sent, but the timeline never shows their values.
    let connected = b.css("[data-testid=timeline-row][data-method=connected]").await?;
    connected.click().await?;
    let detail = b.id("timeline-detail").await?.text().await?;
    ensure!(detail.contains("X-Api-Key") && !detail.contains("secret-key-123456"), "header not masked: {detail}");
    b.screenshot("remote-streamable-http").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn legacy_sse_and_auto_detection() -> Result<()> {
    let server = NodeServer::everything("sse")?;
    let url = format!("http://127.0.0.1:{}/sse", server.port);
    let (_pg, b) = page::open(Playground::start_with(&["--url", &url, "--transport", "sse"], &[])?).await?;
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("sse"));
    page::connect(&b).await?;
    echo_and_progress(&b).await?;

    // The same URL with the transport left to detection falls back to SSE and says so.
    b.id("connect-button").await?.click().await?;
    page::connection_becomes(&b, &["disconnected"], Duration::from_secs(10)).await?;
    b.id("connect-transport").await?.select_by_value("auto").await?;
    page::connect(&b).await?;
    ensure!(b.id("notices").await?.text().await?.contains("falling back to the legacy HTTP+SSE"));
    ensure!(page::call_tool(&b, "echo", r#"{"message": "detected"}"#).await? == "ok");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn config_file_selects_the_named_server() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let dir = std::env::temp_dir().join(format!("mcp-playground-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("servers.json");
    std::fs::write(
        &file,
        format!(
            r#"{{"mcpServers": {{"local": {{"command": "node", "args": ["x.js"]}}, "everything": {{"type": "http", "url": "{url}"}}}}}}"#
        ),
    )?;
    let (_pg, b) =
        page::open(Playground::start_with(&["--config", &file.to_string_lossy(), "--server", "everything"], &[])?)
            .await?;
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("http"));
    ensure!(b.id("connect-url").await?.prop("value").await?.as_deref() == Some(url.as_str()));
    page::connect(&b).await?;
    ensure!(!page::tool_names(&b).await?.is_empty());
    b.close().await?;
    // A name the file does not have: a precise error, and nothing listens.
    let bad = Playground::start_with(&["--config", &file.to_string_lossy(), "--server", "nope"], &[]);
    ensure!(bad.is_err(), "an unknown server name was accepted");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn python_server_requires_its_bearer_token() -> Result<()> {
    let server = NodeServer::python_with_bearer("s3cret-token")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::open(Playground::start_with(&["--url", &url, "--transport", "http"], &[])?).await?;
    // Without the header: refused, and the page says why.
    b.id("connect-button").await?.click().await?;
    let (state, why) = page::connection_becomes(&b, &["error"], Duration::from_secs(20)).await?;
    ensure!(
        state == "error" && why.contains("401") && why.contains("WWW-Authenticate"),
        "refusal not explained: {why}"
    );
    // With it: connected, tools listed, a tool called.
    b.set_value(&b.id("connect-headers").await?, "Authorization: Bearer s3cret-token").await?;
    page::connect(&b).await?;
    let names = page::tool_names(&b).await?;
    ensure!(names.iter().any(|n| n == "convert_temperature"), "{names:?}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn imported_servers_are_kept_and_picked() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("server-import-toggle").await?.click().await?;
    let area = b.id("server-import").await?;
    let bad = r#"{"mcpServers": {"broken": {"url": "http://x", "headers": {"A": 1}}}}"#;
    b.set_value(&area, bad).await?;
    b.id("server-import-button").await?.click().await?;
    let error = b.id("server-import-error").await?.text().await?;
    ensure!(error.contains("\"broken\"") && error.contains("headers"), "imprecise error: {error}");
    ensure!(b.id("server-import").await?.prop("value").await?.as_deref() == Some(bad), "bad JSON was lost");
    let good = format!(
        r#"{{"mcpServers": {{"everything": {{"type": "streamable-http", "url": "{url}"}}, "files": {{"command": "npx", "args": ["-y", "x"]}}}}}}"#
    );
    b.set_value(&b.id("server-import").await?, &good).await?;
    b.id("server-import-button").await?.click().await?;
    // Kept across reloads, then picked.
    b.client.refresh().await?;
    page::settle(&b).await?;
    b.id("saved-servers").await?.select_by_value("everything").await?;
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("http"));
    ensure!(b.id("connect-url").await?.prop("value").await?.as_deref() == Some(url.as_str()));
    page::connect(&b).await?;
    ensure!(!page::tool_names(&b).await?.is_empty());
    b.close().await?;
    Ok(())
}
