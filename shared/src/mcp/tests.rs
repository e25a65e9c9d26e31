//! Round trips of the official 2026-07-28 example messages that concern tools and content,
//! and the tolerance rules for what servers send.

use expect_test::expect;
use serde_json::json;

use super::*;
use crate::jsonrpc;
use crate::spec_check::official_examples;

fn round_trip<T: serde::de::DeserializeOwned + Serialize>(dir: &str) -> usize {
    let all = official_examples(dir);
    for (name, value) in &all {
        let typed: T =
            serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{dir}/{name} does not read: {e}"));
        let back = serde_json::to_value(&typed).unwrap();
        assert_eq!(&back, value, "{dir}/{name} changed in a round trip");
    }
    all.len()
}

#[test]
fn examples_round_trip() {
    let mut counts = Vec::new();
    counts.push(("Tool", round_trip::<Tool>("Tool")));
    counts.push(("CallToolResult", round_trip::<CallToolResult>("CallToolResult")));
    counts.push(("ListToolsResult", round_trip::<ListToolsResult>("ListToolsResult")));
    for dir in ["TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"] {
        counts.push((dir, round_trip::<Content>(dir)));
    }
    let summary: Vec<String> = counts.iter().map(|(d, n)| format!("{d}: {n}")).collect();
    expect![[r#"
        Tool: 6
        CallToolResult: 4
        ListToolsResult: 1
        TextContent: 1
        ImageContent: 1
        AudioContent: 1
        ResourceLink: 1
        EmbeddedResource: 1"#]]
    .assert_eq(&summary.join("\n"));
}

#[test]
fn example_content_is_typed_not_unknown() {
    for dir in ["TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"] {
        for (name, value) in official_examples(dir) {
            let c = Content::from_value(value);
            assert_ne!(c.type_name(), "unknown", "{dir}/{name} fell back to unknown");
        }
    }
}

#[test]
fn example_envelopes_classify_and_their_results_read() {
    for (name, value) in official_examples("CallToolRequest") {
        let c = jsonrpc::classify(&value).unwrap();
        assert_eq!((c.kind, c.method.as_deref()), (jsonrpc::Kind::Request, Some("tools/call")), "{name}");
    }
    for (name, value) in official_examples("CallToolResultResponse") {
        let c = jsonrpc::classify(&value).unwrap();
        assert_eq!(c.kind, jsonrpc::Kind::Response, "{name}");
        let result: CallToolResult = serde_json::from_value(value["result"].clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), value["result"], "{name}");
    }
    for dir in [
        "ListToolsRequest",
        "ListToolsResultResponse",
        "ToolListChangedNotification",
        "ProgressNotification",
        "CancelledNotification",
    ] {
        for (name, value) in official_examples(dir) {
            jsonrpc::classify(&value).unwrap_or_else(|e| panic!("{dir}/{name}: {e}"));
        }
    }
}

#[test]
fn unknown_and_malformed_content_survive() {
    let items = json!([
        {"type": "text", "text": "hi", "annotations": {"audience": ["user"]}},
        {"type": "hologram", "frames": 3},
        {"type": "image", "mimeType": "image/png"},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "size": 12},
        {"type": "resource", "resource": {"uri": "mem://x", "blob": "AAEC", "mimeType": "application/octet-stream"}},
        {"no_type": true}
    ]);
    let parsed: Vec<Content> = serde_json::from_value(items.clone()).unwrap();
    let types: Vec<&str> = parsed.iter().map(Content::type_name).collect();
    expect![[r#"["text", "unknown", "unknown", "audio", "resource_link", "resource", "unknown"]"#]]
        .assert_eq(&format!("{types:?}"));
    assert_eq!(serde_json::to_value(&parsed).unwrap(), items);
}

#[test]
fn tool_reads_tolerantly_and_names_itself() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "rm",
        "inputSchema": {"type": "object"},
        "annotations": {"title": "Remove", "destructiveHint": true, "futureHint": 1},
        "icons": [{"src": "data:image/png;base64,AA=="}]
    }))
    .unwrap();
    assert_eq!(tool.display_name(), "Remove");
    assert!(tool.matches("RM"));
    assert!(!tool.matches("list"));
    let badges: Vec<&str> = tool.annotations.as_ref().unwrap().stated_badges().iter().map(|b| b.label()).collect();
    assert_eq!(badges, ["destructive"]);
    assert!(tool.extra.contains_key("icons"));
    assert!(tool.annotations.unwrap().extra.contains_key("futureHint"));
}

#[test]
fn initialize_result_reads() {
    let r: InitializeResult = serde_json::from_value(json!({
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {"listChanged": true}},
        "serverInfo": {"name": "demo", "version": "1.0.0"}
    }))
    .unwrap();
    expect![[r#"demo 1.0.0 2025-06-18 ["tools"]"#]].assert_eq(&format!(
        "{} {} {} {:?}",
        r.server_info.name,
        r.server_info.version,
        r.protocol_version,
        r.capabilities.keys().collect::<Vec<_>>()
    ));
}

#[test]
fn the_tool_filter_finds_every_word_in_any_order_across_name_title_and_description() {
    let tool: Tool = serde_json::from_value(json!({
        "name": "slack_archive_channel",
        "title": "Archive a channel",
        "description": "Moves a Slack channel to the archive.",
        "inputSchema": {"type": "object"}
    }))
    .unwrap();
    for hit in ["", "  ", "slack arch", "arch slack", "CHANNEL moves", "archive   a", "slack_archive"] {
        assert!(tool.matches(hit), "{hit:?}");
    }
    for miss in ["slack delete", "archived", "teams"] {
        assert!(!tool.matches(miss), "{miss:?}");
    }
}
