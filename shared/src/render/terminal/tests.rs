//! Terminal text pinned for every content kind, structured content, tool errors, tool
//! lists and protocol errors.

use expect_test::expect;
use serde_json::json;

use super::*;

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

fn result(v: Value) -> CallToolResult {
    serde_json::from_value(v).unwrap()
}

#[test]
fn every_content_kind_in_order() {
    let r = result(json!({
        "content": [
            {"type": "text", "text": "plain words"},
            {"type": "text", "text": "two lines\nending in a newline\n"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "image", "data": PNG, "mimeType": "image/jpeg"},
            {"type": "image", "data": "%%%", "mimeType": "image/png"},
            {"type": "audio", "data": WAV, "mimeType": "audio/wav"},
            {"type": "audio", "data": "A".repeat(16 * 1024), "mimeType": "audio/ogg"},
            {"type": "resource_link", "uri": "file:///tmp/a.txt", "name": "a.txt", "mimeType": "text/plain"},
            {"type": "resource_link", "uri": "https://example.com/b"},
            {"type": "resource", "resource": {"uri": "mem://c.json", "mimeType": "application/json", "text": "{\"k\": true}"}},
            {"type": "resource", "resource": {"uri": "mem://t.txt", "mimeType": "text/plain", "blob": "aGVsbG8="}},
            {"type": "resource", "resource": {"uri": "mem://p.png", "mimeType": "image/png", "blob": PNG}},
            {"type": "resource", "resource": {"uri": "mem://z.gz", "mimeType": "application/gzip", "blob": "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA=="}},
            {"type": "resource", "resource": {"uri": "mem://nothing"}},
            {"type": "hologram", "frames": 3}
        ],
        "structuredContent": {"n": 1, "tags": ["a"]}
    }));
    expect![[r#"
        plain words
        two lines
        ending in a newline
        [image image/png, 70 B]
        [image image/jpeg, 70 B] (declared as image/jpeg but the data looks like image/png)
        [image image/png, not valid base64]
        [audio audio/wav, 44 B]
        [audio audio/ogg, 12.0 KB]
        [resource link] file:///tmp/a.txt (a.txt, text/plain)
        [resource link] https://example.com/b
        {"k": true}
        hello
        [resource mem://p.png: blob image/png, 70 B]
        [resource mem://z.gz: blob application/gzip, 25 B]
        [resource mem://nothing: no contents]
        {"type":"hologram","frames":3}
        structured content:
        {
          "n": 1,
          "tags": [
            "a"
          ]
        }
    "#]]
    .assert_eq(&call_result(&r));
}

#[test]
fn structured_content_already_in_the_text_is_not_repeated() {
    let same = result(json!({
        "content": [{"type": "text", "text": "{\"n\": 1}"}],
        "structuredContent": {"n": 1}
    }));
    expect![[r#"
        {"n": 1}
    "#]]
    .assert_eq(&call_result(&same));
    let only = result(json!({"content": [], "structuredContent": [1, 2]}));
    expect![[r#"
        structured content:
        [
          1,
          2
        ]
    "#]]
    .assert_eq(&call_result(&only));
}

#[test]
fn errors_empty_results_and_legacy_results_say_so() {
    let failed = result(json!({"content": [{"type": "text", "text": "no such file: /x"}], "isError": true}));
    expect![[r#"
        the tool reported an error:
        no such file: /x
    "#]]
    .assert_eq(&call_result(&failed));
    expect![[r#"
        (no content)
    "#]]
    .assert_eq(&call_result(&result(json!({"content": []}))));
    expect![[r#"
        toolResult (an early-draft field):
        {
          "sum": 3
        }
    "#]]
    .assert_eq(&call_result(&result(json!({"toolResult": {"sum": 3}}))));
}

#[test]
fn tools_with_their_hints_and_arguments() {
    let tools: Vec<Tool> = serde_json::from_value(json!([
        {
            "name": "read_file",
            "title": "Read a file",
            "description": "Reads a file\nfrom disk.\n\nLong details nobody needs in a list.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "Where the file is\nsecond line"},
                    "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
                    "mode": {"$ref": "#/$defs/Mode"},
                    "anything": {}
                },
                "required": ["path"],
                "$defs": {"Mode": {"enum": ["text", "binary"]}}
            },
            "annotations": {"readOnlyHint": true, "openWorldHint": false}
        },
        {
            "name": "delete",
            "inputSchema": {"$ref": "#/$defs/Args", "$defs": {"Args": {
                "type": "object", "properties": {"ids": {"type": "array"}}, "required": ["ids"]
            }}},
            "annotations": {"title": "Delete things", "destructiveHint": true}
        },
        {"name": "ping", "inputSchema": {"type": "object"}}
    ]))
    .unwrap();
    expect![[r#"
        read_file (Read a file)
          Reads a file from disk.
          hints: read-only, closed-world
          arguments:
            path: string (required) - Where the file is
            limit: null or integer
            mode: string
            anything: any

        delete (Delete things)
          hints: may modify (default), destructive, open-world (default)
          arguments:
            ids: array (required)

        ping
          hints: may modify (default), destructive (default), open-world (default)
          arguments: none
    "#]]
    .assert_eq(&tool_list(&tools));
    assert_eq!(tool_list(&[]), "(no tools)\n");
}

#[test]
fn protocol_errors_with_their_meaning_and_data() {
    let errors: Vec<ErrorObject> = serde_json::from_value(json!([
        {"code": -32602, "message": "Unknown tool: nope", "data": "did you mean: ping"},
        {"code": 42, "message": "", "data": {"retry": false}},
        {"code": -32601, "message": "Method not found"}
    ]))
    .unwrap();
    let out: Vec<String> = errors.iter().map(protocol_error).collect();
    expect![[r#"
        protocol error -32602 (Invalid params: the arguments or parameters were rejected): Unknown tool: nope
        data: did you mean: ping
        ---
        protocol error 42: (no message)
        data:
        {
          "retry": false
        }
        ---
        protocol error -32601 (Method not found: the server does not offer this method): Method not found
    "#]]
    .assert_eq(&out.join("---\n"));
}

#[test]
fn app_tools_say_so() {
    let tools: Vec<Tool> = serde_json::from_value(json!([
        {"name": "show", "inputSchema": {}, "_meta": {"ui": {"resourceUri": "ui://s/view"}}},
        {"name": "poll", "inputSchema": {}, "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "old", "inputSchema": {}, "_meta": {"ui/resourceUri": "ui://o"}}
    ]))
    .unwrap();
    let text = tool_list(&tools);
    assert!(text.contains("show\n") && text.contains("  [App] view: ui://s/view\n"), "{text}");
    assert!(text.contains("  [App] for the view only\n"), "{text}");
    assert!(text.contains("  [App] view: ui://o\n"), "{text}");
}
