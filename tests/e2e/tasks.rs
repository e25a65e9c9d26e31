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
    // The status it ended in, however quickly it went there.
    let mut seen = seen.into_inner();
    if let Some(t) = b.all("[data-testid=task-status]").await?.into_iter().next() {
        let status = t.attr("data-status").await?.unwrap_or_default();
        if seen.last() != Some(&status) {
            seen.push(status);
        }
    }
    Ok((seen, state))
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
    ensure!(seen.last().map(String::as_str) == Some("completed"), "{seen:?}");
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

/// The Python task server of `tests/servers/python/` over stdio, as a server command.
fn task_server() -> String {
    tests::root().join("tests/servers/python/task_server.py").to_string_lossy().into_owned()
}

#[tokio::test]
async fn a_task_asks_its_question_in_the_page_and_ends_with_the_answer() -> Result<()> {
    let script = task_server();
    let (_pg, b) = page::connected(Playground::start(&["python3", &script])?).await?;
    page::select_with_args(&b, "ask_color", "{}").await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    // The task waits for input; its question comes as a dialog of its own.
    let color = b.css("[data-testid=elicitation-dialog] [data-testid=field][data-field-path=\"/color\"]").await?;
    b.css("[data-testid=task-status][data-status=input_required]").await?;
    b.screenshot("task-input-required").await?;
    b.set_value(&color, "teal").await?;
    b.id("elicitation-accept").await?.click().await?;
    let (seen, state) = watch_task(&b).await?;
    ensure!(state == "ok", "{state} after {seen:?}");
    let texts = page::result_texts(&b).await?;
    ensure!(texts.iter().any(|t| t == "Your colour: teal"), "{texts:?}");
    let history: Vec<String> = {
        let mut out = Vec::new();
        for li in b.all("[data-testid=task-status] .task-history li").await? {
            out.push(li.attr("data-status").await?.unwrap_or_default());
        }
        out
    };
    ensure!(
        history.iter().any(|s| s == "input_required") && history.last().map(String::as_str) == Some("completed"),
        "{history:?}"
    );
    b.close().await?;
    Ok(())
}

