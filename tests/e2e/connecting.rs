//! Connecting works the first time (issue 23, item 3): roots edited while no server is
//! connected are kept for the next connection, and never sent to a relay with no server
//! (whose refusal used to fail the connect that the same click started).

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{NodeServer, Playground, page};

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

/// Item 4: a Streamable HTTP server of 2025 refuses `server/discover` with an HTTP 400 that
/// names no id ("Server not initialized"): no banner, and the row reads as a fall back.
#[tokio::test]
async fn a_streamable_http_connect_that_works_is_quiet() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::connected(Playground::start(&[&url])?).await?;
    page::tool_names(&b).await?;
    ensure!(b.all("[data-testid=notices]").await?.is_empty(), "{}", b.id("notices").await?.text().await?);
    let refusal = b.css("[data-testid=timeline-row][data-kind=error]").await?;
    ensure!(refusal.attr("data-method").await?.as_deref() == Some("server/discover"));
    let label = refusal.find(fantoccini::Locator::Css(".t-method")).await?.text().await?;
    ensure!(label == "server/discover · fell back to initialize", "{label}");
    b.close().await?;
    Ok(())
}

/// What the page shows of a connection that failed: the reason in plain words beside the
/// form, and nothing else (no banner, no sign-in box, no `connected` event).
async fn failed_plainly(b: &tests::Browser) -> Result<String> {
    let (state, why) = page::connection_becomes(b, &["error", "connected"], Duration::from_secs(30)).await?;
    ensure!(state == "error", "{state}: {why}");
    ensure!(b.all("[data-testid=notices]").await?.is_empty(), "{}", b.id("notices").await?.text().await?);
    ensure!(b.all("[data-testid=auth-status]").await?.is_empty(), "a sign-in box for a server that asked none");
    ensure!(b.all("[data-testid=timeline-row][data-method=connected]").await?.is_empty(), "a connected event");
    Ok(why)
}

#[tokio::test]
async fn a_refused_connection_says_connection_refused_and_nothing_else() -> Result<()> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let pg = Playground::start(&[&url])?;
    let b = tests::Browser::start().await?;
    b.client.goto(&pg.url).await?;
    let why = failed_plainly(&b).await?;
    ensure!(why == format!("connection refused at 127.0.0.1:{port}"), "{why}");
    b.screenshot("connection-refused").await?;
    // The command line says the same.
    let run = tests::command::run(&["tools", &url])?;
    ensure!(
        run.code == 2 && run.stderr.trim_end() == format!("error: connection refused at 127.0.0.1:{port}"),
        "{run}"
    );
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_host_that_does_not_resolve_says_so() -> Result<()> {
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("connect-transport").await?.select_by_value("http").await?;
    b.set_value(&b.id("connect-url").await?, "http://no-such-host.invalid/mcp").await?;
    b.id("connect-button").await?.click().await?;
    let why = failed_plainly(&b).await?;
    ensure!(why.starts_with("unknown host no-such-host.invalid: the name did not resolve"), "{why}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_url_that_answers_a_web_page_is_not_an_mcp_endpoint() -> Result<()> {
    let site = NodeServer::html_site()?;
    let url = format!("http://127.0.0.1:{}/", site.port);
    for transport in ["auto", "http", "sse"] {
        let (_pg, b) = page::open(Playground::start(&[])?).await?;
        b.id("connect-transport").await?.select_by_value(transport).await?;
        b.set_value(&b.id("connect-url").await?, &url).await?;
        b.id("connect-button").await?.click().await?;
        let (state, why) = page::connection_becomes(&b, &["error", "connected"], Duration::from_secs(30)).await?;
        ensure!(state == "error", "{transport}: {state}: {why}");
        ensure!(why.starts_with("not an MCP endpoint (it answered an HTML page)"), "{transport}: {why}");
        ensure!(!why.contains("<h1>"), "{transport}: the page is dumped: {why}");
        b.close().await?;
        // A URL alone is `auto` on the command line.
        let args =
            if transport == "auto" { vec!["tools", &url] } else { vec!["tools", "--transport", transport, &url] };
        let run = tests::command::run(&args)?;
        ensure!(run.code == 2 && run.stderr.contains("error: not an MCP endpoint (it answered an HTML page)"), "{run}");
        ensure!(!run.stderr.contains("<h1>"), "{run}");
    }
    Ok(())
}
