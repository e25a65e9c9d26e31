//! The task model: reading tasks, choosing when a call is one, every status transition,
//! poll pacing, input pauses, time to live and cancel races.

use serde_json::json;

use super::*;

fn info(status: &str, poll: Option<u64>) -> TaskInfo {
    let mut v = json!({"taskId": "t1", "status": status, "createdAt": "2026-11-24T10:00:00Z",
        "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttl": 60000});
    if let Some(p) = poll {
        v["pollInterval"] = json!(p);
    }
    TaskInfo::read(&v).unwrap()
}

fn tool(execution: serde_json::Value) -> Tool {
    serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"}, "execution": execution})).unwrap()
}

#[test]
fn tasks_are_read_tolerantly_and_refused_when_broken() {
    let t = info("input_required", Some(500));
    assert_eq!((t.status, t.ttl_ms, t.poll_interval_ms), (TaskStatus::InputRequired, Some(60000.0), Some(500.0)));
    assert_eq!(TaskInfo::read(&json!({"status": "working"})).unwrap_err(), "a task without a string taskId");
    assert_eq!(
        TaskInfo::read(&json!({"taskId": "x", "status": "sleeping"})).unwrap_err(),
        "a task of unknown status \"sleeping\""
    );
    let unlimited = TaskInfo::read(&json!({"taskId": "x", "status": "working", "ttl": null})).unwrap();
    assert_eq!(unlimited.ttl_ms, None);
    assert!(TaskStatus::Cancelled.is_terminal() && !TaskStatus::InputRequired.is_terminal());
}

#[test]
fn a_call_is_a_task_when_tool_server_and_person_agree() {
    let caps = |v: serde_json::Value| v.as_object().cloned().unwrap();
    assert!(server_runs_tool_tasks(&caps(json!({"tasks": {"requests": {"tools": {"call": {}}}}}))));
    assert!(!server_runs_tool_tasks(&caps(json!({"tasks": {"list": {}}}))));
    let (required, optional, silent) =
        (tool(json!({"taskSupport": "required"})), tool(json!({"taskSupport": "optional"})), tool(json!({})));
    assert_eq!(TaskSupport::of(&silent), TaskSupport::Forbidden);
    assert!(call_as_task(&required, true, false));
    assert!(call_as_task(&optional, true, true) && !call_as_task(&optional, true, false));
    assert!(!call_as_task(&silent, true, true), "forbidden by default");
    assert!(!call_as_task(&required, false, true), "never to a server without the capability");
    let related = json!({"params": {"_meta": {RELATED_TASK: {"taskId": "t9"}}}});
    assert_eq!(related_task(&related), Some("t9"));
}

#[test]
fn a_task_is_polled_at_its_servers_pace_and_its_outcome_fetched_once_it_ends() {
    let (mut run, step) = TaskRun::new("research", info("working", Some(2000)), 0.0);
    assert_eq!(step, None);
    assert_eq!((run.due(1999.0, false), run.wake_ms(false)), (None, Some(2000.0)));
    assert_eq!(run.due(2000.0, false), Some(TaskStep::Poll));
    assert_eq!(run.due(9000.0, false), None, "one poll out at a time");
    assert_eq!(run.on_status(info("working", Some(2000)), 2100.0), None);
    run.poll_answered(2100.0);
    assert_eq!(run.history.len(), 1, "the same status, no news");
    // A new message is news; a faster interval is honoured down to the floor.
    let mut faster = info("working", Some(10));
    faster.status_message = Some("Analyzing".into());
    run.on_status(faster, 2200.0);
    run.poll_answered(2200.0);
    assert_eq!(run.wake_ms(false), Some(2200.0 + POLL_FLOOR_MS));
    assert_eq!(run.history.len(), 2);
    // Input required: its outcome is fetched (the server's questions come with it), and
    // polling stands still while a person answers.
    assert_eq!(run.on_status(info("input_required", None), 2300.0), Some(TaskStep::FetchResult));
    assert_eq!((run.due(99_000.0, true), run.wake_ms(true)), (None, None));
    assert_eq!(run.on_status(info("working", None), 2400.0), None);
    assert_eq!(run.on_status(info("completed", None), 2500.0), None, "the outcome is asked for already");
    let seen: Vec<&str> = run.history.iter().map(|c| c.status.as_str()).collect();
    assert_eq!(seen, ["working", "working", "input_required", "working", "completed"]);
    assert_eq!((run.due(99_000.0, false), run.wake_ms(false)), (None, None), "an ended task is not polled");
    // Ended, it moves no more.
    assert_eq!(run.on_status(info("working", None), 2600.0), None);
    assert_eq!(run.status(), TaskStatus::Completed);
}

