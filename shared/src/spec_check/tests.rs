//! Each revision with a good and a bad message of every kind; the official examples of
//! 2026-07-28 all pass.

use serde_json::{Value, json};

use super::*;

fn judge(revision: Revision, direction: Direction, kind: Kind, method: Option<&str>, value: Value) -> Verdict {
    check(revision, Message { direction, kind, method }, &value).unwrap()
}

fn invalid_at(verdict: Verdict) -> (String, String) {
    match verdict {
        Verdict::Invalid { pointer, rule } => (pointer, rule),
        Verdict::Valid => panic!("expected a violation"),
    }
}

#[test]
fn every_revision_is_bundled_and_compiles() {
    assert_eq!(bundle::BUNDLED.len(), Revision::ALL.len(), "every revision's schema travels with the crate");
    for r in Revision::ALL {
        let c = checker(r).unwrap_or_else(|e| panic!("{r}: {e}"));
        assert!(c.by_method.contains_key("tools/call"), "{r}");
    }
}

#[test]
fn a_build_without_the_schemas_says_so_instead_of_judging() {
    let Err(why) = Checker::new(Revision::V2025_06_18, &[]) else { panic!("nothing to compile") };
    assert_eq!(why.to_string(), "schemas not bundled in this build (no schema for 2025-06-18)");
}

#[test]
fn good_and_bad_messages_of_every_kind_in_every_revision() {
    for r in Revision::ALL {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": r.as_str(),
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}
        });
        // Request: 2026-07-28 asks every request to carry its `_meta`.
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {}, "_meta": meta}});
        assert_eq!(judge(r, Direction::Out, Kind::Request, Some("tools/call"), call), Verdict::Valid, "{r}");
        let nameless =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}, "_meta": meta}});
        let (pointer, rule) = invalid_at(judge(r, Direction::Out, Kind::Request, Some("tools/call"), nameless));
        assert_eq!(pointer, "/params/name", "{r}: {rule}");

        // Notification.
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 2}});
        assert_eq!(
            judge(r, Direction::In, Kind::Notification, Some("notifications/progress"), progress),
            Verdict::Valid,
            "{r}"
        );
        let bad = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": "half"}});
        let (pointer, _) = invalid_at(judge(r, Direction::In, Kind::Notification, Some("notifications/progress"), bad));
        assert_eq!(pointer, "/params/progress", "{r}");

        // Result, judged by the method of its request.
        let mut result = json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]});
        if r == Revision::V2026_07_28 {
            result["resultType"] = json!("complete");
            result["cacheScope"] = json!("private");
            result["ttlMs"] = json!(0);
        }
        let list = json!({"jsonrpc": "2.0", "id": 2, "result": result});
        assert_eq!(judge(r, Direction::In, Kind::Response, Some("tools/list"), list.clone()), Verdict::Valid, "{r}");
        let mut schemaless = list;
        schemaless["result"]["tools"][0].as_object_mut().unwrap().remove("inputSchema");
        let (pointer, rule) = invalid_at(judge(r, Direction::In, Kind::Response, Some("tools/list"), schemaless));
        assert_eq!(pointer, "/result/tools/0/inputSchema", "{r}: {rule}");

        // Error.
        let error = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32601, "message": "no such method"}});
        assert_eq!(judge(r, Direction::In, Kind::Error, Some("tools/call"), error), Verdict::Valid, "{r}");
        let textual = json!({"jsonrpc": "2.0", "id": 3, "error": {"code": "oops", "message": "no such method"}});
        let (pointer, rule) = invalid_at(judge(r, Direction::In, Kind::Error, Some("tools/call"), textual));
        assert_eq!(pointer, "/error/code", "{r}: {rule}");
    }
}

#[test]
fn a_ping_answer_is_an_empty_result_and_unknown_methods_meet_the_envelope() {
    let r = Revision::V2025_06_18;
    let pong = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    assert_eq!(judge(r, Direction::Out, Kind::Response, Some("ping"), pong), Verdict::Valid);
    let odd = json!({"jsonrpc": "2.0", "id": 1, "method": "vendor/thing", "params": {"x": 1}});
    assert_eq!(judge(r, Direction::Out, Kind::Request, Some("vendor/thing"), odd), Verdict::Valid);
    let old = json!({"jsonrpc": "1.0", "id": 1, "method": "vendor/thing"});
    let (pointer, rule) = invalid_at(judge(r, Direction::Out, Kind::Request, Some("vendor/thing"), old));
    assert_eq!((pointer.as_str(), rule.contains("2.0")), ("/jsonrpc", true), "{rule}");
}

