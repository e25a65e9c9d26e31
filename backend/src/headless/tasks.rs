//! `mcp-playground tasks` and `mcp-playground task get|result|cancel ID`: the tasks a server
//! keeps, listed or acted on from the command line (where the server keeps them across
//! connections, e.g. one Streamable HTTP server process). stdout carries the answer.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command line's output")]

use std::process::ExitCode;
use std::time::Duration;

use shared::client::TaskRequest;
use shared::session::Session;
use shared::tasks::{KnownTask, TaskInfo};
use shared::timeline::{RowDirection, RowKind};

use super::commands::{FAILED, OK, connected, last_answer_text, print_outcome};
use crate::cli::{TaskAction, TaskArgs, ToolsArgs};

/// How long `task result` waits for a task to end.
const RESULT_PATIENCE: Duration = Duration::from_secs(3600);

/// `mcp-playground tasks SERVER…`
pub async fn tasks(args: ToolsArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = connected(&args.server, &args.out).await else { return Ok(ExitCode::from(FAILED)) };
    if let Err(e) = d.session.list_tasks() {
        eprintln!("error: {e}");
        d.disconnect().await;
        return Ok(ExitCode::from(FAILED));
    }
    let patience = Duration::from_secs_f64(args.out.timeout_s);
    let listed = d.until(|s| !s.task_book().listing, patience).await;
    let book = d.session.task_book().clone();
    d.disconnect().await;
    if let Err(stop) = listed {
        eprintln!("error: {stop}");
        return Ok(ExitCode::from(FAILED));
    }
    if let Some(e) = &book.list_error {
        eprintln!("error: tasks/list failed: {e}");
        return Ok(ExitCode::from(FAILED));
    }
    if args.out.json {
        let list: Vec<serde_json::Value> = book.tasks().iter().map(|t| task_json(&t.info)).collect();
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({"tasks": list}))?);
    } else if book.tasks().is_empty() {
        eprintln!("note: the server keeps no tasks");
    } else {
        for t in book.tasks() {
            println!("{}", line(t));
        }
    }
    Ok(ExitCode::from(OK))
}

