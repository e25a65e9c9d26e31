//! The validator keyword by keyword (valid and invalid instances of each), across drafts,
//! through references and recursion, with its messages and its refusals pinned.

use expect_test::{Expect, expect};
use serde_json::{Value, json};

use super::*;

/// Checks that each schema accepts its `good` instances and refuses its `bad` ones, and that
/// the quiet path (`is_valid`) agrees with the reporting one.
fn table(cases: &[(Value, &[Value], &[Value])]) {
    for (schema, good, bad) in cases {
        let s = Schema::compile(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        for v in *good {
            assert_eq!(s.validate(v), [], "{schema} refuses {v}");
            assert!(s.is_valid(v), "{schema} refuses {v} when quiet");
        }
        for v in *bad {
            assert!(!s.validate(v).is_empty(), "{schema} accepts {v}");
            assert!(!s.is_valid(v), "{schema} accepts {v} when quiet");
        }
    }
}

/// Every violation, one per line, as `path: message`.
fn violations(schema: Value, instance: Value, expect: Expect) {
    let s = Schema::compile(&schema).unwrap();
    let lines: Vec<String> = s.validate(&instance).into_iter().map(|v| format!("{}: {}", v.path, v.message)).collect();
    expect.assert_eq(&(lines.join("\n") + "\n"));
}

#[test]
fn types_enums_and_consts() {
    table(&[
        (json!({"type": "integer"}), &[json!(1), json!(1.0), json!(-3)], &[json!(1.5), json!("1"), json!(null)]),
        (json!({"type": "number"}), &[json!(1), json!(2.5)], &[json!("2"), json!(true)]),
        (json!({"type": ["string", "null"]}), &[json!("a"), json!(null)], &[json!(0), json!([])]),
        (json!({"type": "object"}), &[json!({})], &[json!([]), json!("{}")]),
        (json!({"type": "array"}), &[json!([])], &[json!({})]),
        (json!({"type": "boolean"}), &[json!(false)], &[json!(0)]),
        (
            json!({"enum": ["a", 1, {"k": [1]}]}),
            &[json!("a"), json!(1.0), json!({"k": [1.0]})],
            &[json!("b"), json!(2)],
        ),
        (json!({"const": {"a": 1, "b": 2}}), &[json!({"b": 2, "a": 1.0})], &[json!({"a": 1}), json!(null)]),
        (json!({"const": null}), &[json!(null)], &[json!(false), json!(0)]),
        (json!(true), &[json!(1), json!(null)], &[]),
        (json!(false), &[], &[json!(1), json!(null)]),
        (json!({}), &[json!({"any": "thing"})], &[]),
    ]);
}

#[test]
fn object_keywords() {
    let deps = json!({"dependencies": {"card": ["billing"], "vip": {"required": ["level"]}}});
    table(&[
        (
            json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}),
            &[json!({"a": "x"}), json!({"a": "x", "b": 1})],
            &[json!({}), json!({"a": 1})],
        ),
        (json!({"required": ["a"]}), &[json!([]), json!("not an object")], &[json!({"b": 1})]),
        (
            json!({"properties": {"a": {}}, "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false}),
            &[json!({"a": 1, "x-b": 2}), json!({})],
            &[json!({"b": 1}), json!({"x-b": "s"})],
        ),
        (json!({"patternProperties": {"b": {"type": "integer"}}}), &[json!({"abc": 1})], &[json!({"abc": "1"})]),
        (json!({"additionalProperties": {"type": "integer"}}), &[json!({"a": 1})], &[json!({"a": "1"})]),
        (json!({"propertyNames": {"pattern": "^[a-z]+$"}}), &[json!({"abc": 1}), json!([1])], &[json!({"aB": 1})]),
        (
            json!({"minProperties": 1, "maxProperties": 2}),
            &[json!({"a": 1})],
            &[json!({}), json!({"a": 1, "b": 2, "c": 3})],
        ),
        (
            json!({"dependentRequired": {"card": ["billing"]}}),
            &[json!({"card": 1, "billing": 2}), json!({"billing": 2})],
            &[json!({"card": 1})],
        ),
        (
            json!({"dependentSchemas": {"card": {"required": ["billing"]}}}),
            &[json!({"card": 1, "billing": 2}), json!({})],
            &[json!({"card": 1})],
        ),
        (
            deps,
            &[json!({"card": 1, "billing": 1}), json!({"vip": true, "level": 2}), json!({})],
            &[json!({"card": 1}), json!({"vip": true})],
        ),
    ]);
}

#[test]
fn array_keywords() {
    table(&[
        (json!({"items": {"type": "integer"}}), &[json!([1, 2]), json!([])], &[json!([1, "2"])]),
        (
            json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}),
            &[json!(["a", 1]), json!(["a"])],
            &[json!([1]), json!(["a", 1, null])],
        ),
        (json!({"contains": {"type": "string"}}), &[json!([1, "a"])], &[json!([1, 2]), json!([])]),
        (
            json!({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}),
            &[json!(["a", "b"]), json!(["a", 1, "b", "c"])],
            &[json!(["a"]), json!(["a", "b", "c", "d"])],
        ),
        (json!({"contains": {"type": "string"}, "minContains": 0}), &[json!([]), json!([1])], &[]),
        (json!({"minItems": 1, "maxItems": 2}), &[json!([1]), json!([1, 2])], &[json!([]), json!([1, 2, 3])]),
        (
            json!({"uniqueItems": true}),
            &[json!([1, 2]), json!([{"a": 1}, {"a": 2}]), json!([[1], ["1"]])],
            &[json!([1, 1.0]), json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}])],
        ),
        (json!({"uniqueItems": false}), &[json!([1, 1])], &[]),
    ]);
}

