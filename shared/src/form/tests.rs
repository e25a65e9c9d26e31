//! The form model against a corpus of real tool schemas (server-everything,
//! server-filesystem, a Pydantic server on the official Python SDK) and hand-written edge
//! cases: every schema builds, validates, and starts from arguments we can explain.

use std::fmt::Write;
use std::path::PathBuf;

use expect_test::{expect, expect_file};
use serde_json::{Value, json};

use super::*;

fn corpus(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/schemas").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["tools"].as_array().unwrap().clone()
}

/// The tree, the starting arguments and what validation says of them, for every tool.
fn report(name: &str) -> String {
    let mut out = String::new();
    for tool in corpus(name) {
        let schema = &tool["inputSchema"];
        let field = build(schema);
        let start = initial(&field, schema);
        let checker = Checker::new(schema).unwrap_or_else(|e| panic!("{}: {e}", tool["name"]));
        let violations = checker.check(&start);
        // Defaults never cause a violation: only required values without one can.
        for v in &violations {
            let at = field_at(&field, schema, &v.path);
            assert!(
                at.as_ref().is_some_and(|f| f.default.is_none()),
                "{}: a starting value with a default violates {}: {}",
                tool["name"],
                v.path,
                v.message
            );
        }
        let _ = writeln!(out, "## {}", tool["name"].as_str().unwrap());
        out.push_str(&dump(&field));
        let _ = writeln!(out, "start: {start}");
        if violations.is_empty() {
            out.push_str("start is valid\n");
        }
        for v in violations {
            let _ = writeln!(out, "start violates {}: {}", if v.path.is_empty() { "/" } else { &v.path }, v.message);
        }
        out.push('\n');
    }
    out
}

/// The field a pointer leads to, following objects, arrays, variants and recursion.
fn field_at(field: &Field, root: &Value, path: &str) -> Option<Field> {
    let mut at = field.clone();
    for token in path.split('/').skip(1) {
        if let Kind::Recursive { pointer } = &at.kind {
            at = build_at(root, pointer);
        }
        if let Kind::Variants(vs) = &at.kind {
            at = vs.first()?.field.clone();
        }
        at = match &at.kind {
            Kind::Object(o) => o.properties.iter().find(|p| p.name == token).map(|p| p.field.clone())?,
            Kind::Array(a) => {
                let i: usize = token.parse().ok()?;
                a.prefix.get(i).cloned().or_else(|| a.items.as_deref().cloned())?
            }
            _ => return None,
        };
    }
    Some(at)
}

#[test]
fn server_everything() {
    expect_file!["../../testdata/forms/server-everything.txt"].assert_eq(&report("server-everything"));
}

#[test]
fn server_filesystem() {
    expect_file!["../../testdata/forms/server-filesystem.txt"].assert_eq(&report("server-filesystem"));
}

#[test]
fn python_pydantic() {
    expect_file!["../../testdata/forms/python-pydantic.txt"].assert_eq(&report("python-pydantic"));
}

#[test]
fn edge_cases() {
    expect_file!["../../testdata/forms/edge-cases.txt"].assert_eq(&report("edge-cases"));
}

#[test]
fn required_violations_point_at_the_missing_field() {
    let schema = json!({
        "type": "object",
        "properties": {"trip": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
        "required": ["trip"]
    });
    let c = Checker::new(&schema).unwrap();
    let v = c.check(&json!({"trip": {}}));
    assert_eq!(v, [Violation { path: "/trip/city".into(), message: "city is required".into() }]);
    let v = c.check(&json!({"trip": {"city": 3}}));
    assert_eq!(v[0].path, "/trip/city");
}

#[test]
fn formats_are_checked_and_remote_refs_never_fetched() {
    let schema = json!({
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date"},
            "mail": {"type": "string", "format": "email"},
            "doc": {"$ref": "https://example.com/never.json"}
        }
    });
    let c = Checker::new(&schema).unwrap();
    let paths: Vec<String> =
        c.check(&json!({"when": "tomorrow", "mail": "nope", "doc": 1})).into_iter().map(|v| v.path).collect();
    assert_eq!(paths, ["/when", "/mail"]);
    let f = build(&schema);
    let Kind::Object(o) = &f.kind else { panic!() };
    assert!(matches!(&o.properties[2].field.kind, Kind::Json { reason } if reason.contains("never fetched")));
}

