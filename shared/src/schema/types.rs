//! `type`, `enum` and `const`, and JSON equality (where `1` equals `1.0`), which `enum`,
//! `const` and `uniqueItems` share.

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, bad};
use super::{Draft, Run, numbers, show};

pub(super) enum Keyword {
    /// The names allowed, as written.
    Type(Vec<&'static str>),
    Enum(Vec<Value>),
    Const(Value),
}

const TYPES: [&str; 7] = ["null", "boolean", "object", "array", "number", "string", "integer"];

pub(super) fn compile(cx: &Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    let value = &map[key];
    Ok(Some(match key {
        "type" => {
            let names: Vec<&Value> = match value {
                Value::Array(names) if !names.is_empty() => names.iter().collect(),
                Value::Array(_) => return Err(bad(loc, key, "must not be empty")),
                one => vec![one],
            };
            let mut known = Vec::new();
            for name in names {
                let Some(name) = name.as_str() else {
                    return Err(bad(loc, key, "must be a type name or an array of type names"));
                };
                let Some(t) = TYPES.iter().find(|t| **t == name) else {
                    return Err(bad(loc, key, &format!("names an unknown type {}", Value::from(name))));
                };
                known.push(*t);
            }
            Keyword::Type(known)
        }
        "enum" => match value {
            Value::Array(options) => Keyword::Enum(options.clone()),
            _ => return Err(bad(loc, key, "must be an array")),
        },
        "const" if cx.draft >= Draft::D6 => Keyword::Const(value.clone()),
        _ => return Ok(None),
    }))
}

impl Keyword {
    pub(super) fn check(&self, run: &mut Run, instance: &Value, path: &str) {
        match self {
            Keyword::Type(names) => {
                if !names.iter().any(|t| is_type(instance, t)) {
                    run.report(path, || match names.as_slice() {
                        [one] => format!("{} is not of type \"{one}\"", show(instance)),
                        many => {
                            let list: Vec<String> = many.iter().map(|t| format!("\"{t}\"")).collect();
                            format!("{} is not of types {}", show(instance), list.join(", "))
                        }
                    });
                }
            }
            Keyword::Enum(options) => {
                if !options.iter().any(|o| equal(o, instance)) {
                    run.report(path, || {
                        format!("{} is not one of {}", show(instance), show(&Value::from(options.clone())))
                    });
                }
            }
            Keyword::Const(expected) => {
                if !equal(expected, instance) {
                    run.report(path, || format!("{} was expected", show(expected)));
                }
            }
        }
    }
}

/// Whether `value` is of the JSON Schema type `name`; integers include `1.0`.
pub(super) fn is_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("object", Value::Object(_)) => true,
        ("array", Value::Array(_)) | ("number", Value::Number(_)) | ("string", Value::String(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

/// JSON equality: numbers by value, objects whatever the order of their members.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers::compare(x, y).is_some_and(|o| o.is_eq()),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| equal(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}
