//! The rules of the form's widgets: which field edits the value of an object's key (a
//! declared property, a `patternProperties` entry, `additionalProperties`), which keys are
//! extras, whether an array may grow, shrink or reorder an item, and what a nullable field
//! becomes when null is unticked. The page's widgets ask these; validation still has the
//! final word on the arguments.

use serde_json::Value;

use super::{ArraySpec, Choice, Field, Kind, ObjectSpec, Property, initial};
use crate::schema::pattern::Pattern;

/// The value a nullable field takes when a person unticks null: its starting value, or,
/// when that is null too (a `null` default), the starting value of its type.
pub fn initial_not_null(field: &Field, root: &Value) -> Value {
    let start = initial(field, root);
    if !start.is_null() {
        return start;
    }
    let plain = Field { default: None, ..field.clone() };
    initial(&plain, root)
}

/// Where the field for one key of an object comes from, in JSON Schema's precedence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KeySchema<'a> {
    /// The key is a declared property (`properties`).
    Declared(&'a Property),
    /// The first `patternProperties` regex that matches the key.
    Pattern { pattern: &'a str, field: &'a Field },
    /// Neither: `additionalProperties`.
    Additional(&'a Field),
    /// The schema offers no field for this key.
    Unnamed,
}

impl KeySchema<'_> {
    /// The field to edit the key's value with: a JSON editor when the schema names none.
    pub fn field(&self) -> Field {
        match self {
            KeySchema::Declared(p) => p.field.clone(),
            KeySchema::Pattern { field, .. } | KeySchema::Additional(field) => (*field).clone(),
            KeySchema::Unnamed => Field::json("a key the schema does not name"),
        }
    }
}

impl ObjectSpec {
    /// Which schema the value of `key` gets. Patterns are ECMA-262 regexes, unanchored, run
    /// by the validator's own engine; one that does not compile matches no key (the
    /// validator reports the schema as unusable).
    pub fn key_schema(&self, key: &str) -> KeySchema<'_> {
        if let Some(p) = self.properties.iter().find(|p| p.name == key) {
            return KeySchema::Declared(p);
        }
        let matching = self.pattern_properties.iter().find(|(source, _)| {
            // Compiled per question: a browser `RegExp` cannot live in the page's
            // thread-safe closures, and keys are asked about once per row.
            Pattern::new(source).is_ok_and(|p| p.is_match(key))
        });
        match (matching, &self.additional) {
            (Some((pattern, field)), _) => KeySchema::Pattern { pattern, field },
            (None, Some(field)) => KeySchema::Additional(field),
            (None, None) => KeySchema::Unnamed,
        }
    }

    /// Whether keys beyond the declared properties can be added.
    pub fn offers_extra_keys(&self) -> bool {
        self.additional.is_some() || !self.pattern_properties.is_empty()
    }

    /// The keys of `object` (the value at this field) that are not declared properties, in
    /// the object's order.
    pub fn extra_keys(&self, object: Option<&Value>) -> Vec<String> {
        let Some(Value::Object(map)) = object else { return Vec::new() };
        map.keys().filter(|k| !self.properties.iter().any(|p| &p.name == *k)).cloned().collect()
    }
}

/// The key "+ Add key" gives a new member of `object`: the first of `key1`, `key2`, … it
/// does not have.
pub fn unused_key(object: Option<&Value>) -> String {
    let taken = |k: &str| object.and_then(Value::as_object).is_some_and(|m| m.contains_key(k));
    (1u64..).map(|i| format!("key{i}")).find(|k| !taken(k)).unwrap_or_default()
}

impl ArraySpec {
    /// The field of item `i`: its tuple position, else `items`; `None` past the end of a
    /// closed tuple.
    pub fn field_at(&self, i: usize) -> Option<&Field> {
        self.prefix.get(i).or(self.items.as_deref())
    }

    /// The field to edit item `i` with: a JSON editor for an item past the end of a closed
    /// tuple (arguments from elsewhere can have one).
    pub fn item_field(&self, i: usize) -> Field {
        self.field_at(i).cloned().unwrap_or_else(|| Field::json("an item past the end of the tuple"))
    }

    /// Whether an array of `len` items may take one more: below `maxItems`, and either an
    /// open array or a tuple with positions left.
    pub fn can_add(&self, len: usize) -> bool {
        self.max_items.is_none_or(|max| (len as u64) < max) && self.field_at(len).is_some()
    }

    /// Whether an array of `len` items may lose one and keep `minItems`.
    pub fn can_remove(&self, len: usize) -> bool {
        len > 0 && self.min_items.is_none_or(|min| len as u64 > min)
    }

    /// Whether item `i` may move up: tuple positions are fixed, and the first item after
    /// them has nowhere to go.
    pub fn can_move_up(&self, i: usize) -> bool {
        i > self.prefix.len()
    }

    /// Whether item `i` of `len` may move down: not a tuple position, not the last item.
    pub fn can_move_down(&self, i: usize, len: usize) -> bool {
        i >= self.prefix.len() && i + 1 < len
    }

    /// The values a multi-select offers: an array of one enum (no tuple, items neither
    /// nullable nor anything else) is a set of checkboxes, not a list of selects.
    pub fn choices(&self) -> Option<&[Choice]> {
        match self.items.as_deref() {
            Some(Field { kind: Kind::Enum(choices), nullable: false, .. }) if self.prefix.is_empty() => Some(choices),
            _ => None,
        }
    }

    /// `current` with `value` ticked (`on`) or unticked: the ticked values in the order the
    /// schema lists them, any value it does not list kept at the end as it was.
    pub fn tick(&self, current: Option<&Value>, value: &Value, on: bool) -> Value {
        let choices = self.choices().unwrap_or_default();
        let had: Vec<Value> = current.and_then(Value::as_array).cloned().unwrap_or_default();
        let ticked = |v: &Value| if v == value { on } else { had.contains(v) };
        let mut out: Vec<Value> = choices.iter().map(|c| &c.value).filter(|v| ticked(v)).cloned().collect();
        out.extend(had.iter().filter(|v| !choices.iter().any(|c| &c.value == *v)).cloned());
        Value::Array(out)
    }
}

/// An optional boolean is one control with three states: left out, `true`, `false`; each
/// press moves to the next.
pub fn next_of_three(current: Option<&Value>) -> Option<Value> {
    match current {
        None => Some(Value::Bool(true)),
        Some(Value::Bool(true)) => Some(Value::Bool(false)),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests;
