//! The tool list: a change the server announces (during a call, before the first listing,
//! to the same list), and a listing that fails midway.

use serde_json::json;

use super::*;

#[test]
fn the_tool_list_changes_during_a_call() {
    let mut h = Harness::connected(echo_tool());
    h.s.call_tool("slow", json!({}), LIMITS, h.at).unwrap();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    assert!(h.s.tools_loading());
    assert!(h.s.notices().is_empty(), "said once the new list says how it changed");
    let (frames, ..) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#]);
    assert!(h.s.call().is_pending(), "the call goes on");
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"fresh","inputSchema":{}}]}}"#);
    assert_eq!(h.tool_names(), ["fresh"]);
    assert_eq!(h.s.notices(), ["the server's tool list changed: added fresh; removed echo, slow"]);
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}]}}"#);
    let CallState::Done { tool, output, .. } = h.s.call() else { panic!("{:?}", h.s.call()) };
    assert_eq!((tool.as_str(), output.state()), ("slow", Some("absent")), "its tool is gone: no schema to check");
}

#[test]
fn a_page_of_tools_that_fails_midway_keeps_the_pages_before() {
    let mut h = Harness::connected(echo_tool());
    h.s.refresh_tools();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"p1a","inputSchema":{}},{"name":"p1b","inputSchema":{}}],"nextCursor":"c2"}}"#);
    assert!(h.s.tools_loading());
    assert_eq!(h.tool_names(), ["echo", "slow"], "nothing shown until the list is whole or fails");
    let (frames, ..) = h.flush();
    assert_eq!(frames, [r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"c2"}}"#]);
    h.server_says(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"database down"}}"#);
    assert!(!h.s.tools_loading());
    assert_eq!(h.tool_names(), ["p1a", "p1b"]);
    assert_eq!(
        h.s.tools_error(),
        Some("tools/list page 2 failed: database down (-32603); showing the 2 tools of the pages before it")
    );
    // A page that cannot be read fails the same way.
    h.s.refresh_tools();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":5,"result":{"tools":"nope"}}"#);
    assert!(h.s.tools_error().unwrap().starts_with("tools/list could not be read:"));
    assert_eq!(h.tool_names(), ["p1a", "p1b"], "a first page that fails keeps the list before");
    h.s.refresh_tools();
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":6,"result":{"tools":[]}}"#);
    assert_eq!(h.s.tools_error(), None);
}

#[test]
fn a_tool_list_said_to_change_but_the_same_or_before_the_first_listing_is_not_a_notice() {
    // Said while the connection's first listing is on its way (server-everything does).
    let mut first = Harness::handshaken(json!({"tools": {"listChanged": true}}));
    first.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    // Every listing asked for is answered with the same tools.
    for id in 2..6 {
        let (frames, ..) = first.flush();
        if id > 2 && !frames.iter().any(|f| f.contains("tools/list")) {
            break;
        }
        first.server_says(&json!({"jsonrpc":"2.0","id":id,"result":{"tools": echo_tool()}}).to_string());
    }
    assert_eq!(first.tool_names(), ["echo", "slow"]);
    assert!(first.s.notices().is_empty(), "{:?}", first.s.notices());

    let mut h = Harness::connected(echo_tool());
    let tools = h.s.tools().to_vec();
    let listing = |tools: &[crate::mcp::Tool]| {
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"tools":{}}}}}"#, serde_json::to_string(tools).unwrap())
    };
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    h.flush();
    h.server_says(&listing(&tools));
    assert!(!h.s.tools_loading());
    assert!(h.s.notices().is_empty(), "{:?}", h.s.notices());
    // A changed description is an update, named.
    let mut changed = tools.clone();
    changed[0].description = Some("Says it back, louder".into());
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#);
    h.flush();
    h.server_says(&listing(&changed).replace(r#""id":3"#, r#""id":4"#));
    assert_eq!(h.s.notices(), [format!("the server's tool list changed: updated {}", tools[0].name)]);
}
