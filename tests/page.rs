//! What page tests share: the fixture that starts the playground, opens its page in a
//! browser and connects ([`open`], [`connected`]), and the steps most tests take: connect,
//! pick a tool, call it, read the timeline.

use std::time::Duration;

use crate::{Browser, Playground, eventually};
use anyhow::{Context, Result, ensure};

/// A browser on the page of `pg`, its form free to edit: the connection the page makes by
/// itself has ended (see [`settle`]).
pub async fn open(pg: Playground) -> Result<(Playground, Browser)> {
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    settle(&b).await?;
    Ok((pg, b))
}

/// A browser on the page of `pg`, connected to its preset server by the page itself.
pub async fn connected(pg: Playground) -> Result<(Playground, Browser)> {
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    connect(&b).await?;
    Ok((pg, b))
}

/// Lets the page's own first connection end (connected or failed) and, if it connected,
/// disconnects, so that a test can fill the form and connect as a person would.
pub async fn settle(b: &Browser) -> Result<()> {
    let (state, _) = connection_becomes(b, &["connected", "error", "disconnected"], Duration::from_secs(30)).await?;
    if state == "connected" {
        b.id("connect-button").await?.click().await?;
        connection_becomes(b, &["disconnected"], Duration::from_secs(10)).await?;
    }
    Ok(())
}

/// Makes sure the page is connected: it waits for a connection under way (the page's own
/// on its first screen, say), else clicks Connect; fails fast with the page's reason on
/// `error`.
pub async fn connect(b: &Browser) -> Result<()> {
    let status = b.id("connection-status").await?;
    let now = status.attr("data-state").await?.unwrap_or_default();
    if now != "connecting" && now != "connected" {
        b.id("connect-button").await?.click().await?;
    }
    let (state, text) = connection_becomes(b, &["connected", "error"], Duration::from_secs(30)).await?;
    ensure!(state == "connected", "connection failed: {text}");
    Ok(())
}

/// Waits until the connection status is one of `states`; the state and what it says.
pub async fn connection_becomes(b: &Browser, states: &[&str], within: Duration) -> Result<(String, String)> {
    let status = b.id("connection-status").await?;
    let state = eventually(within, &format!("the connection to be {}", states.join(" or ")), || {
        let status = status.clone();
        async move {
            let state = status.attr("data-state").await?.unwrap_or_default();
            Ok(states.contains(&state.as_str()).then_some(state))
        }
    })
    .await?;
    Ok((state, status.text().await?))
}

/// Names of the listed tools, once the list is not empty.
pub async fn tool_names(b: &Browser) -> Result<Vec<String>> {
    b.wait_for("[data-testid=tool-item]").await?;
    let mut names = Vec::new();
    for item in b.all("[data-testid=tool-item]").await? {
        names.push(item.attr("data-tool-name").await?.context("tool-item without data-tool-name")?);
    }
    Ok(names)
}

/// Selects a tool, types raw JSON arguments, calls it and waits for a finished state.
/// Returns the result pane's `data-state`.
pub async fn call_tool(b: &Browser, tool: &str, args: &str) -> Result<String> {
    select_with_args(b, tool, args).await?;
    b.id("call-button").await?.click().await?;
    accept_if_asked(b).await?;
    eventually(Duration::from_secs(30), "the call to finish", || async {
        let Ok(pane) = b.id("result-pane").await else { return Ok(None) };
        let state = pane.attr("data-state").await?.unwrap_or_default();
        Ok((!state.is_empty() && state != "pending").then_some(state))
    })
    .await
}

/// Selects a tool and types raw JSON arguments (switching the form to its JSON editor).
pub async fn select_with_args(b: &Browser, tool: &str, args: &str) -> Result<()> {
    b.css(&format!("[data-testid=tool-item][data-tool-name=\"{tool}\"]")).await?.click().await?;
    b.css(&format!("[data-testid=tool-detail][data-tool-name=\"{tool}\"]")).await?;
    if b.all("[data-testid=raw-args-editor]").await?.is_empty() {
        b.id("raw-args-toggle").await?.click().await?;
    }
    let editor = b.id("raw-args-editor").await?;
    b.set_value(&editor, args).await
}

/// Accepts the confirmation dialog when the policy opened it (tools not marked read-only).
pub async fn accept_if_asked(b: &Browser) -> Result<()> {
    // The dialog opens synchronously on the click; one look is enough.
    if let Some(accept) = b.all("[data-testid=confirm-accept]").await?.into_iter().next() {
        accept.click().await?;
    }
    Ok(())
}

/// Texts of the result's `text` content items.
pub async fn result_texts(b: &Browser) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for item in b.all("[data-testid=result-content][data-content-type=text]").await? {
        out.push(item.text().await?);
    }
    Ok(out)
}

/// One timeline row's attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub direction: String,
    pub kind: String,
    pub method: String,
    pub id: Option<String>,
}

/// The timeline's rows as they are at one moment: read by one script, so rows the page
/// draws anew meanwhile (a request's row once its answer pairs with it) are never half read.
pub async fn timeline(b: &Browser) -> Result<Vec<Row>> {
    b.id("timeline").await?;
    let script = "return [...document.querySelectorAll('[data-testid=timeline] [data-testid=timeline-row]')]\
        .map(r => [r.dataset.direction || '', r.dataset.kind || '', r.dataset.method || '', r.dataset.id ?? null]);";
    let rows: Vec<(String, String, String, Option<String>)> =
        serde_json::from_value(b.client.execute(script, vec![]).await?)?;
    Ok(rows.into_iter().map(|(direction, kind, method, id)| Row { direction, kind, method, id }).collect())
}

/// Checks the timeline holds the last `tools/call` request and its paired response.
pub async fn assert_call_pair(b: &Browser) -> Result<()> {
    let rows = timeline(b).await?;
    let request = rows
        .iter()
        .rev()
        .find(|r| r.method == "tools/call" && r.kind == "request" && r.direction == "out")
        .context("no tools/call request in the timeline")?;
    let id = request.id.clone().context("the request row has no id")?;
    let response = rows
        .iter()
        .find(|r| r.kind == "response" && r.direction == "in" && r.id.as_deref() == Some(&id))
        .with_context(|| format!("no response with id {id} in the timeline: {rows:#?}"))?;
    ensure!(response.method == "tools/call", "the response is not paired with tools/call: {response:?}");
    Ok(())
}

/// Waits for the call to finish (the result pane leaves `pending`); its state and texts.
pub async fn finished(b: &Browser) -> Result<(String, String)> {
    let state = eventually(Duration::from_secs(30), "the call to finish", || async {
        let Ok(pane) = b.id("result-pane").await else { return Ok(None) };
        let state = pane.attr("data-state").await?.unwrap_or_default();
        Ok((!state.is_empty() && state != "pending").then_some(state))
    })
    .await?;
    Ok((state, result_texts(b).await?.join("\n")))
}

/// The arguments the form holds, read in its JSON editor; the form is shown again after.
pub async fn arguments(b: &Browser) -> Result<serde_json::Value> {
    let was_form = b.all("[data-testid=raw-args-editor]").await?.is_empty();
    if was_form {
        b.id("raw-args-toggle").await?.click().await?;
    }
    let text = b.id("raw-args-editor").await?.prop("value").await?.unwrap_or_default();
    if was_form {
        b.id("raw-args-toggle").await?.click().await?;
        b.id("tool-form").await?;
    }
    serde_json::from_str(&text).with_context(|| format!("the editor holds {text:?}"))
}
