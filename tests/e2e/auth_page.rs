//! The page's sign-in view without an authorization server: a recording of a remote
//! session's OAuth flow played back step by step, `auth-status` read (and photographed) at
//! each state, the timeline's sign-in rows, their filter and an exchange's detail.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Result, ensure};
use serde_json::json;
use tests::{Browser, Playground, eventually, page};

/// A recording of a sign-in: every state the page shows, with the exchanges between them.
fn recording(now_ms: u64) -> String {
    let issuer = "http://127.0.0.1:9/";
    let exchange = |step: &str, method: &str, url: &str, status: u16, request: &str, response: &str, ms: u64| {
        json!({"kind": "auth_exchange", "exchange": {
            "step": step, "method": method, "url": url, "status": status,
            "request": request, "response": response, "ms": ms}})
    };
    let events = [
        json!({"kind": "connected", "transport": "streamable-http", "url": "http://127.0.0.1:9/mcp", "headers": []}),
        json!({"kind": "auth", "auth": {"state": "signing_in", "step": "discovery"}}),
        exchange(
            "resource metadata",
            "GET",
            "http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp",
            200,
            "",
            r#"{"resource":"http://127.0.0.1:9/mcp","authorization_servers":["http://127.0.0.1:9/"]}"#,
            3,
        ),
        exchange(
            "registration",
            "POST",
            "http://127.0.0.1:9/register",
            201,
            r#"{"client_name":"MCP Playground","redirect_uris":["http://127.0.0.1:1/oauth/callback"]}"#,
            r#"{"client_id":"c-123","client_secret":"••••"}"#,
            12,
        ),
        json!({"kind": "auth", "auth": {"state": "approve", "issuer": issuer,
            "url": "http://127.0.0.1:9/authorize?response_type=code&client_id=c-123&state=S7&code_challenge=C8"}}),
        exchange(
            "token",
            "POST",
            "http://127.0.0.1:9/token",
            200,
            "grant_type=authorization_code&code=••••&code_verifier=••••",
            r#"{"access_token":"••••","token_type":"Bearer","expires_in":3600,"refresh_token":"••••"}"#,
            35,
        ),
        json!({"kind": "auth", "auth": {"state": "signed_in", "issuer": issuer, "scopes": ["mcp:tools", "profile"],
            "expires_at_ms": now_ms + 59 * 60_000 + 30_000}}),
        json!({"kind": "auth", "auth": {"state": "signed_out"}}),
        exchange(
            "refresh",
            "POST",
            "http://127.0.0.1:9/token",
            400,
            "grant_type=refresh_token&refresh_token=••••",
            r#"{"error":"invalid_grant"}"#,
            9,
        ),
        json!({"kind": "auth", "auth": {"state": "failed", "step": "refresh", "message": "invalid_grant: the refresh token expired"}}),
    ];
    let header = json!({"format": "mcp-playground-recording", "version": 1, "started_at_ms": now_ms, "recorded_by": "relay",
        "relay_version": "0", "target": {"transport": "http", "url": "http://127.0.0.1:9/mcp", "headers": {}}});
    let mut lines = vec![header.to_string()];
    lines.extend(events.iter().enumerate().map(|(i, e)| json!({"t": now_ms + i as u64 * 10, "event": e}).to_string()));
    lines.join("\n") + "\n"
}

async fn auth_state(b: &Browser) -> Result<(String, String)> {
    let status = b.id("auth-status").await?;
    Ok((status.attr("data-state").await?.unwrap_or_default(), status.text().await?))
}

/// `auth-status` now, if it is shown (without waiting for it).
async fn auth_now(b: &Browser) -> Result<(String, String)> {
    match b.all("[data-testid=auth-status]").await?.first() {
        Some(status) => Ok((status.attr("data-state").await?.unwrap_or_default(), status.text().await?)),
        None => Ok(Default::default()),
    }
}

/// Steps the playback until `auth-status` is in `state`; returns its text.
async fn step_to(b: &Browser, state: &str) -> Result<String> {
    eventually(Duration::from_secs(10), state, || async {
        let (now, text) = auth_now(b).await?;
        if now == state {
            return Ok(Some(text));
        }
        b.id("replay-step").await?.click().await?;
        Ok(None)
    })
    .await
}

