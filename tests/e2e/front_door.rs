//! The session cookie from the outside: what an attacker can send (a forged Origin, a
//! rebinding Host, no credential, a wrong cookie, the cookie of the relay on another port)
//! is refused; the printed URL signs a real browser in and leaves no token in its address
//! bar, history or scripts' reach; without it, a static page says which URL to open; a
//! `--host` beyond loopback is refused unless asked for.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use serde_json::json;
use tests::procs::descendants;
use tests::{Browser, Playground};

use tests::page;

/// Sends a raw `GET path` (a WebSocket upgrade when `upgrade`) with `headers` and returns
/// the status and the response's head.
fn request(pg: &Playground, path: &str, headers: &[(&str, &str)], upgrade: bool) -> Result<(u16, String)> {
    let mut s = TcpStream::connect(pg.authority())?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut head = format!("GET {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if upgrade {
        head.push_str(
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
        );
    } else {
        head.push_str("Connection: close\r\n");
    }
    write!(s, "{head}\r\n")?;
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") && s.read(&mut byte)? == 1 {
        answer.push(byte[0]);
    }
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.get(9..12).and_then(|c| c.parse().ok()).with_context(|| format!("no status in {answer:?}"))?;
    Ok((status, answer))
}

/// The `name=value` of the session cookie the relay sets for its printed URL.
async fn session_cookie(pg: &Playground) -> Result<String> {
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let answer = client.get(&pg.url).send().await?;
    ensure!(answer.status() == 303, "the printed URL answers {}", answer.status());
    let set = answer.headers().get("set-cookie").context("no Set-Cookie")?.to_str()?;
    Ok(set.split(';').next().unwrap_or_default().to_owned())
}

/// A request to `/api`: what it is, its `Host`, `Origin` and `Cookie`, and the status both
/// the upgrade and `/api/health` get (0: accepted, 101 and 200).
type Case<'a> = (&'a str, &'a str, Option<&'a str>, Option<&'a str>, u16);

#[tokio::test]
async fn forged_origins_rebinding_hosts_and_foreign_or_wrong_cookies_are_refused() -> Result<()> {
    let pg = Playground::start(&[])?;
    let other = Playground::start(&[])?;
    let ours = session_cookie(&pg).await?;
    let theirs = session_cookie(&other).await?;
    let (our_name, _) = ours.split_once('=').context("name=value")?;
    let (_, their_value) = theirs.split_once('=').context("name=value")?;
    let host = pg.authority();
    let port = host.rsplit(':').next().context("a port")?;
    let origin = format!("http://{host}");
    let other_origin = format!("http://{}", other.authority());
    let rebinding = format!("evil.example:{port}");
    let wrong = format!("{our_name}={}", "0".repeat(64));
    let token_as_cookie = format!("{our_name}={}", pg.token);
    let their_secret = format!("{our_name}={their_value}");
    let cases: [Case; 9] = [
        ("forged Origin", &host, Some("http://evil.example"), Some(&ours), 403),
        ("the Origin of the relay on another port", &host, Some(&other_origin), Some(&ours), 403),
        ("wrong Host (DNS rebinding)", &rebinding, None, Some(&ours), 403),
        ("no token, no cookie", &host, Some(&origin), None, 401),
        ("a wrong cookie", &host, Some(&origin), Some(&wrong), 401),
        ("the token as the cookie", &host, Some(&origin), Some(&token_as_cookie), 401),
        ("the cookie of the relay on another port", &host, Some(&origin), Some(&theirs), 401),
        ("another relay's secret under this relay's name", &host, Some(&origin), Some(&their_secret), 401),
        ("this relay's cookie", &host, Some(&origin), Some(&ours), 0),
    ];
    for (what, host, origin, cookie, expected) in cases {
        let mut headers = vec![("Host", host)];
        headers.extend(origin.map(|o| ("Origin", o)));
        headers.extend(cookie.map(|c| ("Cookie", c)));
        let (ws, _) = request(&pg, "/api/ws", &headers, true)?;
        let (health, _) = request(&pg, "/api/health", &headers, false)?;
        let (ws_expected, health_expected) = if expected == 0 { (101, 200) } else { (expected, expected) };
        ensure!(ws == ws_expected, "{what}: the upgrade got {ws}, not {ws_expected}");
        ensure!(health == health_expected, "{what}: /api/health got {health}, not {health_expected}");
    }
    ensure!(descendants(pg.pid()).is_empty(), "a refused request spawned a process");

    // The door hands out nothing to a wrong token, nor to a page of another site.
    let good = format!("/?token={}", pg.token);
    for (what, path, origin, expected) in [
        ("a wrong token", "/?token=not-the-token-0123456789", origin.as_str(), 401),
        ("a wrong one-time code", "/?code=0123456789abcdef", origin.as_str(), 401),
        ("the right token from a forged Origin", good.as_str(), "http://evil.example", 403),
        ("the right token", good.as_str(), origin.as_str(), 303),
    ] {
        let (status, head) = request(&pg, path, &[("Host", &host), ("Origin", origin)], false)?;
        ensure!(status == expected, "{what}: {status}, not {expected}");
        let sets = head.to_ascii_lowercase().contains("set-cookie:");
        ensure!(sets == (expected == 303), "{what}: Set-Cookie {sets} in {head}");
    }
    Ok(())
}

