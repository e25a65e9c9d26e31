//! `--arg`/`--args` read against schemas: each value typed by its key's schema, and the
//! errors and violations a person reads.

use expect_test::{Expect, expect};
use serde_json::json;

use super::*;

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "count": {"type": "integer"},
            "ratio": {"type": "number"},
            "flag": {"type": "boolean"},
            "nothing": {"type": "null"},
            "opts": {"type": "object"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "id": {"type": ["integer", "string"]},
            "mode": {"enum": ["fast", "slow"]},
            "level": {"$ref": "#/$defs/level"},
            "old": {"$ref": "#/definitions/old"},
            "either": {"oneOf": [{"type": "boolean"}, {"type": "object"}]},
            "whole": {"allOf": [{"type": "number"}, {"type": "integer"}]},
            "anything": {}
        },
        "$defs": {"level": {"type": "integer", "minimum": 0}},
        "definitions": {"old": {"type": "boolean"}},
        "additionalProperties": false
    })
}

/// Each pair alone: what it sets, or the error a person reads.
fn check(schema: &Value, pairs: &[&str], expect: Expect) {
    let out: Vec<String> = pairs
        .iter()
        .map(|p| match arguments(schema, None, &[(*p).to_owned()]) {
            Ok(v) => format!("{p} → {v}"),
            Err(e) => format!("{p} → error: {e}"),
        })
        .collect();
    expect.assert_eq(&out.join("\n"));
}

