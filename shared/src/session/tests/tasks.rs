//! A call as a task (2025-11-25), driven as the relay would: created, polled at the
//! server's pace, its outcome fetched, cancelled, lost to its TTL, and played back.

use serde_json::{Value, json};

use super::*;

fn task_server() -> Value {
    json!({"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}})
}

fn task_tools() -> Value {
    json!([
        {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}},
        {"name": "maybe", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
        {"name": "plain", "inputSchema": {"type": "object"}}
    ])
}

fn task(status: &str, message: &str) -> Value {
    json!({"taskId": "t-1", "status": status, "statusMessage": message, "createdAt": "2026-11-24T10:00:00Z",
        "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttl": 60000, "pollInterval": 500})
}

fn frame(f: &str) -> Value {
    serde_json::from_str(f).unwrap()
}

/// A task server, and a call of `research` answered with its task; when it was created.
fn created() -> (Harness, f64) {
    let mut h = Harness::connected_with(task_server(), task_tools());
    let id = h.s.call_tool("research", json!({"q": 1}), LIMITS, h.at).unwrap();
    let (frames, ..) = h.flush();
    let sent = frame(&frames[0]);
    assert_eq!(sent["params"]["task"], json!({"ttl": 300000}), "the default TTL is asked for");
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": sent["id"], "result": {"task": task("working", "Starting")}}).to_string(),
    );
    assert!(h.s.call().tool() == Some("research") && h.s.call_arguments().is_some() && id == Id::Number(3));
    let at = h.at;
    (h, at)
}

#[test]
fn a_task_is_polled_at_its_pace_and_its_outcome_ends_the_call() {
    let (mut h, born) = created();
    assert!(h.s.call().is_pending());
    let run = h.s.task().unwrap();
    assert_eq!((run.info.task_id.as_str(), run.history.len()), ("t-1", 1));
    // No request timeout for a task: the call lives past the limits of its request.
    h.s.tick(born + LIMITS.max_total_ms * 2.0);
    assert!(h.s.call().is_pending(), "{:?}", h.s.call());
    let (frames, ..) = h.flush();
    let poll = frame(&frames[0]);
    assert_eq!((poll["method"].as_str(), poll["params"]["taskId"].as_str()), (Some("tasks/get"), Some("t-1")));
    assert_eq!(h.s.next_deadline_ms(), Some(born + 60_000.0), "while a poll is out, only the TTL is waited for");
    h.server_says(&json!({"jsonrpc": "2.0", "id": poll["id"], "result": task("working", "Analyzing")}).to_string());
    let (frames, ..) = h.flush();
    assert!(frames.is_empty(), "the next poll waits its interval");
    let due = h.s.next_deadline_ms().unwrap();
    assert_eq!(due, h.at + 500.0);
    h.s.tick(due);
    let (frames, ..) = h.flush();
    let poll = frame(&frames[0]);
    h.server_says(&json!({"jsonrpc": "2.0", "id": poll["id"], "result": task("completed", "Done")}).to_string());
    let (frames, ..) = h.flush();
    let fetch = frame(&frames[0]);
    assert_eq!(fetch["method"], "tasks/result");
    let outcome = json!({"content": [{"type": "text", "text": "report"}],
        "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}});
    h.server_says(&json!({"jsonrpc": "2.0", "id": fetch["id"], "result": outcome}).to_string());
    assert_eq!(h.s.call().as_str(), "ok");
    let seen: Vec<&str> = h.s.task().unwrap().history.iter().map(|c| c.status.as_str()).collect();
    assert_eq!(seen, ["working", "working", "completed"]);
    h.s.tick(1e12);
    assert!(h.flush().0.is_empty(), "an ended task is not polled");
}

#[test]
fn a_task_waiting_for_input_fetches_its_questions_and_polling_waits_for_the_person() {
    let (mut h, born) = created();
    let due = h.s.next_deadline_ms().unwrap();
    h.s.tick(due);
    let (frames, ..) = h.flush();
    let poll = frame(&frames[0]);
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": poll["id"], "result": task("input_required", "Which one?")}).to_string(),
    );
    let (frames, ..) = h.flush();
    assert_eq!(frame(&frames[0])["method"], "tasks/result", "the questions come with it");
    // The server asks, tied to its task; polling stands still until the person answers.
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": 77, "method": "elicitation/create", "params": {"message": "Which?",
            "requestedSchema": {"type": "object", "properties": {}},
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}}})
        .to_string(),
    );
    assert_eq!(h.s.asks().len(), 1);
    h.s.tick(h.at + 10_000.0);
    assert!(h.flush().0.is_empty(), "no poll while the person answers");
    assert_eq!(h.s.next_deadline_ms(), Some(born + 60_000.0), "only its TTL counts meanwhile");
}

