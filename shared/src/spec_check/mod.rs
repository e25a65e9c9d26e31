//! Every message checked against the official JSON Schema of its protocol revision: which
//! definition a message must match (by its method, its direction and, for an answer, the
//! method of its request), and the first rule it breaks. The check only reports: nothing is
//! ever held back or changed because of it.
//!
//! The schemas are bundled at build time (`build.rs`) and each revision's document is parsed
//! and compiled once, the first time a message of that revision is checked.

mod bundle;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde_json::Value;

use crate::jsonrpc::Kind;
use crate::relay::Direction;
use crate::revision::Revision;
use crate::schema::{Entry, Schema};

/// What the check says of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// The first violation: where in the message (a JSON Pointer) and which rule.
    Invalid {
        pointer: String,
        rule: String,
    },
}

impl Verdict {
    /// As `data-schema` writes it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid { .. } => "invalid",
        }
    }
}

/// Why a message was not checked: the words that follow "not checked:".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotChecked {
    #[error("schemas not bundled in this build (no schema for {0})")]
    NotBundled(Revision),
    #[error("the bundled schema of {0} is not JSON: {1}")]
    SchemaNotJson(Revision, String),
    #[error("the schema of {0} has no definitions")]
    NoDefinitions(Revision),
    #[error("the schema of {0} does not compile here: {1}")]
    DoesNotCompile(Revision, crate::schema::SchemaError),
    #[error("the protocol revision is not known yet")]
    RevisionUnknown,
    #[error("larger than {0} MiB")]
    TooLarge(usize),
    #[error("not JSON ({0})")]
    NotJson(String),
}

/// What a message is, as far as the choice of its definition goes.
#[derive(Debug, Clone, Copy)]
pub struct Message<'a> {
    pub direction: Direction,
    pub kind: Kind,
    /// Its method; for an answer, the method of its request (`None` when unpaired).
    pub method: Option<&'a str>,
}

/// Checks `value` against the schema of `revision`. `Err` says why it could not be checked
/// (the schema is not bundled in this build, or did not compile).
pub fn check(revision: Revision, message: Message, value: &Value) -> Result<Verdict, NotChecked> {
    let checker = checker(revision)?;
    let first = checker.targets(message, is_task(value)).into_iter().find_map(|(name, prefix)| {
        let at = if prefix.is_empty() { Some(value) } else { value.pointer(prefix) }?;
        checker.schema.first_violation_at(checker.entries[name], at, prefix)
    });
    Ok(first.map_or(Verdict::Valid, |v| Verdict::Invalid { pointer: v.path, rule: v.message }))
}

/// The official example messages of 2026-07-28 in `dir` (a type's name), kept beside the
/// schemas, as (file name, JSON) in name order.
#[cfg(test)]
pub(crate) fn official_examples(dir: &str) -> Vec<(String, Value)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/schema/2026-07-28/examples").join(dir);
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("the spec examples are part of the crate ({}): {e}", root.display()))
        .map(|entry| {
            let path = entry.expect("readable dir entry").path();
            let text = std::fs::read_to_string(&path).expect("readable example");
            let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
            (name, serde_json::from_str(&text).expect("example is JSON"))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no examples in {dir}");
    out
}

/// The compiled checker of `revision`, compiled on first use.
fn checker(revision: Revision) -> Result<&'static Checker, NotChecked> {
    static CHECKERS: [OnceLock<Result<Checker, NotChecked>>; Revision::ALL.len()] =
        [const { OnceLock::new() }; Revision::ALL.len()];
    let slot = Revision::ALL.iter().position(|r| *r == revision).unwrap_or_default();
    CHECKERS[slot].get_or_init(|| Checker::new(revision, bundle::BUNDLED)).as_ref().map_err(Clone::clone)
}

/// One revision's document compiled, with what is needed to pick a definition.
struct Checker {
    schema: Schema,
    /// Definition name → its entry point.
    entries: HashMap<String, Entry>,
    /// Method → the definitions whose `method` is that constant.
    by_method: HashMap<String, Vec<String>>,
    /// Definitions a client sends (members of `ClientRequest`, `ClientNotification`, …).
    from_client: HashSet<String>,
    /// Definitions a server sends.
    from_server: HashSet<String>,
}