#[test]
fn values_are_typed_by_the_schema_of_their_key() {
    let pairs = [
        "name=42",
        "name=a=b",
        "name=",
        "name=\"quoted\"",
        "count=3",
        "count=1e3",
        "count=12345678901234567890",
        "count=1.5",
        "count=abc",
        "count=1e20",
        "ratio=2.50",
        "ratio=1.0",
        "flag=true",
        "flag=false",
        "flag=yes",
        "flag=1",
        "flag=True",
        "nothing=null",
        "nothing=nil",
        "opts={\"a\": 1}",
        "opts=[1]",
        "opts={a:1}",
        "tags=[\"x\", 2]",
        "tags=x",
        "limit=5",
        "limit=null",
        "limit=none",
        "id=7",
        "id=abc",
        "id=1.5",
        "id=1e20",
        "mode=fast",
        "mode=1",
        "level=3",
        "level=high",
        "old=false",
        "either=true",
        "either={}",
        "either=1",
        "whole=2.0",
        "anything=[1, 2]",
    ];
    check(
        &schema(),
        &pairs,
        expect![[r#"
            name=42 → {"name":"42"}
            name=a=b → {"name":"a=b"}
            name= → {"name":""}
            name="quoted" → {"name":"\"quoted\""}
            count=3 → {"count":3}
            count=1e3 → {"count":1000}
            count=12345678901234567890 → {"count":12345678901234567890}
            count=1.5 → {"count":1.5}
            count=abc → error: --arg count=abc: "abc" is not a number (count is an integer)
            count=1e20 → error: --arg count=1e20: 1e20 is too large for a 64-bit integer: the largest is 18446744073709551615
            ratio=2.50 → {"ratio":2.5}
            ratio=1.0 → {"ratio":1.0}
            flag=true → {"flag":true}
            flag=false → {"flag":false}
            flag=yes → error: --arg flag=yes: "yes" is not a boolean: write true or false (flag is a boolean)
            flag=1 → error: --arg flag=1: "1" is not a boolean: write true or false (flag is a boolean)
            flag=True → error: --arg flag=True: "True" is not a boolean: write true or false (flag is a boolean)
            nothing=null → {"nothing":null}
            nothing=nil → error: --arg nothing=nil: "nil" is not null: write null (nothing is null)
            opts={"a": 1} → {"opts":{"a":1}}
            opts=[1] → error: --arg opts=[1]: "[1]" is not a JSON object (opts is an object)
            opts={a:1} → error: --arg opts={a:1}: "{a:1}" is not JSON (opts is an object): key must be a string at line 1 column 2
            tags=["x", 2] → {"tags":["x",2]}
            tags=x → error: --arg tags=x: "x" is not JSON (tags is an array): expected value at line 1 column 1
            limit=5 → {"limit":5}
            limit=null → {"limit":null}
            limit=none → error: --arg limit=none: "none" is of none of the types limit accepts (null, integer)
            id=7 → {"id":7}
            id=abc → {"id":"abc"}
            id=1.5 → {"id":"1.5"}
            id=1e20 → {"id":"1e20"}
            mode=fast → {"mode":"fast"}
            mode=1 → {"mode":"1"}
            level=3 → {"level":3}
            level=high → error: --arg level=high: "high" is not a number (level is an integer)
            old=false → {"old":false}
            either=true → {"either":true}
            either={} → {"either":{}}
            either=1 → error: --arg either=1: "1" is of none of the types either accepts (boolean, object)
            whole=2.0 → {"whole":2}
            anything=[1, 2] → {"anything":[1,2]}"#]],
    );
}

#[test]
fn keys_without_a_schema_are_json_if_they_parse() {
    // `additionalProperties: false`: still set, so that validation names the key.
    let pairs = [
        "other=5",
        "other=1E3",
        "other=-0",
        "other=hello",
        "other=\"5\"",
        "other={\"a\":1}",
        "other=true",
        "other=1e400",
    ];
    check(
        &schema(),
        &pairs,
        expect![[r#"
            other=5 → {"other":5}
            other=1E3 → {"other":1000}
            other=-0 → {"other":0}
            other=hello → {"other":"hello"}
            other="5" → {"other":"5"}
            other={"a":1} → {"other":{"a":1}}
            other=true → {"other":true}
            other=1e400 → {"other":"1e400"}"#]],
    );
    check(
        &json!({"type": "object"}),
        &["n=5", "s=five"],
        expect![[r#"
        n=5 → {"n":5}
        s=five → {"s":"five"}"#]],
    );
}

#[test]
fn properties_are_found_through_refs_combinators_and_additional_properties() {
    let schema = json!({
        "$ref": "#/$defs/Args",
        "$defs": {
            "Args": {
                "allOf": [
                    {"properties": {"a": {"type": "string"}}},
                    {"properties": {"b": {"type": "integer"}, "a": {"maxLength": 3}}}
                ],
                "anyOf": [
                    {"properties": {"c": {"type": "boolean"}}},
                    {"properties": {"c": {"type": "integer"}}}
                ]
            }
        }
    });
    check(
        &schema,
        &["a=1", "b=1", "c=true", "c=2", "c=x"],
        expect![[r#"
        a=1 → {"a":"1"}
        b=1 → {"b":1}
        c=true → {"c":true}
        c=2 → {"c":2}
        c=x → error: --arg c=x: "x" is of none of the types c accepts (boolean, integer)"#]],
    );
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    check(
        &map,
        &["any=12", "any=x"],
        expect![[r#"
        any=12 → {"any":12}
        any=x → error: --arg any=x: "x" is not a number (any is an integer)"#]],
    );
    // A recursive `$ref` ends in "any type", not in a stack overflow.
    let looped = json!({"$ref": "#", "properties": {"r": {"$ref": "#/properties/r"}}});
    check(
        &looped,
        &["r=1", "r=x"],
        expect![[r#"
        r=1 → {"r":1}
        r=x → {"r":"x"}"#]],
    );
}

#[test]
fn arg_overrides_args_and_the_last_repeat_wins() {
    let pairs: Vec<String> = ["count=2", "name=b", "count=3"].map(String::from).to_vec();
    let v = arguments(&schema(), Some(r#"{"count": 1, "name": "a", "flag": true}"#), &pairs).unwrap();
    assert_eq!(v.to_string(), r#"{"count":3,"name":"b","flag":true}"#);
    assert_eq!(arguments(&schema(), None, &[]).unwrap(), json!({}));
}

#[test]
fn malformed_command_lines_are_refused_precisely() {
    let cases: [(Option<&str>, &[&str]); 6] = [
        (Some("{\"a\": 1,\n \"b\": }"), &[]),
        (Some(""), &[]),
        (Some("[1, 2]"), &[]),
        (Some("\"text\""), &[]),
        (None, &["count"]),
        (None, &["=5"]),
    ];
    let out: Vec<String> = cases
        .iter()
        .map(|(json, pairs)| {
            let pairs: Vec<String> = pairs.iter().map(|p| (*p).to_owned()).collect();
            arguments(&schema(), *json, &pairs).unwrap_err().to_string()
        })
        .collect();
    expect![[r#"
        --args is not JSON (line 2, column 7): expected value
        --args is not JSON (line 1, column 0): EOF while parsing a value
        --args must be a JSON object, not an array
        --args must be a JSON object, not a string
        --arg count: expected KEY=VALUE
        --arg =5: the key is empty"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn violations_name_their_path_for_a_terminal() {
    let schema = json!({
        "type": "object",
        "properties": {"count": {"type": "integer", "minimum": 0}, "name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": false
    });
    let pairs: Vec<String> = ["count=-1", "other=x"].map(String::from).to_vec();
    let args = arguments(&schema, None, &pairs).unwrap();
    let violations = validate(&schema, &args).unwrap();
    expect![[r#"
        the arguments do not match the tool's input schema:
          /count: -1 is less than the minimum of 0
          /: additional properties are not allowed ('other' was unexpected)
          /name: name is required
    "#]]
    .assert_eq(&violations_text(&violations));
    assert_eq!(validate(&schema, &json!({"name": "n"})), Ok(vec![]));
    assert!(validate(&json!({"type": 5}), &json!({})).is_err());
}
