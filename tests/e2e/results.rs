//! Result previews: every content type with the right `data-content-type` and state, media
//! that really loads (image natural width, audio duration), structured content checked
//! against the output schema, legacy results, large payloads, and nothing a server sends
//! ever becoming HTML.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::{Browser, Playground, eventually, server_everything};

use tests::page;

async fn content_types(b: &Browser) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for el in b.all("[data-testid=result-pane] [data-testid=result-content]").await? {
        out.push(el.attr("data-content-type").await?.unwrap_or_default());
    }
    Ok(out)
}

async fn js(b: &Browser, script: &str) -> Result<Value> {
    Ok(b.client.execute(script, vec![]).await?)
}

/// Waits until the first image in the result has loaded, and returns its natural width.
async fn image_width(b: &Browser) -> Result<u64> {
    eventually(Duration::from_secs(30), "the image to load", || async {
        let w = js(
            b,
            "const i = document.querySelector('[data-testid=result-content][data-content-type=image] img'); \
                       return i && i.complete ? i.naturalWidth : 0",
        )
        .await?;
        Ok(w.as_u64().filter(|w| *w > 0))
    })
    .await
}

async fn output_validation(b: &Browser) -> Result<String> {
    Ok(b.id("output-validation").await?.attr("data-state").await?.unwrap_or_default())
}

