//! An App's view's requests: carried through the session to the server and answered back.

use serde_json::json;

use super::*;

#[test]
fn an_app_views_requests_go_to_the_server_and_their_answers_back_to_it() {
    use crate::apps::ViewRequest;
    let mut h = Harness::connected(echo_tool());
    let call = ViewRequest::CallTool { name: "echo".into(), arguments: json!({"m": 1}) };
    h.s.view_request(Id::String("v1".into()), &call).unwrap();
    h.s.view_request(Id::Number(2), &ViewRequest::ReadResource { uri: "ui://x".into() }).unwrap();
    let (frames, ..) = h.flush();
    assert_eq!(
        frames,
        [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"m":1}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"ui://x"}}"#,
        ]
    );
    assert_eq!(h.s.call().as_str(), "idle", "the result pane's call is not the view's");
    // The relay's echo of each request: its row says which view request caused it.
    let labels: Vec<String> =
        (0..h.s.timeline().len()).filter_map(|i| h.s.timeline().view(i)).map(|r| r.label()).collect();
    assert!(labels.iter().any(|l| l == "tools/call · echo · for the App's view (#\"v1\")"), "{labels:?}");
    assert!(labels.iter().any(|l| l == "resources/read · ui://x · for the App's view (#2)"), "{labels:?}");
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"no such resource"}}"#);
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#);
    let (.., changed) = h.flush();
    assert!(changed.view);
    let answers = h.s.take_view_answers();
    assert_eq!(
        answers,
        [
            (Id::Number(2), Err(json!({"code": -32002, "message": "no such resource"}))),
            (Id::String("v1".into()), Ok(json!({"content": []}))),
        ]
    );
    assert!(h.s.take_view_answers().is_empty());
    let mut idle = Session::new("0");
    assert_eq!(idle.view_request(Id::Number(1), &call), Err(Refused::NotConnected));
}

#[test]
fn the_page_recording_keeps_the_app_lane_beside_the_server_traffic() {
    let mut h = Harness::connected(echo_tool());
    h.s.view_message(false, &json!({"jsonrpc": "2.0", "id": 0, "method": "ui/initialize", "params": {}}), 5000.0);
    h.s.view_message(true, &json!({"jsonrpc": "2.0", "id": 0, "result": {}}), 5001.0);
    let text = h.s.export_recording().unwrap();
    let rec = crate::recording::parse(&text).unwrap();
    let lane: Vec<(bool, String)> = rec
        .entries
        .iter()
        .filter_map(|e| match e {
            crate::recording::Entry::View { to_view, frame, .. } => Some((*to_view, frame.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        lane,
        [
            (false, r#"{"jsonrpc":"2.0","id":0,"method":"ui/initialize","params":{}}"#.to_owned()),
            (true, r#"{"jsonrpc":"2.0","id":0,"result":{}}"#.to_owned()),
        ]
    );
    assert!(rec.entries.iter().any(|e| matches!(e, crate::recording::Entry::Message { .. })));
}
