//! No process outlives its session: not after Disconnect, not after the tab is closed.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::procs::{alive, descendants};
use tests::{Browser, Playground, eventually, server_everything};

use tests::page;

/// The relay's server processes, once there are some.
async fn servers_of(pg: &Playground) -> Result<Vec<u32>> {
    eventually(Duration::from_secs(10), "a server process under the relay", || async {
        let d = descendants(pg.pid());
        Ok((!d.is_empty()).then_some(d))
    })
    .await
}

async fn all_gone(pids: &[u32]) -> Result<()> {
    eventually(Duration::from_secs(8), "the server processes to end", || async {
        Ok(pids.iter().all(|p| !alive(*p)).then_some(()))
    })
    .await
}

#[tokio::test]
async fn disconnect_ends_the_server_process() -> Result<()> {
    let entry = server_everything()?;
    let (pg, b) = page::connected(Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?).await?;
    let pids = servers_of(&pg).await?;
    ensure!(pids.iter().all(|p| alive(*p)));

    b.id("connect-button").await?.click().await?;
    all_gone(&pids).await?;
    page::connection_becomes(&b, &["disconnected"], Duration::from_secs(10)).await?;
    // The timeline tells the end too.
    let rows = page::timeline(&b).await?;
    ensure!(rows.iter().any(|r| r.direction == "relay" && r.method == "exited"), "no exit event in the timeline");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn closing_the_tab_ends_the_server_process() -> Result<()> {
    let pg = Playground::start(&[])?;
    let b = Browser::start().await?;
    let first = b.client.window().await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    let pids = servers_of(&pg).await?;

    // Open a second tab so the browser stays up, then close the playground's tab.
    let other = b.client.new_window(true).await?;
    b.client.switch_to_window(first).await?;
    b.client.close_window().await?;
    b.client.switch_to_window(other.handle).await?;
    all_gone(&pids).await?;
    ensure!(descendants(pg.pid()).is_empty(), "the relay still has children");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn stopping_the_relay_ends_its_servers() -> Result<()> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let pg = Playground::start(&[])?;
    let url = format!("ws://{}/api/ws?token={}", pg.authority(), pg.token);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true).await?;
    // A server that ignores both its stdin closing and SIGTERM: only a kill ends it.
    let stubborn = r#"{"type":"connect","target":{"transport":"stdio","command":"sh","args":["-c","trap '' TERM; sleep 300 & wait"]}}"#;
    ws.send(Message::text(stubborn)).await?;
    let pids = eventually(Duration::from_secs(10), "the server and its child", || async {
        let d = descendants(pg.pid());
        Ok((d.len() >= 2).then_some(d))
    })
    .await?;
    // SIGTERM, as a service manager or Ctrl-C would stop it.
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pg.pid() as i32), nix::sys::signal::Signal::SIGTERM)?;
    all_gone(&pids).await?;
    // The page is told: its socket closes.
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(msg)) = ws.next().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
    ensure!(closed.is_ok(), "the socket stayed open after the relay stopped");
    Ok(())
}
