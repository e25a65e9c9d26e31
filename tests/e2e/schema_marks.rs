//! Every timeline row checked against the negotiated revision's official schema: a server
//! that lists tools without an `inputSchema` (`hostile.py bad-schemas`) gets its answer
//! marked `invalid`, with the pointer and the rule in the detail, while the rest of the
//! session is marked `valid` and goes on as before.

use anyhow::{Context, Result, ensure};
use tests::{Playground, root};

use tests::page;

#[tokio::test]
async fn a_tools_list_answer_that_breaks_the_schema_is_marked_with_its_pointer() -> Result<()> {
    let script = root().join("tests/servers/hostile.py").to_string_lossy().into_owned();
    let (_pg, b) = page::connected(Playground::start(&["python3", &script, "bad-schemas", "schema-marks"])?).await?;
    page::tool_names(&b).await?;
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

/// A server no one here wrote, the official `server-everything`, speaks its revision as the
/// schema says: every message of a session with it, both ways, is marked `valid` (a wrong
/// choice of definition would show here as a false alarm).
#[tokio::test]
async fn a_session_with_server_everything_is_valid_throughout() -> Result<()> {
    let entry = tests::server_everything()?.to_string_lossy().into_owned();
    let (_pg, b) = page::connected(Playground::start(&["node", &entry, "stdio"])?).await?;
    page::tool_names(&b).await?;
    let state = page::call_tool(&b, "echo", r#"{"message": "hi"}"#).await?;
    ensure!(state == "ok", "{state}");
    let mut marks = Vec::new();
    for row in b.all("[data-testid=timeline-row]").await? {
        let direction = row.attr("data-direction").await?.unwrap_or_default();
        let method = row.attr("data-method").await?.unwrap_or_default();
        let kind = row.attr("data-kind").await?.unwrap_or_default();
        let mark = row.attr("data-schema").await?;
        if direction != "relay" {
            marks.push(format!("{direction} {kind} {method}: {mark:?}"));
        }
    }
    ensure!(marks.len() >= 6, "{marks:#?}");
    ensure!(marks.iter().all(|m| m.ends_with("Some(\"valid\")")), "{marks:#?}");
    tests::say(&format!("schema marks: {} messages with server-everything, all valid", marks.len()));
    b.close().await?;
    Ok(())
}
