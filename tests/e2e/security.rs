//! The front door: WebSocket upgrades without the token, with a wrong one, from a foreign
//! Origin or to a foreign Host are refused, and nothing is spawned; the token itself (its
//! length, where it is given, its encoding); the page's Content-Security-Policy.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use futures_util::{SinkExt, StreamExt};
use tests::procs::descendants;
use tests::{Browser, Playground};
use tokio_tungstenite::tungstenite::Message;

use tests::page;

/// Sends a raw WebSocket upgrade and returns the status code.
fn upgrade_status(pg: &Playground, path: &str, host: &str, origin: Option<&str>) -> Result<u16> {
    let mut s = TcpStream::connect(pg.authority())?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    )?;
    let mut head = [0u8; 12];
    s.read_exact(&mut head)?;
    let line = String::from_utf8_lossy(&head).into_owned();
    line.get(9..12).and_then(|c| c.parse().ok()).with_context(|| format!("no status in {line:?}"))
}

#[tokio::test]
async fn upgrades_without_the_right_token_origin_or_host_are_refused() -> Result<()> {
    let pg = Playground::start(&[])?;
    let host = pg.authority();
    let good = format!("/api/ws?token={}", pg.token);
    let same_origin = format!("http://{host}");
    let cases = [
        ("no token", "/api/ws".to_owned(), host.clone(), Some(same_origin.as_str()), 401),
        ("wrong token", "/api/ws?token=guess".to_owned(), host.clone(), Some(same_origin.as_str()), 401),
        ("foreign Origin", good.clone(), host.clone(), Some("http://evil.example"), 403),
        (
            "foreign Host (DNS rebinding)",
            good.clone(),
            format!("evil.example:{}", host.rsplit(':').next().unwrap()),
            None,
            403,
        ),
        ("the right token", good.clone(), host.clone(), Some(same_origin.as_str()), 101),
    ];
    for (what, path, host, origin, expected) in &cases {
        let status = upgrade_status(&pg, path, host, *origin)?;
        ensure!(status == *expected, "{what}: expected {expected}, got {status}");
    }
    ensure!(descendants(pg.pid()).is_empty(), "a refused upgrade spawned a process");

    // Even a message sent after a refused upgrade has nowhere to go; with the token, the
    // same message does start a server: the check above could have failed.
    let url = format!("ws://{host}{good}");
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true).await?;
    ws.send(Message::text(r#"{"type":"connect","target":{"transport":"demo"}}"#)).await?;
    let pid = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(msg)) = ws.next().await {
            if let Message::Text(t) = msg {
                for text in tests::relay::messages_of(&t)? {
                    let v: serde_json::Value = serde_json::from_str(&text)?;
                    if let Some(pid) = v["event"]["pid"].as_u64() {
                        return Ok::<_, anyhow::Error>(pid);
                    }
                }
            }
        }
        anyhow::bail!("the socket closed before a spawned event")
    })
    .await
    .context("no spawned event within 10 s")??;
    ensure!(descendants(pg.pid()).contains(&(pid as u32)), "the demo server is not the relay's child");
    Ok(())
}