#[test]
fn a_cancelled_task_sends_tasks_cancel_and_ends_with_the_servers_word() {
    let (mut h, _) = created();
    h.s.cancel_call();
    let (frames, ..) = h.flush();
    assert_eq!(frames.len(), 1, "{frames:?}");
    let cancel = frame(&frames[0]);
    assert_eq!((cancel["method"].as_str(), cancel["params"]["taskId"].as_str()), (Some("tasks/cancel"), Some("t-1")));
    assert!(h.s.call().is_pending(), "until the server answers");
    h.s.cancel_call();
    assert!(h.flush().0.is_empty(), "one cancel at a time");
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": cancel["id"], "result": task("cancelled", "Stopped by request")}).to_string(),
    );
    assert_eq!(
        h.s.call(),
        &CallState::Cancelled { tool: "research".into(), reason: "cancelled by the user: Stopped by request".into() }
    );
}

#[test]
fn a_task_that_completes_while_its_cancel_is_on_the_way_shows_its_outcome() {
    let (mut h, _) = created();
    h.s.cancel_call();
    let cancel = frame(&h.flush().0[0]);
    h.server_says(
        &json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task("completed", "Done")})
            .to_string(),
    );
    let fetch = frame(&h.flush().0[0]);
    assert_eq!(fetch["method"], "tasks/result");
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": cancel["id"], "error": {"code": -32602, "message": "Task already completed"}})
            .to_string(),
    );
    assert!(
        h.s.notices().iter().any(|n| n.contains("could not be cancelled: Task already completed")),
        "{:?}",
        h.s.notices()
    );
    h.server_says(&json!({"jsonrpc": "2.0", "id": fetch["id"], "result": {"content": []}}).to_string());
    assert_eq!(h.s.call().as_str(), "ok");
}

#[test]
fn a_task_past_its_ttl_is_lost_and_a_task_nobody_asked_for_is_a_protocol_error() {
    let (mut h, born) = created();
    h.s.tick(born + 60_000.0);
    assert!(
        matches!(h.s.call(), CallState::TaskLost { message, .. } if message.contains("time to live (1 min)")),
        "{:?}",
        h.s.call()
    );
    // A plain tool, answered with a task anyway.
    let mut h = Harness::connected_with(task_server(), task_tools());
    h.s.call_tool("plain", json!({}), LIMITS, h.at).unwrap();
    let sent = frame(&h.flush().0[0]);
    assert!(sent["params"].get("task").is_none(), "no task for a tool that forbids it");
    h.server_says(&json!({"jsonrpc": "2.0", "id": sent["id"], "result": {"task": task("working", "")}}).to_string());
    assert_eq!(h.s.call().as_str(), "protocol-error");
    // An optional tool goes as a task when the person says so; never to a server without tasks.
    h.s.set_run_as_task("maybe", true);
    assert!(h.s.runs_as_task("maybe") && !h.s.runs_as_task("plain"));
    let h = Harness::connected(task_tools());
    assert!(!h.s.runs_as_task("research"), "the server takes no tasks");
}

#[test]
fn a_recorded_task_plays_back_its_statuses_in_order_and_sends_nothing() {
    let (mut h, _) = created();
    for (status, message) in [("working", "Analyzing"), ("completed", "Done")] {
        let due = h.s.next_deadline_ms().unwrap();
        h.s.tick(due);
        let poll = frame(&h.flush().0[0]);
        h.server_says(&json!({"jsonrpc": "2.0", "id": poll["id"], "result": task(status, message)}).to_string());
    }
    let fetch = frame(&h.flush().0[0]);
    h.server_says(&json!({"jsonrpc": "2.0", "id": fetch["id"], "result": {"content": []}}).to_string());
    let relay = h.s.relay().cloned().unwrap();
    let mut p = Session::for_playback("1", relay);
    for m in h.fed.clone() {
        p.receive(m, 0.0);
        p.tick(1e12);
    }
    assert!(p.drain().send.is_empty(), "playback sends nothing");
    assert_eq!(p.call().as_str(), "ok");
    let seen: Vec<&str> = p.task().unwrap().history.iter().map(|c| c.message.as_deref().unwrap_or("")).collect();
    assert_eq!(seen, ["Starting", "Analyzing", "Done"]);
}

