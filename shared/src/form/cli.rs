//! The arguments of a headless `call`: `--args JSON` as the base, each `--arg KEY=VALUE`
//! typed by what the tool's `inputSchema` says of KEY, and validation before anything is
//! sent (a refusal is exit code 3).

use std::fmt::Write;

use serde_json::{Map, Value};

use super::number::{self, Typed};
use super::{Checker, Violation};
use crate::schema::Resolver;

/// Why the command line's arguments cannot become a tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    #[error("--args is not JSON (line {line}, column {column}): {reason}")]
    ArgsNotJson { line: usize, column: usize, reason: String },
    #[error("--args must be a JSON object, not {found}")]
    ArgsNotObject { found: &'static str },
    #[error("--arg {pair}: expected KEY=VALUE")]
    NoEquals { pair: String },
    #[error("--arg {pair}: the key is empty")]
    EmptyKey { pair: String },
    /// VALUE cannot be what the schema asks for KEY; `reason` says why, naming the value.
    #[error("--arg {key}={value}: {reason}")]
    Value { key: String, value: String, reason: String },
}

/// The arguments to send: the object `args_json` holds (or `{}`), then each `KEY=VALUE` of
/// `pairs` in order, setting the top-level key KEY (split at the first `=`, so VALUE may
/// contain `=`). A `--arg` overrides the same key in `--args`, and of a repeated KEY the
/// last wins. KEY needs no declaration: an undeclared key is set and validation reports it.
///
/// VALUE is read as the schema of KEY asks (through local `$ref`s, `allOf`, `anyOf`/`oneOf`,
/// type lists, and the types of `enum`/`const` values):
/// - `string`: the text as is, even `42` or `"quoted"`;
/// - `integer`, `number`: the decimal as typed, exactly ([`number::parse`]);
/// - `boolean`: only `true` or `false`: `yes`, `1` or `True` are refused, so that a typo
///   (or a number meant for another key) never turns into a boolean;
/// - `null`: only `null`;
/// - `object`, `array`: JSON of that kind;
/// - several types: the non-string ones in the order null, boolean, integer or number,
///   object, array; then the text, if `string` is one of them;
/// - no schema for KEY: JSON if it parses (numbers as typed), else the text, as the
///   official inspector's command line does.
pub fn arguments(schema: &Value, args_json: Option<&str>, pairs: &[String]) -> Result<Value, ArgError> {
    let refs = Resolver::new(schema);
    let mut out = match args_json {
        None => Map::new(),
        Some(text) => base(text)?,
    };
    for pair in pairs {
        let Some((key, text)) = pair.split_once('=') else { return Err(ArgError::NoEquals { pair: pair.clone() }) };
        if key.is_empty() {
            return Err(ArgError::EmptyKey { pair: pair.clone() });
        }
        let kinds = property(&refs, schema, key, 0).unwrap_or(Kinds::ANY);
        let value = typed(key, text, kinds).map_err(|reason| ArgError::Value {
            key: key.to_owned(),
            value: text.to_owned(),
            reason,
        })?;
        out.insert(key.to_owned(), value);
    }
    Ok(Value::Object(out))
}

fn base(text: &str) -> Result<Map<String, Value>, ArgError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(ArgError::ArgsNotObject { found: crate::jsonrpc::value_kind(&other) }),
        Err(e) => {
            let (line, column) = (e.line(), e.column());
            let full = e.to_string();
            let reason = full.strip_suffix(&format!(" at line {line} column {column}")).unwrap_or(&full).to_owned();
            Err(ArgError::ArgsNotJson { line, column, reason })
        }
    }
}

/// The violations of `value` against the tool's `inputSchema`, or why that schema cannot
/// be used for validation (the page then sends unchecked; the driver may warn and send).
pub fn validate(schema: &Value, value: &Value) -> Result<Vec<Violation>, super::UnusableSchema> {
    Checker::new(schema).map(|c| c.check(value))
}

/// Violations for a terminal: a heading, then one `path: message` line each (`/` is the
/// arguments object itself).
pub fn violations_text(violations: &[Violation]) -> String {
    let mut out = String::from("the arguments do not match the tool's input schema:\n");
    for v in violations {
        let path = if v.path.is_empty() { "/" } else { &v.path };
        let _ = writeln!(out, "  {path}: {}", v.message);
    }
    out
}

/// A set of JSON Schema types; [`Kinds::ANY`] when the schema does not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kinds(u8);

