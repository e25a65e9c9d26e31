//! Links that open a tool: `mcp-playground --tool NAME --args JSON` opens the page with
//! that tool picked and its form filled, nothing sent; the URL follows the tool picked, so
//! a reload or another browser given the link opens it again; a link naming what the
//! server lacks, or arguments that are no object, is said plainly.

use std::time::Duration;

use anyhow::{Result, ensure};
use serde_json::json;
use tests::{Browser, Playground, command, eventually, page};

/// The tool the page shows, once one is.
async fn tool_shown(b: &Browser) -> Result<String> {
    Ok(b.id("tool-detail").await?.attr("data-tool-name").await?.unwrap_or_default())
}

/// Whether anything called a tool.
async fn calls_sent(b: &Browser) -> Result<usize> {
    Ok(page::timeline(b).await?.iter().filter(|r| r.method == "tools/call").count())
}

async fn location_hash(b: &Browser) -> Result<String> {
    Ok(b.client.execute("return location.hash", vec![]).await?.as_str().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn the_command_line_opens_a_tool_with_its_form_filled_and_calls_nothing() -> Result<()> {
    let args = r#"{"city": "Oslo & Bergen"}"#;
    let pg = Playground::start_with(&["--tool", "get_weather", "--args", args], &[])?;
    ensure!(pg.url.contains("#tool=get_weather&args="), "{}", pg.url);
    let (pg, b) = page::connected(pg).await?;
    eventually(Duration::from_secs(10), "the linked tool", || async {
        Ok((tool_shown(&b).await? == "get_weather").then_some(()))
    })
    .await?;
    ensure!(page::arguments(&b).await? == json!({"city": "Oslo & Bergen"}));
    // Given time, still nothing is called: the person presses Call.
    tokio::time::sleep(Duration::from_millis(500)).await;
    ensure!(calls_sent(&b).await? == 0, "nothing sent");
    ensure!(b.all("[data-testid=result-pane]").await?.is_empty(), "no result");
    ensure!(location_hash(&b).await? == "#tool=get_weather", "the URL says the tool");

    // The URL follows the tool picked; a reload opens that one.
    b.css("[data-testid=tool-item][data-tool-name=get_image]").await?.click().await?;
    eventually(Duration::from_secs(5), "the URL to follow", || async {
        Ok((location_hash(&b).await? == "#tool=get_image").then_some(()))
    })
    .await?;
    b.client.refresh().await?;
    page::connect(&b).await?;
    eventually(Duration::from_secs(10), "the tool after a reload", || async {
        Ok((tool_shown(&b).await? == "get_image").then_some(()))
    })
    .await?;
    b.close().await?;

    // Another browser given the link (with the relay's token) opens the same tool.
    let other = Browser::start().await?;
    let base = pg.url.split('#').next().unwrap_or_default();
    other.client.goto(&format!("{base}#tool=echo")).await?;
    page::connect(&other).await?;
    eventually(Duration::from_secs(10), "the shared link's tool", || async {
        Ok((tool_shown(&other).await? == "echo").then_some(()))
    })
    .await?;
    ensure!(calls_sent(&other).await? == 0);
    other.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_link_to_a_tool_the_server_lacks_or_with_bad_arguments_is_said() -> Result<()> {
    let pg = Playground::start(&[])?;
    let base = pg.url.split('#').next().unwrap_or_default().to_owned();
    let b = Browser::start().await?;
    b.client.goto(&format!("{base}#tool=no_such_tool")).await?;
    page::connect(&b).await?;
    eventually(Duration::from_secs(10), "the notice", || async {
        let text = b.id("notices").await?.text().await?;
        Ok(text.contains("no_such_tool").then_some(text))
    })
    .await?;
    ensure!(b.all("[data-testid=tool-detail]").await?.is_empty(), "no tool picked");
    b.close().await?;

    let b = Browser::start().await?;
    b.client.goto(&format!("{base}#tool=echo&args=%5B1%5D")).await?;
    page::connect(&b).await?;
    let text = b.id("notices").await?.text().await?;
    ensure!(text.contains("not a JSON object"), "{text}");
    b.close().await?;

    // The command line refuses arguments that are no object, and --args without --tool.
    let run = command::run(&["--tool", "echo", "--args", "[1]", "--no-open", "--port", "0"])?;
    ensure!(run.code == 2 && run.stderr.contains("not a JSON object"), "{run}");
    let run = command::run(&["--args", "{}", "--no-open", "--port", "0"])?;
    ensure!(run.code == 2 && run.stderr.contains("--tool"), "{run}");
    Ok(())
}
