//! From a schema document to the node arena: each subschema is compiled once, where it is
//! found; a `$ref` target is compiled later, once, and linked by index, so recursive schemas
//! compile to cycles instead of unbounded trees. Shape errors are found here, not later.

use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use super::{Draft, Keyword, Node, NodeId, arrays, combinators, numbers, objects, refs, strings, types};
use crate::pointer;

pub(super) struct Compiler<'r> {
    root: &'r Value,
    pub(super) draft: Draft,
    pub(super) index: refs::Index,
    nodes: Vec<Node>,
    /// The node compiled (or reserved) for each location in the document.
    memo: HashMap<String, NodeId>,
    /// `$ref` targets reserved but not compiled yet.
    pending: Vec<(NodeId, String)>,
}

impl<'r> Compiler<'r> {
    /// The arena for `root`; the root itself is node 0.
    pub(super) fn run(root: &'r Value) -> Compiled<Vec<Node>> {
        Self::run_with(root, &[]).map(|(nodes, _)| nodes)
    }

    /// The arena for `root` and the nodes of the subschemas at `entries` (JSON Pointers into
    /// it), compiled together so definitions they share are compiled once.
    pub(super) fn run_with(root: &'r Value, entries: &[&str]) -> Compiled<(Vec<Node>, Vec<NodeId>)> {
        let draft = Draft::of(root);
        let index = refs::Index::scan(root, draft);
        let mut cx = Compiler { root, draft, index, nodes: Vec::new(), memo: HashMap::new(), pending: Vec::new() };
        cx.schema(root, "")?;
        let mut ids = Vec::with_capacity(entries.len());
        for loc in entries {
            if cx.target(loc).is_none() {
                return Err(SchemaError(format!("{} points nowhere", place(loc))));
            }
            ids.push(cx.reference((*loc).to_owned()));
        }
        // A worklist rather than recursion: a long chain of definitions must not deepen the stack.
        while let Some((id, loc)) = cx.pending.pop() {
            let target = cx.target(&loc).ok_or_else(|| SchemaError(format!("{} points nowhere", place(&loc))))?;
            cx.nodes[id] = cx.build(target, &loc)?;
        }
        Ok((cx.nodes, ids))
    }