#[tokio::test]
async fn server_everything_results_render_by_type() -> Result<()> {
    let entry = server_everything()?;
    let (_pg, b) = page::connected(Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?).await?;

    ensure!(page::call_tool(&b, "get-tiny-image", "{}").await? == "ok");
    ensure!(content_types(&b).await?.contains(&"image".to_owned()));
    ensure!(image_width(&b).await? > 0);

    ensure!(page::call_tool(&b, "get-resource-links", r#"{"count": 2}"#).await? == "ok");
    let types = content_types(&b).await?;
    ensure!(types.iter().filter(|t| *t == "resource_link").count() == 2, "{types:?}");
    // The server offers resources: Open reads one in the Resources view.
    let link = b.css("[data-testid=resource-open]").await?;
    link.click().await?;
    let tab = b.css("[data-testid=view-tab][data-view=resources]").await?;
    ensure!(tab.attr("aria-selected").await?.as_deref() == Some("true"), "the link did not open the Resources view");
    let contents = b.id("resource-contents").await?.text().await?;
    ensure!(contents.contains("Resource"), "resource contents not shown: {contents}");
    ensure!(page::timeline(&b).await?.iter().any(|r| r.method == "resources/read" && r.kind == "response"));
    b.css("[data-testid=view-tab][data-view=tools]").await?.click().await?;

    ensure!(
        page::call_tool(&b, "get-resource-reference", r#"{"resourceType": "Blob", "resourceId": 2}"#).await? == "ok"
    );
    ensure!(content_types(&b).await?.contains(&"resource".to_owned()));

    ensure!(page::call_tool(&b, "get-structured-content", r#"{"location": "Chicago"}"#).await? == "ok");
    ensure!(output_validation(&b).await? == "valid");
    ensure!(b.id("structured-content").await?.text().await?.contains("humidity"));
    ensure!(b.id("text-agreement").await?.text().await?.contains("same JSON"));

    ensure!(
        page::call_tool(&b, "get-annotated-message", r#"{"messageType": "error", "includeImage": true}"#).await?
            == "ok"
    );
    let badges = b.all("[data-testid=content-annotation]").await?;
    ensure!(!badges.is_empty(), "annotations not shown as badges");
    ensure!(b.id("output-validation").await?.attr("data-state").await?.as_deref() == Some("absent"));

    let gz = r#"{"name": "a.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resource"}"#;
    ensure!(page::call_tool(&b, "gzip-file-as-resource", gz).await? == "ok");
    ensure!(content_types(&b).await? == ["resource"]);
    b.css("[data-testid=result-content] [data-testid=download]").await?;
    b.screenshot("results-server-everything").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn demo_results_cover_every_state() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;

    ensure!(page::call_tool(&b, "get_audio", r#"{"duration_ms": 800}"#).await? == "ok");
    let duration = eventually(Duration::from_secs(20), "the audio duration", || async {
        let d = js(
            &b,
            "const a = document.querySelector('[data-testid=result-content][data-content-type=audio] audio'); \
                        return a ? a.duration : 0",
        )
        .await?;
        Ok(d.as_f64().filter(|d| d.is_finite() && *d > 0.0))
    })
    .await?;
    ensure!((0.7..0.9).contains(&duration), "audio duration {duration}");

    ensure!(page::call_tool(&b, "get_invalid_structured", "{}").await? == "ok");
    ensure!(output_validation(&b).await? == "invalid");
    let why = b.id("output-validation").await?.text().await?;
    ensure!(why.contains("/count") && why.contains("/label"), "violations not listed with pointers: {why}");
    ensure!(b.id("structured-content").await?.text().await?.contains("-5"), "invalid data not shown");

    ensure!(page::call_tool(&b, "get_missing_structured", "{}").await? == "ok");
    ensure!(output_validation(&b).await? == "invalid");
    ensure!(b.id("output-validation").await?.text().await?.contains("no structuredContent"));

    ensure!(page::call_tool(&b, "fail", r#"{"reason": "on purpose"}"#).await? == "tool-error");
    ensure!(b.all("[data-testid=output-validation]").await?.is_empty(), "a tool error was validated");

    ensure!(page::call_tool(&b, "get_legacy_result", "{}").await? == "ok");
    ensure!(b.id("legacy-result").await?.text().await?.contains("42"));

    ensure!(page::call_tool(&b, "get_unusual_content", "{}").await? == "ok");
    ensure!(content_types(&b).await?.contains(&"unknown".to_owned()));
    ensure!(b.css("[data-content-type=unknown]").await?.text().await?.contains("hologram"));

    ensure!(page::call_tool(&b, "get_markdown", "{}").await? == "ok");
    b.css("[data-content-type=text] .seg:nth-child(2)").await?.click().await?;
    // Markdown's code arrives on first use: the rendering is there once the chunk is.
    b.css("[data-content-type=text] .markdown").await?;
    ensure!(!b.all("[data-content-type=text] .markdown h3").await?.is_empty(), "markdown not rendered");
    ensure!(b.all("[data-content-type=text] .markdown b").await?.is_empty(), "raw HTML in markdown became HTML");

    ensure!(page::call_tool(&b, "get_long_text", r#"{"kilobytes": 300}"#).await? == "ok");
    let shown = b.css("[data-content-type=text] .text-content").await?.text().await?.len();
    ensure!(shown < 150 * 1024, "long text not previewed ({shown} bytes shown)");
    b.id("show-all").await?.click().await?;
    let all =
        js(&b, "return document.querySelector('[data-content-type=text] .text-content').textContent.length").await?;
    ensure!(all.as_u64().unwrap_or(0) >= 300 * 1000, "show all did not show all: {all}");

    // A 20 MB image: the page stays responsive while it arrives and renders.
    let started = Instant::now();
    ensure!(page::call_tool(&b, "get_large_image", r#"{"megabytes": 20}"#).await? == "ok");
    let width = image_width(&b).await?;
    ensure!(width > 1000, "large image width {width}");
    let probe = Instant::now();
    js(&b, "return 1").await?;
    tests::say(&format!(
        "20 MB image: result shown and decoded after {:.1} s; a script round trip then took {} ms",
        started.elapsed().as_secs_f64(),
        probe.elapsed().as_millis()
    ));
    b.screenshot("results-demo-large-image").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn nothing_from_a_server_becomes_html() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    // The tool's description holds markup too: the tool list and detail show it as text.
    b.css("[data-testid=tool-item][data-tool-name=get_hostile_content]").await?.click().await?;
    ensure!(page::call_tool(&b, "get_hostile_content", "{}").await? == "ok");
    let text = b.css("[data-content-type=text] .text-content").await?.text().await?;
    ensure!(text.contains("<script>"), "markup not shown as text: {text}");
    let detail = b.id("tool-detail").await?.text().await?;
    ensure!(detail.contains("<img src=x"), "description markup not shown as text");
    let flags = js(
        &b,
        "return [window.__pwned, window.__pwned_name, window.__pwned_description, window.__pwned_link, \
                               document.querySelectorAll('img[src=\"x\"]').length, \
                               document.querySelectorAll('a[href^=\"javascript:\"]').length]",
    )
    .await?;
    ensure!(flags == serde_json::json!([null, null, null, null, 0, 0]), "server markup ran or was inserted: {flags}");
    let links = b.all("[data-content-type=resource_link] a").await?;
    let mut hrefs = Vec::new();
    for a in links {
        hrefs.push(a.attr("href").await?.context("a link without href")?);
    }
    ensure!(hrefs == ["https://example.com/docs"], "only the safe link may be a link: {hrefs:?}");
    b.close().await?;
    Ok(())
}
