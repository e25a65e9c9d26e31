//! Tool icons (2025-11-25): a `data:` icon shown as it is, of the theme shown; `http` icons
//! on loopback fetched by the relay and shown as `data:` images; an oversized one, one that
//! is no image and one the server never declared refused by the relay, with its reason.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use tests::relay::Session;
use tests::{Browser, NodeServer, Playground, eventually, page};

/// The `tool-icon` of `tool`'s item: (`data-src-kind`, the start of `src`), once shown.
async fn icon_of(b: &Browser, tool: &str) -> Result<Option<(String, String)>> {
    let css = format!("[data-testid=tool-item][data-tool-name={tool}] img[data-testid=tool-icon]");
    let Some(img) = b.all(&css).await?.into_iter().next() else { return Ok(None) };
    let kind = img.attr("data-src-kind").await?.unwrap_or_default();
    let src = img.attr("src").await?.unwrap_or_default();
    Ok(Some((kind, src.chars().take(24).collect())))
}

async fn shown(b: &Browser, tool: &str) -> Result<(String, String)> {
    eventually(Duration::from_secs(10), &format!("the icon of {tool}"), || icon_of(b, tool)).await
}

#[tokio::test]
async fn data_icons_show_as_they_are_and_web_icons_through_the_relay() -> Result<()> {
    let server = NodeServer::python("icons_tools.py")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::connected(Playground::start(&[&url])?).await?;
    ensure!(shown(&b, "data_icon").await? == ("data".into(), "data:image/png;base64,iV".into()), "the light one");
    ensure!(shown(&b, "web_icon").await? == ("relay".into(), "data:image/png;base64,iV".into()));
    // An SVG is an image like any other: in an <img>, where its script never runs.
    ensure!(shown(&b, "svg_icon").await?.1.starts_with("data:image/svg+xml"));
    let owned = b.client.execute("return window.owned === undefined", vec![]).await?;
    ensure!(owned == true, "the SVG's script did not run");
    // Too big, and not an image: no icon (the relay's reasons are checked below).
    tokio::time::sleep(Duration::from_millis(300)).await;
    ensure!(icon_of(&b, "big_icon").await?.is_none() && icon_of(&b, "page_icon").await?.is_none());
    // The tool's detail shows it larger.
    b.css("[data-testid=tool-item][data-tool-name=web_icon]").await?.click().await?;
    let detail = b.css("[data-testid=tool-detail] img[data-testid=tool-icon][data-src-kind=relay]").await?;
    ensure!(detail.attr("width").await?.as_deref() == Some("24"));
    b.screenshot("icons-light").await?;
    // A dark theme shows the dark icon.
    b.prefer_dark().await?;
    b.client.refresh().await?;
    page::connect(&b).await?;
    ensure!(shown(&b, "data_icon").await?.1.starts_with("data:image/svg+xml"), "the dark one");
    b.screenshot("icons-dark").await?;
    b.close().await?;
    Ok(())
}

/// Asks the relay for an icon on `s` and returns its answer.
async fn ask(s: &mut Session, src: &str) -> Result<Value> {
    s.tx.command(&json!({"type": "icon", "src": src})).await?;
    loop {
        let msg = s.rx.next_msg().await?;
        let msgs = if let Value::Array(burst) = msg { burst } else { vec![msg] };
        if let Some(answer) = msgs.into_iter().find(|m| m["type"] == "icon" && m["src"] == src) {
            return Ok(answer);
        }
    }
}

#[tokio::test]
async fn the_relay_fetches_only_declared_images_within_its_limits() -> Result<()> {
    let server = NodeServer::python("icons_tools.py")?;
    let base = format!("http://127.0.0.1:{}", server.port);
    let pg = Playground::start(&[])?;
    let mut s = Session::start(&pg, json!({"transport": "http", "url": format!("{base}/mcp")})).await?;
    // Before the server lists its tools, it has declared nothing.
    let early = ask(&mut s, &format!("{base}/icon.png")).await?;
    ensure!(early["error"] == "the server declared no such icon", "{early}");
    let list = s.request("tools/list", json!({})).await?;
    ensure!(list["result"]["tools"].as_array().is_some_and(|t| t.len() == 5), "{list}");
    let ok = ask(&mut s, &format!("{base}/icon.png")).await?;
    ensure!(ok["data"].as_str().is_some_and(|d| d.starts_with("data:image/png;base64,")), "{ok}");
    let big = ask(&mut s, &format!("{base}/big.png")).await?;
    ensure!(big["error"].as_str().context("an error")?.contains("over 256 KB"), "{big}");
    let page = ask(&mut s, &format!("{base}/page.html")).await?;
    ensure!(page["error"].as_str().context("an error")?.contains("text/html, not an image"), "{page}");
    // A URL of the same server it never declared, and one elsewhere: refused unfetched.
    for src in [format!("{base}/mcp"), "http://169.254.169.254/latest/meta-data".to_owned()] {
        let refused = ask(&mut s, &src).await?;
        ensure!(refused["error"] == "the server declared no such icon", "{refused}");
    }
    Ok(())
}
