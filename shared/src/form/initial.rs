//! Values a form starts from: the schema's defaults, else an empty value of the right type
//! that meets the numeric bounds. Optional properties are left out until a person includes
//! them; nothing is sent as `null` unless a person chooses null.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::build::build_at;
use super::model::*;

/// How deep recursive schemas are expanded to make a starting value.
const MAX_DEPTH: usize = 16;

/// The most items an array starts with to meet its `minItems`: a schema can ask for more
/// than memory holds, and the field says where the form stops (see `build`).
pub(super) const MAX_START_ITEMS: u64 = 100;

/// The most values one starting value holds. Arrays of arrays each meeting their
/// `minItems`, or objects requiring several recursive properties, multiply at every level;
/// past this the remaining required properties are left out and arrays stop short, and
/// validation says what is missing at each of those places.
const MAX_START_VALUES: usize = 10_000;

/// The value a field starts with. `root` is the whole input schema (for recursive fields).
pub fn initial(field: &Field, root: &Value) -> Value {
    Start { root, left: MAX_START_VALUES, built: HashMap::new() }.value(field, 0)
}

/// One starting value being made: the values still allowed, and recursive fields already
/// built (by pointer).
struct Start<'a> {
    root: &'a Value,
    left: usize,
    built: HashMap<String, Rc<Field>>,
}

impl Start<'_> {
    fn value(&mut self, field: &Field, depth: usize) -> Value {
        self.left = self.left.saturating_sub(1);
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
                    if self.left == 0 {
                        break;
                    }
                    map.insert(p.name.clone(), self.value(&p.field, depth + 1));
                }
                Value::Object(map)
            }
            Kind::Array(a) => {
                let mut items = Vec::new();
                for f in &a.prefix {
                    if self.left == 0 {
                        break;
                    }
                    items.push(self.value(f, depth + 1));
                }
                if let (Some(item), Some(min)) = (&a.items, a.min_items) {
                    while (items.len() as u64) < min.min(MAX_START_ITEMS) && self.left > 0 {
                        items.push(self.value(item, depth + 1));
                    }
                }
                Value::Array(items)
            }
            Kind::Variants(v) => v.first().map(|v| self.value(&v.field, depth + 1)).unwrap_or(Value::Null),
            Kind::Recursive { pointer } => {
                let root = self.root;
                let target =
                    self.built.entry(pointer.clone()).or_insert_with(|| Rc::new(build_at(root, pointer))).clone();
                self.value(&target, depth + 1)
            }
            Kind::Json { .. } => Value::Null,
        }
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