    /// The value at `loc` in the document, if there is one.
    pub(super) fn target(&self, loc: &str) -> Option<&'r Value> {
        self.root.pointer(loc)
    }

    /// Compiles the subschema `value` found at `loc` (a JSON Pointer into the document).
    pub(super) fn schema(&mut self, value: &Value, loc: &str) -> Compiled<NodeId> {
        if let Some(&id) = self.memo.get(loc) {
            return Ok(id);
        }
        let id = self.slot(loc);
        self.nodes[id] = self.build(value, loc)?;
        Ok(id)
    }

    /// The node for the schema at `loc`, compiled after the current one: a `$ref` may point
    /// at a schema whose compilation is still under way.
    pub(super) fn reference(&mut self, loc: String) -> NodeId {
        if let Some(&id) = self.memo.get(&loc) {
            return id;
        }
        let id = self.slot(&loc);
        self.pending.push((id, loc));
        id
    }

    fn slot(&mut self, loc: &str) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node::Bool(true));
        self.memo.insert(loc.to_owned(), id);
        id
    }

    fn build(&mut self, value: &Value, loc: &str) -> Compiled<Node> {
        let map = match value {
            Value::Bool(b) => return Ok(Node::Bool(*b)),
            Value::Object(map) => map,
            _ => return Err(SchemaError(format!("{} must be an object or a boolean", place(loc)))),
        };
        if self.draft <= Draft::D7 && map.contains_key("$ref") {
            // Before 2019-09, `$ref` stands for the whole schema: its siblings are ignored.
            return Ok(Node::Keywords(refs::compile(self, "$ref", map, loc)?.map(Keyword::Ref).into_iter().collect()));
        }
        let mut keywords = Vec::new();
        // `unevaluated*` must see what every other keyword at this location evaluated.
        let mut last = Vec::new();
        for key in map.keys() {
            let Some(k) = self.keyword(key, map, loc)? else { continue };
            if key.starts_with("unevaluated") { last.push(k) } else { keywords.push(k) }
        }
        keywords.extend(last);
        Ok(Node::Keywords(keywords))
    }

    /// The keyword `key` of the schema `map` at `loc`; `None` for unknown keywords, for those
    /// compiled with another of their group, and for those that allow anything.
    fn keyword(&mut self, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
        if let Some(k) = types::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Types(k)));
        }
        if let Some(k) = objects::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Objects(k)));
        }
        if let Some(k) = arrays::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Arrays(k)));
        }
        if let Some(k) = numbers::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Numbers(k)));
        }
        if let Some(k) = strings::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Strings(k)));
        }
        if let Some(k) = combinators::compile(self, key, map, loc)? {
            return Ok(Some(Keyword::Combinators(k)));
        }
        Ok(refs::compile(self, key, map, loc)?.map(Keyword::Ref))
    }

    /// Compiles `map[key]` as a subschema.
    pub(super) fn sub(&mut self, map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<NodeId> {
        self.schema(&map[key], &child(loc, key))
    }

    /// Compiles `map[key]`, which must be a non-empty array of subschemas.
    pub(super) fn sub_list(&mut self, map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<Vec<NodeId>> {
        let here = child(loc, key);
        match &map[key] {
            Value::Array(items) if !items.is_empty() => {
                items.iter().enumerate().map(|(i, s)| self.schema(s, &pointer::index(&here, i))).collect()
            }
            _ => Err(SchemaError(format!("{} must be a non-empty array of schemas", place(&here)))),
        }
    }

    /// Compiles `map[key]`, which must be an object whose members are subschemas.
    pub(super) fn sub_map(
        &mut self,
        map: &Map<String, Value>,
        loc: &str,
        key: &str,
    ) -> Compiled<Vec<(String, NodeId)>> {
        let here = child(loc, key);
        object(map, loc, key)?
            .iter()
            .map(|(name, s)| Ok((name.clone(), self.schema(s, &child(&here, name))?)))
            .collect()
    }
}

/// The location of a keyword's value.
pub(super) fn child(loc: &str, key: &str) -> String {
    pointer::child(loc, key)
}

/// How a location is named in an error.
pub(super) fn place(loc: &str) -> String {
    if loc.is_empty() { "the schema".to_owned() } else { format!("#{loc}") }
}

/// An error about `map[key]`.
pub(super) fn bad(loc: &str, key: &str, problem: &str) -> SchemaError {
    SchemaError(format!("{} {problem}", place(&child(loc, key))))
}

/// Why a schema cannot be compiled: where, and what is wrong, in words for a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SchemaError(pub String);

/// What compiling part of a schema gives.
pub(super) type Compiled<T> = Result<T, SchemaError>;

/// `map[key]` as a non-negative integer (`2.0` counts).
pub(super) fn count(map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<u64> {
    let v = &map[key];
    v.as_u64()
        .or_else(|| v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= u64::MAX as f64).map(|f| f as u64))
        .ok_or_else(|| bad(loc, key, "must be a non-negative integer"))
}

/// `map[key]` as a number.
pub(super) fn number(map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<Number> {
    match &map[key] {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(bad(loc, key, "must be a number")),
    }
}

/// `map[key]` as an array of strings.
pub(super) fn strings(map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<Vec<String>> {
    let list = match &map[key] {
        Value::Array(items) => items.iter().map(|v| v.as_str().map(str::to_owned)).collect(),
        _ => None,
    };
    list.ok_or_else(|| bad(loc, key, "must be an array of strings"))
}

/// `map[key]` as an object.
pub(super) fn object<'a>(map: &'a Map<String, Value>, loc: &str, key: &str) -> Compiled<&'a Map<String, Value>> {
    map[key].as_object().ok_or_else(|| bad(loc, key, "must be an object"))
}

/// Whether `key` is the first of `group` the schema writes: a group compiles as one keyword,
/// at the place of its first member.
pub(super) fn leads(map: &Map<String, Value>, key: &str, group: &[&str]) -> bool {
    map.keys().find(|k| group.contains(&k.as_str())).is_some_and(|k| k == key)
}
