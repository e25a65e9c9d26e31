//! Argument completion (`completion/complete`) as a person types, sans-IO: a keystroke
//! waits [`DEBOUNCE_MS`] for the next one, only then is the request made, and an answer
//! older than the newest request of its field is dropped (answers may cross).

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::jsonrpc::Id;

/// How long typing must pause before the server is asked.
pub const DEBOUNCE_MS: f64 = 250.0;
/// Suggestions kept per field (the specification's limit per answer).
pub const MAX_VALUES: usize = 100;

/// What is being completed: a prompt's argument or a resource template's variable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Prompt(String),
    Template(String),
}

impl Target {
    /// The `ref` of the request.
    pub fn reference(&self) -> Value {
        match self {
            Target::Prompt(name) => json!({"type": "ref/prompt", "name": name}),
            Target::Template(uri) => json!({"type": "ref/resource", "uri": uri}),
        }
    }

    /// The target a recorded request's `ref` names.
    pub fn of(reference: &Value) -> Option<Target> {
        match reference["type"].as_str()? {
            "ref/prompt" => Some(Target::Prompt(reference["name"].as_str()?.to_owned())),
            "ref/resource" => Some(Target::Template(reference["uri"].as_str()?.to_owned())),
            _ => None,
        }
    }
}

/// One field being completed.
pub type Field = (Target, String);

/// The server's suggestions for a field.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suggestions {
    /// The text they complete.
    pub typed: String,
    pub values: Vec<String>,
    pub total: Option<u64>,
    pub has_more: bool,
    /// Why there are none, when the request failed.
    pub error: Option<String>,
}

impl Suggestions {
    /// Reads a `completion/complete` result.
    pub fn of(typed: &str, result: &Value) -> Suggestions {
        let c = &result["completion"];
        let values = c["values"].as_array().into_iter().flatten().filter_map(Value::as_str);
        Suggestions {
            typed: typed.to_owned(),
            values: values.take(MAX_VALUES).map(str::to_owned).collect(),
            total: c["total"].as_u64(),
            has_more: c["hasMore"].as_bool().unwrap_or(false),
            error: None,
        }
    }
}

/// A request waiting for typing to pause.
#[derive(Debug, Clone, PartialEq)]
struct Waiting {
    field: Field,
    value: String,
    context: Map<String, Value>,
    due_ms: f64,
}

/// The completion of every field of the form in view.
#[derive(Debug, Clone, Default)]
pub struct Completer {
    waiting: Option<Waiting>,
    /// The newest request of each field: its id and the text it asked about.
    newest: HashMap<Field, (Id, String)>,
    shown: HashMap<Field, Suggestions>,
}

impl Completer {
    /// A person typed `value` in `field`; `context` holds the other fields' values. The
    /// request waits until nothing else is typed for [`DEBOUNCE_MS`] (typing in another
    /// field replaces the wait: one field is typed in at a time).
    pub fn typed(&mut self, field: Field, value: String, context: Map<String, Value>, now_ms: f64) {
        self.waiting = Some(Waiting { field, value, context, due_ms: now_ms + DEBOUNCE_MS });
    }

    /// When the waiting request is due.
    pub fn due_ms(&self) -> Option<f64> {
        self.waiting.as_ref().map(|w| w.due_ms)
    }

    /// The `completion/complete` params due at `now_ms`, with the field they are for.
    pub fn take_due(&mut self, now_ms: f64, with_context: bool) -> Option<(Field, String, Value)> {
        if self.waiting.as_ref().is_none_or(|w| w.due_ms > now_ms) {
            return None;
        }
        let w = self.waiting.take()?;
        Some((w.field.clone(), w.value.clone(), params(&w.field, &w.value, &w.context, with_context)))
    }

    /// The request for `field` about `value` went with `id`: only its answer is shown.
    pub fn sent(&mut self, field: Field, value: String, id: Id) {
        self.newest.insert(field, (id, value));
    }

