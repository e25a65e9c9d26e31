//! Tasks (2025-11-25) against `server-everything`'s `simulate-research-query`, whose tool
//! requires a task: run to completion in the page (over stdio) and on the command line
//! (over stdio and Streamable HTTP), with the status changes shown; cancelled midway with
//! `tasks/cancel`; an elicitation asked while the task waits for input.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::command::run;
use tests::{Browser, NodeServer, Playground, eventually, page, server_everything};

const TOOL: &str = "simulate-research-query";

/// The methods of the timeline's requests to the server, in order.
async fn requests(b: &Browser) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for r in b.all("[data-testid=timeline-row][data-direction=out]").await? {
        out.push(r.attr("data-method").await?.unwrap_or_default());
    }
    Ok(out)
}

/// The task's statuses as the page showed them, until the call ends; the result's state.
async fn watch_task(b: &Browser) -> Result<(Vec<String>, String)> {
    let seen = std::cell::RefCell::new(Vec::<String>::new());
    let state = eventually(Duration::from_secs(40), "the task to end", || async {
        if let Some(t) = b.all("[data-testid=task-status]").await?.into_iter().next() {
            let status = t.attr("data-status").await?.unwrap_or_default();
            let mut seen = seen.borrow_mut();
            if seen.last() != Some(&status) {
                seen.push(status);
            }
        }
        let state = b.id("result-pane").await?.attr("data-state").await?.unwrap_or_default();
        Ok((state != "pending").then_some(state))
    })
    .await?;
    Ok((seen.into_inner(), state))
}

#[tokio::test]
async fn a_required_task_runs_to_completion_in_the_page_with_its_statuses() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let (_pg, b) = page::connected(Playground::start(&["node", &entry, "stdio"])?).await?;
    let badge =
        b.css(&format!("[data-testid=tool-item][data-tool-name=\"{TOOL}\"] [data-testid=task-support]")).await?;
    ensure!(badge.attr("data-support").await?.as_deref() == Some("required"));
    page::select_with_args(&b, TOOL, r#"{"topic": "rust"}"#).await?;
    b.id("task-ttl").await?;
    ensure!(b.all("[data-testid=task-toggle]").await?.is_empty(), "a required task has no switch");
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    // Mid-way: its status and message show.
    let working = b.css("[data-testid=task-status][data-status=working]").await?;
    ensure!(working.text().await?.contains("…") || working.text().await?.contains("..."));
    b.screenshot("task-working").await?;
    let (seen, state) = watch_task(&b).await?;
    ensure!(state == "ok", "{state} after {seen:?}");
    ensure!(
        seen.first().map(String::as_str) == Some("working") && seen.last().map(String::as_str) == Some("completed"),
        "{seen:?}"
    );
    let texts = page::result_texts(&b).await?;
    ensure!(texts.iter().any(|t| t.contains("Research Report: rust")), "{texts:?}");
    let history = b.all("[data-testid=task-status] .task-history li").await?;
    ensure!(history.len() >= 5, "{} statuses listed", history.len());
    let sent = requests(&b).await?;
    let polls = sent.iter().filter(|m| *m == "tasks/get").count();
    ensure!(polls >= 2 && sent.iter().any(|m| m == "tasks/result"), "{sent:?}");
    b.screenshot("task-completed").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_task_cancelled_in_the_page_sends_tasks_cancel_and_ends_cancelled() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let (_pg, b) = page::connected(Playground::start(&[&url])?).await?;
    page::select_with_args(&b, TOOL, r#"{"topic": "tasks"}"#).await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    b.css("[data-testid=task-status][data-status=working]").await?;
    b.id("cancel-button").await?.click().await?;
    let (seen, state) = watch_task(&b).await?;
    ensure!(state == "cancelled", "{state} after {seen:?}");
    let sent = requests(&b).await?;
    ensure!(sent.iter().any(|m| m == "tasks/cancel"), "{sent:?}");
    ensure!(!sent.iter().any(|m| m == "notifications/cancelled"), "a task is cancelled by request: {sent:?}");
    let status = b.css("[data-testid=task-status]").await?.attr("data-status").await?;
    ensure!(status.as_deref() == Some("cancelled"), "{status:?}");
    b.screenshot("task-cancelled").await?;
    b.close().await?;
    Ok(())
}

#[test]
fn the_command_line_waits_for_a_task_prints_its_statuses_and_its_result() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let r = run(&["call", TOOL, "--args", r#"{"topic":"rust"}"#, "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("# Research Report: rust"), "{r}");
    let statuses: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("task ")).collect();
    ensure!(statuses.first().is_some_and(|l| l.contains(" working: Gathering sources")), "{r}");
    ensure!(statuses.last().is_some_and(|l| l.contains(" completed")), "{r}");
    // Over Streamable HTTP, with an elicitation while the task waits for input.
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let dir = std::env::temp_dir().join(format!("mcp-playground-tasks-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let answers = dir.join("answers.json");
    std::fs::write(
        &answers,
        r#"{"elicitation": [{"action": "accept", "content": {"interpretation": "programming"}}]}"#,
    )?;
    let answers = answers.to_string_lossy().into_owned();
    let r = run(&["call", TOOL, "--args", r#"{"topic":"rust","ambiguous":true}"#, "--answers", &answers, &url])?;
    ensure!(r.code == 0 && r.stdout.contains("# Research Report: rust (programming)"), "{r}");
    ensure!(r.stderr.contains(" input_required: ") && r.stderr.contains("accepted from"), "{r}");
    // --no-wait: the task's id, at once.
    let r = run(&["call", TOOL, "--no-wait", "--args", r#"{"topic":"rust"}"#, &url])?;
    ensure!(r.code == 0 && r.stdout.trim().len() >= 8 && !r.stdout.contains("Research"), "{r}");
    // A tool that cannot be a task is refused as one, and nothing is sent.
    let r = run(&["call", "echo", "--task", "--arg", "message=hi", &url])?;
    ensure!(r.code == 3 && r.stderr.contains("does not run as a task"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
