//! Values a form starts from: the schema's defaults, else an empty value of the right type
//! that meets the numeric bounds. Optional properties are left out until a person includes
//! them; nothing is sent as `null` unless a person chooses null.

use serde_json::{Map, Value};

use super::build::build_at;
use super::model::*;

/// How deep recursive schemas are expanded to make a starting value.
const MAX_DEPTH: usize = 16;

/// The value a field starts with. `root` is the whole input schema (for recursive fields).
pub fn initial(field: &Field, root: &Value) -> Value {
    at_depth(field, root, 0)
}

fn at_depth(field: &Field, root: &Value, depth: usize) -> Value {
    if let Some(d) = &field.default {
        return d.clone();
    }
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    match &field.kind {
        Kind::String(_) => Value::String(String::new()),
        Kind::Number(n) => start_number(n),
        Kind::Boolean => Value::Bool(false),
        Kind::Null => Value::Null,
        Kind::Enum(choices) => choices.first().map(|c| c.value.clone()).unwrap_or(Value::Null),
        Kind::Const(c) => c.clone(),
        Kind::Object(o) => {
            let mut map = Map::new();
            for p in o.properties.iter().filter(|p| p.required) {
                map.insert(p.name.clone(), at_depth(&p.field, root, depth + 1));
            }
            Value::Object(map)
        }
        Kind::Array(a) => {
            let mut items: Vec<Value> = a.prefix.iter().map(|f| at_depth(f, root, depth + 1)).collect();
            if let (Some(item), Some(min)) = (&a.items, a.min_items) {
                while (items.len() as u64) < min {
                    items.push(at_depth(item, root, depth + 1));
                }
            }
            Value::Array(items)
        }
        Kind::Variants(v) => v.first().map(|v| at_depth(&v.field, root, depth + 1)).unwrap_or(Value::Null),
        Kind::Recursive { pointer } => at_depth(&build_at(root, pointer), root, depth + 1),
        Kind::Json { .. } => Value::Null,
    }
}

/// Zero, moved into the bounds and onto a multiple when the schema asks for it.
fn start_number(n: &NumberSpec) -> Value {
    let step = n.multiple_of.filter(|m| *m > 0.0).unwrap_or(if n.integer { 1.0 } else { 0.0 });
    let mut v = 0.0f64;
    if let Some(min) = n.minimum {
        v = v.max(min);
    }
    if let Some(x) = n.exclusive_minimum
        && v <= x
    {
        v = if step > 0.0 { x + step } else { x + 1.0 };
    }
    if step > 0.0 {
        v = (v / step).ceil() * step;
    }
    if let Some(max) = n.maximum {
        v = v.min(max);
    }
    if n.integer || v.fract() == 0.0 {
        Value::from(v as i64)
    } else {
        serde_json::Number::from_f64(v).map(Value::Number).unwrap_or(Value::from(0))
    }
}

/// Which variant a value looks like (for values a person did not build in the form:
/// remembered arguments, raw JSON). Falls back to the first.
pub fn guess_variant(variants: &[Variant], value: &Value) -> usize {
    variants.iter().position(|v| fits(&v.field, value)).unwrap_or(0)
}

fn fits(field: &Field, value: &Value) -> bool {
    if value.is_null() {
        return field.nullable || matches!(field.kind, Kind::Null);
    }
    match (&field.kind, value) {
        (Kind::String(_), Value::String(_)) => true,
        (Kind::Number(n), Value::Number(x)) => !n.integer || x.is_i64() || x.is_u64(),
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Enum(choices), v) => choices.iter().any(|c| &c.value == v),
        (Kind::Const(c), v) => c == v,
        (Kind::Object(o), Value::Object(map)) => o.properties.iter().all(|p| match (map.get(&p.name), &p.field.kind) {
            (None, _) => !p.required,
            (Some(v), Kind::Const(c)) => v == c,
            (Some(_), _) => true,
        }),
        (Kind::Array(_), Value::Array(_)) => true,
        (Kind::Variants(vs), v) => vs.iter().any(|x| fits(&x.field, v)),
        (Kind::Json { .. } | Kind::Recursive { .. }, _) => true,
        _ => false,
    }
}
