//! The built-in demo server, preselected with no server given: the newcomer's first click.

use anyhow::{Result, ensure};
use tests::Playground;

use tests::page;

#[tokio::test]
async fn demo_server_lists_tools_and_echoes() -> Result<()> {
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    let transport = b.id("connect-transport").await?;
    ensure!(transport.prop("value").await?.as_deref() == Some("demo"), "the demo server is not preselected");
    page::connect(&b).await?;

    let info = b.id("server-info").await?;
    ensure!(
        info.attr("data-protocol-version").await?.as_deref() == Some("2025-11-25"),
        "auto offers 2025-11-25 and the demo server speaks it"
    );
    ensure!(info.text().await?.contains("mcp-playground-demo"), "server name not shown");

    let names = page::tool_names(&b).await?;
    for expected in
        ["echo", "get_image", "get_audio", "get_resources", "get_weather", "fail", "delete_everything", "slow_task"]
    {
        ensure!(names.iter().any(|n| n == expected), "{expected} missing from {names:?}");
    }

    let message = "hello from the e2e test <b>not bold</b>";
    let state = page::call_tool(&b, "echo", &format!("{{\"message\": \"{message}\"}}")).await?;
    ensure!(state == "ok", "result state {state}");
    let texts = page::result_texts(&b).await?;
    ensure!(texts.iter().any(|t| t == message), "echoed text not shown as text: {texts:?}");
    page::assert_call_pair(&b).await?;

    // A tool error is not a protocol error.
    let state = page::call_tool(&b, "fail", r#"{"reason": "on purpose"}"#).await?;
    ensure!(state == "tool-error", "fail gave {state}");
    // A JSON-RPC error is shown as one, with its code and data.
    let state = page::call_tool(&b, "fail", r#"{"reason": "rpc", "as_protocol_error": true}"#).await?;
    ensure!(state == "protocol-error", "fail as a protocol error gave {state}");
    let error = b.id("protocol-error").await?.text().await?;
    ensure!(error.contains("-32603") && error.contains("rpc"), "protocol error not shown: {error}");

    // Structured output arrives beside the text.
    let state = page::call_tool(&b, "get_weather", r#"{"city": "Lisbon"}"#).await?;
    ensure!(state == "ok", "get_weather gave {state}");
    let structured = b.id("structured-content").await?.text().await?;
    ensure!(structured.contains("\"city\": \"Lisbon\""), "structured content not shown: {structured}");

    b.screenshot("demo-echo").await?;

    // The flow view draws the same session; clicking an arrow selects its message.
    b.id("flow-toggle").await?.click().await?;
    // Its code arrives on first use: the drawing is there once the chunk is.
    b.id("flow-view").await?;
    let marks = b.all("[data-testid=flow-view] .flow-mark").await?;
    let rows = page::timeline(&b).await?.len();
    ensure!(marks.len() == rows, "{} arrows for {rows} rows", marks.len());
    let last_call = b.css("[data-testid=flow-view] .flow-mark:last-of-type").await?;
    // In the middle of its scrolled box, so that the click lands on it and not on the edge
    // of the panel around that box.
    b.client.execute("arguments[0].scrollIntoView({block: 'center'})", vec![serde_json::to_value(&last_call)?]).await?;
    last_call.click().await?;
    let detail = b.id("timeline-detail").await?.text().await?;
    ensure!(detail.contains("\"result\""), "clicking an arrow did not select its message: {detail}");
    b.screenshot("demo-flow").await?;

    let toggle = b.id("theme-toggle").await?;
    let before = b.client.execute("return document.documentElement.dataset.theme || ''", vec![]).await?;
    toggle.click().await?;
    let after = b.client.execute("return document.documentElement.dataset.theme || ''", vec![]).await?;
    ensure!(before != after, "the theme toggle changed nothing");
    b.screenshot("demo-echo-other-theme").await?;
    b.close().await?;
    Ok(())
}
