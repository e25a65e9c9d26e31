//! Our own JSON Schema validator (drafts 4, 6, 7, 2019-09 and 2020-12), small enough for the
//! page's Wasm: a schema compiles once into an arena of nodes, then validates any number of
//! instances and reports every violation with the JSON Pointer of the value it concerns.
//!
//! Remote `$ref`s are never fetched (MCP forbids it): they count as "any value". Keywords
//! are compiled in the order the schema writes them, so violations come out in that order.

mod arrays;
mod combinators;
mod compile;
mod format;
mod net;
mod numbers;
mod objects;
pub(crate) mod pattern;
mod refs;
mod strings;
mod types;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use serde_json::Value;

use compile::Compiled;
pub use compile::SchemaError;
pub use refs::{Located, Resolver};

/// One reason an instance does not match the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The JSON Pointer of the value (for `required`: the missing property's own path).
    pub path: String,
    pub message: String,
}

/// An entry point of a schema compiled by [`Schema::compile_entries`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry(NodeId);

/// A compiled schema.
pub struct Schema {
    nodes: Vec<Node>,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema").field("nodes", &self.nodes.len()).finish()
    }
}

impl Schema {
    /// Compiles `schema`; the error says what makes it unusable and where.
    pub fn compile(schema: &Value) -> Compiled<Schema> {
        compile::Compiler::run(schema).map(|nodes| Schema { nodes })
    }

    /// Compiles the whole document `doc` with the subschemas at `entries` (JSON Pointers such
    /// as `/$defs/CallToolResult`) as entry points for [`Schema::first_violation_at`]: one
    /// arena for a document of many definitions, each compiled once however many share it.
    pub fn compile_entries(doc: &Value, entries: &[&str]) -> Compiled<(Schema, Vec<Entry>)> {
        let (nodes, ids) = compile::Compiler::run_with(doc, entries)?;
        Ok((Schema { nodes }, ids.into_iter().map(Entry).collect()))
    }

    /// The first violation of `instance` against the entry point `entry`, its path under
    /// `prefix`; a valid instance (the common case) is judged without building any message.
    pub fn first_violation_at(&self, entry: Entry, instance: &Value, prefix: &str) -> Option<Violation> {
        let mut run =
            Run { schema: self, errors: Vec::new(), quiet: true, failed: false, refs: Vec::new(), explaining: false };
        run.node(entry.0, instance, prefix);
        if !run.failed {
            return None;
        }
        let mut run =
            Run { schema: self, errors: Vec::new(), quiet: false, failed: false, refs: Vec::new(), explaining: false };
        run.node(entry.0, instance, prefix);
        run.errors.into_iter().next()
    }

    /// Every violation of `instance`, in schema order.
    pub fn validate(&self, instance: &Value) -> Vec<Violation> {
        let mut run =
            Run { schema: self, errors: Vec::new(), quiet: false, failed: false, refs: Vec::new(), explaining: false };
        run.node(ROOT, instance, "");
        run.errors
    }

    /// Whether `instance` is valid (stops at the first violation).
    pub fn is_valid(&self, instance: &Value) -> bool {
        let mut run =
            Run { schema: self, errors: Vec::new(), quiet: true, failed: false, refs: Vec::new(), explaining: false };
        run.node(ROOT, instance, "");
        !run.failed
    }

    fn is_false(&self, id: NodeId) -> bool {
        matches!(self.nodes[id], Node::Bool(false))
    }
}

/// Which rules apply where the drafts disagree; ordered from oldest to newest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Draft {
    D4,
    D6,
    D7,
    D2019,
    D2020,
}

impl Draft {
    /// The draft `$schema` names; 2020-12 when it names none we know.
    fn of(root: &Value) -> Draft {
        let name = root.get("$schema").and_then(Value::as_str).unwrap_or_default();
        if name.contains("draft-03") || name.contains("draft-04") {
            Draft::D4
        } else if name.contains("draft-06") {
            Draft::D6
        } else if name.contains("draft-07") {
            Draft::D7
        } else if name.contains("2019-09") {
            Draft::D2019
        } else {
            Draft::D2020
        }
    }
}

/// An index into [`Schema::nodes`].
type NodeId = usize;

/// The root schema is always compiled first.
const ROOT: NodeId = 0;

/// One schema: a boolean, or the keywords of an object in the order they apply.
enum Node {
    Bool(bool),
    Keywords(Vec<Keyword>),
}

/// A compiled keyword, grouped by the kind of instance it looks at.
enum Keyword {
    Types(types::Keyword),
    Objects(objects::Keyword),
    Arrays(arrays::Keyword),
    Numbers(numbers::Keyword),
    Strings(strings::Keyword),
    Combinators(combinators::Keyword),
    Ref(NodeId),
}