#[test]
fn an_outcome_fetched_too_early_is_asked_for_again_when_the_task_ends() {
    let (mut run, step) = TaskRun::new("t", info("input_required", None), 0.0);
    assert_eq!(step, Some(TaskStep::FetchResult), "created waiting for input: fetched at once");
    assert_eq!(run.fetch_failed(), None, "not ended yet: asked again when it ends");
    assert_eq!(run.on_status(info("failed", None), 10.0), Some(TaskStep::FetchResult));
    // Another task's word is not this one's.
    let mut other = info("cancelled", None);
    other.task_id = "t2".into();
    let (mut run, _) = TaskRun::new("t", info("working", None), 0.0);
    assert_eq!(run.on_status(other, 5.0), None);
    assert_eq!(run.status(), TaskStatus::Working);
}

#[test]
fn a_task_outlives_its_ttl_only_while_it_runs() {
    let (mut run, _) = TaskRun::new("t", info("working", None), 1000.0);
    assert_eq!(run.ttl_left_ms(31_000.0), Some(30_000.0));
    assert!(!run.expired(60_999.0) && run.expired(61_000.0));
    run.on_status(info("completed", None), 2000.0);
    assert!(!run.expired(1e9), "an ended task does not expire");
    let endless = TaskInfo { ttl_ms: None, ..info("working", None) };
    assert!(!TaskRun::new("t", endless, 0.0).0.expired(1e12));
}

#[test]
fn a_cancel_goes_once_and_not_after_the_end() {
    let (mut run, _) = TaskRun::new("t", info("working", None), 0.0);
    assert!(run.start_cancel() && !run.start_cancel() && run.is_cancelling());
    // The race: the task completes while the cancel is out; the cancel's refusal changes nothing.
    assert_eq!(run.on_status(info("completed", None), 10.0), Some(TaskStep::FetchResult));
    run.cancel_answered();
    assert!(!run.start_cancel(), "an ended task is not cancelled");
    assert_eq!(run.status(), TaskStatus::Completed);
}

#[test]
fn a_cancelled_task_ends_with_its_status_and_nothing_is_fetched() {
    let (mut run, _) = TaskRun::new("t", info("working", None), 0.0);
    assert_eq!(run.on_status(info("cancelled", None), 10.0), None);
    assert!(run.is_ended() && run.wake_ms(false).is_none());
}

#[test]
fn an_outcome_ends_a_task_whose_end_no_poll_saw() {
    let (mut run, _) = TaskRun::new("t", info("working", None), 0.0);
    run.outcome_arrived(false, 10.0);
    assert_eq!((run.status(), run.history.len()), (TaskStatus::Completed, 2));
    run.outcome_arrived(true, 20.0);
    assert_eq!((run.status(), run.history.len()), (TaskStatus::Completed, 2), "ended already");
}

#[test]
fn an_outcome_that_does_not_get_through_is_asked_again_a_few_times() {
    let (mut run, _) = TaskRun::new("t", info("working", None), 0.0);
    assert_eq!(run.on_status(info("completed", None), 1.0), Some(TaskStep::FetchResult));
    for _ in 0..run::FETCH_RETRIES {
        assert_eq!(run.fetch_failed(), Some(TaskStep::FetchResult));
    }
    assert_eq!(run.fetch_failed(), None, "then given up");
    // 2026-07-28: an ended task whose status brought no outcome is polled once for it.
    let (mut inline, step) = TaskRun::started("t", info("completed", None), true, 0.0);
    assert_eq!(step, None);
    assert_eq!(inline.poll_for_outcome(), Some(TaskStep::Poll));
    assert_eq!(inline.poll_for_outcome(), None, "once");
}