#[tokio::test]
async fn api_requests_need_the_token_too() -> Result<()> {
    let pg = Playground::start(&[])?;
    let get = |path: &str| -> Result<u16> {
        let mut s = TcpStream::connect(pg.authority())?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(s, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", pg.authority())?;
        let mut head = [0u8; 12];
        s.read_exact(&mut head)?;
        Ok(String::from_utf8_lossy(&head)[9..12].parse()?)
    };
    ensure!(get("/api/health")? == 401);
    ensure!(get(&format!("/api/health?token={}", pg.token))? == 200);
    ensure!(get("/")? == 200, "without the token, a page says which URL to open");
    Ok(())
}

/// The relay binary, started with `args` and the token in the environment (or none), its
/// output read to the end: for starts that fail before anything listens.
pub(crate) fn failed_start(args: &[&str], env_token: Option<&str>) -> Result<(Option<i32>, String, String)> {
    let bin = tests::root().join("target/debug/mcp-playground");
    let mut cmd = Command::new(bin);
    cmd.args(args).env("NO_COLOR", "1").env_remove("RUST_LOG").stdin(Stdio::null());
    match env_token {
        Some(t) => cmd.env("MCP_PLAYGROUND_TOKEN", t),
        None => cmd.env_remove("MCP_PLAYGROUND_TOKEN"),
    };
    #[allow(clippy::disallowed_methods, reason = "tests start the real binary")]
    let out = cmd.output().context("starting mcp-playground")?;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    Ok((out.status.code(), text(&out.stdout), text(&out.stderr)))
}

#[tokio::test]
async fn a_short_token_is_refused_and_one_on_the_command_line_is_warned_about() -> Result<()> {
    // A port taken: a start that gets past the token check ends there, without serving.
    let taken = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = taken.local_addr()?.port().to_string();
    for (args, env) in [(vec!["--token", "fifteen-chars.."], None), (vec![], Some("T"))] {
        let (code, stdout, stderr) = failed_start(&[&["--no-open"], &args[..], &["--port", &port]].concat(), env)?;
        ensure!(code == Some(1) && stdout.is_empty(), "{args:?} {env:?}: {code:?} {stdout}");
        ensure!(stderr.contains("must have at least 16"), "{args:?} {env:?}: {stderr}");
        ensure!(!stderr.contains("cannot listen"), "the token is checked before listening: {stderr}");
    }
    let long = "sixteen-chars-ok";
    let (_, _, stderr) = failed_start(&["--no-open", "--token", long, "--port", &port], None)?;
    ensure!(stderr.contains("cannot listen"), "a long token passes: {stderr}");
    ensure!(stderr.contains("WARN") && stderr.contains("MCP_PLAYGROUND_TOKEN instead"), "{stderr}");
    let (_, _, stderr) = failed_start(&["--no-open", "--port", &port], Some(long))?;
    ensure!(stderr.contains("cannot listen") && !stderr.contains("WARN"), "no warning for the environment: {stderr}");
    Ok(())
}

#[tokio::test]
async fn a_token_with_reserved_characters_works_from_the_printed_url() -> Result<()> {
    let token = "a/b+c:d e&f=g?h%i-0123456789";
    let bin = tests::root().join("target/debug/mcp-playground");
    let mut cmd = Command::new(bin);
    cmd.args(["--port", "0", "--no-open"]).env("MCP_PLAYGROUND_TOKEN", token);
    let relay = tests::Launched::start(cmd)?;
    let line = &relay.first_line;
    let url = url::Url::parse(line.trim().strip_prefix("MCP Playground: ").context("no URL line")?)?;
    let printed = url.query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned());
    ensure!(printed.as_deref() == Some(token), "the printed URL holds the token: {url}");

    let base = format!("http://{}:{}", url.host_str().context("host")?, url.port().context("port")?);
    let encoded: String = url::form_urlencoded::byte_serialize(token.as_bytes()).collect();
    let health = |query: String| {
        let base = base.clone();
        async move { anyhow::Ok(reqwest::get(format!("{base}/api/health?{query}")).await?.status().as_u16()) }
    };
    ensure!(health(format!("token={encoded}")).await? == 200);
    ensure!(health(format!("token={}", encoded.replace('+', "%20"))).await? == 200, "%20 is a space too");
    ensure!(health(format!("token={token}")).await? == 401, "an unencoded token is another token");

    // The relay reads the token from the printed URL, decoded, and trades it for a cookie.
    let b = Browser::start().await?;
    b.client.goto(url.as_str()).await?;
    page::connect(&b).await?;
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == "echo"));
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_page_is_served_with_a_strict_content_security_policy() -> Result<()> {
    let pg = Playground::start(&[])?;
    // The page as a browser gets it: the printed URL's cookie, then `/`.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build()?;
    let exchange = client.get(&pg.url).send().await?;
    let cookie = exchange.headers().get("set-cookie").context("the printed URL sets no cookie")?.to_str()?;
    let cookie = cookie.split(';').next().unwrap_or_default().to_owned();
    let exchange_csp = exchange.headers()["content-security-policy"].to_str()?.to_owned();
    let page = client.get(format!("{}/", pg.base)).header("cookie", &cookie).send().await?;
    let headers = page.headers().clone();
    let html = page.text().await?;
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let csp = header("content-security-policy");
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "connect-src 'self'",
        "img-src 'self' data: blob:",
        "media-src data: blob:",
        "font-src 'self'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ] {
        ensure!(csp.split(';').any(|d| d.trim() == directive), "{directive:?} missing from {csp:?}");
    }
    ensure!(exchange_csp == csp, "the redirect is under the policy too");
    ensure!(header("cross-origin-resource-policy") == "same-origin");
    ensure!(header("x-content-type-options") == "nosniff");
    ensure!(header("referrer-policy") == "no-referrer");
    ensure!(header("cache-control") == "no-store", "the page: {:?}", header("cache-control"));
    let api = client.get(format!("{}/api/health?token={}", pg.base, pg.token)).send().await?;
    ensure!(api.headers()["cache-control"] == "no-store" && api.headers()["content-security-policy"] == csp.as_str());
    // No inline script the policy would block: every script is a file of the page's own.
    ensure!(html.matches("<script").count() == html.matches("<script type=\"module\" src=\"/").count(), "{html}");
    let script = html.split("src=\"/").nth(1).and_then(|s| s.split('"').next()).context("a script")?;
    let asset = client.get(format!("{}/{script}", pg.base)).send().await?;
    ensure!(asset.status() == 200, "{script}: {}", asset.status());
    ensure!(asset.headers()["cache-control"].to_str()?.contains("immutable"), "hashed assets stay cacheable");

    // The page works under the policy, which reports every violation.
    let b = Browser::start().await?;
    b.on_new_document(
        "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', \
         (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
    )
    .await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "under a policy"}"#).await? == "ok");
    ensure!(page::call_tool(&b, "get_image", r#"{"width": 64, "height": 32}"#).await? == "ok");
    b.wait_for("[data-testid=result-content][data-content-type=image] img").await?;
    ensure!(page::call_tool(&b, "get_audio", "{}").await? == "ok");
    // The flow diagram's code is a chunk loaded on first use, under the same policy, and
    // served like every hashed asset: precompressed, immutable, as wasm.
    b.id("flow-toggle").await?.click().await?;
    b.id("flow-view").await?;
    let fetched = b
        .client
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.wasm'))",
            vec![],
        )
        .await?;
    let wasm: Vec<String> = serde_json::from_value(fetched)?;
    let chunk =
        wasm.iter().find(|n| n.contains("/split_flow_view")).with_context(|| format!("no flow chunk in {wasm:?}"))?;
    let served = client.get(chunk).header("accept-encoding", "br").send().await?;
    let h = |name: &str| served.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    ensure!(served.status() == 200 && h("content-type") == "application/wasm", "{chunk}: {}", served.status());
    ensure!(
        h("content-encoding") == "br" && h("cache-control").contains("immutable"),
        "{chunk}: {:?}",
        served.headers()
    );
    let violations = b.client.execute("return window.__cspViolations", vec![]).await?;
    ensure!(violations == serde_json::json!([]), "the policy blocked: {violations}");
    b.close().await?;
    Ok(())
}