impl Checker {
    /// The checker of `revision` from the documents `bundled` (revision, text).
    fn new(revision: Revision, bundled: &[(&str, &str)]) -> Result<Checker, NotChecked> {
        let text = bundled
            .iter()
            .find(|(r, _)| *r == revision.as_str())
            .map(|(_, text)| *text)
            .ok_or(NotChecked::NotBundled(revision))?;
        let doc: Value = serde_json::from_str(text).map_err(|e| NotChecked::SchemaNotJson(revision, e.to_string()))?;
        // Drafts 7 (up to 2025-06-18) write `definitions`, 2020-12 writes `$defs`.
        let (key, defs) = ["$defs", "definitions"]
            .into_iter()
            .find_map(|k| doc.get(k).and_then(Value::as_object).map(|d| (k, d)))
            .ok_or(NotChecked::NoDefinitions(revision))?;
        let names: Vec<&String> = defs.keys().collect();
        let locations: Vec<String> = names.iter().map(|n| crate::pointer::child(&format!("/{key}"), n)).collect();
        let refs: Vec<&str> = locations.iter().map(String::as_str).collect();
        let (schema, ids) =
            Schema::compile_entries(&doc, &refs).map_err(|e| NotChecked::DoesNotCompile(revision, e))?;
        let entries = names.iter().map(|n| (*n).clone()).zip(ids).collect();
        let mut by_method: HashMap<String, Vec<String>> = HashMap::new();
        for (name, def) in defs {
            if let Some(method) = def.pointer("/properties/method/const").and_then(Value::as_str) {
                by_method.entry(method.to_owned()).or_default().push(name.clone());
            }
        }
        let side = |unions: &[&str]| -> HashSet<String> {
            unions.iter().filter_map(|u| defs.get(*u)).flat_map(members).collect()
        };
        Ok(Checker {
            schema,
            entries,
            by_method,
            from_client: side(&["ClientRequest", "ClientNotification", "ClientResult"]),
            from_server: side(&["ServerRequest", "ServerNotification", "ServerResult"]),
        })
    }

    /// The definitions `message` must match, in order, each with the JSON Pointer of the part
    /// it judges: the JSON-RPC envelope first, then what the method asks for.
    /// (`task`: the answer is a task, `CreateTaskResult`, as a task-augmented request gets.)
    fn targets(&self, message: Message, task: bool) -> Vec<(&str, &'static str)> {
        let mut out = Vec::new();
        match message.kind {
            Kind::Request | Kind::Notification => {
                let envelope =
                    if matches!(message.kind, Kind::Request) { "JSONRPCRequest" } else { "JSONRPCNotification" };
                out.extend(self.known(envelope).map(|n| (n, "")));
                let sender = message.direction;
                out.extend(message.method.and_then(|m| self.definition(m, sender)).map(|n| (n, "")));
            }
            Kind::Response => {
                // The request went the other way.
                let asker = match message.direction {
                    Direction::In => Direction::Out,
                    Direction::Out => Direction::In,
                };
                let request = message.method.and_then(|m| self.definition(m, asker));
                let stem = request.map(|r| r.strip_suffix("Request").unwrap_or(r));
                // A task answer of 2026-07-28 belongs to the tasks extension, whose schema is
                // not the core's: only its envelope is judged.
                if task && self.known("CreateTaskResult").is_none() {
                    out.extend(
                        self.known("JSONRPCResultResponse").or_else(|| self.known("JSONRPCResponse")).map(|n| (n, "")),
                    );
                    return out;
                }
                // 2026-07-28 names the whole answer of most requests (`CallToolResultResponse`).
                if let Some(whole) = stem.and_then(|s| self.known(&format!("{s}ResultResponse"))) {
                    out.push((whole, ""));
                    return out;
                }
                out.extend(
                    self.known("JSONRPCResultResponse").or_else(|| self.known("JSONRPCResponse")).map(|n| (n, "")),
                );
                if let Some(stem) = stem {
                    // Requests without a result of their own (`ping`, `logging/setLevel`) get `EmptyResult`.
                    let own = if task { "CreateTaskResult".to_owned() } else { format!("{stem}Result") };
                    let result = self.known(&own).or_else(|| self.known("EmptyResult"));
                    out.extend(result.map(|n| (n, "/result")));
                }
            }
            Kind::Error => {
                out.extend(self.known("JSONRPCErrorResponse").or_else(|| self.known("JSONRPCError")).map(|n| (n, "")));
            }
        }
        out
    }

    /// The definition of `method` as `sender` sends it; where both sides have one, the sender's.
    fn definition(&self, method: &str, sender: Direction) -> Option<&str> {
        let candidates = self.by_method.get(method)?;
        let side = match sender {
            Direction::Out => &self.from_client,
            Direction::In => &self.from_server,
        };
        // The shared definition (`CancelledNotification`) before a union or alias of one side.
        let plain = |n: &&String| !n.starts_with("Client") && !n.starts_with("Server");
        candidates
            .iter()
            .find(|n| side.contains(*n) && plain(n))
            .or_else(|| candidates.iter().find(|n| side.contains(*n)))
            .or_else(|| candidates.iter().find(plain))
            .or_else(|| candidates.first())
            .map(String::as_str)
    }

    /// `name` when the document defines it.
    fn known(&self, name: &str) -> Option<&str> {
        self.entries.get_key_value(name).map(|(k, _)| k.as_str())
    }
}

/// Whether an answer is a task (2025-11-25: `result.task` an object, and no `content`;
/// 2026-07-28: `resultType: task`).
fn is_task(value: &Value) -> bool {
    let result = &value["result"];
    result["resultType"] == "task"
        || (result.get("task").is_some_and(Value::is_object) && result.get("content").is_none())
}

/// The definitions a union (`{"anyOf": [{"$ref": "#/$defs/X"}, …]}`) lists.
fn members(union: &Value) -> Vec<String> {
    let list = union.get("anyOf").or_else(|| union.get("oneOf")).and_then(Value::as_array);
    let refs = list.into_iter().flatten().filter_map(|m| m.get("$ref").and_then(Value::as_str));
    refs.filter_map(|r| r.rsplit('/').next()).map(str::to_owned).collect()
}
