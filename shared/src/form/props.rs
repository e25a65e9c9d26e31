//! Properties of the form builder: whatever a server sends as `inputSchema` (nested objects,
//! arrays, enums, alternatives, `$ref`s that resolve, loop or point nowhere, values of the
//! wrong type), building the form, its starting value, validation and the command line's
//! `--arg` never panic; and for a schema with a known valid instance, the form filled with
//! that instance gives back exactly that instance, which validates.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::*;

/// Keywords (and property names, and `$defs` names) garbage schemas are made of.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "items",
    "prefixItems",
    "additionalItems",
    "additionalProperties",
    "patternProperties",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "if",
    "then",
    "$ref",
    "$defs",
    "definitions",
    "$schema",
    "default",
    "examples",
    "title",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minItems",
    "maxItems",
    "minLength",
    "pattern",
    "format",
    "a",
    "b",
];

/// Strings garbage schemas hold: type names, references of every kind, patterns.
const WORDS: &[&str] = &[
    "object",
    "array",
    "string",
    "integer",
    "number",
    "boolean",
    "null",
    "#",
    "#/$defs/a",
    "#/$defs/b",
    "#/definitions/a",
    "#/properties/a",
    "#/$defs/a/items",
    "#/allOf/0",
    "#/nowhere",
    "#/$defs/a/properties/b",
    "other.json#/x",
    "http://example.invalid/schema",
    "^[a-z]+$",
    "(",
    "a",
    "",
    "http://json-schema.org/draft-07/schema#",
];

fn garbage() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(|f| json!(f)),
        prop::sample::select(WORDS).prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..7)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

/// Every `Kind::Recursive` pointer in a field tree.
fn recursive_pointers(field: &Field, out: &mut Vec<String>) {
    match &field.kind {
        Kind::Recursive { pointer } => out.push(pointer.clone()),
        Kind::Object(o) => {
            o.properties.iter().for_each(|p| recursive_pointers(&p.field, out));
            o.additional.iter().for_each(|f| recursive_pointers(f, out));
            o.pattern_properties.iter().for_each(|(_, f)| recursive_pointers(f, out));
        }
        Kind::Array(a) => {
            a.prefix.iter().for_each(|f| recursive_pointers(f, out));
            a.items.iter().for_each(|f| recursive_pointers(f, out));
        }
        Kind::Variants(vs) => vs.iter().for_each(|v| recursive_pointers(&v.field, out)),
        _ => {}
    }
}

/// A value of a schema's language with a known valid instance.
#[derive(Debug, Clone)]
enum Shape {
    Text {
        value: String,
        min: bool,
        max: bool,
    },
    Integer {
        value: i64,
        below: u32,
        above: u32,
    },
    Number {
        quarters: i32,
    },
    Boolean(bool),
    Choice {
        values: Vec<Value>,
        pick: usize,
    },
    Fixed(Value),
    /// Properties: name, shape, required, present (a required one is always present).
    Object(Vec<(String, Shape, bool, bool)>),
    /// Items of one scalar shape's type: `{"type": T}` and the instances.
    List {
        of: &'static str,
        values: Vec<Value>,
    },
    Tuple(Vec<Shape>),
    /// `anyOf` of the shapes, the instance of the one picked.
    AnyOf {
        shapes: Vec<Shape>,
        pick: usize,
    },
    Nullable {
        shape: Box<Shape>,
        null: bool,
    },
    /// The shape behind `{"$ref": "#/$defs/NAME"}`.
    Ref(Box<Shape>),
}

