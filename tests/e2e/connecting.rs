//! Connecting works the first time (issue 23, item 3): roots edited while no server is
//! connected are kept for the next connection, and never sent to a relay with no server
//! (whose refusal used to fail the connect that the same click started).

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Playground, page};

#[tokio::test]
async fn editing_the_roots_then_clicking_connect_connects() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.id("connect-button").await?.click().await?;
    page::connection_becomes(&b, &["disconnected"], Duration::from_secs(10)).await?;
    // Typed, not yet committed: the click on Connect blurs the editor, which commits it.
    let roots = b.id("roots-editor").await?;
    roots.click().await?;
    roots.send_keys("file:///tmp/project").await?;
    b.id("connect-button").await?.click().await?;
    let (state, text) = page::connection_becomes(&b, &["connected", "error"], Duration::from_secs(30)).await?;
    ensure!(state == "connected", "the first click failed: {text}");
    ensure!(b.id("roots-editor").await?.prop("value").await?.as_deref() == Some("file:///tmp/project"));
    b.close().await?;
    Ok(())
}

/// Item 4: a server that refuses `server/discover` is every 2025 server; the page falls back
/// to `initialize` and says so quietly, not with a red ERROR.
#[tokio::test]
async fn a_refused_discover_reads_as_a_fall_back() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let row = b.css("[data-testid=timeline-row][data-method=\"server/discover\"][data-kind=error]").await?;
    let kind = row.find(fantoccini::Locator::Css(".t-kind")).await?;
    ensure!(kind.text().await?.to_lowercase() == "fell back", "{}", kind.text().await?);
    ensure!(!kind.attr("class").await?.unwrap_or_default().contains("kind-error"), "shown as an error");
    let label = row.find(fantoccini::Locator::Css(".t-method")).await?.text().await?;
    ensure!(label == "server/discover · fell back to initialize", "{label}");
    b.screenshot("discover-fell-back").await?;
    b.close().await?;
    Ok(())
}