#[test]
fn number_and_string_keywords() {
    table(&[
        (json!({"minimum": 5, "maximum": 10}), &[json!(5), json!(10.0), json!("x")], &[json!(4.99), json!(11)]),
        (json!({"exclusiveMinimum": 5, "exclusiveMaximum": 10}), &[json!(5.5), json!(9)], &[json!(5), json!(10)]),
        (
            json!({"minimum": 18446744073709551615u64}),
            &[json!(18446744073709551615u64)],
            &[json!(-1), json!(1e19 - 1e19)],
        ),
        (json!({"multipleOf": 0.1}), &[json!(0.3), json!(1.2), json!(-0.7), json!(0)], &[json!(0.35), json!(1.25)]),
        (json!({"multipleOf": 0.01}), &[json!(19.99), json!(0.07)], &[json!(0.001)]),
        (json!({"multipleOf": 3}), &[json!(9), json!(-3), json!(9.0)], &[json!(10), json!(4.5)]),
        (json!({"multipleOf": 1e-8}), &[json!(12391239123u64)], &[json!(1e-9)]),
        (json!({"multipleOf": 0.5}), &[json!(1e308)], &[json!(1.2)]),
        (json!({"multipleOf": 0.123456789}), &[], &[json!(1e308)]),
        (
            json!({"minLength": 2, "maxLength": 3}),
            &[json!("ab"), json!("日本語"), json!("🐲🐲"), json!(1)],
            &[json!("a"), json!("abcd")],
        ),
        (json!({"pattern": "^[0-9]+$"}), &[json!("123"), json!(123)], &[json!("12a"), json!("")]),
        (json!({"pattern": "b+"}), &[json!("abbc")], &[json!("ac")]),
        (json!({"pattern": "^\\d\\w$"}), &[json!("1a")], &[json!("١a"), json!("1é")]),
        (json!({"pattern": "^(?=.*[A-Z]).+$"}), &[json!("any"), json!("thing")], &[]),
        (json!({"pattern": "^[^]$"}), &[json!("x")], &[json!("")]),
        (json!({"format": "date"}), &[json!("2024-02-29"), json!(12)], &[json!("2023-02-29"), json!("tomorrow")]),
        (json!({"format": "email"}), &[json!("a@b.org")], &[json!("nope"), json!("")]),
        (json!({"format": "uri"}), &[json!("https://example.com/a?b#c")], &[json!(""), json!("example.com")]),
        (json!({"format": "ipv4"}), &[json!("10.0.0.1")], &[json!("10.0.0.256")]),
        (json!({"format": "no-such-format"}), &[json!("anything")], &[]),
    ]);
}