#[test]
fn the_connections_tasks_are_listed_page_by_page_and_any_of_them_asked_about() {
    let (mut h, _) = created();
    h.flush();
    h.s.list_tasks().unwrap();
    let list = frame(&h.flush().0[0]);
    assert_eq!((list["method"].as_str(), &list["params"]), (Some("tasks/list"), &json!({})));
    let mut other = task("completed", "Earlier");
    other["taskId"] = json!("t-0");
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": list["id"], "result": {"tasks": [other], "nextCursor": "p2"}}).to_string(),
    );
    let page2 = frame(&h.flush().0[0]);
    assert_eq!(page2["params"]["cursor"], "p2");
    assert!(h.s.task_book().listing);
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": page2["id"], "result": {"tasks": [task("working", "Now")]}}).to_string(),
    );
    let book = h.s.task_book();
    assert!(!book.listing && book.list_error.is_none());
    let known: Vec<(&str, Option<&str>)> =
        book.tasks().iter().map(|t| (t.info.task_id.as_str(), t.tool.as_deref())).collect();
    assert_eq!(known, [("t-1", Some("research")), ("t-0", None)], "its own call's task keeps its tool");
    // Another task's outcome is kept with it, and is not the pending call's.
    h.s.ask_task(crate::client::TaskRequest::Result("t-0".into())).unwrap();
    let fetch = frame(&h.flush().0[0]);
    h.server_says(&json!({"jsonrpc": "2.0", "id": fetch["id"], "result": {"content": []}}).to_string());
    assert!(h.s.task_book().get("t-0").unwrap().outcome.is_some());
    assert!(h.s.call().is_pending());
    let mut plain = Harness::connected(task_tools());
    assert!(matches!(plain.s.list_tasks(), Err(Refused::Unsupported(_))));
}

/// A 2026-07-28 task, flat, as `tools/call` or `tasks/get` answers it.
fn task_2026(status: &str, extra: Value) -> Value {
    let mut t = json!({"resultType": "complete", "taskId": "n-1", "status": status, "createdAt": "2026-11-24T10:00:00Z",
        "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttlMs": 60000, "pollIntervalMs": 400});
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        t[k] = v;
    }
    t
}

/// At 2026-07-28 the server alone decides: a call declared the extension, and got a task.
fn created_2026() -> Harness {
    let mut h = super::stateless::discovered(json!([{"name": "research", "inputSchema": {"type": "object"}}]));
    h.s.call_tool("research", json!({}), LIMITS, h.at).unwrap();
    let call = frame(&h.flush().0[0]);
    assert_eq!(
        call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({})
    );
    assert!(call["params"].get("task").is_none(), "no task is asked for at this revision");
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": call["id"], "result": task_2026("working", json!({"resultType": "task"}))})
            .to_string(),
    );
    assert!(h.s.task().is_some_and(|t| t.inline && t.info.ttl_ms == Some(60000.0) && t.interval_ms() == 400.0));
    h
}

fn poll(h: &mut Harness) -> Value {
    let due = h.s.next_deadline_ms().unwrap();
    h.s.tick(due);
    let frames = h.flush().0;
    let poll = frame(frames.last().unwrap());
    assert_eq!(poll["method"], "tasks/get");
    poll
}