impl Keyword {
    fn check<'v>(&self, run: &mut Run, instance: &'v Value, path: &str, seen: &mut Evaluated<'v>) {
        match (self, instance) {
            (Keyword::Types(k), _) => k.check(run, instance, path),
            (Keyword::Objects(k), Value::Object(map)) => k.check(run, instance, map, path, seen),
            (Keyword::Arrays(k), Value::Array(items)) => k.check(run, instance, items, path, seen),
            (Keyword::Numbers(k), Value::Number(n)) => k.check(run, n, path),
            (Keyword::Strings(k), Value::String(s)) => k.check(run, s, path),
            (Keyword::Combinators(k), _) => k.check(run, instance, path, seen),
            (Keyword::Ref(target), _) => seen.merge(refs::follow(run, *target, instance, path)),
            _ => {}
        }
    }
}

/// What `unevaluatedProperties` and `unevaluatedItems` need to know: which members and items
/// of the instance some keyword at this location has already looked at. Subschemas that fail
/// inside `anyOf`, `oneOf`, `if` and `contains` count for nothing, as the spec says; a keyword
/// beside `unevaluated*` (or in `allOf`, or behind a `$ref`) counts even when it fails, which
/// only spares a second complaint about a value already reported. Dynamic scope is not
/// followed (see [`refs`]), so schemas built on `$dynamicRef` are judged approximately.
#[derive(Default)]
struct Evaluated<'v> {
    props: BTreeSet<&'v str>,
    items: BTreeSet<usize>,
}

impl<'v> Evaluated<'v> {
    fn merge(&mut self, other: Evaluated<'v>) {
        self.props.extend(other.props);
        self.items.extend(other.items);
    }
}

/// One validation: the violations found so far, or (when `quiet`) only whether there was one.
struct Run<'s> {
    schema: &'s Schema,
    errors: Vec<Violation>,
    /// Probing an alternative (`anyOf`, `if`, …): messages are not built, the first failure ends it.
    quiet: bool,
    failed: bool,
    /// The `$ref` targets being followed and the instance each was entered with.
    refs: Vec<(NodeId, *const Value)>,
    /// Inside the explanation of a failed alternative: alternatives nested in it are told
    /// in one line, so a deep schema costs one loud pass per level, not one per branch.
    explaining: bool,
}

impl Run<'_> {
    /// Validates `instance` (at `path`) against node `id`.
    fn node<'v>(&mut self, id: NodeId, instance: &'v Value, path: &str) -> Evaluated<'v> {
        let schema = self.schema;
        let mut seen = Evaluated::default();
        match &schema.nodes[id] {
            Node::Bool(true) => {}
            Node::Bool(false) => self.report(path, || format!("false schema does not allow {}", show(instance))),
            Node::Keywords(keywords) => {
                for k in keywords {
                    if self.stopped() {
                        break;
                    }
                    k.check(self, instance, path, &mut seen);
                }
            }
        }
        seen
    }

    /// Validates without reporting; what it evaluated when `instance` is valid.
    fn probe<'v>(&mut self, id: NodeId, instance: &'v Value, path: &str) -> Option<Evaluated<'v>> {
        let outer = (self.quiet, self.failed);
        self.quiet = true;
        self.failed = false;
        let seen = self.node(id, instance, path);
        let valid = !self.failed;
        (self.quiet, self.failed) = outer;
        valid.then_some(seen)
    }

    /// Validates loudly, apart: what node `id` finds wrong with `instance`, leaving the
    /// run's own findings as they were.
    fn explain(&mut self, id: NodeId, instance: &Value, path: &str) -> Vec<Violation> {
        let outer = (self.quiet, self.failed, self.errors.len(), self.explaining);
        self.quiet = false;
        self.explaining = true;
        self.node(id, instance, path);
        let found = self.errors.split_off(outer.2);
        (self.quiet, self.failed, self.explaining) = (outer.0, outer.1, outer.3);
        found
    }

    fn report(&mut self, path: &str, message: impl FnOnce() -> String) {
        self.failed = true;
        if !self.quiet {
            self.errors.push(Violation { path: path.to_owned(), message: message() });
        }
    }

    /// A probe that has already failed need not look further.
    fn stopped(&self) -> bool {
        self.quiet && self.failed
    }
}

/// Longest shown JSON, in characters: a long text field should not make a message a page long.
const SHOWN_CHARS: usize = 80;

/// `value` as compact JSON for a message, cut short when long.
fn show(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// `1 item`, `2 items`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