#[test]
fn combinators() {
    table(&[
        (json!({"allOf": [{"type": "integer"}, {"minimum": 2}]}), &[json!(2)], &[json!(1), json!(2.5)]),
        (
            json!({"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 2}]}),
            &[json!(1), json!("ab")],
            &[json!(1.5), json!("a")],
        ),
        (json!({"oneOf": [{"type": "integer"}, {"minimum": 2}]}), &[json!(1), json!(2.5)], &[json!(3), json!(1.5)]),
        (json!({"not": {"type": "string"}}), &[json!(1)], &[json!("a")]),
        (
            json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]}, "else": {"required": ["y"]}}),
            // Without `kind` the condition holds vacuously, so `then` applies.
            &[json!({"kind": "a", "x": 1}), json!({"kind": "b", "y": 1}), json!({"x": 1})],
            &[json!({"kind": "a", "y": 1}), json!({"kind": "b", "x": 1}), json!({"y": 1})],
        ),
        (json!({"then": {"type": "string"}}), &[json!(1)], &[]),
        (json!({"if": {"type": "string"}}), &[json!(1), json!("a")], &[]),
    ]);
}

#[test]
fn drafts_differ_where_they_should() {
    let d4 = "http://json-schema.org/draft-04/schema#";
    let d7 = "http://json-schema.org/draft-07/schema#";
    table(&[
        // Draft 4's boolean exclusive bounds.
        (
            json!({"$schema": d4, "minimum": 1, "exclusiveMinimum": true, "maximum": 3, "exclusiveMaximum": true}),
            &[json!(2)],
            &[json!(1), json!(3)],
        ),
        (json!({"minimum": 1, "exclusiveMinimum": false}), &[json!(1)], &[json!(0)]),
        // Draft 7's tuples, read whatever `$schema` says.
        (
            json!({"$schema": d7, "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}),
            &[json!(["a", 1, 2]), json!([])],
            &[json!([1]), json!(["a", "b"])],
        ),
        (json!({"items": [{"type": "string"}], "additionalItems": false}), &[json!(["a"])], &[json!(["a", 1])]),
        (json!({"items": {"type": "string"}, "additionalItems": false}), &[json!(["a", "b"])], &[json!([1])]),
        // Before 2019-09 `$ref` hides its siblings; since then they apply.
        (
            json!({"$schema": d7, "definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}}),
            &[json!({"a": "long"})],
            &[json!({"a": 1})],
        ),
        (
            json!({"definitions": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}}),
            &[json!({"a": "l"})],
            &[json!({"a": "long"})],
        ),
        // Keywords newer than the draft named are unknown there.
        (json!({"$schema": d4, "const": 1, "contains": {"type": "string"}}), &[json!(2), json!([1])], &[]),
        (
            json!({"$schema": d7, "dependentRequired": {"a": ["b"]}, "unevaluatedProperties": false}),
            &[json!({"a": 1})],
            &[],
        ),
        (json!({"$schema": d7, "prefixItems": [{"type": "string"}]}), &[json!([1])], &[]),
    ]);
}

#[test]
fn references() {
    let tree = json!({
        "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["name"]}},
        "$ref": "#/$defs/node"
    });
    table(&[
        (
            tree,
            &[json!({"name": "a", "kids": [{"name": "b", "kids": [{"name": "c"}]}]})],
            &[json!({"name": "a", "kids": [{"name": "b", "kids": [{}]}]})],
        ),
        (
            json!({"$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "e%f": {"type": "null"}},
                   "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c~0d"}, "z": {"$ref": "#/$defs/e%25f"}}}),
            &[json!({"x": 1, "y": "s", "z": null})],
            &[json!({"x": "1"}), json!({"y": 1}), json!({"z": 0})],
        ),
        (
            json!({"properties": {"a": {"type": "integer"}, "b": {"$ref": "#/properties/a"}}}),
            &[json!({"b": 1})],
            &[json!({"b": "1"})],
        ),
        (
            json!({"prefixItems": [{"type": "string"}, {"$ref": "#/prefixItems/0"}]}),
            &[json!(["a", "b"])],
            &[json!(["a", 1])],
        ),
        (json!({"$ref": "https://example.com/never.json"}), &[json!(1), json!("x")], &[]),
        (json!({"$ref": "http://json-schema.org/draft-07/schema#"}), &[json!({"type": 12})], &[]),
        (
            json!({"$id": "https://x.org/root.json", "$defs": {"n": {"$id": "num.json", "type": "number"}}, "$ref": "num.json"}),
            &[json!(1)],
            &[json!("1")],
        ),
        (
            json!({"$id": "https://x.org/root.json", "$defs": {"n": {"$id": "https://x.org/num.json", "$defs": {"i": {"type": "integer"}}}}, "$ref": "num.json#/$defs/i"}),
            &[json!(1)],
            &[json!(1.5)],
        ),
        (json!({"$defs": {"s": {"$anchor": "str", "type": "string"}}, "$ref": "#str"}), &[json!("a")], &[json!(1)]),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"$id": "#str", "type": "string"}}, "$ref": "#str"}),
            &[json!("a")],
            &[json!(1)],
        ),
        (json!({"$defs": {"i": {"type": "integer"}}, "$recursiveRef": "#/$defs/i"}), &[json!(1)], &[json!("1")]),
    ]);
}

