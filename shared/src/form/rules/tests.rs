//! The container rules over small schemas built the way tools write them.

use serde_json::{Value, json};

use crate::form::{ArraySpec, Field, KeySchema, Kind, ObjectSpec, build, initial_not_null, next_of_three, unused_key};

fn object(schema: Value) -> ObjectSpec {
    match build(&schema).kind {
        Kind::Object(spec) => spec,
        other => panic!("not an object field: {other:?}"),
    }
}

fn array(schema: Value) -> ArraySpec {
    match build(&schema).kind {
        Kind::Array(spec) => spec,
        other => panic!("not an array field: {other:?}"),
    }
}

/// The choice for `key`, as a word and the pattern that matched.
fn choice(spec: &ObjectSpec, key: &str) -> String {
    match spec.key_schema(key) {
        KeySchema::Declared(p) => format!("declared {}", p.name),
        KeySchema::Pattern { pattern, .. } => format!("pattern {pattern}"),
        KeySchema::Additional(_) => "additional".to_owned(),
        KeySchema::Unnamed => "unnamed".to_owned(),
    }
}

#[test]
fn a_key_gets_its_declared_property_first() {
    let spec = object(json!({
        "type": "object",
        "properties": {"x-name": {"type": "string"}},
        "patternProperties": {"^x-[a-z-]+$": {"type": "integer"}},
        "additionalProperties": {"type": "boolean"},
    }));
    assert_eq!(choice(&spec, "x-name"), "declared x-name");
    assert!(matches!(spec.key_schema("x-name").field().kind, Kind::String(_)));
    assert_eq!(choice(&spec, "x-other"), "pattern ^x-[a-z-]+$");
    assert!(matches!(spec.key_schema("x-other").field().kind, Kind::Number(ref n) if n.integer));
}

#[test]
fn patterns_are_real_regexes() {
    let spec = object(json!({
        "type": "object",
        "patternProperties": {"^x-[a-z]+$": {"type": "string"}, "\\d{2}": {"type": "integer"}},
        "additionalProperties": {"type": "boolean"},
    }));
    // Anchored with a class: lower-case letters only, and nothing before `x-`.
    assert_eq!(choice(&spec, "x-abc"), "pattern ^x-[a-z]+$");
    assert_eq!(choice(&spec, "x-ABC"), "additional");
    assert_eq!(choice(&spec, "x-"), "additional");
    assert_eq!(choice(&spec, "my-x-abc"), "additional");
    // Unanchored: two digits anywhere; ECMA-262's `\d` is ASCII only.
    assert_eq!(choice(&spec, "id42"), "pattern \\d{2}");
    assert_eq!(choice(&spec, "a1b2"), "additional");
    assert_eq!(choice(&spec, "٤٢"), "additional");
    assert_eq!(choice(&spec, "x-ab12"), "pattern \\d{2}");
}

#[test]
fn the_first_listed_pattern_wins_when_several_match() {
    let spec = object(json!({
        "type": "object",
        "patternProperties": {"^a": {"type": "string"}, "b$": {"type": "integer"}},
    }));
    assert_eq!(choice(&spec, "ab"), "pattern ^a");
    assert_eq!(choice(&spec, "cb"), "pattern b$");
}

#[test]
fn additional_properties_take_what_nothing_else_names() {
    let spec = object(json!({"type": "object", "additionalProperties": {"type": "number"}}));
    assert_eq!(choice(&spec, "anything"), "additional");
    assert!(matches!(spec.key_schema("anything").field().kind, Kind::Number(ref n) if !n.integer));
    let any = object(json!({"type": "object", "additionalProperties": true}));
    assert_eq!(any.key_schema("k").field(), Field::json("any value"));
}

#[test]
fn a_key_nothing_allows_gets_a_json_editor() {
    let spec = object(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "patternProperties": {"^s_": {"type": "string"}},
        "additionalProperties": false,
    }));
    assert_eq!(choice(&spec, "other"), "unnamed");
    assert_eq!(spec.key_schema("other").field(), Field::json("a key the schema does not name"));
    // A pattern that does not compile matches no key.
    let broken = object(json!({"type": "object", "patternProperties": {"(": {"type": "string"}}}));
    assert_eq!(choice(&broken, "("), "unnamed");
}

#[test]
fn extra_keys_are_the_undeclared_ones_in_order() {
    let spec = object(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": {"type": "string"},
    }));
    assert!(spec.offers_extra_keys());
    assert_eq!(spec.extra_keys(Some(&json!({"z": 1, "a": 2, "b": 3}))), ["z", "b"]);
    assert!(spec.extra_keys(Some(&json!([1]))).is_empty());
    assert!(spec.extra_keys(None).is_empty());
    let closed = object(json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}));
    assert!(!closed.offers_extra_keys());
    assert!(object(json!({"type": "object", "patternProperties": {"^a": {}}})).offers_extra_keys());
}

#[test]
fn a_new_key_is_the_first_free_one() {
    assert_eq!(unused_key(None), "key1");
    assert_eq!(unused_key(Some(&json!({"key1": 1, "key3": 3}))), "key2");
    assert_eq!(unused_key(Some(&json!({"key2": 1}))), "key1");
}