/// The order in which a union's types are tried; `string`, which takes any text, is last.
const ORDER: [(u8, &str); 7] =
    [(1, "null"), (2, "boolean"), (4, "integer"), (8, "number"), (16, "object"), (32, "array"), (64, "string")];
const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const INTEGER: u8 = 4;
const NUMBER: u8 = 8;
const OBJECT: u8 = 16;
const ARRAY: u8 = 32;
const STRING: u8 = 64;

/// How deep `$ref`s and combinators are followed (recursive schemas end here).
const MAX_DEPTH: usize = 32;

impl Kinds {
    const ANY: Kinds = Kinds(127);

    fn named(name: &str) -> Kinds {
        Kinds(ORDER.iter().find(|(_, n)| *n == name).map_or(0, |(bit, _)| *bit))
    }

    fn of_value(v: &Value) -> Kinds {
        Kinds(match v {
            Value::Null => NULL,
            Value::Bool(_) => BOOLEAN,
            Value::Number(n) if n.is_i64() || n.is_u64() => INTEGER,
            Value::Number(_) => NUMBER,
            Value::String(_) => STRING,
            Value::Array(_) => ARRAY,
            Value::Object(_) => OBJECT,
        })
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// Whether a value of type `bit` satisfies this set (`number` takes integers too).
    fn allows(self, bit: u8) -> bool {
        self.has(bit) || (bit == INTEGER && self.has(NUMBER))
    }

    /// Both at once (`allOf`): `{number} and {integer}` is `{integer}`.
    fn and(self, other: Kinds) -> Kinds {
        if self == Kinds::ANY || other == Kinds::ANY {
            return if self == Kinds::ANY { other } else { self };
        }
        let keep = |a: Kinds, b: Kinds| {
            ORDER.iter().filter(|(bit, _)| a.has(*bit) && b.allows(*bit)).fold(0, |m, (bit, _)| m | bit)
        };
        Kinds(keep(self, other) | keep(other, self))
    }

    /// For reading text, `number` covers `integer`.
    fn for_reading(self) -> Kinds {
        if self.has(NUMBER) { Kinds(self.0 & !INTEGER) } else { self }
    }

    fn names(self) -> Vec<&'static str> {
        ORDER.iter().filter(|(bit, _)| self.has(*bit)).map(|(_, n)| *n).collect()
    }
}

/// What a schema allows, as types.
fn kinds(refs: &Resolver, schema: &Value, depth: usize) -> Kinds {
    let Some(s) = schema.as_object().filter(|_| depth < MAX_DEPTH) else { return Kinds::ANY };
    let mut k = Kinds::ANY;
    match s.get("type") {
        Some(Value::String(t)) => k = Kinds::named(t),
        Some(Value::Array(ts)) => {
            k = Kinds(ts.iter().filter_map(Value::as_str).fold(0, |m, t| m | Kinds::named(t).0));
        }
        _ => {}
    }
    if let Some(c) = s.get("const") {
        k = k.and(Kinds::of_value(c));
    }
    if let Some(Value::Array(e)) = s.get("enum")
        && !e.is_empty()
    {
        k = k.and(Kinds(e.iter().fold(0, |m, v| m | Kinds::of_value(v).0)));
    }
    if let Some(target) = s.get("$ref").and_then(Value::as_str).and_then(|r| refs.resolve(r)) {
        k = k.and(kinds(refs, target, depth + 1));
    }
    for b in s.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        k = k.and(kinds(refs, b, depth + 1));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = s.get(key)
            && !branches.is_empty()
        {
            k = k.and(Kinds(branches.iter().fold(0, |m, b| m | kinds(refs, b, depth + 1).0)));
        }
    }
    // A schema no value satisfies: let validation say so.
    if k.0 == 0 { Kinds::ANY } else { k }
}

/// What the object schema `schema` allows for its property `key`; `None` when it says
/// nothing of it.
fn property(refs: &Resolver, schema: &Value, key: &str, depth: usize) -> Option<Kinds> {
    let s = schema.as_object().filter(|_| depth < MAX_DEPTH)?;
    let mut found: Option<Kinds> = None;
    let mut meet = |k: Kinds| found = Some(found.map_or(k, |f| f.and(k)));
    if let Some(p) = s.get("properties").and_then(|p| p.get(key)) {
        meet(kinds(refs, p, 0));
    } else if !s.contains_key("patternProperties")
        && let Some(extra) = s.get("additionalProperties").filter(|a| a.is_object())
    {
        meet(kinds(refs, extra, 0));
    }
    if let Some(target) = s.get("$ref").and_then(Value::as_str).and_then(|r| refs.resolve(r))
        && let Some(k) = property(refs, target, key, depth + 1)
    {
        meet(k);
    }
    for b in s.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        if let Some(k) = property(refs, b, key, depth + 1) {
            meet(k);
        }
    }
    for combinator in ["anyOf", "oneOf"] {
        let branches = s.get(combinator).and_then(Value::as_array).into_iter().flatten();
        let union = branches.filter_map(|b| property(refs, b, key, depth + 1)).reduce(|a, b| Kinds(a.0 | b.0));
        if let Some(k) = union {
            meet(k);
        }
    }
    found
}