fn scalar() -> impl Strategy<Value = Shape> {
    prop_oneof![
        ("[a-zA-Z0-9 é\"\\\\/~]{0,8}", any::<bool>(), any::<bool>()).prop_map(|(value, min, max)| Shape::Text {
            value,
            min,
            max
        }),
        (-1_000_000_000_000i64..1_000_000_000_000, 0u32..50, 0u32..50)
            .prop_map(|(value, below, above)| Shape::Integer { value, below, above }),
        (-4000i32..4000).prop_map(|quarters| Shape::Number { quarters }),
        any::<bool>().prop_map(Shape::Boolean),
        (
            prop::collection::vec(
                prop_oneof![any::<i32>().prop_map(Value::from), "[a-z]{0,4}".prop_map(Value::from)],
                1..5
            ),
            any::<usize>()
        )
            .prop_map(|(values, pick)| Shape::Choice { pick: pick % values.len(), values }),
        prop_oneof![Just(json!("fixed")), Just(json!(7)), Just(json!(true))].prop_map(Shape::Fixed),
        (prop::sample::select(&["string", "integer", "boolean"][..]), 0usize..4).prop_map(|(of, n)| Shape::List {
            of,
            values: (0..n)
                .map(|i| match of {
                    "string" => json!(format!("item {i}")),
                    "integer" => json!(i),
                    _ => json!(i % 2 == 0),
                })
                .collect(),
        }),
    ]
}

fn shape() -> impl Strategy<Value = Shape> {
    scalar().prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-z_]{1,6}", inner.clone(), any::<bool>(), any::<bool>()), 0..5).prop_map(
                |props| {
                    let mut seen = std::collections::BTreeSet::new();
                    Shape::Object(
                        props
                            .into_iter()
                            .filter(|(n, ..)| seen.insert(n.clone()))
                            .map(|(n, s, required, present)| (n, s, required, required || present))
                            .collect(),
                    )
                }
            ),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Shape::Tuple),
            (prop::collection::vec(inner.clone(), 2..4), any::<usize>())
                .prop_map(|(shapes, pick)| Shape::AnyOf { pick: pick % shapes.len(), shapes }),
            (inner.clone(), any::<bool>()).prop_map(|(s, null)| Shape::Nullable { shape: Box::new(s), null }),
            inner.prop_map(|s| Shape::Ref(Box::new(s))),
        ]
    })
}

impl Shape {
    /// The schema, with the definitions `$ref`s point to gathered in `defs`.
    fn schema(&self, defs: &mut Map<String, Value>) -> Value {
        match self {
            Shape::Text { value, min, max } => {
                let mut s = json!({"type": "string"});
                let chars = value.chars().count();
                if *min {
                    s["minLength"] = json!(chars);
                }
                if *max {
                    s["maxLength"] = json!(chars + 3);
                }
                s
            }
            Shape::Integer { value, below, above } => {
                json!({"type": "integer", "minimum": value - i64::from(*below), "maximum": value + i64::from(*above)})
            }
            Shape::Number { .. } => json!({"type": "number"}),
            Shape::Boolean(_) => json!({"type": "boolean"}),
            Shape::Choice { values, .. } => json!({"enum": values}),
            Shape::Fixed(v) => json!({"const": v}),
            Shape::Object(props) => {
                let properties: Map<String, Value> =
                    props.iter().map(|(n, s, ..)| (n.clone(), s.schema(defs))).collect();
                let required: Vec<&str> = props.iter().filter(|p| p.2).map(|p| p.0.as_str()).collect();
                json!({"type": "object", "properties": properties, "required": required})
            }
            Shape::List { of, .. } => json!({"type": "array", "items": {"type": of}}),
            Shape::Tuple(items) => {
                let prefix: Vec<Value> = items.iter().map(|s| s.schema(defs)).collect();
                json!({"type": "array", "prefixItems": prefix, "items": false})
            }
            Shape::AnyOf { shapes, .. } => json!({"anyOf": shapes.iter().map(|s| s.schema(defs)).collect::<Vec<_>>()}),
            Shape::Nullable { shape, .. } => json!({"anyOf": [shape.schema(defs), {"type": "null"}]}),
            Shape::Ref(shape) => {
                let name = format!("d{}", defs.len());
                defs.insert(name.clone(), Value::Null);
                let target = shape.schema(defs);
                defs.insert(name.clone(), target);
                json!({"$ref": format!("#/$defs/{name}")})
            }
        }
    }