/// `mcp-playground task get|result|cancel ID SERVER…`
pub async fn task(args: TaskArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = connected(&args.server, &args.out).await else { return Ok(ExitCode::from(FAILED)) };
    let id = args.id.clone();
    let request = match args.action {
        TaskAction::Get => TaskRequest::Get(id.clone()),
        TaskAction::Result => TaskRequest::Result(id.clone()),
        TaskAction::Cancel => TaskRequest::Cancel(id.clone()),
    };
    let method = request.method();
    // Its outcome is asked for once the task is known (an unknown one is said so plainly).
    if args.action == TaskAction::Result {
        let known = match d.session.ask_task(TaskRequest::Get(id.clone())) {
            Ok(()) => d.until(|s| answered(s, "tasks/get"), Duration::from_secs_f64(args.out.timeout_s)).await.is_ok(),
            Err(_) => false,
        };
        if !known || refused(&d.session, "tasks/get") {
            let said = say(&d.session, TaskAction::Get, &args, "tasks/get");
            d.disconnect().await;
            return Ok(ExitCode::from(said.max(FAILED)));
        }
        // 2026-07-28 has no `tasks/result`: the task is polled until its status brings it.
        if d.session.server().is_some_and(|s| s.task_extension) {
            let code = poll_to_outcome(&mut d, &args).await;
            d.disconnect().await;
            return Ok(ExitCode::from(code));
        }
    }
    if let Err(e) = d.session.ask_task(request) {
        eprintln!("error: {e}");
        d.disconnect().await;
        return Ok(ExitCode::from(FAILED));
    }
    let patience = match args.action {
        TaskAction::Result => RESULT_PATIENCE,
        _ => Duration::from_secs_f64(args.out.timeout_s),
    };
    let answered = d.until(|s| answered(s, method), patience).await;
    let code = match answered {
        Err(stop) => {
            eprintln!("error: {stop}");
            FAILED
        }
        Ok(()) => say(&d.session, args.action, &args, method),
    };
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// Polls a task (`tasks/get`) at its pace until its outcome comes with its status; prints it.
async fn poll_to_outcome(d: &mut super::Driver, args: &TaskArgs) -> u8 {
    let deadline = std::time::Instant::now() + RESULT_PATIENCE;
    loop {
        let book = d.session.task_book();
        let Some(known) = book.get(&args.id) else { return FAILED };
        if let Some(outcome) = &known.outcome {
            let raw = serde_json::to_string(outcome.raw()).ok();
            return print_outcome(outcome, raw, args.out.json);
        }
        if known.info.status == shared::tasks::TaskStatus::Cancelled {
            eprintln!("error: the task {} was cancelled", args.id);
            return FAILED;
        }
        if std::time::Instant::now() > deadline {
            eprintln!("error: the task {} did not end in time", args.id);
            return FAILED;
        }
        let wait =
            known.info.poll_interval_ms.unwrap_or(shared::tasks::DEFAULT_POLL_MS).max(shared::tasks::POLL_FLOOR_MS);
        tokio::time::sleep(Duration::from_secs_f64(wait / 1000.0)).await;
        let polls = count_answers(&d.session, "tasks/get");
        if d.session.ask_task(TaskRequest::Get(args.id.clone())).is_err() {
            return FAILED;
        }
        let patience = Duration::from_secs_f64(args.out.timeout_s);
        if d.until(|s| count_answers(s, "tasks/get") > polls, patience).await.is_err() {
            return FAILED;
        }
    }
}

/// How many answers to requests of `method` came.
fn count_answers(s: &Session, method: &str) -> usize {
    s.timeline()
        .rows()
        .iter()
        .filter(|r| r.direction == RowDirection::In && r.method.as_deref() == Some(method))
        .count()
}

/// Whether the request of `method` was answered (the only one of its kind sent).
fn answered(s: &Session, method: &str) -> bool {
    last_answer_text(s, method).is_some()
}

/// Whether the last answer to `method` was an error.
fn refused(s: &Session, method: &str) -> bool {
    let rows = s.timeline().rows();
    let last = rows.iter().rev().find(|r| r.direction == RowDirection::In && r.method.as_deref() == Some(method));
    last.is_some_and(|r| r.kind == RowKind::Error)
}

/// Prints the answer to `method` (asked for `action`); the exit code.
fn say(s: &Session, action: TaskAction, args: &TaskArgs, method: &str) -> u8 {
    let raw = last_answer_text(s, method);
    let known = s.task_book().get(&args.id);
    match (action, known) {
        (TaskAction::Result, Some(KnownTask { outcome: Some(outcome), .. })) => {
            print_outcome(outcome, raw, args.out.json)
        }
        (TaskAction::Get | TaskAction::Cancel, Some(t)) if !refused(s, method) => {
            if args.out.json {
                println!("{}", task_json(&t.info));
            } else {
                println!("{}", line(t));
            }
            OK
        }
        // 2026-07-28 acknowledges a cancel without the task.
        (TaskAction::Cancel, None) if !refused(s, method) => {
            println!("{}\tcancel requested", args.id);
            OK
        }
        _ => {
            // The server's own words, from its error.
            let said = raw
                .and_then(|r| serde_json::from_str::<serde_json::Value>(&r).ok())
                .and_then(|v| Some(format!("{} ({})", v["error"]["message"].as_str()?, v["error"]["code"])))
                .unwrap_or_else(|| "no readable answer".into());
            eprintln!("error: {method} {}: {said}", args.id);
            FAILED
        }
    }
}

/// `ID  STATUS  message`
fn line(t: &KnownTask) -> String {
    let message = t.info.status_message.as_deref().unwrap_or_default();
    let created = t.info.created_at.as_deref().unwrap_or_default();
    format!("{}\t{}\t{created}\t{message}", t.info.task_id, t.info.status.as_str())
}

fn task_json(t: &TaskInfo) -> serde_json::Value {
    serde_json::json!({
        "taskId": t.task_id, "status": t.status.as_str(), "statusMessage": t.status_message,
        "createdAt": t.created_at, "lastUpdatedAt": t.last_updated_at, "ttl": t.ttl_ms, "pollInterval": t.poll_interval_ms,
    })
}