#[test]
fn recursion_ends_in_a_violation_not_an_overflow() {
    // A ref back to itself for the same value never reaches a keyword that could decide.
    violations(
        json!({"$ref": "#"}),
        json!(1),
        expect![[r#"
        : the schema refers to itself here without end
    "#]],
    );
    violations(
        json!({"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}),
        json!(1),
        expect![[r#"
            : the schema refers to itself here without end
        "#]],
    );
    // A value deeper than the guard allows.
    let schema = json!({"type": "array", "items": {"$ref": "#"}});
    let mut deep = json!([]);
    for _ in 0..70 {
        deep = json!([deep]);
    }
    let v = Schema::compile(&schema).unwrap().validate(&deep);
    assert_eq!(v.len(), 1);
    assert!(v[0].message.contains("limit of 64 $ref levels"), "{}", v[0].message);
    // The 64 levels below the root were checked; the 65th was not.
    assert_eq!(v[0].path.matches('/').count(), 65);
    let mut shallow = json!([]);
    for _ in 0..30 {
        shallow = json!([shallow, []]);
    }
    assert!(Schema::compile(&schema).unwrap().is_valid(&shallow));
}

#[test]
fn unevaluated_properties_see_through_applicators() {
    table(&[
        (
            json!({"properties": {"a": {}}, "allOf": [{"properties": {"b": {}}}], "unevaluatedProperties": false}),
            &[json!({"a": 1, "b": 2})],
            &[json!({"a": 1, "c": 3})],
        ),
        (
            json!({"anyOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {}}, "required": ["b"]}], "unevaluatedProperties": false}),
            // `a` is evaluated only by the branch that holds: a failing branch counts for nothing.
            &[json!({"a": "x"}), json!({"b": 1}), json!({"a": "x", "b": 1})],
            &[json!({"a": 1, "b": 1})],
        ),
        (
            json!({"oneOf": [{"properties": {"a": {}}, "required": ["a"]}, {"properties": {"b": {}}, "required": ["b"]}], "unevaluatedProperties": false}),
            &[json!({"a": 1})],
            &[json!({"a": 1, "c": 1})],
        ),
        (
            json!({"if": {"properties": {"a": {"const": 1}}, "required": ["a"]}, "then": {"properties": {"b": {}}}, "else": {"properties": {"c": {}}}, "unevaluatedProperties": false}),
            // A failed `if` evaluates nothing: `a` is left over when it is not 1.
            &[json!({"a": 1, "b": 1}), json!({"c": 1})],
            &[json!({"a": 1, "c": 1}), json!({"a": 2, "c": 1})],
        ),
        (
            json!({"$defs": {"base": {"properties": {"a": {}}}}, "$ref": "#/$defs/base", "unevaluatedProperties": false}),
            &[json!({"a": 1})],
            &[json!({"b": 1})],
        ),
        (
            json!({"dependentSchemas": {"a": {"properties": {"b": {}}}}, "properties": {"a": {}}, "unevaluatedProperties": false}),
            &[json!({"a": 1, "b": 1})],
            &[json!({"b": 1})],
        ),
        (
            json!({"patternProperties": {"^x": {}}, "unevaluatedProperties": {"type": "integer"}}),
            &[json!({"xa": "s", "b": 1})],
            &[json!({"b": "s"})],
        ),
        (json!({"additionalProperties": true, "unevaluatedProperties": false}), &[json!({"any": 1})], &[]),
        (
            json!({"allOf": [{"properties": {"a": {}}, "unevaluatedProperties": false}], "properties": {"b": {}}}),
            &[json!({"a": 1})],
            &[json!({"a": 1, "b": 1})],
        ),
    ]);
}

#[test]
fn unevaluated_items_see_through_applicators() {
    table(&[
        (json!({"prefixItems": [{}], "unevaluatedItems": false}), &[json!([1]), json!([])], &[json!([1, 2])]),
        (
            json!({"allOf": [{"prefixItems": [{}, {}]}], "unevaluatedItems": false}),
            &[json!([1, 2])],
            &[json!([1, 2, 3])],
        ),
        (
            json!({"contains": {"type": "string"}, "unevaluatedItems": {"type": "integer"}}),
            &[json!(["a", 1, "b"])],
            &[json!(["a", 1.5])],
        ),
        (json!({"items": {}, "unevaluatedItems": false}), &[json!([1, 2, 3])], &[]),
        (
            json!({"anyOf": [{"prefixItems": [{"const": 1}]}, {"prefixItems": [{}, {}]}], "unevaluatedItems": false}),
            &[json!([1]), json!([2, 3]), json!([1, 3])],
            &[json!([2, 3, 4])],
        ),
    ]);
}

#[test]
fn messages_say_what_is_wrong_and_where() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "min": {"minimum": 5},
            "xmax": {"exclusiveMaximum": 1},
            "step": {"multipleOf": 2},
            "pick": {"enum": ["a", "b"]},
            "fixed": {"const": 1},
            "day": {"format": "date"},
            "code": {"pattern": "^[0-9]+$"},
            "short": {"maxLength": 1},
            "long": {"minLength": 2},
            "tags": {"type": "array", "minItems": 3, "uniqueItems": true, "items": {"type": ["string", "null"]}},
            "pair": {"prefixItems": [{}], "items": false},
            "either": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "one": {"oneOf": [{"minimum": 0}, {"maximum": 10}]},
            "never": {"not": {"type": "boolean"}},
            "nothing": false,
            "has": {"contains": {"const": 1}},
            "names": {"propertyNames": {"maxLength": 2}, "minProperties": 2}
        },
        "required": ["name", "n"],
        "additionalProperties": false
    });
    let instance = json!({
        "n": "x", "min": 3, "xmax": 1, "step": 3, "pick": "z", "fixed": 2, "day": "foo", "code": "abc",
        "short": "ab", "long": "a", "tags": [1, 1], "pair": [1, 2, 3], "either": 1, "one": 5, "never": true,
        "nothing": 0, "has": [2], "names": {"abc": 1}, "x": 1
    });
    violations(
        schema,
        instance,
        expect![[r#"
        /n: "x" is not of type "integer"
        /min: 3 is less than the minimum of 5
        /xmax: 1 is greater than or equal to the maximum of 1
        /step: 3 is not a multiple of 2
        /pick: "z" is not one of ["a","b"]
        /fixed: 1 was expected
        /day: "foo" is not a "date"
        /code: "abc" does not match "^[0-9]+$"
        /short: "ab" is longer than 1 character
        /long: "a" is shorter than 2 characters
        /tags: [1,1] has less than 3 items
        /tags: [1,1] has non-unique elements
        /tags/0: 1 is not of types "string", "null"
        /tags/1: 1 is not of types "string", "null"
        /pair: additional items are not allowed (2, 3 were unexpected)
        /either: 1 is not valid under any of the schemas listed in the 'anyOf' keyword
        /one: 5 is valid under more than one of the schemas listed in the 'oneOf' keyword (#1, #2)
        /never: true should not be valid under {"type":"boolean"}
        /nothing: false schema does not allow 0
        /has: none of [2] are valid under the given schema
        /names: "abc" is longer than 2 characters
        /names: {"abc":1} has less than 2 properties
        : additional properties are not allowed ('x' was unexpected)
        /name: name is required
    "#]],
    );
}

#[test]
fn long_values_are_cut_short_in_messages() {
    let long = "x".repeat(200);
    violations(
        json!({"maxLength": 3}),
        json!(long),
        expect![[r#"
        : "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… is longer than 3 characters
    "#]],
    );
    violations(
        json!({"maxContains": 1, "minContains": 2, "contains": {"type": "integer"}}),
        json!([1, "a"]),
        expect![[r#"
        : [1,"a"] has fewer than 2 items matching the 'contains' schema
    "#]],
    );
    violations(
        json!({"dependentRequired": {"a": ["b~/c"]}, "unevaluatedProperties": false}),
        json!({"a": 1}),
        expect![[r#"
        /b~0~1c: b~/c is required
        : unevaluated properties are not allowed ('a' was unexpected)
    "#]],
    );
}

#[test]
fn unusable_schemas_are_refused_with_a_reason() {
    let cases = [
        json!({"type": "strng"}),
        json!({"type": []}),
        json!({"type": 3}),
        json!(12),
        json!({"properties": {"a": "string"}}),
        json!({"properties": []}),
        json!({"required": "a"}),
        json!({"required": [1]}),
        json!({"pattern": "^(abc"}),
        json!({"patternProperties": {"[": {}}}),
        json!({"minLength": -1}),
        json!({"maxItems": 1.5}),
        json!({"minimum": "0"}),
        json!({"multipleOf": 0}),
        json!({"enum": "a"}),
        json!({"anyOf": []}),
        json!({"allOf": {}}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"$ref": "#nowhere"}),
        json!({"$ref": 1}),
        json!({"$defs": []}),
        json!({"format": 1}),
        json!({"uniqueItems": "yes"}),
        json!({"dependencies": {"a": 1}}),
        json!({"items": [{"type": "strng"}]}),
    ];
    let errors: Vec<String> = cases.iter().map(|s| Schema::compile(s).unwrap_err().0).collect();
    expect![[r##"
        #/type names an unknown type "strng"
        #/type must not be empty
        #/type must be a type name or an array of type names
        the schema must be an object or a boolean
        #/properties/a must be an object or a boolean
        #/properties must be an object
        #/required must be an array of strings
        #/required must be an array of strings
        #/pattern is not a valid regular expression: unclosed group
        #/patternProperties/[ is not a valid regular expression: unclosed character class
        #/minLength must be a non-negative integer
        #/maxItems must be a non-negative integer
        #/minimum must be a number
        #/multipleOf must be greater than 0
        #/enum must be an array
        #/anyOf must be a non-empty array of schemas
        #/allOf must be a non-empty array of schemas
        #/$ref points nowhere: "#/$defs/missing"
        #/$ref names an unknown anchor "#nowhere"
        #/$ref must be a string
        #/$defs must be an object
        #/format must be a string
        #/uniqueItems must be a boolean
        #/dependencies/a must be an object or a boolean
        #/items/0/type names an unknown type "strng"
    "##]]
    .assert_eq(&(errors.join("\n") + "\n"));
}

#[test]
fn a_failed_alternative_points_to_the_field_that_decides_it() {
    let delivery = json!({
        "type": "object",
        "properties": {"delivery": {"oneOf": [
            {"type": "object", "properties": {"method": {"const": "Courier"}, "address": {"type": "string"}},
             "required": ["method", "address"]},
            {"type": "object", "properties": {"method": {"const": "Pickup"}, "store": {"type": "string"}},
             "required": ["method", "store"]},
            {"title": "Drone drop", "type": "object", "properties": {"method": {"enum": ["Drone"]}, "pad": {"type": "integer"}},
             "required": ["method", "pad"]}
        ]}}
    });
    // The discriminator says which branch is meant: its problems, named after it.
    violations(
        delivery.clone(),
        json!({"delivery": {"method": "Courier"}}),
        expect![[r#"
            /delivery/address: address is required for Courier
        "#]],
    );
    violations(
        delivery.clone(),
        json!({"delivery": {"method": "Drone", "pad": "north"}}),
        expect![[r#"
            /delivery/pad: "north" is not of type "integer" for Drone drop
        "#]],
    );
    // Nothing says which: one plain violation where the value is.
    violations(
        delivery,
        json!({"delivery": {"method": "Boat"}}),
        expect![[r#"
            /delivery: {"method":"Boat"} is not valid under any of the schemas listed in the 'oneOf' keyword
        "#]],
    );
    // Without a discriminator, the branch strictly closest.
    violations(
        json!({"anyOf": [{"type": "string"}, {"type": "object", "required": ["a", "b", "c"]}, {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}]}),
        json!({"a": "x"}),
        expect![[r#"
            /a: "x" is not of type "integer"
        "#]],
    );
}

#[test]
fn explaining_a_deep_failed_alternative_stays_linear() {
    // Each level: two branches that both fail, one of them only deep inside. Without a
    // bound, telling why costs 2^depth loud passes; with one, a pass per level.
    let schema = json!({
        "$defs": {"n": {"anyOf": [{"required": ["never"]}, {"properties": {"c": {"$ref": "#/$defs/n"}}, "required": ["c"]}]}},
        "$ref": "#/$defs/n"
    });
    let mut value = json!({"leaf": true});
    for _ in 0..40 {
        value = json!({"c": value});
    }
    let s = Schema::compile(&schema).unwrap();
    let found = s.validate(&value);
    // The top level is explained; the alternatives inside the explanation in one line each
    // (here the two branches tie, so one line in all).
    let lines: Vec<String> = found.iter().map(|v| format!("{}: {}", v.path, v.message)).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("not valid under any of the schemas"), "{lines:?}");
}