    /// The instance, valid against the schema.
    fn instance(&self) -> Value {
        match self {
            Shape::Text { value, .. } => json!(value),
            Shape::Integer { value, .. } => json!(value),
            Shape::Number { quarters } => json!(f64::from(*quarters) / 4.0),
            Shape::Boolean(b) => json!(b),
            Shape::Choice { values, pick } => values[*pick].clone(),
            Shape::Fixed(v) => v.clone(),
            Shape::Object(props) => {
                Value::Object(props.iter().filter(|p| p.3).map(|(n, s, ..)| (n.clone(), s.instance())).collect())
            }
            Shape::List { values, .. } => Value::Array(values.clone()),
            Shape::Tuple(items) => Value::Array(items.iter().map(Shape::instance).collect()),
            Shape::AnyOf { shapes, pick } => shapes[*pick].instance(),
            Shape::Nullable { shape, null } => {
                if *null {
                    Value::Null
                } else {
                    shape.instance()
                }
            }
            Shape::Ref(shape) => shape.instance(),
        }
    }
}

/// A tool's input schema (an object at the top) and a valid instance of it.
fn tool_schema() -> impl Strategy<Value = (Value, Value)> {
    prop::collection::vec(("[a-z_]{1,6}", shape(), any::<bool>(), any::<bool>()), 0..6).prop_map(|props| {
        let mut seen = std::collections::BTreeSet::new();
        let root = Shape::Object(
            props
                .into_iter()
                .filter(|(n, ..)| seen.insert(n.clone()))
                .map(|(n, s, required, present)| (n, s, required, required || present))
                .collect(),
        );
        let mut defs = Map::new();
        let mut schema = root.schema(&mut defs);
        if !defs.is_empty() {
            schema["$defs"] = Value::Object(defs);
        }
        (schema, root.instance())
    })
}

/// Fills the form at `path` with `value` as a person would: one field at a time, numbers
/// typed as text, the variant the value is of. Fails where the form cannot express it.
fn fill(args: &mut ArgsModel, field: &Field, root: &Value, path: &str, value: &Value) -> Result<(), String> {
    if value.is_null() && field.nullable {
        args.set(path, Value::Null);
        return Ok(());
    }
    match (&field.kind, value) {
        (Kind::Object(o), Value::Object(map)) => {
            args.set(path, json!({}));
            for (key, v) in map {
                let p = o.properties.iter().find(|p| &p.name == key).ok_or(format!("{path}: no field for {key}"))?;
                fill(args, &p.field, root, &crate::pointer::child(path, key), v)?;
            }
        }
        (Kind::Array(a), Value::Array(items)) => {
            args.set(path, json!([]));
            for (i, v) in items.iter().enumerate() {
                let item = a.field_at(i).ok_or(format!("{path}: no field for item {i}"))?;
                fill(args, item, root, &crate::pointer::index(path, i), v)?;
            }
        }
        (Kind::Number(n), Value::Number(x)) => args.set_number(path, &x.to_string(), n.integer),
        (Kind::Variants(vs), v) => {
            // The guess looks one level deep; a person looks further and picks the variant
            // the value is of.
            let guess = guess_variant(vs, v);
            let order = std::iter::once(guess).chain((0..vs.len()).filter(|i| *i != guess));
            // The variant that holds the value as it is: an integer variant would take
            // `-11.0` as `-11`, which a person typing into a number variant would not.
            let picked = order.into_iter().find_map(|i| {
                let mut tried = args.clone();
                let held = fill(&mut tried, &vs[i].field, root, path, v).is_ok()
                    && crate::pointer::get(&tried.value, path) == Some(v);
                held.then_some(tried)
            });
            *args = picked.ok_or(format!("{path}: no variant holds {v}"))?;
        }
        (Kind::Recursive { pointer }, v) => fill(args, &build_at(root, pointer), root, path, v)?,
        (Kind::String(_), Value::String(_)) | (Kind::Boolean, Value::Bool(_)) => args.set(path, value.clone()),
        (Kind::Enum(choices), v) if choices.iter().any(|c| &c.value == v) => args.set(path, v.clone()),
        (Kind::Const(c), v) if c == v => args.set(path, v.clone()),
        (kind, v) => return Err(format!("{path}: the form's {kind:?} cannot hold {v}")),
    }
    Ok(())
}

