//! `$ref` inside one document, the one resolver of the crate: JSON Pointer fragments (with
//! `~0`/`~1` and percent-decoding), `$id` resources and `$anchor`s; anything outside the
//! document is never fetched and allows any value. The validator compiles refs with it, and
//! [`Resolver`] lends it to what else reads a schema (the form, `--arg` typing). `$recursiveRef` and `$dynamicRef` are read as plain `$ref`s: dynamic scope is
//! not followed, which only matters for schemas that extend a recursive schema elsewhere.
//! Following a ref is guarded twice: against a cycle that never reaches a new value, and
//! against nesting deeper than [`MAX_REFS`], so a recursive schema cannot overflow the stack.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, SchemaError, bad, child, place};
use super::{Draft, Evaluated, NodeId, Run};

/// `$ref`s followed at once before validation gives up on the value.
const MAX_REFS: usize = 64;

/// Where the document's resources (`$id`) and anchors are.
#[derive(Default)]
pub(super) struct Index {
    /// Location → absolute URI of each schema with an `$id`.
    resources: Vec<(String, String)>,
    /// (resource URI, anchor name) → location.
    anchors: HashMap<(String, String), String>,
}

impl Index {
    pub(super) fn scan(root: &Value, draft: Draft) -> Index {
        let mut index = Index::default();
        index.walk(root, String::new(), "", draft);
        index
    }

    /// Records the resources and anchors of the schema `value` at `loc` and of its
    /// subschemas; only keywords that hold schemas are entered, so an `$id` inside an
    /// unknown keyword or an example names nothing.
    fn walk(&mut self, value: &Value, loc: String, base: &str, draft: Draft) {
        let Value::Object(map) = value else { return };
        let mut base = base.to_owned();
        let id_key = if draft == Draft::D4 { "id" } else { "$id" };
        // Before 2019-09 a `$ref` stands for the whole schema, its `$id` included.
        let id = map.get(id_key).and_then(Value::as_str).filter(|_| draft >= Draft::D2019 || !map.contains_key("$ref"));
        if let Some(id) = id {
            let absolute = resolve(&base, id);
            let (uri, fragment) = split(&absolute);
            if !uri.is_empty() && (uri != base || loc.is_empty()) {
                self.resources.push((loc.clone(), uri.to_owned()));
            }
            if !fragment.is_empty() {
                // Before 2019-09, `"$id": "#name"` is how an anchor was written.
                self.anchors.insert((uri.to_owned(), fragment.to_owned()), loc.clone());
            }
            base = uri.to_owned();
        }
        for key in ["$anchor", "$dynamicAnchor"] {
            if let Some(name) = map.get(key).and_then(Value::as_str) {
                self.anchors.insert((base.clone(), name.to_owned()), loc.clone());
            }
        }
        for (key, v) in map {
            let here = child(&loc, key);
            match (key.as_str(), v) {
                (
                    "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" | "dependencies",
                    Value::Object(m),
                ) => {
                    for (name, s) in m {
                        self.walk(s, child(&here, name), &base, draft);
                    }
                }
                ("allOf" | "anyOf" | "oneOf" | "prefixItems" | "items", Value::Array(list)) => {
                    for (i, s) in list.iter().enumerate() {
                        self.walk(s, format!("{here}/{i}"), &base, draft);
                    }
                }
                (
                    "items"
                    | "additionalItems"
                    | "additionalProperties"
                    | "contains"
                    | "propertyNames"
                    | "not"
                    | "if"
                    | "then"
                    | "else"
                    | "unevaluatedItems"
                    | "unevaluatedProperties"
                    | "contentSchema",
                    _,
                ) => self.walk(v, here, &base, draft),
                _ => {}
            }
        }
    }

    /// The base URI at `loc`: that of the innermost resource around it.
    fn base_at(&self, loc: &str) -> &str {
        let inside =
            |r: &str| r.is_empty() || loc == r || loc.strip_prefix(r).is_some_and(|rest| rest.starts_with('/'));
        self.resources.iter().filter(|(r, _)| inside(r)).max_by_key(|(r, _)| r.len()).map_or("", |(_, u)| u.as_str())
    }

    /// Where `reference`, written in the schema at `at`, leads.
    fn locate(&self, at: &str, reference: &str) -> Located {
        let absolute = resolve(self.base_at(at), reference);
        let (uri, fragment) = split(&absolute);
        let Some(resource) = self.resource(uri) else { return Located::Remote };
        if fragment.is_empty() {
            Located::At(resource.to_owned())
        } else if fragment.starts_with('/') {
            Located::At(format!("{resource}{}", percent_decode(fragment)))
        } else {
            match self.anchors.get(&(uri.to_owned(), fragment.to_owned())) {
                Some(loc) => Located::At(loc.clone()),
                None => Located::UnknownAnchor,
            }
        }
    }

    /// Where `uri` (without fragment) is in the document, if it is in it.
    fn resource(&self, uri: &str) -> Option<&str> {
        if uri.is_empty() {
            return Some("");
        }
        self.resources.iter().find(|(_, u)| u == uri).map(|(loc, _)| loc.as_str())
    }
}

/// Where a `$ref` leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Located {
    /// Inside the document, at this JSON Pointer (which may point nowhere).
    At(String),
    /// Outside the document: never fetched.
    Remote,
    /// To an anchor the document does not define.
    UnknownAnchor,
}

/// The `$ref`s of one schema document, resolved as the validator resolves them.
pub struct Resolver<'a> {
    root: &'a Value,
    index: Index,
}

impl<'a> Resolver<'a> {
    pub fn new(root: &'a Value) -> Self {
        Self { root, index: Index::scan(root, Draft::of(root)) }
    }

