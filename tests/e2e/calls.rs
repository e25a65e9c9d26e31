//! Keeping a human in the loop and a clock on calls: the confirmation dialog and its
//! policy, progress bars that advance, cancel, timeouts, and tool lists that change.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use tests::{Browser, Playground, eventually, server_everything};

use tests::page;

async fn select(b: &Browser, tool: &str, args: &str) -> Result<()> {
    page::select_with_args(b, tool, args).await
}

async fn call_requests(b: &Browser) -> Result<usize> {
    Ok(b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?.len())
}

async fn result_state(b: &Browser) -> Result<String> {
    Ok(b.id("result-pane").await?.attr("data-state").await?.unwrap_or_default())
}

async fn wait_state(b: &Browser, want: &str, within: Duration) -> Result<()> {
    eventually(within, &format!("result state {want}"), || async {
        Ok((result_state(b).await.ok().as_deref() == Some(want)).then_some(()))
    })
    .await
}

/// Progress values seen on the bar until the call ends.
async fn watch_progress(b: &Browser) -> Result<Vec<f64>> {
    let mut seen: Vec<f64> = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    while tokio::time::Instant::now() < deadline {
        if let Some(bar) = b.all("[data-testid=progress-bar]").await?.into_iter().next()
            && let Ok(Some(p)) = bar.attr("data-progress").await
            && let Ok(p) = p.parse::<f64>()
            && seen.last() != Some(&p)
        {
            seen.push(p);
        }
        if result_state(b).await.ok().is_some_and(|s| s != "pending") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(seen)
}

#[tokio::test]
async fn confirmation_dialog_follows_the_policy() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    ensure!(b.id("confirm-policy").await?.prop("value").await?.as_deref() == Some("unsafe"));

    // A destructive tool: the dialog shows it, its hints and the exact arguments.
    let args = r#"{"confirm_phrase": "yes, really"}"#;
    select(&b, "delete_everything", args).await?;
    let before = call_requests(&b).await?;
    b.id("call-button").await?.click().await?;
    let dialog = b.id("confirm-dialog").await?;
    let text = dialog.text().await?;
    ensure!(
        text.contains("delete_everything") && text.contains("destructive") && text.contains("not trusted"),
        "{text}"
    );
    let shown: Value = serde_json::from_str(&b.id("confirm-arguments").await?.text().await?)?;
    ensure!(shown == json!({"confirm_phrase": "yes, really"}), "dialog shows {shown}");
    b.screenshot("confirm-dialog").await?;
    b.id("confirm-cancel").await?.click().await?;
    ensure!(b.all("[data-testid=confirm-dialog]").await?.is_empty(), "dialog still open");
    let sent = eventually(Duration::from_secs(2), "a tools/call row", || async {
        Ok((call_requests(&b).await? > before).then_some(()))
    })
    .await;
    ensure!(sent.is_err(), "Cancel sent the call");

    // Accept sends exactly what was shown.
    b.id("call-button").await?.click().await?;
    b.id("confirm-accept").await?.click().await?;
    wait_state(&b, "ok", Duration::from_secs(10)).await?;
    let rows = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?;
    rows.last().context("no call row")?.click().await?;
    let detail: Value = serde_json::from_str(&b.id("timeline-detail").await?.text().await?)?;
    ensure!(detail["params"]["arguments"] == shown, "sent {} but showed {shown}", detail["params"]["arguments"]);

    // A read-only tool does not ask under `unsafe`; `always` asks; `never` never does.
    select(&b, "echo", r#"{"message": "hi"}"#).await?;
    b.id("call-button").await?.click().await?;
    wait_state(&b, "ok", Duration::from_secs(10)).await?;
    ensure!(b.all("[data-testid=confirm-dialog]").await?.is_empty());
    b.id("confirm-policy").await?.select_by_value("always").await?;
    b.id("call-button").await?.click().await?;
    b.id("confirm-dialog").await?;
    b.id("confirm-cancel").await?.click().await?;
    b.id("confirm-policy").await?.select_by_value("never").await?;
    select(&b, "delete_everything", args).await?;
    let before = call_requests(&b).await?;
    b.id("call-button").await?.click().await?;
    ensure!(b.all("[data-testid=confirm-dialog]").await?.is_empty(), "policy never still asked");
    eventually(Duration::from_secs(10), "the call", || async { Ok((call_requests(&b).await? > before).then_some(())) })
        .await?;
    // The policy persists across reloads.
    b.client.refresh().await?;
    ensure!(b.id("confirm-policy").await?.prop("value").await?.as_deref() == Some("never"));
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn progress_cancel_timeout_and_list_changes_on_the_demo_server() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;

    select(&b, "slow_task", r#"{"steps": 5, "delay_ms": 400}"#).await?;
    b.id("call-button").await?.click().await?;
    let seen = watch_progress(&b).await?;
    ensure!(result_state(&b).await? == "ok", "slow task ended {}", result_state(&b).await?);
    ensure!(seen.len() >= 3 && seen.windows(2).all(|w| w[0] < w[1]), "progress did not advance: {seen:?}");

    // Cancel: notifications/cancelled goes out and the pane says cancelled.
    select(&b, "slow_task", r#"{"steps": 50, "delay_ms": 200}"#).await?;
    b.id("call-button").await?.click().await?;
    b.id("progress-bar").await?;
    b.id("cancel-button").await?.click().await?;
    wait_state(&b, "cancelled", Duration::from_secs(5)).await?;
    let rows = page::timeline(&b).await?;
    ensure!(rows.iter().any(|r| r.method == "notifications/cancelled" && r.direction == "out"), "no cancelled row");

    // A short timeout: the playground gives up and says timeout.
    let timeout = b.id("call-timeout").await?;
    b.set_value(&timeout, "0.5").await?;
    select(&b, "slow_task", r#"{"steps": 2, "delay_ms": 2000}"#).await?;
    b.id("call-button").await?.click().await?;
    wait_state(&b, "timeout", Duration::from_secs(10)).await?;
    let cancels = page::timeline(&b).await?.iter().filter(|r| r.method == "notifications/cancelled").count();
    ensure!(cancels == 2, "a timeout must send notifications/cancelled too ({cancels})");
    b.set_value(&timeout, "60").await?;

    // The list-changing tool: the page refreshes the list by itself and says so.
    ensure!(b.all("[data-testid=tool-item][data-tool-name=extra_tool]").await?.is_empty());
    select(&b, "toggle_extra_tool", "{}").await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    b.css("[data-testid=tool-item][data-tool-name=extra_tool]").await?;
    ensure!(b.id("notices").await?.text().await?.contains("tool list changed"));
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn server_everything_long_running_operation_reports_progress() -> Result<()> {
    let entry = server_everything()?;
    let (_pg, b) = page::connected(Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?).await?;
    b.id("confirm-policy").await?.select_by_value("never").await?;
    select(&b, "trigger-long-running-operation", r#"{"duration": 2, "steps": 4}"#).await?;
    b.id("call-button").await?.click().await?;
    let seen = watch_progress(&b).await?;
    ensure!(result_state(&b).await? == "ok", "ended {}", result_state(&b).await?);
    ensure!(seen.len() >= 2 && seen.windows(2).all(|w| w[0] < w[1]), "progress did not advance: {seen:?}");
    let total = b.all("[data-testid=timeline-row][data-method=\"notifications/progress\"]").await?.len();
    ensure!(total >= 3, "only {total} progress notifications in the timeline");
    b.close().await?;
    Ok(())
}