#[test]
fn the_command_line_sees_a_failing_task_a_lost_task_and_a_changing_pace() -> Result<()> {
    let script = task_server();
    let r = run(&["call", "fail_task", "--task", "python3", &script])?;
    ensure!(
        r.code == 2 && r.stderr.contains(" failed: The work broke") && r.stderr.contains("the work broke halfway"),
        "{r}"
    );
    let r = run(&["call", "never_ends", "python3", &script])?;
    ensure!(r.code == 2 && r.stderr.contains("outlived its time to live (1.5 s)"), "{r}");
    // A slower pace, once suggested, is kept: no poll comes sooner than it says.
    let dir = std::env::temp_dir().join(format!("mcp-playground-pace-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("pace.jsonl");
    let file_arg = file.to_string_lossy().into_owned();
    let r = run(&["call", "changing_pace", "--record", &file_arg, "python3", &script])?;
    ensure!(r.code == 0 && r.stdout.contains("Suggested 300 ms, then 900 ms"), "{r}");
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&file)?.lines().skip(1).map(serde_json::from_str).collect::<Result<_, _>>()?;
    let frames: Vec<(f64, String, serde_json::Value)> = lines
        .iter()
        .filter_map(|l| {
            Some((l["t"].as_f64()?, l["dir"].as_str()?.to_owned(), serde_json::from_str(l["frame"].as_str()?).ok()?))
        })
        .collect();
    let slower = frames
        .iter()
        .find(|(_, d, f)| d == "in" && f["result"]["pollInterval"] == 900)
        .map(|(t, ..)| *t)
        .ok_or_else(|| anyhow::anyhow!("no answer suggested 900 ms"))?;
    let polls_after: Vec<f64> = frames
        .iter()
        .filter(|(t, d, f)| *t > slower && d == "out" && f["method"] == "tasks/get")
        .map(|(t, ..)| *t)
        .collect();
    let mut last = slower;
    for t in &polls_after {
        ensure!(t - last >= 900.0, "a poll {:.0} ms after the last word, under the 900 ms asked", t - last);
        last = *t;
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn tasks_kept_by_a_server_are_listed_and_acted_on_from_new_connections() -> Result<()> {
    let server = NodeServer::python("task_server.py")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let r = run(&["call", "slow_report", "--no-wait", "--args", r#"{"steps": 4}"#, &url])?;
    ensure!(r.code == 0, "{r}");
    let id = r.stdout.trim().to_owned();
    let r = run(&["tasks", &url])?;
    ensure!(r.code == 0 && r.stdout.lines().any(|l| l.starts_with(&format!("{id}\t"))), "{r}");
    let r = run(&["task", "get", &id, "--json", &url])?;
    let v: serde_json::Value = serde_json::from_str(&r.stdout)?;
    ensure!(r.code == 0 && v["taskId"] == id.as_str(), "{r}");
    let r = run(&["task", "result", &id, &url])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Report after 4 stages", "{r}");
    let r = run(&["task", "cancel", &id, &url])?;
    ensure!(r.code == 2 && r.stderr.contains("already completed"), "an ended task is not cancelled: {r}");
    let r = run(&["task", "result", "no-such-task", &url])?;
    ensure!(r.code == 2 && r.stderr.contains("Task not found"), "{r}");
    // A running one is cancelled from another connection.
    let r = run(&["call", "never_ends", "--no-wait", &url])?;
    let id = r.stdout.trim().to_owned();
    let r = run(&["task", "cancel", &id, &url])?;
    ensure!(r.code == 0 && r.stdout.contains("\tcancelled\t"), "{r}");
    Ok(())
}

#[test]
fn a_recorded_task_replays_by_its_outcome_and_mocks_at_its_recorded_statuses() -> Result<()> {
    let script = task_server();
    let dir = std::env::temp_dir().join(format!("mcp-playground-task-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("report.jsonl").to_string_lossy().into_owned();
    let r = run(&["call", "slow_report", "--args", r#"{"steps": 3}"#, "--record", &file, "python3", &script])?;
    ensure!(r.code == 0, "{r}");
    let text = std::fs::read_to_string(&file)?;
    ensure!(text.contains("tasks/get") && text.contains("tasks/result"), "the task's whole life is recorded");
    // Replayed: a new task, new ids and times, the same outcome.
    let r = run(&["replay", &file, "--allow-writes", "python3", &script])?;
    ensure!(r.code == 0 && r.stdout.contains("✓ same      tools/call slow_report"), "{r}");
    std::fs::write(&file, text.replace("Report after 3 stages", "Report after 2 stages"))?;
    let r = run(&["replay", &file, "--allow-writes", "python3", &script])?;
    ensure!(
        r.code == 1
            && r.stdout.contains(r#"/result/content/0/text: "Report after 2 stages" → "Report after 3 stages""#),
        "{r}"
    );
    // Mocked: the recorded statuses, in order, then the recorded outcome.
    let me = tests::command::bin().to_string_lossy().into_owned();
    let r = run(&["call", "slow_report", "--args", r#"{"steps": 3}"#, &me, "mock", &file])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Report after 2 stages", "{r}");
    // Which stages the recording holds depends on when its polls fell (a stage lasts as
    // long as the poll interval); the mock gives those, in their order, and no others.
    let recorded: Vec<&str> =
        ["Stage 1 of 3", "Stage 2 of 3", "Stage 3 of 3"].into_iter().filter(|s| text.contains(s)).collect();
    let statuses: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("task ")).collect();
    let mut working: Vec<&str> = statuses.iter().filter_map(|l| l.split("working: ").nth(1)).collect();
    working.dedup();
    ensure!(!recorded.is_empty() && working == recorded, "{working:?} vs the recorded {recorded:?}: {r}");
    ensure!(statuses.last().is_some_and(|l| l.ends_with("completed: Done")), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn the_tasks_panel_lists_the_servers_tasks_and_cancels_one() -> Result<()> {
    let server = NodeServer::python("task_server.py")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    // A task started from another connection: listed when the page connects.
    let r = run(&["call", "slow_report", "--no-wait", "--args", r#"{"steps": 2}"#, &url])?;
    ensure!(r.code == 0, "{r}");
    let earlier = r.stdout.trim().to_owned();
    let (_pg, b) = page::connected(Playground::start(&[&url])?).await?;
    let item = b.css(&format!("[data-testid=tasks-panel] [data-testid=task-item][data-task-id=\"{earlier}\"]")).await?;
    ensure!(
        item.attr("data-tool-name").await?.unwrap_or_default().is_empty(),
        "another connection's task has no known tool"
    );
    // One of the page's own, long enough to be cancelled from the panel.
    page::select_with_args(&b, "slow_report", r#"{"steps": 40}"#).await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    let own = b.css("[data-testid=task-item][data-tool-name=slow_report][data-status=working]").await?;
    let id = own.attr("data-task-id").await?.unwrap_or_default();
    // Another tool picked, then the task again: its call and status are back.
    b.css("[data-testid=tool-item][data-tool-name=fail_task]").await?.click().await?;
    own.find(fantoccini::Locator::Css(".task-open")).await?.click().await?;
    b.css("[data-testid=tool-detail][data-tool-name=slow_report]").await?;
    b.css(&format!("[data-testid=task-status][data-task-id=\"{id}\"]")).await?;
    b.screenshot("tasks-panel").await?;
    // Its rows in the timeline, by its id.
    own.find(fantoccini::Locator::Css(".task-actions button")).await?.click().await?;
    let filter = b.id("timeline-filter").await?.prop("value").await?;
    ensure!(filter.as_deref() == Some(id.as_str()), "{filter:?}");
    let rows = eventually(Duration::from_secs(10), "the task's rows", || async {
        let rows = page::timeline(&b).await?;
        Ok((!rows.is_empty()).then_some(rows))
    })
    .await?;
    for r in rows {
        ensure!(r.method.starts_with("tasks/"), "{} shown for the task's id", r.method);
    }
    b.css(&format!("[data-testid=task-item][data-task-id=\"{id}\"] [data-testid=task-cancel]")).await?.click().await?;
    b.css(&format!("[data-testid=task-item][data-task-id=\"{id}\"][data-status=cancelled]")).await?;
    let state = b.id("result-pane").await?.attr("data-state").await?;
    ensure!(state.as_deref() == Some("cancelled"), "{state:?}");
    // One left running: no longer watched, then picked in the panel for its outcome.
    page::select_with_args(&b, "slow_report", r#"{"steps": 3}"#).await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    b.id("task-unwatch").await?.click().await?;
    b.css("[data-testid=result-pane][data-state=unwatched]").await?;
    let left = b.css("[data-testid=task-item][data-tool-name=slow_report][data-status=working]").await?;
    let left_id = left.attr("data-task-id").await?.unwrap_or_default();
    left.find(fantoccini::Locator::Css(".task-open")).await?.click().await?;
    let outcome =
        b.css(&format!("[data-testid=task-item][data-task-id=\"{left_id}\"] [data-testid=task-outcome]")).await?;
    ensure!(outcome.text().await?.contains("Report after 3 stages"));
    b.css(&format!("[data-testid=task-item][data-task-id=\"{left_id}\"][data-status=completed]")).await?;
    b.screenshot("tasks-panel-outcome").await?;
    b.close().await?;
    Ok(())
}

#[test]
fn at_2026_07_28_a_task_is_the_servers_choice_and_its_questions_go_by_tasks_update() -> Result<()> {
    let script = task_server();
    let server = ["python3", script.as_str(), "--v2026"];
    let mut args = vec!["call", "slow_report"];
    args.extend(server);
    let r = run(&args)?;
    ensure!(r.code == 0 && r.stdout.trim() == "Report after 3 stages", "{r}");
    ensure!(r.stderr.contains("protocol 2026-07-28") && r.stderr.contains(" completed: Done"), "{r}");
    let dir = std::env::temp_dir().join(format!("mcp-playground-tasks-2026-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let answers = dir.join("answers.json");
    std::fs::write(&answers, r#"{"elicitation": [{"action": "accept", "content": {"color": "teal"}}]}"#)?;
    let answers = answers.to_string_lossy().into_owned();
    let record = dir.join("ask.jsonl").to_string_lossy().into_owned();
    let mut args = vec!["call", "ask_color", "--answers", &answers, "--record", &record];
    args.extend(server);
    let r = run(&args)?;
    ensure!(r.code == 0 && r.stdout.trim() == "Your colour: teal", "{r}");
    let text = std::fs::read_to_string(&record)?;
    ensure!(text.contains("tasks/update") && !text.contains("tasks/result"), "the answer went by tasks/update");
    let mut args = vec!["call", "fail_task"];
    args.extend(server);
    let r = run(&args)?;
    ensure!(
        r.code == 2 && r.stderr.contains(" failed: The work broke") && r.stderr.contains("the work broke halfway"),
        "{r}"
    );
    let report = dir.join("report.jsonl").to_string_lossy().into_owned();
    let mut args = vec!["call", "slow_report", "--json", "--record", &report];
    args.extend(server);
    let r = run(&args)?;
    ensure!(r.code == 0 && r.stdout.contains(r#""text":"Report after 3 stages""#), "the outcome as JSON: {r}");
    // Replayed: compared by the outcome its last tasks/get brought.
    let mut args = vec!["replay", &report, "--allow-writes"];
    args.extend(server);
    let r = run(&args)?;
    ensure!(r.code == 0 && r.stdout.contains("✓ same      tools/call slow_report"), "{r}");
    // Over HTTP, from other connections: its outcome by polling (no tasks/result at this
    // revision), and a cancel that is an acknowledgement.
    let http = NodeServer::python_with("task_server.py", &["--v2026"])?;
    let url = format!("http://127.0.0.1:{}/mcp", http.port);
    let r = run(&["call", "slow_report", "--no-wait", "--args", r#"{"steps": 4}"#, &url])?;
    let id = r.stdout.trim().to_owned();
    ensure!(r.code == 0 && !id.is_empty(), "{r}");
    let r = run(&["task", "result", &id, &url])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Report after 4 stages", "{r}");
    let r = run(&["call", "never_ends", "--no-wait", &url])?;
    let id = r.stdout.trim().to_owned();
    let r = run(&["task", "cancel", &id, &url])?;
    ensure!(r.code == 0 && r.stdout.contains("cancel requested"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn a_recorded_task_plays_back_its_statuses_in_order_with_no_server() -> Result<()> {
    let script = task_server();
    let (pg, b) = page::connected(Playground::start(&["python3", &script])?).await?;
    let downloads = b.allow_downloads().await?;
    page::select_with_args(&b, "slow_report", r#"{"steps": 3}"#).await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    let (live, state) = watch_task(&b).await?;
    ensure!(state == "ok", "{state}");
    // Each status with its message (their times are the recording's, so not compared).
    let statuses = async |b: &Browser| -> Result<Vec<String>> {
        let mut out = Vec::new();
        for li in b.all("[data-testid=task-status] .task-history li").await? {
            let spans = li.find_all(fantoccini::Locator::Css("span")).await?;
            let said = match spans.last() {
                Some(s) => s.text().await?,
                None => String::new(),
            };
            out.push(format!("{} {said}", li.attr("data-status").await?.unwrap_or_default()));
        }
        Ok(out)
    };
    let recorded = statuses(&b).await?;
    b.id("recording-export").await?.click().await?;
    let text = std::fs::read_to_string(b.downloaded(".jsonl").await?)?;
    let file = std::env::temp_dir().join(format!("mcp-playground-task-playback-{}.jsonl", std::process::id()));
    std::fs::write(&file, text)?;
    let _ = std::fs::remove_dir_all(downloads);
    b.close().await?;
    drop(pg);
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    b.id("replay-speed").await?.select_by_value("max").await?;
    b.id("replay-play").await?.click().await?;
    let (played, state) = watch_task(&b).await?;
    ensure!(state == "ok", "{state} after {played:?} (live: {live:?})");
    b.css("[data-testid=task-status][data-status=completed]").await?;
    let shown = statuses(&b).await?;
    // The same statuses and messages, in order (their times are the recording's).
    // (How many the live page saw depends on its polls; at least its work and its end.)
    ensure!(shown == recorded && recorded.len() >= 2, "{shown:?} vs {recorded:?}");
    b.screenshot("task-playback").await?;
    let _ = std::fs::remove_file(file);
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn run_as_task_is_a_switch_for_optional_tools_and_is_remembered() -> Result<()> {
    let script = task_server();
    let (_pg, b) = page::connected(Playground::start(&["python3", &script])?).await?;
    let badge = b.css("[data-testid=tool-item][data-tool-name=fail_task] [data-testid=task-support]").await?;
    ensure!(badge.attr("data-support").await?.as_deref() == Some("optional"));
    page::select_with_args(&b, "fail_task", "{}").await?;
    ensure!(b.all("[data-testid=task-ttl]").await?.is_empty(), "no TTL while the call is no task");
    b.id("task-toggle").await?.click().await?;
    b.id("task-ttl").await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    let (seen, state) = watch_task(&b).await?;
    ensure!(state == "protocol-error" && seen.last().map(String::as_str) == Some("failed"), "{state} after {seen:?}");
    // Remembered after a reload; off again, the call is a plain one.
    b.client.refresh().await?;
    page::connect(&b).await?;
    page::select_with_args(&b, "fail_task", "{}").await?;
    ensure!(b.id("task-toggle").await?.prop("checked").await?.as_deref() == Some("true"), "the switch is remembered");
    b.id("task-toggle").await?.click().await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    let state = eventually(Duration::from_secs(20), "the plain call", || async {
        let s = b.id("result-pane").await?.attr("data-state").await?.unwrap_or_default();
        Ok((s != "pending").then_some(s))
    })
    .await?;
    ensure!(state == "protocol-error" && b.all("[data-testid=task-status]").await?.is_empty(), "{state}");
    b.close().await?;
    Ok(())
}
