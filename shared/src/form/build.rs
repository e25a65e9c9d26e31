//! From JSON Schema (2020-12 by default, draft-07 when `$schema` says so) to the form model.
//! Local `$ref`s are followed (a ref back into itself becomes a lazily built field); remote
//! ones are never fetched; `allOf` is merged; nullable shapes become an explicit null choice.

use serde_json::{Map, Value};

use crate::schema::{Located, Resolver};

use super::initial::MAX_START_ITEMS;
use super::model::*;

/// How deep the builder goes before it shows the rest as JSON.
const MAX_DEPTH: usize = 24;

/// Keywords validation checks that the form does not express.
const UNSHOWN: &[&str] = &[
    "if",
    "then",
    "else",
    "not",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minProperties",
    "maxProperties",
];

/// Property names whose strings are usually long.
const LONG_TEXT_NAMES: &[&str] =
    &["content", "body", "text", "code", "script", "source", "markdown", "prompt", "html", "sql", "template"];

/// Builds the form of a tool's `inputSchema`.
pub fn build(schema: &Value) -> Field {
    Builder { refs: Resolver::new(schema), stack: Vec::new(), depth: 0 }.field(schema, None)
}

/// Builds the field a [`Kind::Recursive`] stands for (its `$ref`), one more level deep.
pub fn build_at(root: &Value, reference: &str) -> Field {
    let refs = Resolver::new(root);
    match refs.resolve(reference) {
        Some(target) => Builder { refs, stack: vec![reference.to_owned()], depth: 0 }.field(target, None),
        None => Field::json(format!("$ref {reference} points nowhere")),
    }
}

struct Builder<'a> {
    /// The schema's `$ref`s, resolved as validation resolves them.
    refs: Resolver<'a>,
    /// `$ref`s being expanded on the current path, to catch recursion.
    stack: Vec<String>,
    depth: usize,
}

fn annotate(field: &mut Field, s: &Map<String, Value>) {
    if let Some(t) = s.get("title").and_then(Value::as_str) {
        field.title = Some(t.to_owned());
    }
    if let Some(d) = s.get("description").and_then(Value::as_str) {
        field.description = Some(d.to_owned());
    }
    if let Some(d) = s.get("default") {
        field.default = Some(d.clone());
    }
    if let Some(Value::Array(e)) = s.get("examples") {
        field.examples = e.clone();
    }
}

/// Copies `src` into `dst`: properties merged, `required` united, other keywords from `src`
/// win when `src_wins`.
fn merge_into(dst: &mut Map<String, Value>, src: &Map<String, Value>, src_wins: bool) {
    for (k, v) in src {
        match (k.as_str(), dst.get_mut(k), v) {
            ("properties", Some(Value::Object(d)), Value::Object(s)) => {
                for (pk, pv) in s {
                    if src_wins || !d.contains_key(pk) {
                        d.insert(pk.clone(), pv.clone());
                    }
                }
            }
            ("required", Some(Value::Array(d)), Value::Array(s)) => {
                for r in s {
                    if !d.contains(r) {
                        d.push(r.clone());
                    }
                }
            }
            (_, Some(slot), _) if src_wins => *slot = v.clone(),
            (_, Some(_), _) => {}
            (_, None, _) => {
                dst.insert(k.clone(), v.clone());
            }
        }
    }
}

