//! Number fields send numbers as the person typed them, checked on the bytes a server
//! received: `1` stays `1` (a float `1.0` breaks strict servers), `2.50` arrives as `2.5`,
//! an integer typed as `1e3` arrives as `1000`, and an integer beyond 64 bits is refused on
//! its field instead of being sent as some other number.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, eventually, root};

use tests::page;

async fn type_number(b: &Browser, path: &str, text: &str) -> Result<()> {
    let el = b.css(&format!("[data-testid=field][data-field-path=\"{path}\"]")).await?;
    b.set_value(&el, text).await
}

/// Calls the selected tool and returns the request line the server read.
async fn call_and_read_bytes(b: &Browser) -> Result<String> {
    let before = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=response]").await?.len();
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(b).await?;
    eventually(Duration::from_secs(15), "the answer", || async {
        let n = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=response]").await?.len();
        Ok((n > before).then_some(()))
    })
    .await?;
    let texts = page::result_texts(b).await?;
    texts.into_iter().next().context("no text in the result")
}

#[tokio::test]
async fn numbers_reach_the_server_as_typed() -> Result<()> {
    let server = root().join("tests/servers/echo_bytes.py");
    let (_pg, b) = page::connected(Playground::start(&["python3", &server.to_string_lossy()])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=echo_bytes]").await?.click().await?;
    for path in ["/count", "/ratio"] {
        let include = format!("[data-testid=field-include][data-field-path=\"{path}\"]");
        if let Some(toggle) = b.all(&include).await?.into_iter().next()
            && toggle.prop("checked").await?.as_deref() != Some("true")
        {
            toggle.click().await?;
        }
    }
    type_number(&b, "/count", "1").await?;
    type_number(&b, "/ratio", "2.50").await?;
    let line = call_and_read_bytes(&b).await?;
    ensure!(line.contains(r#""arguments":{"count":1,"ratio":2.5}"#), "the server read {line}");

    type_number(&b, "/count", "1e3").await?;
    type_number(&b, "/ratio", "1").await?;
    let line = call_and_read_bytes(&b).await?;
    ensure!(line.contains(r#""arguments":{"count":1000,"ratio":1}"#), "the server read {line}");

    // Too large for any 64-bit integer: refused on the field, and nothing is sent.
    type_number(&b, "/count", "1e20").await?;
    let error = b.css("[data-testid=field-error][data-field-path=\"/count\"]").await?.text().await?;
    ensure!(error.contains("64-bit"), "unexpected field error: {error}");
    b.id("send-anyway").await?;
    let calls = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?.len();
    b.id("call-button").await?.click().await?;
    ensure!(b.all("[data-testid=confirm-dialog]").await?.is_empty(), "a refused number opened the dialog");
    let after = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?.len();
    ensure!(after == calls, "a refused integer was sent");
    b.screenshot("number-refused").await?;
    b.close().await?;
    Ok(())
}
