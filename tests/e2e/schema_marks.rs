//! Every timeline row checked against the negotiated revision's official schema: a server
//! that lists tools without an `inputSchema` (`hostile.py bad-schemas`) gets its answer
//! marked `invalid`, with the pointer and the rule in the detail, while the rest of the
//! session is marked `valid` and goes on as before.

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, root};

use crate::flows;

#[tokio::test]
async fn a_tools_list_answer_that_breaks_the_schema_is_marked_with_its_pointer() -> Result<()> {
    let script = root().join("tests/servers/hostile.py").to_string_lossy().into_owned();
    let pg = Playground::start(&["python3", &script, "bad-schemas", "schema-marks"])?;
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    flows::connect(&b).await?;
    flows::tool_names(&b).await?;
    let request = b.css("[data-testid=timeline-row][data-kind=request][data-method='tools/list']").await?;
    ensure!(request.attr("data-schema").await?.as_deref() == Some("valid"), "our tools/list request is valid");
    let init = b.css("[data-testid=timeline-row][data-kind=response][data-method=initialize]").await?;
    ensure!(init.attr("data-schema").await?.as_deref() == Some("valid"), "the initialize answer is valid");
    let answer = b.css("[data-testid=timeline-row][data-kind=response][data-method='tools/list']").await?;
    ensure!(answer.attr("data-schema").await?.as_deref() == Some("invalid"), "a tool without inputSchema");
    for event in b.all("[data-testid=timeline-row][data-direction=relay]").await? {
        ensure!(event.attr("data-schema").await?.is_none(), "relay events get no mark");
    }
    answer.click().await?;
    let note = b.id("timeline-schema").await.context("the detail says what the check found")?;
    let text = note.text().await?;
    ensure!(note.attr("data-schema").await?.as_deref() == Some("invalid"), "{text}");
    // The first tool (`echo`) is fine; the second, `no_schema`, has none.
    ensure!(text.contains("/result/tools/1/inputSchema") && text.contains("required"), "{text}");
    b.screenshot("schema-marks").await?;
    b.prefer_dark().await?;
    b.screenshot("schema-marks-dark").await?;
    b.close().await?;
    Ok(())
}
