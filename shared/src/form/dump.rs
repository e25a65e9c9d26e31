//! A plain-text picture of a form tree, for snapshot tests and for reading in reviews.

use std::fmt::Write;

use super::model::*;

/// The tree, one line per field, children indented.
pub fn dump(field: &Field) -> String {
    let mut out = String::new();
    line(&mut out, 0, "(arguments)", field, true);
    out
}

fn summary(field: &Field) -> String {
    match &field.kind {
        Kind::String(s) => {
            let mut parts = Vec::new();
            if let Some(f) = &s.format {
                parts.push(format!("format={f}"));
            }
            if s.min_length.is_some() || s.max_length.is_some() {
                parts.push(format!(
                    "len {}..{}",
                    s.min_length.map(|n| n.to_string()).unwrap_or_default(),
                    s.max_length.map(|n| n.to_string()).unwrap_or_default()
                ));
            }
            if let Some(p) = &s.pattern {
                parts.push(format!("pattern={p}"));
            }
            if s.multiline {
                parts.push("multiline".into());
            }
            if parts.is_empty() { "string".into() } else { format!("string({})", parts.join(", ")) }
        }
        Kind::Number(n) => {
            let mut parts = Vec::new();
            let fmt = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
            if n.minimum.is_some() || n.maximum.is_some() {
                parts.push(format!("{}..={}", fmt(n.minimum), fmt(n.maximum)));
            }
            if n.exclusive_minimum.is_some() || n.exclusive_maximum.is_some() {
                parts.push(format!("exclusive {}..{}", fmt(n.exclusive_minimum), fmt(n.exclusive_maximum)));
            }
            if let Some(m) = n.multiple_of {
                parts.push(format!("multipleOf {m}"));
            }
            let name = if n.integer { "integer" } else { "number" };
            if parts.is_empty() { name.into() } else { format!("{name}({})", parts.join(", ")) }
        }
        Kind::Boolean => "boolean".into(),
        Kind::Null => "null".into(),
        Kind::Enum(choices) => {
            let shown: Vec<String> = choices
                .iter()
                .map(|c| {
                    if c.label == c.value.as_str().unwrap_or("") {
                        c.value.to_string()
                    } else {
                        format!("{} \"{}\"", c.value, c.label)
                    }
                })
                .collect();
            format!("enum[{}]", shown.join(" | "))
        }
        Kind::Const(c) => format!("const {c}"),
        Kind::Object(o) => {
            let mut s = "object".to_owned();
            if o.additional.is_some() {
                s.push_str(" +extra keys");
            }
            s
        }
        Kind::Array(a) => {
            let mut parts = Vec::new();
            if a.min_items.is_some() || a.max_items.is_some() {
                parts.push(format!(
                    "{}..{} items",
                    a.min_items.map(|n| n.to_string()).unwrap_or_default(),
                    a.max_items.map(|n| n.to_string()).unwrap_or_default()
                ));
            }
            if a.unique {
                parts.push("unique".into());
            }
            if !a.prefix.is_empty() {
                parts.push(format!("tuple of {}", a.prefix.len()));
            }
            if a.items.is_none() {
                parts.push("no more items".into());
            }
            if parts.is_empty() { "array".into() } else { format!("array({})", parts.join(", ")) }
        }
        Kind::Variants(v) => format!("one of {}", v.len()),
        Kind::Recursive { pointer } => format!("recursive {pointer}"),
        Kind::Json { reason } => format!("JSON editor ({reason})"),
    }
}

fn line(out: &mut String, indent: usize, name: &str, field: &Field, required: bool) {
    let pad = "  ".repeat(indent);
    let mark = if required { "" } else { "?" };
    let _ = write!(out, "{pad}{name}{mark}: {}", summary(field));
    if field.nullable {
        out.push_str(" | null");
    }
    if let Some(d) = &field.default {
        let _ = write!(out, " = {d}");
    }
    if let Some(t) = &field.title {
        let _ = write!(out, " \"{t}\"");
    }
    if !field.examples.is_empty() {
        let _ = write!(out, " examples={}", field.examples.len());
    }
    for n in &field.notes {
        let _ = write!(out, " [{n}]");
    }
    out.push('\n');
    match &field.kind {
        Kind::Object(o) => {
            for p in &o.properties {
                line(out, indent + 1, &p.name, &p.field, p.required);
            }
            for (pattern, f) in &o.pattern_properties {
                line(out, indent + 1, &format!("/{pattern}/"), f, false);
            }
            if let Some(extra) = &o.additional {
                line(out, indent + 1, "*", extra, false);
            }
        }
        Kind::Array(a) => {
            for (i, f) in a.prefix.iter().enumerate() {
                line(out, indent + 1, &format!("[{i}]"), f, true);
            }
            if let Some(item) = &a.items {
                line(out, indent + 1, "[]", item, true);
            }
        }
        Kind::Variants(vs) => {
            for v in vs {
                line(out, indent + 1, &format!("<{}>", v.label), &v.field, true);
            }
        }
        _ => {}
    }
}
