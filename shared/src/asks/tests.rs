//! Capabilities by revision, requests read tolerantly, SEP-1034 defaults, the 2025-11-25
//! enum shapes through the form builder, and the roots editor's rules.

use expect_test::expect;
use serde_json::json;

use super::*;
use crate::form::{self, Checker};

#[test]
fn capabilities_by_revision() {
    let caps: Vec<String> = [None, Some(Revision::V2024_11_05), Some(Revision::V2025_03_26)]
        .into_iter()
        .chain(Revision::ALL[2..].iter().copied().map(Some))
        .map(|r| format!("{}: {}", r.map_or("unknown", Revision::as_str), capabilities(r)))
        .collect();
    expect![[r#"
        unknown: {"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"elicitation":{"form":{},"url":{}}}
        2024-11-05: {"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}
        2025-03-26: {"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}
        2025-06-18: {"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"elicitation":{}}
        2025-11-25: {"roots":{"listChanged":true},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"elicitation":{"form":{},"url":{}}}
        2026-07-28: {"roots":{},"sampling":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]},"io.modelcontextprotocol/tasks":{}},"elicitation":{"form":{},"url":{}}}"#]]
    .assert_eq(&caps.join("\n"));
}

#[test]
fn reads_requests_tolerantly() {
    let id = Id::Number(1);
    let url = ServerAsk::read(
        &id,
        "elicitation/create",
        &json!({"mode": "url", "message": "Sign in", "url": "https://example.com/x", "elicitationId": "e1"}),
    );
    expect![[r#"
        Some(
            ServerAsk {
                id: Number(
                    1,
                ),
                kind: Elicit(
                    Url {
                        message: "Sign in",
                        url: "https://example.com/x",
                        elicitation_id: Some(
                            "e1",
                        ),
                    },
                ),
            },
        )"#]]
    .assert_eq(&format!("{url:#?}"));
    let sample = ServerAsk::read(
        &id,
        "sampling/createMessage",
        &json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Hi"}},
            {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "image", "data": "AA", "mimeType": "image/png"}]},
            "junk"
        ], "modelPreferences": {"hints": [{"name": "claude"}]}, "tools": [{"name": "t", "inputSchema": {}}, {"inputSchema": {}}], "maxTokens": 5}),
    );
    let Some(ServerAsk { kind: AskKind::Sample(s), .. }) = sample else { panic!("{sample:?}") };
    let lines: Vec<String> = s.messages.iter().map(|m| format!("{}: {}", m.role, m.text)).collect();
    expect![[r#"
        user: Hi
        user: a
        {"type":"image","data":"AA","mimeType":"image/png"}
        ?: null"#]]
    .assert_eq(&lines.join("\n"));
    assert_eq!(s.tool_names(), ["t", "(unnamed)"]);
    assert_eq!((s.max_tokens, s.system_prompt), (Some(5), None));
    assert!(ServerAsk::read(&id, "ping", &json!({})).is_none());
}

/// The conformance suite's `elicitation-sep1034-client-defaults` schema.
fn sep1034() -> Value {
    json!({"type": "object", "required": [], "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": true},
        "note": {"type": "string"}
    }})
}

#[test]
fn defaults_fill_what_an_answer_leaves_out() {
    expect![[r#"{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}"#]]
        .assert_eq(&initial_content(&sep1034()).to_string());
    let answered = with_defaults(&sep1034(), &json!({"age": 41, "note": "hi"}));
    expect![[r#"{"age":41,"note":"hi","name":"John Doe","score":95.5,"status":"active","verified":true}"#]]
        .assert_eq(&answered.to_string());
    assert!(Checker::new(&sep1034()).unwrap().check(&answered).is_empty());
}

#[test]
fn enums_of_2025_11_25_become_choices() {
    let schema = json!({"type": "object", "properties": {
        "hero": {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}, {"const": "h2", "title": "Wonder Woman"}]},
        "fish": {"type": "array", "minItems": 1, "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Salmon"}]}},
        "tools": {"type": "array", "items": {"type": "string", "enum": ["Guitar", "Piano"]}}
    }});
    let dump = form::dump(&form::build(&schema));
    assert!(dump.contains("Superman") && dump.contains("Salmon") && dump.contains("Piano"), "{dump}");
    let checker = Checker::new(&schema).unwrap();
    assert!(checker.check(&json!({"hero": "h2", "fish": ["f1"], "tools": ["Piano"]})).is_empty());
    assert_eq!(checker.check(&json!({"hero": "Superman", "fish": []})).len(), 2);
}

#[test]
fn roots_editor_rules() {
    assert_eq!(parse_roots("\n  \n"), Ok(vec![]));
    assert_eq!(
        parse_roots("file:///home/me/project\n  https://example.com/repo  \n"),
        Ok(vec!["file:///home/me/project".into(), "https://example.com/repo".into()])
    );
    expect![[r#"line 1: "/home/me" is not an absolute URI (e.g. file:///home/me/project); line 3: "file:relative" is not an absolute URI (e.g. file:///home/me/project)"#]]
        .assert_eq(&parse_roots("/home/me\nfile:///ok\nfile:relative").unwrap_err());
    assert!(parse_roots("a b:c").is_err());
    expect![[r#"{"roots":[{"uri":"file:///home/me/project/","name":"project"},{"uri":"https://example.com","name":"example.com"}]}"#]]
        .assert_eq(&roots_result(&["file:///home/me/project/".into(), "https://example.com".into()]).to_string());
}
