//! `@modelcontextprotocol/server-everything` from npm over stdio, preselected with `--`.

use anyhow::{Result, ensure};
use tests::{Playground, server_everything};

use tests::page;

#[tokio::test]
async fn server_everything_over_stdio_echoes() -> Result<()> {
    let entry = server_everything()?;
    let entry = entry.to_string_lossy();
    let (_pg, b) = page::open(Playground::start(&["node", &entry, "stdio"])?).await?;
    let transport = b.id("connect-transport").await?;
    ensure!(transport.prop("value").await?.as_deref() == Some("stdio"));
    let command = b.id("connect-command").await?.prop("value").await?.unwrap_or_default();
    ensure!(command.starts_with("node ") && command.ends_with(" stdio"), "preset command not shown: {command}");
    page::connect(&b).await?;

    let names = page::tool_names(&b).await?;
    ensure!(names.iter().any(|n| n == "echo"), "no echo in {names:?}");
    ensure!(names.len() >= 10, "only {} tools listed", names.len());

    let state = page::call_tool(&b, "echo", r#"{"message": "hello everything"}"#).await?;
    ensure!(state == "ok", "result state {state}");
    let texts = page::result_texts(&b).await?;
    ensure!(texts.iter().any(|t| t.contains("hello everything")), "echo text missing: {texts:?}");
    page::assert_call_pair(&b).await?;

    // server-everything writes to stderr at start; the page shows it line by line.
    let stderr = b.id("server-stderr").await?;
    ensure!(!stderr.find_all(fantoccini::Locator::Css("*")).await?.is_empty(), "no stderr lines shown");

    b.screenshot("server-everything-echo").await?;
    b.close().await?;
    Ok(())
}
