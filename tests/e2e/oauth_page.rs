//! Signing in from the page to a real OAuth-protected server (`oauth_server.py`: the Python
//! SDK's own authorization server): `auth-sign-in` opens the approval tab from the click,
//! the person approves there, the page comes back signed in with the server's tools, and
//! no token (`pyat_`, `pyrt_`) reaches the page, its storage, its timeline or a recording.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Browser, NodeServer, Playground, eventually};

use tests::page;

/// Fails when `text` (named `what`) holds a token of the server.
fn no_token(what: &str, text: &str) -> Result<()> {
    for prefix in ["pyat_", "pyrt_", "pyac_"] {
        ensure!(!text.contains(prefix), "{what} holds a {prefix}… token: {text}");
    }
    Ok(())
}

#[tokio::test]
async fn signing_in_from_the_page_approves_in_a_new_tab_and_keeps_every_token_out() -> Result<()> {
    let log = std::env::temp_dir().join(format!("mcp-playground-oauth-page-{}.log", std::process::id()));
    let server = NodeServer::python_oauth(3600, &log)?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let pg = Playground::start(&[&url])?;
    let b = Browser::start().await?;
    let downloads = b.allow_downloads().await?;
    b.client.goto(&pg.url).await?;
    let page = b.client.window().await?;
    // The page connects by itself; the server's 401 starts the sign-in, which waits for
    // the person's approval.
    b.css("[data-testid=auth-status][data-state=signing-in]").await?;
    b.css("[data-testid=auth-sign-in].primary").await?;

    // The click opens the tab; the relay's approval URL is loaded in it.
    b.id("auth-sign-in").await?.click().await?;
    let tab = eventually(Duration::from_secs(30), "the approval tab", || async {
        Ok(b.client.windows().await?.into_iter().find(|w| *w != page))
    })
    .await?;
    b.client.switch_to_window(tab).await?;
    b.wait_for("#approve").await?.click().await?;
    eventually(Duration::from_secs(30), "the relay's callback page", || async {
        let url = b.client.current_url().await?;
        Ok(url.path().starts_with("/oauth/callback").then_some(()))
    })
    .await?;
    no_token("the callback page", &b.client.source().await?)?;
    b.client.close_window().await?;
    b.client.switch_to_window(page).await?;

    let (state, status) = eventually(Duration::from_secs(30), "signed in", || async {
        let el = b.id("auth-status").await?;
        let state = el.attr("data-state").await?.unwrap_or_default();
        Ok(matches!(state.as_str(), "signed-in" | "failed").then_some((state, el.text().await.unwrap_or_default())))
    })
    .await
    .map_err(|e| e.context("auth-status never settled"))?;
    ensure!(state == "signed-in", "{state}: {status}");
    ensure!(status.contains(&format!("Signed in at http://127.0.0.1:{}", server.port)), "{status}");
    ensure!(status.contains("mcp:tools"), "{status}");
    let mut tools = page::tool_names(&b).await?;
    tools.sort();
    ensure!(tools == ["echo", "whoami"], "{tools:?}");
    let state = page::call_tool(&b, "whoami", "{}").await?;
    ensure!(state == "ok", "whoami: {state}");
    let said = page::result_texts(&b).await?.join(" ");
    ensure!(said.contains("mcp:tools"), "{said}");
    b.screenshot("oauth-signed-in").await?;

    // No token anywhere the page can show or keep.
    no_token("the page", &b.client.source().await?)?;
    let storage =
        b.client.execute("return JSON.stringify(localStorage) + JSON.stringify(sessionStorage)", vec![]).await?;
    no_token("the page's storage", &storage.to_string())?;
    no_token("the timeline", &b.id("timeline").await?.text().await?)?;
    b.id("timeline-auth-filter").await?.click().await?;
    let exchanges = b.all("[data-testid=timeline-row][data-auth=exchange]").await?;
    ensure!(exchanges.len() >= 3, "{} sign-in exchanges", exchanges.len());
    for row in exchanges {
        row.click().await?;
        no_token("an exchange's detail", &b.id("auth-exchange-detail").await?.text().await?)?;
        no_token("a sign-in row's JSON", &b.id("timeline-detail").await?.text().await?)?;
    }
    b.id("recording-export").await?.click().await?;
    let recording = std::fs::read_to_string(b.downloaded(".jsonl").await?)?;
    no_token("the page's recording", &recording)?;
    ensure!(recording.contains("state=••••"), "the approval URL is masked in the recording");

    b.id("auth-sign-out").await?.click().await?;
    b.css("[data-testid=auth-status][data-state=signed-out]").await?;
    b.css("[data-testid=connection-status][data-state=disconnected]").await?;
    let _ = std::fs::remove_dir_all(downloads);
    b.close().await?;
    Ok(())
}