#[test]
fn a_2026_task_asks_each_question_once_answers_with_tasks_update_and_ends_with_its_inline_result() {
    let mut h = created_2026();
    let question = json!({"inputRequests": {"color": {"method": "elicitation/create", "params": {"message": "Colour?",
        "requestedSchema": {"type": "object", "properties": {"color": {"type": "string", "default": "teal"}}}}}}});
    let p = poll(&mut h);
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": p["id"], "result": task_2026("input_required", question.clone())}).to_string(),
    );
    let asks: Vec<Id> = h.s.asks().iter().map(|a| a.id.clone()).collect();
    assert_eq!(asks, [Id::String("task:n-1/color".into())]);
    // The person is answering: no poll meanwhile.
    h.s.tick(h.at + 10_000.0);
    assert!(h.flush().0.is_empty());
    h.s.answer_elicitation(&Id::String("task:n-1/color".into()), crate::asks::ElicitAnswer::Accept(json!({})), h.at)
        .unwrap();
    let update = frame(&h.flush().0[0]);
    assert_eq!(update["method"], "tasks/update");
    assert_eq!(update["params"]["taskId"], "n-1");
    assert_eq!(
        update["params"]["inputResponses"],
        json!({"color": {"action": "accept", "content": {"color": "teal"}}})
    );
    h.server_says(&json!({"jsonrpc": "2.0", "id": update["id"], "result": {"resultType": "complete"}}).to_string());
    // The ack may come before the task says so: the same question again is not asked twice.
    let p = poll(&mut h);
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": p["id"], "result": task_2026("input_required", question)}).to_string(),
    );
    assert!(h.s.asks().is_empty(), "asked once, however often it is polled");
    let p = poll(&mut h);
    let done = task_2026(
        "completed",
        json!({"result": {"content": [{"type": "text", "text": "teal it is"}], "isError": false}}),
    );
    h.server_says(&json!({"jsonrpc": "2.0", "id": p["id"], "result": done}).to_string());
    assert_eq!(h.s.call().as_str(), "ok");
    assert!(h.flush().0.is_empty(), "no tasks/result at this revision");
    let CallState::Done { outcome: crate::client::CallOutcome::Result { result, .. }, .. } = h.s.call() else {
        panic!()
    };
    assert_eq!(serde_json::to_value(&result.content).unwrap()[0]["text"], "teal it is");
}

#[test]
fn a_2026_cancel_is_an_ack_that_ends_the_call_and_a_failed_task_is_its_error() {
    let mut h = created_2026();
    h.s.cancel_call();
    let cancel = frame(&h.flush().0[0]);
    assert_eq!(cancel["method"], "tasks/cancel");
    h.server_says(&json!({"jsonrpc": "2.0", "id": cancel["id"], "result": {"resultType": "complete"}}).to_string());
    // The server need not ever say `cancelled`: the ack ends the call, the task stays known.
    assert!(matches!(h.s.call(), CallState::Cancelled { reason, .. } if reason.contains("took the cancel")));
    assert_eq!(h.s.next_deadline_ms(), None);
    assert!(h.s.task_book().get("n-1").is_some());
    // A failed task's error is the call's protocol error.
    let mut h = created_2026();
    let p = poll(&mut h);
    let failed = task_2026("failed", json!({"error": {"code": -32603, "message": "rate limited"}}));
    h.server_says(&json!({"jsonrpc": "2.0", "id": p["id"], "result": failed}).to_string());
    assert_eq!(h.s.call().as_str(), "protocol-error");
}

#[test]
fn a_task_no_longer_watched_goes_on_unpolled_and_stays_known() {
    let (mut h, _) = created();
    assert!(h.s.stop_watching());
    assert_eq!(h.s.call(), &CallState::Unwatched { tool: "research".into(), task_id: "t-1".into() });
    assert_eq!(h.s.next_deadline_ms(), None, "no more polls, no TTL watch");
    h.s.tick(1e12);
    assert!(h.flush().0.is_empty());
    assert!(h.s.task_book().get("t-1").is_some(), "the tasks panel still has it");
    assert!(!h.s.stop_watching(), "nothing left to stop watching");
    // Another call may start meanwhile.
    assert!(h.s.call_tool("plain", json!({}), LIMITS, h.at).is_ok());
}

#[test]
fn a_tasks_questions_go_with_it_and_a_poll_that_did_not_get_through_is_tried_again() {
    let (mut h, _) = created();
    // A question tied to the task (2025-11-25), left unanswered when the person cancels.
    h.server_says(
        &json!({"jsonrpc": "2.0", "id": 90, "method": "elicitation/create", "params": {"message": "Which?",
            "requestedSchema": {"type": "object", "properties": {}},
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}}})
        .to_string(),
    );
    assert_eq!(h.s.asks().len(), 1);
    h.s.cancel_call();
    let cancel = frame(&h.flush().0[0]);
    h.server_says(&json!({"jsonrpc": "2.0", "id": cancel["id"], "result": task("cancelled", "Stopped")}).to_string());
    assert!(h.s.asks().is_empty(), "nobody will read its answer");
    // A poll whose request failed on the way is no lost task.
    let (mut h, _) = created();
    let p = poll(&mut h);
    h.event(RelayEvent::RequestFailed { id: p["id"].clone(), message: "stream broke".into() });
    assert!(h.s.call().is_pending(), "{:?}", h.s.call());
    assert!(poll(&mut h)["method"] == "tasks/get", "polled again at the next interval");
}