    pub fn root(&self) -> &'a Value {
        self.root
    }

    /// Where `reference` leads, read against the document's own base URI.
    pub fn locate(&self, reference: &str) -> Located {
        self.index.locate("", reference)
    }

    /// The subschema `reference` names, when it is in the document.
    pub fn resolve(&self, reference: &str) -> Option<&'a Value> {
        match self.locate(reference) {
            Located::At(loc) => self.root.pointer(&loc),
            Located::Remote | Located::UnknownAnchor => None,
        }
    }
}

/// A `$ref`'s target: its node, or `None` for a remote one (which allows anything).
pub(super) fn compile(cx: &mut Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<NodeId>> {
    match key {
        "$ref" | "$recursiveRef" | "$dynamicRef" => {}
        "$defs" | "definitions" if !map[key].is_object() => return Err(bad(loc, key, "must be an object")),
        _ => return Ok(None),
    }
    let Some(reference) = map[key].as_str() else { return Err(bad(loc, key, "must be a string")) };
    let target = match cx.index.locate(loc, reference) {
        Located::At(target) => target,
        Located::Remote => return Ok(None),
        Located::UnknownAnchor => {
            return Err(SchemaError(format!(
                "{} names an unknown anchor {}",
                place(&child(loc, key)),
                Value::from(reference)
            )));
        }
    };
    if cx.target(&target).is_none() {
        return Err(SchemaError(format!("{} points nowhere: {}", place(&child(loc, key)), Value::from(reference))));
    }
    Ok(Some(cx.reference(target)))
}

/// Validates `instance` against the ref's `target`, unless that would never end.
pub(super) fn follow<'v>(run: &mut Run, target: NodeId, instance: &'v Value, path: &str) -> Evaluated<'v> {
    // The same target for the very same value means the refs went round without descending.
    if run.refs.iter().any(|(t, v)| *t == target && std::ptr::eq(*v, instance)) {
        run.report(path, || "the schema refers to itself here without end".to_owned());
        return Evaluated::default();
    }
    if run.refs.len() >= MAX_REFS {
        run.report(path, || format!("the value nests deeper than the schema's limit of {MAX_REFS} $ref levels"));
        return Evaluated::default();
    }
    run.refs.push((target, instance));
    let seen = run.node(target, instance, path);
    run.refs.pop();
    seen
}

/// (URI, fragment) of an absolute reference.
fn split(reference: &str) -> (&str, &str) {
    reference.split_once('#').unwrap_or((reference, ""))
}

/// `%XX` decoded (invalid sequences kept as written).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (bytes.get(i + 1).and_then(|b| hex(*b)), bytes.get(i + 2).and_then(|b| hex(*b)))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `reference` resolved against `base` (RFC 3986 §5.2, without normalisation).
fn resolve(base: &str, reference: &str) -> String {
    if scheme(reference).is_some() {
        return reference.to_owned();
    }
    let base = split(base).0;
    if reference.is_empty() || reference.starts_with('#') {
        return format!("{base}{reference}");
    }
    let scheme_part = scheme(base).map_or(String::new(), |s| format!("{s}:"));
    let after_scheme = &base[scheme_part.len()..];
    if reference.starts_with("//") {
        return format!("{scheme_part}{reference}");
    }
    let (authority, path) = match after_scheme.strip_prefix("//") {
        Some(rest) => {
            let end = rest.find(['/', '?']).unwrap_or(rest.len());
            (&after_scheme[..end + 2], &rest[end..])
        }
        None => ("", after_scheme),
    };
    let path = path.split('?').next().unwrap_or_default();
    if reference.starts_with('?') {
        return format!("{scheme_part}{authority}{path}{reference}");
    }
    let merged = if reference.starts_with('/') {
        reference.to_owned()
    } else if !authority.is_empty() && path.is_empty() {
        format!("/{reference}")
    } else {
        format!("{}{reference}", &path[..path.rfind('/').map_or(0, |i| i + 1)])
    };
    format!("{scheme_part}{authority}{}", remove_dots(&merged))
}

/// The scheme of an absolute URI.
fn scheme(uri: &str) -> Option<&str> {
    let (scheme, _) = uri.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// A path without `.` and `..` segments (RFC 3986 §5.2.4).
fn remove_dots(path: &str) -> String {
    let (path, rest) = path.find(['?', '#']).map_or((path, ""), |i| path.split_at(i));
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." if last => out.push(""),
            "." => {}
            ".." => {
                if out.len() > 1 || out.first().is_some_and(|s| !s.is_empty()) {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("{}{rest}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_resolve_against_their_base() {
        let cases = [
            ("", "#/a", "#/a"),
            ("http://x.org/root.json", "#foo", "http://x.org/root.json#foo"),
            ("http://x.org/a/b.json", "c.json", "http://x.org/a/c.json"),
            ("http://x.org/a/b.json", "../c.json#/d", "http://x.org/c.json#/d"),
            ("http://x.org/a/b.json", "/c.json", "http://x.org/c.json"),
            ("http://x.org", "c.json", "http://x.org/c.json"),
            ("http://x.org/a/", "./c/./d/../e.json", "http://x.org/a/c/e.json"),
            ("urn:uuid:1234", "#/defs", "urn:uuid:1234#/defs"),
            ("http://x.org/a.json", "https://y.org/z", "https://y.org/z"),
            ("", "other.json", "other.json"),
        ];
        for (base, reference, expected) in cases {
            assert_eq!(resolve(base, reference), expected, "{base} + {reference}");
        }
        assert_eq!(percent_decode("/a%25b/%22c%22/%zz"), "/a%b/\"c\"/%zz");
    }
}
