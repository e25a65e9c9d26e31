//! The first screen does what the README says (issue 23, item 2): the page connects by
//! itself to the server the playground was started on, the demo server when none was
//! named, and a failed first connection leaves the form filled with the reason beside it.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Browser, Playground, page, server_everything};

/// The page, opened and left alone: no click.
async fn untouched(pg: &Playground) -> Result<(Browser, String, String)> {
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    let (state, text) = page::connection_becomes(&b, &["connected", "error"], Duration::from_secs(30)).await?;
    Ok((b, state, text))
}

#[tokio::test]
async fn with_no_server_named_the_page_connects_to_the_demo_server() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (b, state, text) = untouched(&pg).await?;
    ensure!(state == "connected", "{state}: {text}");
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("demo"));
    ensure!(b.id("server-info").await?.attr("title").await?.unwrap_or_default().contains("mcp-playground-demo"));
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == "echo"));
    // One connection: the page's own, not two.
    let inits = b.all("[data-testid=timeline-row][data-method=initialize][data-kind=request]").await?.len();
    ensure!(inits == 1, "{inits} initialize requests");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn with_a_server_named_the_page_connects_to_that_one() -> Result<()> {
    let entry = server_everything()?;
    let pg = Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?;
    let (b, state, text) = untouched(&pg).await?;
    ensure!(state == "connected", "{state}: {text}");
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("stdio"));
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == "get-env"));
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_failed_first_connection_leaves_the_form_filled_and_says_why() -> Result<()> {
    let pg = Playground::start(&["python3", "-c", "import sys; sys.exit(3)"])?;
    let (b, state, text) = untouched(&pg).await?;
    ensure!(state == "error", "{state}: {text}");
    ensure!(text.contains("exited") && text.contains('3'), "no reason: {text}");
    let command = b.id("connect-command").await?.prop("value").await?.unwrap_or_default();
    ensure!(command.starts_with("python3 -c"), "the form lost the command: {command:?}");
    // The form is free to mend and the button connects again.
    ensure!(b.id("connect-command").await?.prop("disabled").await?.as_deref() != Some("true"));
    ensure!(b.id("connect-button").await?.text().await? == "Connect");
    b.close().await?;
    Ok(())
}

/// A part whose code cannot be fetched (here the flow diagram's chunk) says so in its place
/// and offers a reload, and the rest of the page goes on: a failed load is never a panic,
/// which would stop the whole page.
#[tokio::test]
async fn a_part_whose_code_cannot_be_fetched_says_so_and_the_page_goes_on() -> Result<()> {
    let pg = Playground::start(&[])?;
    let b = Browser::start().await?;
    b.block_urls(&["*split_flow_view*"]).await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    b.id("flow-toggle").await?.click().await?;
    let said = b.id("part-failed").await?.text().await?.to_lowercase();
    ensure!(said.contains("could not be loaded from the playground") && said.contains("reload"), "{said}");
    b.screenshot("part-failed").await?;
    b.id("flow-toggle").await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "still here"}"#).await? == "ok", "the page stopped");
    ensure!(page::result_texts(&b).await?.iter().any(|t| t.contains("still here")));
    b.close().await?;
    Ok(())
}