#[test]
fn recursive_schemas_expand_one_level_at_a_time() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
        "$ref": "#/$defs/node"
    });
    let f = build(&schema);
    expect![[r#"
        (arguments): object
          name?: string
          kids?: array
            []: recursive #/$defs/node
    "#]]
    .assert_eq(&dump(&f));
    let inner = build_at(&schema, "#/$defs/node");
    expect![[r#"
        (arguments): object
          name?: string
          kids?: array
            []: recursive #/$defs/node
    "#]]
    .assert_eq(&dump(&inner));
}

#[test]
fn starting_numbers_meet_their_bounds() {
    let schema = json!({"type": "object", "required": ["a", "b", "c", "d"], "properties": {
        "a": {"type": "integer", "minimum": 3},
        "b": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
        "c": {"type": "integer", "maximum": -2},
        "d": {"type": "number", "minimum": 1.25}
    }});
    let start = initial(&build(&schema), &schema);
    assert_eq!(start, json!({"a": 3, "b": 0.5, "c": -2, "d": 1.25}));
    assert!(Checker::new(&schema).unwrap().check(&start).is_empty());
}

#[test]
fn variants_are_guessed_from_values() {
    let schema = json!({"oneOf": [
        {"type": "object", "title": "By id", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        {"type": "object", "title": "By name", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        {"type": "integer"}
    ]});
    let Kind::Variants(vs) = build(&schema).kind else { panic!() };
    let labels: Vec<&str> = vs.iter().map(|v| v.label.as_str()).collect();
    assert_eq!(labels, ["By id", "By name", "integer"]);
    assert_eq!(guess_variant(&vs, &json!({"name": "x"})), 1);
    assert_eq!(guess_variant(&vs, &json!(4)), 2);
    assert_eq!(guess_variant(&vs, &json!("?")), 0);
}

#[test]
fn an_invalid_schema_is_reported_not_a_panic() {
    let err = Checker::new(&json!({"type": "strng"})).unwrap_err();
    assert!(err.to_string().starts_with("the input schema cannot be used for validation"), "{err}");
    assert!(matches!(build(&json!({"type": "strng"})).kind, Kind::Json { .. }));
}

#[test]
fn refs_resolve_as_validation_resolves_them_anchors_and_ids_too() {
    let schema = json!({
        "$id": "https://example.com/tool.json",
        "type": "object",
        "$defs": {
            "count": {"$anchor": "count", "type": "integer", "minimum": 1},
            "place": {"$id": "place.json", "type": "object", "properties": {"city": {"type": "string"}}}
        },
        "properties": {
            "n": {"$ref": "#count"},
            "at": {"$ref": "place.json"},
            "far": {"$ref": "https://other.example/x.json"}
        },
        "required": ["n"]
    });
    let c = Checker::new(&schema).unwrap();
    let paths: Vec<String> = c.check(&json!({"n": 0, "at": {"city": 3}})).into_iter().map(|v| v.path).collect();
    assert_eq!(paths, ["/n", "/at/city"]);
    expect![[r#"
        (arguments): object
          n: integer(1..=)
          at?: object
            city?: string
          far?: JSON editor (remote $ref https://other.example/x.json is never fetched)
    "#]]
    .assert_eq(&dump(&build(&schema)));
    let typed = cli::arguments(&schema, None, &["n=5".to_owned(), "at={\"city\":\"Oslo\"}".to_owned()]).unwrap();
    assert_eq!(typed, json!({"n": 5, "at": {"city": "Oslo"}}));
    assert!(cli::arguments(&schema, None, &["n=five".to_owned()]).is_err(), "an anchored integer is typed");
}
