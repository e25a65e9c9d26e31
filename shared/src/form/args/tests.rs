//! The arguments model: switching editors without losing text, refused numbers over
//! validation, reset, editing by path.

use serde_json::{Value, json};

use crate::form::{ArgsModel, Checker, Field, RawArgsError, build};

const TOO_BIG: &str = "99999999999999999999";

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "ada"},
            "count": {"type": "integer", "maximum": 10},
            "size": {"type": "integer"},
        },
        "required": ["name", "count"],
    })
}

fn loaded(saved: Option<&str>) -> (ArgsModel, Field, Value) {
    let schema = schema();
    let field = build(&schema);
    let mut m = ArgsModel::default();
    m.load(&field, &schema, saved);
    (m, field, schema)
}

fn paths(found: &[crate::form::Violation]) -> Vec<&str> {
    found.iter().map(|v| v.path.as_str()).collect()
}

#[test]
fn load_starts_from_saved_arguments_only_when_they_are_an_object() {
    assert_eq!(loaded(Some(r#"{"name": "bob"}"#)).0.value, json!({"name": "bob"}));
    for bad in [None, Some("[1]"), Some("{not json"), Some("3")] {
        let (m, ..) = loaded(bad);
        assert_eq!(m.value, json!({"name": "ada", "count": 0}), "{bad:?}");
    }
}

#[test]
fn load_leaves_raw_mode_and_forgets_refusals() {
    let (mut m, field, schema) = loaded(None);
    m.set_number("/size", TOO_BIG, true);
    m.variants.insert("/x".into(), 1);
    m.toggle_raw();
    m.raw_error = Some(RawArgsError::NotAnObject);
    m.load(&field, &schema, None);
    assert!(!m.raw_mode);
    assert_eq!(m.raw_error, None);
    assert!(m.refused.is_empty());
    assert!(m.variants.is_empty());
}

#[test]
fn form_to_raw_shows_the_arguments_as_pretty_json() {
    let (mut m, ..) = loaded(None);
    m.raw_error = Some(RawArgsError::NotAnObject);
    m.toggle_raw();
    assert!(m.raw_mode);
    assert_eq!(m.raw_text, "{\n  \"name\": \"ada\",\n  \"count\": 0\n}");
    assert_eq!(m.raw_error, None);
    assert_eq!(m.current(), Ok(json!({"name": "ada", "count": 0})));
}

#[test]
fn invalid_json_stays_in_the_raw_editor_with_an_error() {
    let (mut m, ..) = loaded(None);
    m.toggle_raw();
    m.raw_text = "{\"name\": ".into();
    m.toggle_raw();
    assert!(m.raw_mode);
    assert_eq!(m.raw_text, "{\"name\": ");
    let error = m.raw_error.clone().unwrap();
    assert!(error.to_string().starts_with("not valid JSON: "), "{error}");
    assert_eq!(m.value, json!({"name": "ada", "count": 0}));
    assert_eq!(m.current(), Err(error));
}

#[test]
fn a_non_object_stays_in_the_raw_editor_with_an_error() {
    let (mut m, ..) = loaded(None);
    m.toggle_raw();
    m.raw_text = "[1, 2]".into();
    m.toggle_raw();
    assert!(m.raw_mode);
    assert_eq!(m.raw_text, "[1, 2]");
    assert_eq!(m.raw_error, Some(RawArgsError::NotAnObject));
    assert_eq!(RawArgsError::NotAnObject.to_string(), "the arguments must be a JSON object");
    assert_eq!(m.current(), Err(RawArgsError::NotAnObject));
}

#[test]
fn raw_to_form_takes_the_object_and_forgets_refusals_and_variants() {
    let (mut m, ..) = loaded(None);
    m.set_number("/size", TOO_BIG, true);
    m.variants.insert("/x".into(), 1);
    m.toggle_raw();
    m.raw_text = r#"{"name": "eve", "count": 3}"#.into();
    m.raw_error = Some(RawArgsError::NotAnObject);
    m.toggle_raw();
    assert!(!m.raw_mode);
    assert_eq!(m.value, json!({"name": "eve", "count": 3}));
    assert_eq!(m.raw_error, None);
    assert!(m.refused.is_empty());
    assert!(m.variants.is_empty());
    assert_eq!(m.current(), Ok(json!({"name": "eve", "count": 3})));
}

#[test]
fn a_refused_number_replaces_what_validation_says_at_its_path() {
    let (mut m, _, schema) = loaded(None);
    let checker = Checker::new(&schema).unwrap();
    m.set("/count", json!(11));
    m.set_number("/size", TOO_BIG, true);
    assert_eq!(m.value["size"], json!(TOO_BIG), "the text stays, so validation holds the call back");
    // Validation alone says `/size` is a string; the refusal says why instead.
    assert_eq!(paths(&checker.check(&m.value)), ["/count", "/size"]);
    let found = m.violations(Some(&checker));
    assert_eq!(paths(&found), ["/count", "/size"]);
    assert!(found[1].message.starts_with(&format!("{TOO_BIG} is too large for a 64-bit integer")), "{found:?}");
    // Without a usable schema, the refusal is still shown.
    assert_eq!(paths(&m.violations(None)), ["/size"]);
    // The raw editor shows what validation says of its own text.
    m.toggle_raw();
    let raw = m.violations(Some(&checker));
    assert_eq!(paths(&raw), ["/count", "/size"]);
    assert!(raw[1].message.contains("integer") && !raw[1].message.contains("64-bit"), "{raw:?}");
    m.raw_text = "{".into();
    assert!(m.violations(Some(&checker)).is_empty());
}

#[test]
fn a_good_number_clears_the_refusal_at_its_path_only() {
    let (mut m, ..) = loaded(None);
    m.set_number("/size", TOO_BIG, true);
    m.set_number("/count", TOO_BIG, true);
    m.set_number("/size", "7", true);
    assert_eq!(m.value["size"], json!(7));
    assert_eq!(paths(&m.refused), ["/count"]);
}

#[test]
fn reset_goes_back_to_the_defaults_in_either_editor() {
    let (mut m, field, schema) = loaded(Some(r#"{"name": "bob", "count": 4}"#));
    m.set_number("/size", TOO_BIG, true);
    m.variants.insert("/x".into(), 1);
    m.raw_error = Some(RawArgsError::NotAnObject);
    m.reset(&field, &schema);
    assert_eq!(m.value, json!({"name": "ada", "count": 0}));
    assert!(m.refused.is_empty() && m.variants.is_empty() && m.raw_error.is_none());
    assert_eq!(m.raw_text, "", "the hidden raw editor is left alone");
    m.toggle_raw();
    m.raw_text = "{broken".into();
    m.reset(&field, &schema);
    assert!(m.raw_mode);
    assert_eq!(m.raw_text, "{\n  \"name\": \"ada\",\n  \"count\": 0\n}");
}

#[test]
fn set_creates_missing_parents() {
    let mut m = ArgsModel::default();
    m.set("/a/b~1c/d", json!(1));
    assert_eq!(m.value, json!({"a": {"b/c": {"d": 1}}}));
    // A parent that is not a container becomes an object; arrays are kept.
    m.value = json!({"a": "text", "list": [{"x": 1}]});
    m.set("/a/b", json!(true));
    m.set("/list/0/y", json!(2));
    m.set("/list/1/z", json!(3));
    assert_eq!(m.value, json!({"a": {"b": true}, "list": [{"x": 1, "y": 2}, {"z": 3}]}));
}

#[test]
fn remove_deletes_the_value_and_clears_every_refusal() {
    let (mut m, ..) = loaded(None);
    m.set("/list", json!([1, 2, 3]));
    m.set_number("/size", TOO_BIG, true);
    m.set_number("/count", TOO_BIG, true);
    m.remove("/list/0");
    assert_eq!(m.value["list"], json!([2, 3]));
    assert!(m.refused.is_empty());
    m.remove("/size");
    assert_eq!(m.value.get("size"), None);
}

fn nested() -> (ArgsModel, Value) {
    let schema = json!({"type": "object", "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
        "steps": {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]}},
    }});
    let mut m = ArgsModel::default();
    m.load(&build(&schema), &schema, Some(r#"{"tags": {"a": 1, "b": 2}, "steps": [1, "two", 3]}"#));
    (m, schema)
}

#[test]
fn renaming_a_key_moves_what_was_refused_and_picked_under_it() {
    let (mut m, _) = nested();
    m.set_number("/tags/a", TOO_BIG, true);
    m.variants.insert("/tags/a/x".into(), 1);
    m.variants.insert("/tags/ab".into(), 1);
    assert!(m.rename_key("/tags", "a", "z"));
    assert_eq!(m.value["tags"], json!({"z": TOO_BIG, "b": 2}));
    assert_eq!(paths(&m.refused), ["/tags/z"]);
    assert_eq!(m.variants.get("/tags/z/x"), Some(&1));
    assert_eq!(m.variants.get("/tags/ab"), Some(&1), "a sibling whose name starts alike stays");
    assert!(!m.rename_key("/tags", "z", "b"), "a taken key is refused");
    assert_eq!(m.value["tags"], json!({"z": TOO_BIG, "b": 2}));
    assert_eq!(paths(&m.refused), ["/tags/z"]);
}

#[test]
fn moving_an_item_swaps_what_was_refused_and_picked_with_it() {
    let (mut m, _) = nested();
    m.variants.insert("/steps/1".into(), 1);
    m.set_number("/steps/0", TOO_BIG, true);
    assert!(m.move_item("/steps", 0, 1));
    assert_eq!(m.value["steps"], json!(["two", TOO_BIG, 3]));
    assert_eq!(paths(&m.refused), ["/steps/1"]);
    assert_eq!((m.variants.get("/steps/0"), m.variants.get("/steps/1")), (Some(&1), None));
    assert!(!m.move_item("/steps", 2, 3), "past the end");
}

#[test]
fn adding_keys_and_items_starts_them_from_their_schema() {
    let (mut m, schema) = nested();
    let field = build(&json!({"type": "integer"}));
    assert_eq!(m.add_key("/tags", &schema, |_| field.clone()), "key1");
    assert_eq!(m.add_key("/tags", &schema, |_| field.clone()), "key2");
    assert_eq!(m.value["tags"], json!({"a": 1, "b": 2, "key1": 0, "key2": 0}));
    m.add_item("/steps", &build(&json!({"type": "string"})), &schema);
    assert_eq!(m.value["steps"], json!([1, "two", 3, ""]));
    m.add_item("/fresh", &field, &schema);
    assert_eq!(m.value["fresh"], json!([0]), "a missing array is made");
    m.pick_variant("/steps/1", 0, &field, &schema);
    assert_eq!((m.value["steps"][1].clone(), m.variants.get("/steps/1")), (json!(0), Some(&0)));
}

#[test]
fn nothing_scolds_before_a_field_is_touched_or_call_is_pressed() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 3},
            "count": {"type": "integer", "maximum": 10},
            "delivery": {"type": "object", "properties": {"street": {"type": "string"}}, "required": ["street"]},
        },
        "required": ["name", "count", "delivery"],
    });
    let sorted = |found: &[crate::form::Violation]| {
        let mut p: Vec<String> = found.iter().map(|v| v.path.clone()).collect();
        p.sort();
        p
    };
    let field = build(&schema);
    let checker = Checker::new(&schema).unwrap();
    let mut m = ArgsModel::default();
    m.load(&field, &schema, Some(r#"{"name": "", "count": 11, "delivery": {}}"#));
    let all = m.violations(Some(&checker));
    assert_eq!(sorted(&all), ["/count", "/delivery/street", "/name"], "validation sees everything");
    assert!(m.shown(&all).is_empty(), "a fresh form is quiet");

    m.set("/count", json!(12));
    assert_eq!(sorted(&m.shown(&m.violations(Some(&checker)))), ["/count"], "only the field edited");
    m.set("/delivery", json!({}));
    assert_eq!(sorted(&m.shown(&m.violations(Some(&checker)))), ["/count", "/delivery/street"], "and what is inside");

    let mut m2 = m.clone();
    m2.reveal();
    assert_eq!(m2.shown(&all).len(), 3, "Call shows every problem");
    m2.reset(&field, &schema);
    assert!(!m2.revealed && m2.touched.is_empty(), "reset is quiet again");

    // The raw editor's text is the person's own: its problems show.
    let mut m3 = ArgsModel::default();
    m3.load(&field, &schema, Some(r#"{"name": ""}"#));
    m3.toggle_raw();
    assert_eq!(m3.shown(&m3.violations(Some(&checker))).len(), 3);
}