proptest! {
    // A few hundred cases run in seconds in CI; failures are written up as plain tests
    // rather than kept in regression files.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(256) })]

    #[test]
    fn any_schema_builds_starts_and_validates_without_panicking(schema in garbage()) {
        let field = build(&schema);
        let start = initial(&field, &schema);
        let _ = dump(&field);
        let mut pointers = Vec::new();
        recursive_pointers(&field, &mut pointers);
        for p in pointers {
            let _ = build_at(&schema, &p);
        }
        let mut args = ArgsModel::default();
        args.load(&field, &schema, None);
        if let Ok(checker) = Checker::new(&schema) {
            let _ = checker.check(&start);
            let _ = args.violations(Some(&checker));
        }
        let _ = cli::arguments(&schema, Some(r#"{"a": 1}"#), &["b=2".to_owned(), "a=x".to_owned()]);
    }

    #[test]
    fn a_form_filled_with_a_valid_instance_gives_it_back_and_it_validates((schema, instance) in tool_schema()) {
        let field = build(&schema);
        let mut args = ArgsModel::default();
        args.load(&field, &schema, None);
        fill(&mut args, &field, &schema, "", &instance).map_err(TestCaseError::fail)?;
        prop_assert_eq!(args.current(), Ok(instance.clone()));
        let checker = Checker::new(&schema).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let violations = args.violations(Some(&checker));
        prop_assert!(violations.is_empty(), "{:?} in {}", violations, schema);
    }
}

/// A schema that is `allOf` itself (through a `$ref` to the root, or to a definition that
/// is `allOf` itself): the form shows what it can and says where it stopped. The page
/// builds the form of the tool a person picks, so this is a server crashing the page.
#[test]
fn a_schema_that_is_all_of_itself_builds() {
    let schemas = [
        json!({"allOf": [{"$ref": "#"}]}),
        json!({"type": "object", "allOf": [{"$ref": "#"}], "properties": {"y": {"type": "integer"}}}),
        json!({"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}}),
    ];
    for schema in schemas {
        let field = build(&schema);
        let _ = initial(&field, &schema);
    }
}

/// Every value in a JSON value, itself included.
fn count_values(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(count_values).sum(),
        Value::Object(map) => map.values().map(count_values).sum(),
        _ => 0,
    }
}

/// A `minItems` beyond what memory holds (found by the property above: the starting value
/// pushed items until the allocation failed), arrays of arrays each meeting a `minItems`,
/// and an object requiring many recursive properties: the starting value stays small, and
/// the array's field says the form starts with fewer items than `minItems` asks for.
#[test]
fn a_schema_whose_starting_value_would_fill_memory_starts_small() {
    let schema = json!({"type": "array", "minItems": 4287171482830704454u64});
    let field = build(&schema);
    assert_eq!(initial(&field, &schema).as_array().map(Vec::len), Some(100));
    assert_eq!(
        field.notes,
        ["`minItems` is 4287171482830704454: the form starts with 100 items and validation asks for the rest"]
    );

    let nested =
        (0..4).fold(json!({"type": "integer"}), |items, _| json!({"type": "array", "minItems": 100, "items": items}));
    let names: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
    let properties: Map<String, Value> = names.iter().map(|n| (n.clone(), json!({"$ref": "#"}))).collect();
    let recursive = json!({"type": "object", "required": names, "properties": properties});
    for schema in [nested, recursive] {
        let start = initial(&build(&schema), &schema);
        assert!(count_values(&start) <= 10_000, "{} values", count_values(&start));
    }
}
