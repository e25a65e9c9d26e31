//! The front door: WebSocket upgrades without the token, with a wrong one, from a foreign
//! Origin or to a foreign Host are refused, and nothing is spawned.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use futures_util::{SinkExt, StreamExt};
use tests::Playground;
use tests::procs::descendants;
use tokio_tungstenite::tungstenite::Message;

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
                let v: serde_json::Value = serde_json::from_str(&t)?;
                if let Some(pid) = v["event"]["pid"].as_u64() {
                    return Ok::<_, anyhow::Error>(pid);
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
    ensure!(get("/")? == 200, "the page itself loads without the token (it holds no secret)");
    Ok(())
}