#[test]
fn an_open_array_grows_to_max_items_and_shrinks_to_min_items() {
    let spec = array(json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}));
    assert!(spec.can_add(0));
    assert!(spec.can_add(2));
    assert!(!spec.can_add(3));
    assert!(!spec.can_add(4));
    assert!(!spec.can_remove(1));
    assert!(spec.can_remove(2));
    assert!(matches!(spec.item_field(7).kind, Kind::String(_)));
    let free = array(json!({"type": "array"}));
    assert!(free.can_add(1000));
    assert!(free.can_remove(1));
    assert!(!free.can_remove(0));
    let none = array(json!({"type": "array", "maxItems": 0}));
    assert!(!none.can_add(0));
}

#[test]
fn a_closed_tuple_grows_only_to_its_positions() {
    for schema in [
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}),
        json!({"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}),
    ] {
        let spec = array(schema);
        assert!(spec.can_add(1));
        assert!(!spec.can_add(2));
        assert!(matches!(spec.field_at(0).map(|f| &f.kind), Some(Kind::String(_))));
        assert!(matches!(spec.field_at(1).map(|f| &f.kind), Some(Kind::Number(_))));
        assert_eq!(spec.field_at(2), None);
        assert_eq!(spec.item_field(2), Field::json("an item past the end of the tuple"));
    }
}

#[test]
fn an_open_tuple_grows_past_its_positions_with_items() {
    let spec = array(json!({
        "type": "array",
        "prefixItems": [{"type": "string"}],
        "items": {"type": "boolean"},
        "maxItems": 3,
    }));
    assert!(matches!(spec.field_at(0).map(|f| &f.kind), Some(Kind::String(_))));
    assert!(matches!(spec.field_at(1).map(|f| &f.kind), Some(Kind::Boolean)));
    assert!(spec.can_add(2));
    assert!(!spec.can_add(3));
}

#[test]
fn tuple_positions_do_not_move() {
    let spec = array(json!({"type": "array", "prefixItems": [{}, {}], "items": {}}));
    // Positions 0 and 1 are fixed; 2 is the first free item and cannot go up into them.
    assert!(!spec.can_move_up(1));
    assert!(!spec.can_move_up(2));
    assert!(spec.can_move_up(3));
    assert!(!spec.can_move_down(1, 5));
    assert!(spec.can_move_down(2, 5));
    assert!(!spec.can_move_down(4, 5));
    let plain = array(json!({"type": "array", "items": {}}));
    assert!(!plain.can_move_up(0));
    assert!(plain.can_move_up(1));
    assert!(plain.can_move_down(0, 2));
    assert!(!plain.can_move_down(1, 2));
}

#[test]
fn unticking_null_gives_a_value_of_the_type() {
    let start = |schema: Value| initial_not_null(&build(&schema), &schema);
    assert_eq!(start(json!({"type": ["string", "null"], "default": null})), json!(""));
    assert_eq!(start(json!({"type": ["integer", "null"], "default": null, "minimum": 3})), json!(3));
    assert_eq!(start(json!({"type": ["integer", "null"], "default": 5})), json!(5));
    assert_eq!(start(json!({"anyOf": [{"type": "boolean"}, {"type": "null"}]})), json!(false));
}

#[test]
fn an_array_of_one_enum_is_a_set_of_checkboxes_ticked_in_the_schemas_order() {
    let spec = array(json!({"type": "array", "items": {"enum": ["red", "green", "blue"]}, "uniqueItems": true}));
    let values: Vec<&Value> = spec.choices().unwrap().iter().map(|c| &c.value).collect();
    assert_eq!(values, [&json!("red"), &json!("green"), &json!("blue")]);
    let ticked = spec.tick(None, &json!("blue"), true);
    assert_eq!(ticked, json!(["blue"]));
    let ticked = spec.tick(Some(&ticked), &json!("red"), true);
    assert_eq!(ticked, json!(["red", "blue"]), "the schema's order, not the clicks'");
    let kept = spec.tick(Some(&json!(["blue", "mauve", "red"])), &json!("blue"), false);
    assert_eq!(kept, json!(["red", "mauve"]), "a value from elsewhere is kept");
    assert_eq!(spec.tick(Some(&json!(["red"])), &json!("red"), true), json!(["red"]), "ticked once");
    // Anything else stays a list of fields.
    for other in [
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "array", "items": {"enum": ["a", null]}}),
        json!({"type": "array", "prefixItems": [{"enum": ["a"]}], "items": {"enum": ["a"]}}),
    ] {
        assert!(array(other.clone()).choices().is_none(), "{other}");
    }
}

#[test]
fn an_optional_boolean_goes_round_three_states() {
    assert_eq!(next_of_three(None), Some(json!(true)));
    assert_eq!(next_of_three(Some(&json!(true))), Some(json!(false)));
    assert_eq!(next_of_three(Some(&json!(false))), None, "left out again");
    assert_eq!(next_of_three(Some(&json!("yes"))), None, "a stray value is left out");
}