    /// The answer to `id`; false when it is not the newest of its field (dropped).
    pub fn answered(&mut self, id: &Id, outcome: Result<&Value, String>) -> bool {
        let Some((field, (_, typed))) = self.newest.iter().find(|(_, (i, _))| i == id) else { return false };
        let field = field.clone();
        let shown = match outcome {
            Ok(result) => Suggestions::of(typed, result),
            Err(e) => Suggestions { typed: typed.clone(), error: Some(e), ..Default::default() },
        };
        self.newest.remove(&field);
        self.shown.insert(field, shown);
        true
    }

    /// The suggestions shown under `field`.
    pub fn suggestions(&self, field: &Field) -> Option<&Suggestions> {
        self.shown.get(field)
    }

    /// A suggestion was picked, or the field left: its list goes.
    pub fn dismiss(&mut self, field: &Field) {
        self.shown.remove(field);
        // An answer still on its way is not shown either.
        self.newest.remove(field);
        if self.waiting.as_ref().is_some_and(|w| &w.field == field) {
            self.waiting = None;
        }
    }
}

/// The params of `completion/complete`; `context.arguments` (2025-06-18 on) holds the
/// other fields that have a value.
pub fn params(field: &Field, value: &str, context: &Map<String, Value>, with_context: bool) -> Value {
    let mut p = json!({"ref": field.0.reference(), "argument": {"name": field.1, "value": value}});
    let others: Map<String, Value> = context
        .iter()
        .filter(|(k, v)| **k != field.1 && v.as_str().is_some_and(|s| !s.is_empty()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if with_context && !others.is_empty() {
        p["context"] = json!({"arguments": others});
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str) -> Field {
        (Target::Template("demo://x/{a}/{b}".into()), name.into())
    }

    #[test]
    fn typing_waits_for_a_pause_and_only_the_last_text_is_asked() {
        let mut c = Completer::default();
        c.typed(field("a"), "1".into(), Map::new(), 0.0);
        c.typed(field("a"), "12".into(), Map::new(), 100.0);
        assert_eq!(c.due_ms(), Some(100.0 + DEBOUNCE_MS));
        assert!(c.take_due(300.0, true).is_none(), "asked before the pause");
        let (f, value, params) = c.take_due(350.0, true).unwrap();
        assert_eq!((f, value.as_str()), (field("a"), "12"));
        assert_eq!(params["argument"], json!({"name": "a", "value": "12"}));
        assert_eq!(params["ref"], json!({"type": "ref/resource", "uri": "demo://x/{a}/{b}"}));
        assert!(c.take_due(10_000.0, true).is_none(), "asked twice");
    }

    #[test]
    fn the_other_fields_are_the_context_from_2025_06_18() {
        let ctx: Map<String, Value> =
            [("a", "1"), ("b", "2"), ("c", "")].map(|(k, v)| (k.into(), json!(v))).into_iter().collect();
        let p = params(&field("a"), "1", &ctx, true);
        assert_eq!(p["context"], json!({"arguments": {"b": "2"}}));
        assert!(params(&field("a"), "1", &ctx, false).get("context").is_none());
    }

    #[test]
    fn an_answer_overtaken_by_a_newer_request_is_dropped() {
        let mut c = Completer::default();
        c.sent(field("a"), "1".into(), Id::Number(5));
        c.sent(field("a"), "12".into(), Id::Number(6));
        let result = json!({"completion": {"values": ["123", "124"], "total": 9, "hasMore": true}});
        assert!(!c.answered(&Id::Number(5), Ok(&json!({"completion": {"values": ["1"]}}))));
        assert!(c.answered(&Id::Number(6), Ok(&result)));
        let s = c.suggestions(&field("a")).unwrap();
        assert_eq!(
            (s.values.clone(), s.total, s.has_more, s.typed.as_str()),
            (vec!["123".into(), "124".into()], Some(9), true, "12")
        );
        c.dismiss(&field("a"));
        assert!(c.suggestions(&field("a")).is_none());
        c.sent(field("b"), "x".into(), Id::Number(7));
        assert!(c.answered(&Id::Number(7), Err("Method not found (-32601)".into())));
        assert!(c.suggestions(&field("b")).unwrap().error.is_some());
    }
}