fn without(s: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    s.iter().filter(|(k, _)| !keys.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        || v.get("const").is_some_and(Value::is_null)
        || v.get("enum").and_then(Value::as_array).is_some_and(|e| e.len() == 1 && e[0].is_null())
}

fn choice_label(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn variant_label(branch: &Value, i: usize) -> String {
    if let Some(t) = branch.get("title").and_then(Value::as_str) {
        return t.to_owned();
    }
    if let Some(r) = branch.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_owned();
    }
    if let Some(t) = branch.get("type").and_then(Value::as_str) {
        if t == "object"
            && let Some(req) = branch.get("required").and_then(Value::as_array)
            && !req.is_empty()
        {
            let names: Vec<&str> = req.iter().filter_map(Value::as_str).collect();
            return format!("object with {}", names.join(", "));
        }
        return t.to_owned();
    }
    if let Some(req) = branch.get("required").and_then(Value::as_array) {
        let names: Vec<&str> = req.iter().filter_map(Value::as_str).collect();
        if !names.is_empty() {
            return format!("with {}", names.join(", "));
        }
    }
    format!("Option {}", i + 1)
}

fn num(s: &Map<String, Value>, key: &str) -> Option<f64> {
    s.get(key).and_then(Value::as_f64)
}

fn uint(s: &Map<String, Value>, key: &str) -> Option<u64> {
    s.get(key).and_then(Value::as_u64)
}

impl Builder<'_> {
    fn field(&mut self, schema: &Value, name: Option<&str>) -> Field {
        if self.depth >= MAX_DEPTH {
            return Field::json("nested too deeply to show as a form");
        }
        match schema {
            Value::Bool(true) => Field::json("any value"),
            Value::Bool(false) => Field::json("no value is allowed here"),
            Value::Object(s) => {
                self.depth += 1;
                let f = self.schema(s, name);
                self.depth -= 1;
                f
            }
            _ => Field::json("the schema here is not a JSON Schema object"),
        }
    }

    fn schema(&mut self, s: &Map<String, Value>, name: Option<&str>) -> Field {
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            return self.reference(reference, s, name);
        }
        if let Some(Value::Array(parts)) = s.get("allOf") {
            let mut merged = without(s, &["allOf"]);
            let mut followed = Vec::new();
            for part in parts {
                if let Some(r) = part.get("$ref").and_then(Value::as_str).filter(|r| r.starts_with('#')) {
                    followed.push(r.to_owned());
                }
                let part = self.deref(part);
                if let Value::Object(p) = part {
                    merge_into(&mut merged, &p, false);
                }
            }
            // The refs just followed count as being expanded: met again in what they
            // brought (an `allOf` back into itself), they end as a recursive field instead
            // of recursing for ever. The depth is counted here too.
            let outer = self.stack.len();
            self.stack.extend(followed);
            let field = self.field(&Value::Object(merged), name);
            self.stack.truncate(outer);
            return field;
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(branches)) = s.get(key) {
                return self.alternatives(s, key, branches, name);
            }
        }
        let mut field = self.typed(s, name);
        annotate(&mut field, s);
        field.notes = UNSHOWN
            .iter()
            .filter(|k| s.contains_key(**k))
            .map(|k| format!("`{k}` is checked when validating but not shown in the form"))
            .collect();
        if let Kind::Array(a) = &field.kind
            && let Some(min) = a.min_items.filter(|m| *m > MAX_START_ITEMS && *m > a.prefix.len() as u64)
            && a.items.is_some()
        {
            field.notes.push(format!(
                "`minItems` is {min}: the form starts with {MAX_START_ITEMS} items and validation asks for the rest"
            ));
        }
        field
    }

    /// A local `$ref` one level deep (for `allOf` parts), with its siblings.
    fn deref(&self, v: &Value) -> Value {
        let reference = v.get("$ref").and_then(Value::as_str).filter(|r| !self.stack.iter().any(|s| s == r));
        let Some(mut target) = reference.and_then(|r| self.refs.resolve(r)).cloned() else { return v.clone() };
        if let (Value::Object(t), Value::Object(sib)) = (&mut target, v) {
            merge_into(t, &without(sib, &["$ref"]), true);
        }
        target
    }

    fn reference(&mut self, reference: &str, s: &Map<String, Value>, name: Option<&str>) -> Field {
        let siblings = without(s, &["$ref"]);
        if self.refs.locate(reference) == Located::Remote {
            let mut f = Field::json(format!("remote $ref {reference} is never fetched"));
            annotate(&mut f, &siblings);
            return f;
        }
        if self.stack.iter().any(|r| r == reference) {
            let mut f = Field::new(Kind::Recursive { pointer: reference.to_owned() });
            if let Some(Value::Object(target)) = self.refs.resolve(reference) {
                annotate(&mut f, target);
            }
            annotate(&mut f, &siblings);
            return f;
        }
        let Some(target) = self.refs.resolve(reference) else {
            return Field::json(format!("$ref {reference} points nowhere in the schema"));
        };
        let merged = match target {
            Value::Object(t) => {
                let mut m = t.clone();
                merge_into(&mut m, &siblings, true);
                Value::Object(m)
            }
            other => other.clone(),
        };
        self.stack.push(reference.to_owned());
        let f = self.field(&merged, name);
        self.stack.pop();
        f
    }

    fn alternatives(&mut self, s: &Map<String, Value>, key: &str, branches: &[Value], name: Option<&str>) -> Field {
        let base = without(s, &[key]);
        let (nulls, others): (Vec<&Value>, Vec<&Value>) = branches.iter().partition(|b| is_null_schema(b));
        let nullable = !nulls.is_empty();
        let body = without(&base, &["title", "description", "default", "examples"]);
        let merged_with = |branch: &Value| -> Value {
            let mut m = body.clone();
            if let Value::Object(b) = branch {
                merge_into(&mut m, b, true);
            } else {
                return branch.clone();
            }
            Value::Object(m)
        };
        let mut field = if others.len() == 1 {
            let mut f = self.field(&merged_with(others[0]), name);
            // The branch's own title names the variant, not the field.
            f.title = None;
            f
        } else if !others.is_empty() && others.iter().all(|b| b.get("const").is_some()) {
            Field::new(Kind::Enum(
                others
                    .iter()
                    .map(|b| Choice {
                        value: b["const"].clone(),
                        label: b
                            .get("title")
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                            .unwrap_or_else(|| choice_label(&b["const"])),
                    })
                    .collect(),
            ))
        } else if others.is_empty() {
            Field::new(Kind::Null)
        } else {
            let variants = others
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let label = variant_label(&self.deref_label_source(b), i);
                    Variant { label, field: self.field(&merged_with(b), name) }
                })
                .collect();
            Field::new(Kind::Variants(variants))
        };
        field.nullable |= nullable;
        annotate(&mut field, &base);
        field
    }

    /// The branch a variant's label is read from: the branch, or what its `$ref` names.
    fn deref_label_source(&self, b: &Value) -> Value {
        if b.get("title").is_none()
            && let Some(r) = b.get("$ref").and_then(Value::as_str)
            && let Some(Value::Object(t)) = self.refs.resolve(r)
            && t.contains_key("title")
        {
            return Value::Object(t.clone());
        }
        b.clone()
    }

    fn typed(&mut self, s: &Map<String, Value>, name: Option<&str>) -> Field {
        if let Some(Value::Array(values)) = s.get("enum") {
            let nullable = values.iter().any(Value::is_null);
            let choices = values
                .iter()
                .filter(|v| !v.is_null())
                .map(|v| Choice { value: v.clone(), label: choice_label(v) })
                .collect();
            let mut f = Field::new(Kind::Enum(choices));
            f.nullable = nullable;
            return f;
        }
        if let Some(c) = s.get("const") {
            return Field::new(Kind::Const(c.clone()));
        }
        let mut types: Vec<&str> = match s.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let nullable = types.len() > 1 && types.contains(&"null");
        if nullable {
            types.retain(|t| *t != "null");
        }
        if types.is_empty() {
            if s.contains_key("properties") || s.contains_key("additionalProperties") {
                types.push("object");
            } else if s.contains_key("items") || s.contains_key("prefixItems") {
                types.push("array");
            }
        }
        let mut f = match types.as_slice() {
            [] => Field::json("any value"),
            [one] => self.of_type(one, s, name),
            many => {
                let variants = many
                    .iter()
                    .map(|t| {
                        let mut single = s.clone();
                        single.insert("type".into(), Value::String((*t).to_owned()));
                        for k in ["title", "description", "default", "examples"] {
                            single.remove(k);
                        }
                        Variant { label: (*t).to_owned(), field: self.schema(&single, name) }
                    })
                    .collect();
                Field::new(Kind::Variants(variants))
            }
        };
        f.nullable |= nullable;
        f
    }

    fn of_type(&mut self, ty: &str, s: &Map<String, Value>, name: Option<&str>) -> Field {
        match ty {
            "string" => {
                let max_length = uint(s, "maxLength");
                let long_name = name.is_some_and(|n| LONG_TEXT_NAMES.contains(&n.to_lowercase().as_str()));
                Field::new(Kind::String(StringSpec {
                    format: s.get("format").and_then(Value::as_str).map(str::to_owned),
                    min_length: uint(s, "minLength"),
                    max_length,
                    pattern: s.get("pattern").and_then(Value::as_str).map(str::to_owned),
                    multiline: max_length.is_some_and(|m| m > 200) || long_name || s.contains_key("contentMediaType"),
                }))
            }
            "number" | "integer" => {
                // draft-04's boolean exclusiveMinimum/Maximum qualify minimum/maximum.
                let (mut minimum, mut maximum) = (num(s, "minimum"), num(s, "maximum"));
                let mut exclusive_minimum = num(s, "exclusiveMinimum");
                let mut exclusive_maximum = num(s, "exclusiveMaximum");
                if s.get("exclusiveMinimum") == Some(&Value::Bool(true)) {
                    exclusive_minimum = minimum.take();
                }
                if s.get("exclusiveMaximum") == Some(&Value::Bool(true)) {
                    exclusive_maximum = maximum.take();
                }
                Field::new(Kind::Number(NumberSpec {
                    integer: ty == "integer",
                    minimum,
                    maximum,
                    exclusive_minimum,
                    exclusive_maximum,
                    multiple_of: num(s, "multipleOf"),
                }))
            }
            "boolean" => Field::new(Kind::Boolean),
            "null" => Field::new(Kind::Null),
            "object" => self.object(s),
            "array" => self.array(s),
            other => Field::json(format!("unknown type {other:?}")),
        }
    }

    fn object(&mut self, s: &Map<String, Value>) -> Field {
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut spec = ObjectSpec::default();
        if let Some(Value::Object(props)) = s.get("properties") {
            for (name, schema) in props {
                spec.properties.push(Property {
                    name: name.clone(),
                    required: required.contains(&name.as_str()),
                    field: self.field(schema, Some(name)),
                });
            }
        }
        spec.additional = match s.get("additionalProperties") {
            None | Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => Some(Box::new(Field::json("any value"))),
            Some(schema) => Some(Box::new(self.field(schema, None))),
        };
        if let Some(Value::Object(patterns)) = s.get("patternProperties") {
            for (pattern, schema) in patterns {
                spec.pattern_properties.push((pattern.clone(), self.field(schema, None)));
            }
        }
        Field::new(Kind::Object(spec))
    }

    fn array(&mut self, s: &Map<String, Value>) -> Field {
        let mut spec = ArraySpec {
            min_items: uint(s, "minItems"),
            max_items: uint(s, "maxItems"),
            unique: s.get("uniqueItems") == Some(&Value::Bool(true)),
            ..ArraySpec::default()
        };
        let rest = |b: &mut Self, v: Option<&Value>| match v {
            Some(Value::Bool(false)) => None,
            None | Some(Value::Bool(true)) => Some(Box::new(Field::json("any value"))),
            Some(schema) => Some(Box::new(b.field(schema, None))),
        };
        if let Some(Value::Array(prefix)) = s.get("prefixItems") {
            spec.prefix = prefix.iter().map(|p| self.field(p, None)).collect();
            spec.items = rest(self, s.get("items"));
        } else if let Some(Value::Array(tuple)) = s.get("items") {
            spec.prefix = tuple.iter().map(|p| self.field(p, None)).collect();
            spec.items = rest(self, s.get("additionalItems"));
        } else {
            spec.items = rest(self, s.get("items"));
        }
        Field::new(Kind::Array(spec))
    }
}