/// The type of a property schema for people: `integer`, `string or null`, `any`.
pub(crate) fn type_label(refs: &Resolver, schema: &Value) -> String {
    let k = kinds(refs, schema, 0);
    if k == Kinds::ANY { "any".into() } else { k.names().join(" or ") }
}

/// VALUE as `kinds` asks, or why it cannot be.
fn typed(key: &str, text: &str, kinds: Kinds) -> Result<Value, String> {
    if kinds == Kinds::ANY {
        return Ok(untyped(text));
    }
    let kinds = kinds.for_reading();
    let quoted = Value::from(text);
    let one = ORDER.iter().find(|(bit, _)| kinds.0 == *bit);
    if let Some((bit, name)) = one {
        return read(*bit, text, false).map_err(|why| match why {
            Why::Refused(reason) => reason,
            Why::NotJson(e) => format!("{quoted} is not JSON ({key} is {}): {e}", article(name)),
            Why::Not => format!("{quoted} is not {} ({key} is {})", expected(*bit), article(name)),
        });
    }
    let mut refused = None;
    for (bit, _) in ORDER.iter().filter(|(bit, _)| *bit != STRING && kinds.has(*bit)) {
        match read(*bit, text, true) {
            Ok(v) => return Ok(v),
            Err(Why::Refused(reason)) => refused = refused.or(Some(reason)),
            Err(_) => {}
        }
    }
    if kinds.has(STRING) {
        return Ok(quoted);
    }
    Err(refused
        .unwrap_or_else(|| format!("{quoted} is of none of the types {key} accepts ({})", kinds.names().join(", "))))
}

enum Why {
    /// Not of the type at all.
    Not,
    /// Not JSON, for an object or an array.
    NotJson(serde_json::Error),
    /// A number that cannot be sent as the type asks, with the reason.
    Refused(String),
}

/// Reads `text` as the type `bit`; in a union (`strict`) an integer must be integral,
/// where alone a fraction is kept for validation to refuse plainly.
fn read(bit: u8, text: &str, strict: bool) -> Result<Value, Why> {
    match bit {
        NULL if text == "null" => Ok(Value::Null),
        BOOLEAN if text == "true" || text == "false" => Ok(Value::Bool(text == "true")),
        INTEGER | NUMBER => match number::parse(text, bit == INTEGER) {
            Typed::Number(v) if bit == INTEGER && strict && !(v.is_i64() || v.is_u64()) => Err(Why::Not),
            Typed::Number(v) => Ok(v),
            Typed::NotANumber => Err(Why::Not),
            Typed::Refused(reason) => Err(Why::Refused(reason)),
        },
        OBJECT | ARRAY => match serde_json::from_str::<Value>(text) {
            Ok(v) if (bit == OBJECT && v.is_object()) || (bit == ARRAY && v.is_array()) => Ok(v),
            Ok(_) => Err(Why::Not),
            Err(e) => Err(Why::NotJson(e)),
        },
        STRING => Ok(Value::from(text)),
        _ => Err(Why::Not),
    }
}

fn untyped(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => exact(v, text),
        Err(_) => Value::from(text),
    }
}

/// A number read as JSON, as a number field would send it (`1E3` is `1000`, `-0` is `0`).
fn exact(v: Value, text: &str) -> Value {
    match (&v, number::parse(text, false)) {
        (Value::Number(_), Typed::Number(n)) => n,
        _ => v,
    }
}

fn expected(bit: u8) -> &'static str {
    match bit {
        NULL => "null: write null",
        BOOLEAN => "a boolean: write true or false",
        INTEGER | NUMBER => "a number",
        OBJECT => "a JSON object",
        _ => "a JSON array",
    }
}

fn article(name: &str) -> String {
    match name {
        "null" => "null".into(),
        "integer" | "object" | "array" => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

#[cfg(test)]
mod tests;