#[test]
fn the_official_2026_examples_are_valid_and_break_when_spoiled() {
    let r = Revision::V2026_07_28;
    let c = checker(r).unwrap();
    let all =
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/schema/2026-07-28/examples"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
    let mut seen = 0;
    for dir in all {
        // Requests and notifications name their method; an answer, its request's.
        let (kind, request) = if dir.ends_with("Request") || dir.ends_with("Notification") {
            (if dir.ends_with("Request") { Kind::Request } else { Kind::Notification }, dir.clone())
        } else if let Some(stem) = dir.strip_suffix("ResultResponse") {
            (Kind::Response, format!("{stem}Request"))
        } else {
            continue;
        };
        let Some(method) = c.by_method.iter().find(|(_, defs)| defs.contains(&request)).map(|(m, _)| m.clone()) else {
            panic!("{dir}: no method for {request}")
        };
        let client = c.from_client.contains(&request);
        let direction = match (kind, client) {
            (Kind::Response, true) | (Kind::Request | Kind::Notification, false) => Direction::In,
            _ => Direction::Out,
        };
        // The requests a server makes inside an `input_required` result are not JSON-RPC messages.
        for (name, value) in official_examples(&dir).into_iter().filter(|(_, v)| v.get("jsonrpc").is_some()) {
            let verdict = judge(r, direction, kind, Some(&method), value.clone());
            assert_eq!(verdict, Verdict::Valid, "{dir}/{name}");
            let mut spoiled = value;
            spoiled["jsonrpc"] = json!(2);
            let (pointer, _) = invalid_at(judge(r, direction, kind, Some(&method), spoiled));
            assert_eq!(pointer, "/jsonrpc", "{dir}/{name}");
            seen += 1;
        }
    }
    assert!(seen >= 25, "only {seen} examples");
    // The error examples are the `error` member alone.
    for dir in ["InternalError", "InvalidParamsError", "MethodNotFoundError", "ParseError"] {
        for (name, error) in official_examples(dir) {
            let whole = json!({"jsonrpc": "2.0", "id": 1, "error": error});
            assert_eq!(judge(r, Direction::In, Kind::Error, None, whole), Verdict::Valid, "{dir}/{name}");
        }
    }
}

#[test]
fn a_task_answer_to_a_call_is_judged_as_a_task_in_2025_11_25() {
    let r = Revision::V2025_11_25;
    let task = json!({"taskId": "t1", "status": "working", "createdAt": "2026-11-24T10:00:00Z",
        "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttl": 60000, "pollInterval": 500});
    let created = json!({"jsonrpc": "2.0", "id": 4, "result": {"task": task}});
    assert_eq!(judge(r, Direction::In, Kind::Response, Some("tools/call"), created.clone()), Verdict::Valid);
    let mut broken = created;
    broken["result"]["task"].as_object_mut().unwrap().remove("createdAt");
    let (pointer, _) = invalid_at(judge(r, Direction::In, Kind::Response, Some("tools/call"), broken));
    assert_eq!(pointer, "/result/task/createdAt");
    let polled = json!({"jsonrpc": "2.0", "id": 5, "result": task});
    assert_eq!(judge(r, Direction::In, Kind::Response, Some("tasks/get"), polled), Verdict::Valid);
}

#[test]
fn a_task_answer_of_2026_07_28_is_judged_by_its_envelope_only() {
    let r = Revision::V2026_07_28;
    let created = json!({"jsonrpc": "2.0", "id": 4, "result": {"resultType": "task", "taskId": "t1", "status": "working",
        "createdAt": "2026-11-24T10:00:00Z", "lastUpdatedAt": "2026-11-24T10:00:00Z", "ttlMs": null}});
    assert_eq!(judge(r, Direction::In, Kind::Response, Some("tools/call"), created), Verdict::Valid);
}
