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