#[tokio::test]
async fn the_printed_url_signs_the_browser_in_and_leaves_no_token_behind() -> Result<()> {
    let (pg, b) = page::connected(Playground::start(&[])?).await?;
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == "echo"), "the page connected and listed tools");

    let href = b.client.execute("return window.location.href", vec![]).await?;
    ensure!(href == json!(format!("{}/", pg.base)), "the address bar holds {href}");
    let history = b.history().await?;
    ensure!(!history.iter().any(|u| u.contains(&pg.token) || u.contains("token=")), "the history holds {history:?}");
    let readable = b.client.execute("return document.cookie", vec![]).await?;
    ensure!(readable == json!(""), "the page's scripts read the cookie: {readable}");
    let cookies = b.client.get_all_cookies().await?;
    let port = pg.authority().rsplit(':').next().context("a port")?.to_owned();
    ensure!(cookies.len() == 1, "{cookies:?}");
    let cookie = &cookies[0];
    ensure!(cookie.name() == format!("mcp_playground_{port}") && cookie.value() != pg.token, "{cookie:?}");
    ensure!(cookie.http_only() == Some(true), "{cookie:?}");
    ensure!(format!("{:?}", cookie.same_site()) == "Some(Strict)", "{cookie:?}");
    ensure!(cookie.expires_datetime().is_none(), "a session cookie: {cookie:?}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_page_of_a_relay_started_again_is_told_to_open_the_new_url() -> Result<()> {
    let pg = Playground::start(&[])?;
    let port: u16 = pg.authority().rsplit(':').next().context("a port")?.parse()?;
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    drop(pg);
    b.wait_for("[data-testid=relay-status][data-state=lost]").await?;
    // The same port and token, a new run: the cookie of the old one opens nothing.
    let again = Playground::start_on(port)?;
    b.css("[data-testid=relay-status] button").await?.click().await?;
    let banner = tests::eventually(Duration::from_secs(20), "the refusal", || async {
        let Ok(banner) = b.css("[data-testid=relay-status][data-state=lost]").await else { return Ok(None) };
        let text = banner.text().await?;
        Ok(text.contains("refused").then_some(text))
    })
    .await?;
    ensure!(banner.contains("open the URL that mcp-playground printed"), "{banner}");
    b.client.goto(&again.url).await?;
    page::connect(&b).await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn without_the_printed_url_the_page_says_which_url_to_open() -> Result<()> {
    let pg = Playground::start(&[])?;
    let b = Browser::start().await?;
    b.client.goto(&format!("{}/", pg.base)).await?;
    let heading = b.css("h1").await?.text().await?;
    ensure!(heading == "Open the URL the relay printed", "{heading}");
    ensure!(b.all("[data-testid=connect-button]").await?.is_empty(), "the playground is not served");
    b.screenshot("front-door-light").await?;
    b.prefer_dark().await?;
    b.screenshot("front-door-dark").await?;
    let background = b.client.execute("return getComputedStyle(document.body).backgroundColor", vec![]).await?;
    ensure!(background == json!("rgb(15, 17, 23)"), "the dark theme: {background}");

    b.client.goto(&format!("{}/?token=not-the-token-0123456789", pg.base)).await?;
    let heading = b.css("h1").await?.text().await?;
    ensure!(heading == "This link does not open the playground", "{heading}");
    ensure!(b.client.get_all_cookies().await?.is_empty(), "a wrong token set a cookie");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_browser_the_relay_opens_gets_a_one_time_code_not_the_token() -> Result<()> {
    // The desktop's opener, as the relay finds it on PATH: here it notes what it was given.
    let dir = std::env::temp_dir().join(format!("mcp-playground-opener-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let opener = dir.join("xdg-open");
    std::fs::write(
        &opener,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/argv.tmp\"\nmv \"$(dirname \"$0\")/argv.tmp\" \"$(dirname \"$0\")/argv\"\n",
    )?;
    std::fs::set_permissions(&opener, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
    let token = format!("e2e-opener-token-{}", std::process::id());
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new(tests::root().join("target/debug/mcp-playground"));
    cmd.args(["--port", "0"]).env("MCP_PLAYGROUND_TOKEN", &token).env("PATH", path).env("DISPLAY", ":0");
    cmd.env_remove("WAYLAND_DISPLAY");
    let relay = tests::Launched::start(cmd)?;
    let line = &relay.first_line;
    ensure!(line.contains(&format!("?token={token}")), "the printed URL keeps the token: {line}");

    let argv = dir.join("argv");
    let given = tests::eventually(Duration::from_secs(20), "the opener to run", || async {
        Ok(std::fs::read_to_string(&argv).ok())
    })
    .await?;
    let _ = std::fs::remove_dir_all(&dir);
    ensure!(!given.contains(&token), "the browser's arguments hold the token: {given}");
    let url = given.trim();
    ensure!(url.contains("/?code=") && !url.contains('\n'), "one URL with a code: {given}");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let first = client.get(url).send().await?;
    ensure!(first.status() == 303 && first.headers().contains_key("set-cookie"), "{}", first.status());
    let again = client.get(url).send().await?;
    ensure!(again.status() == 401 && !again.headers().contains_key("set-cookie"), "a code works once");
    Ok(())
}

#[tokio::test]
async fn a_host_beyond_loopback_is_refused_without_allow_remote() -> Result<()> {
    // Documentation addresses (RFC 5737, RFC 3849), on no interface of this machine: a
    // relay that tried to listen there would fail to, so nothing here ever listens beyond
    // loopback, and the refusal must come first to be the error.
    for (args, code) in [
        (vec!["--no-open", "--port", "0", "--host", "192.0.2.1"], 1),
        (vec!["play", "missing.jsonl", "--no-open", "--port", "0", "--host", "2001:db8::1"], 1),
        (vec!["mock", "missing.jsonl", "--port", "0", "--host", "192.0.2.1"], 2),
    ] {
        let (status, stdout, stderr) = crate::security::failed_start(&args, None)?;
        ensure!(status == Some(code) && stdout.is_empty(), "{args:?}: {status:?} {stdout}");
        ensure!(
            stderr.contains("is not a loopback address") && stderr.contains("--allow-remote"),
            "{args:?}: {stderr}"
        );
    }
    Ok(())
}