#[tokio::test]
async fn every_sign_in_state_shows_in_the_connection_panel_and_the_timeline() -> Result<()> {
    // A live page: a remote transport offers the OAuth fields and says no sign-in yet.
    let (live, b) = page::open(Playground::start(&[])?).await?;
    b.id("connect-transport").await?.select_by_value("http").await?;
    b.set_value(&b.id("connect-url").await?, "http://127.0.0.1:9/mcp").await?;
    let (state, text) = auth_state(&b).await?;
    ensure!(state == "none" && text.contains("Not signed in"), "{state}: {text}");
    ensure!(b.id("auth-sign-in").await?.text().await?.contains("Sign in"));
    b.css(".oauth-fields > summary").await?.click().await?;
    b.set_value(&b.id("connect-oauth-client-id").await?, "playground-client").await?;
    b.set_value(&b.id("connect-oauth-scopes").await?, "mcp:tools profile").await?;
    b.screenshot("auth-none").await?;
    b.id("connect-transport").await?.select_by_value("demo").await?;
    ensure!(b.all("[data-testid=auth-status]").await?.is_empty(), "no sign-in for the demo server");
    b.close().await?;
    drop(live);

    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis() as u64;
    let file = tests::artifacts().join("auth-states.jsonl");
    std::fs::write(&file, recording(now_ms))?;
    let player = Playground::start_sub(&["play", &file.to_string_lossy()])?;
    let b = Browser::start().await?;
    b.client.goto(&player.url).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;

    let text = step_to(&b, "signing-in").await?;
    ensure!(text.contains("Signing in: discovery"), "{text}");
    b.screenshot("auth-signing-in").await?;
    let text = eventually(Duration::from_secs(10), "the approval", || async {
        b.id("replay-step").await?.click().await?;
        let (_, text) = auth_now(&b).await?;
        Ok(text.contains("Approve access at http://127.0.0.1:9/").then_some(text))
    })
    .await?;
    ensure!(b.id("auth-sign-in").await?.text().await?.contains("Open sign-in page"), "{text}");
    b.screenshot("auth-approve").await?;
    let text = step_to(&b, "signed-in").await?;
    for part in ["Signed in at http://127.0.0.1:9/", "scopes: mcp:tools profile", "expires in 59 min"] {
        ensure!(text.contains(part), "{part:?} in {text}");
    }
    ensure!(!b.all("[data-testid=auth-sign-out]").await?.is_empty(), "sign out is offered while signed in");
    b.screenshot("auth-signed-in").await?;
    step_to(&b, "signed-out").await?;
    b.screenshot("auth-signed-out").await?;
    let text = step_to(&b, "failed").await?;
    ensure!(text.contains("Sign-in failed at refresh") && text.contains("invalid_grant"), "{text}");
    b.screenshot("auth-failed").await?;

    // The timeline: sign-in rows marked, read as exchanges, filtered apart, detailed as text.
    let exchanges = b.all("[data-testid=timeline-row][data-auth=exchange]").await?;
    ensure!(exchanges.len() == 4, "{} exchange rows", exchanges.len());
    ensure!(b.all("[data-testid=timeline-row][data-auth=state]").await?.len() == 5);
    let token_row = exchanges[2].text().await?;
    ensure!(token_row.contains("auth · POST /token → 200") && token_row.contains("35 ms"), "{token_row}");
    b.id("timeline-auth-filter").await?.click().await?;
    eventually(Duration::from_secs(5), "only sign-in rows", || async {
        let rows = b.all("[data-testid=timeline-row]").await?.len();
        let auth = b.all("[data-testid=timeline-row][data-auth]").await?.len();
        Ok((rows == auth && rows == 9).then_some(()))
    })
    .await?;
    b.css("[data-testid=timeline-row][data-auth=exchange][data-seq='5']").await?.click().await?;
    let detail = b.id("auth-exchange-detail").await?.text().await?;
    for part in ["token", "POST http://127.0.0.1:9/token", "200", "code_verifier=••••", "\"access_token\": \"••••\""]
    {
        ensure!(detail.contains(part), "{part:?} in {detail}");
    }
    b.screenshot("auth-timeline").await?;
    b.prefer_dark().await?;
    b.screenshot("auth-timeline-dark").await?;
    b.close().await?;
    Ok(())
}
