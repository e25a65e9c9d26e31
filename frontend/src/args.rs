//! The arguments of the selected tool: the JSON value the form edits, the raw JSON text,
//! validation against the tool's `inputSchema` (`shared::form::Checker`, in the
//! browser), and the last arguments per server and tool in browser storage.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;
use shared::form::{self, Checker, Field, Violation, pointer};
use shared::mcp::Tool;

const STORAGE_PREFIX: &str = "mcp-playground.args.v1";

/// Everything about the arguments being edited.
#[derive(Clone, Copy)]
pub struct ArgsState {
    /// The input schema of the selected tool (the root for `$ref`s).
    pub schema: RwSignal<Arc<Value>>,
    pub field: RwSignal<Option<Arc<Field>>>,
    /// The arguments, as the form shows them.
    pub value: RwSignal<Value>,
    pub raw_mode: RwSignal<bool>,
    pub raw_text: RwSignal<String>,
    pub raw_error: RwSignal<Option<String>>,
    /// Why the schema cannot validate (the form still works).
    pub schema_error: RwSignal<Option<String>>,
    /// The variant a person picked, per `oneOf`/`anyOf` path.
    pub variants: RwSignal<HashMap<String, usize>>,
    pub violations: Memo<Vec<Violation>>,
    /// Text a field could not turn into the value its schema asks for (an integer beyond
    /// 64 bits), by path: shown in place of what validation says there.
    refused: RwSignal<Vec<Violation>>,
    checker: StoredValue<Option<Checker>, LocalStorage>,
    /// Bumped when a new schema is loaded, so validation runs again.
    generation: RwSignal<u64>,
    storage_key: StoredValue<Option<String>>,
}

impl ArgsState {
    pub fn new() -> Self {
        let value = RwSignal::new(Value::Object(Default::default()));
        let raw_mode = RwSignal::new(false);
        let raw_text = RwSignal::new(String::new());
        let generation = RwSignal::new(0u64);
        let checker: StoredValue<Option<Checker>, LocalStorage> = StoredValue::new_local(None);
        let refused = RwSignal::new(Vec::<Violation>::new());
        let violations = Memo::new(move |_| {
            generation.track();
            let candidate =
                if raw_mode.get() { serde_json::from_str::<Value>(&raw_text.get()).ok() } else { Some(value.get()) };
            let mut found = match candidate {
                Some(v) => checker.with_value(|c| c.as_ref().map(|c| c.check(&v)).unwrap_or_default()),
                None => Vec::new(),
            };
            if !raw_mode.get() {
                refused.with(|r| {
                    found.retain(|v| !r.iter().any(|x| x.path == v.path));
                    found.extend(r.iter().cloned());
                });
            }
            found
        });
        Self {
            schema: RwSignal::new(Arc::new(Value::Null)),
            field: RwSignal::new(None),
            value,
            raw_mode,
            raw_text,
            raw_error: RwSignal::new(None),
            schema_error: RwSignal::new(None),
            variants: RwSignal::new(HashMap::new()),
            violations,
            refused,
            checker,
            generation,
            storage_key: StoredValue::new(None),
        }
    }

    /// Shows `tool`'s form, starting from the arguments last used with it on `server`, or
    /// from the schema's defaults.
    pub fn load(self, tool: &Tool, server: &str) {
        let schema = tool.input_schema.clone();
        let field = form::build(&schema);
        match Checker::new(&schema) {
            Ok(c) => {
                self.checker.set_value(Some(c));
                self.schema_error.set(None);
            }
            Err(e) => {
                self.checker.set_value(None);
                self.schema_error.set(Some(e));
            }
        }
        let key = format!("{STORAGE_PREFIX}.{server}.{}", tool.name);
        let saved = crate::storage::local()
            .and_then(|s| s.get_item(&key).ok().flatten())
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .filter(Value::is_object);
        let start = saved.unwrap_or_else(|| form::initial(&field, &schema));
        self.storage_key.set_value(Some(key));
        self.variants.set(HashMap::new());
        self.raw_mode.set(false);
        self.raw_error.set(None);
        self.refused.set(Vec::new());
        self.value.set(start);
        self.schema.set(Arc::new(schema));
        self.field.set(Some(Arc::new(field)));
        self.generation.update(|g| *g += 1);
    }

    /// Back to the schema's defaults.
    pub fn reset(self) {
        let Some(field) = self.field.get_untracked() else { return };
        let start = form::initial(&field, &self.schema.get_untracked());
        self.variants.set(HashMap::new());
        self.raw_error.set(None);
        self.refused.set(Vec::new());
        if self.raw_mode.get_untracked() {
            self.raw_text.set(pretty(&start));
        }
        self.value.set(start);
    }

    /// The value at `path`, cloned.
    pub fn get(self, path: &str) -> Option<Value> {
        self.value.with(|v| pointer::get(v, path).cloned())
    }

    /// Sets the value at `path`, creating missing parent objects on the way.
    pub fn set(self, path: &str, new: Value) {
        self.value.update(|root| {
            if !pointer::set(root, path, new.clone()) {
                ensure_parents(root, path);
                pointer::set(root, path, new);
            }
        });
    }

    /// Sets a number field from its text: the number as typed, or the text itself with the
    /// reason it cannot be sent (validation then holds the call back).
    pub fn set_number(self, path: &str, text: &str, integer: bool) {
        let typed = form::number::parse(text, integer);
        let value = typed.value(text);
        let refusal = match typed {
            form::number::Typed::Refused(why) => Some(why),
            _ => None,
        };
        self.refused.update(|r| {
            r.retain(|v| v.path != path);
            if let Some(message) = refusal {
                r.push(Violation { path: path.to_owned(), message });
            }
        });
        self.set(path, value);
    }

    pub fn remove(self, path: &str) {
        // Paths after a removed item shift: what was refused there no longer applies.
        self.refused.set(Vec::new());
        self.value.update(|root| {
            pointer::remove(root, path);
        });
    }

    /// Switches between the form and the raw JSON editor. Text that is not a JSON object
    /// stays in the editor with an error; nothing is lost.
    pub fn toggle_raw(self) {
        if self.raw_mode.get_untracked() {
            match serde_json::from_str::<Value>(&self.raw_text.get_untracked()) {
                Ok(v @ Value::Object(_)) => {
                    self.raw_error.set(None);
                    self.refused.set(Vec::new());
                    self.variants.set(HashMap::new());
                    self.value.set(v);
                    self.raw_mode.set(false);
                }
                Ok(_) => self.raw_error.set(Some("the arguments must be a JSON object".into())),
                Err(e) => self.raw_error.set(Some(format!("not valid JSON: {e}"))),
            }
        } else {
            self.raw_text.set(pretty(&self.value.get_untracked()));
            self.raw_error.set(None);
            self.raw_mode.set(true);
        }
    }

    /// The arguments to send, or why there are none.
    pub fn current(self) -> Result<Value, String> {
        if self.raw_mode.get_untracked() {
            match serde_json::from_str::<Value>(&self.raw_text.get_untracked()) {
                Ok(v @ Value::Object(_)) => Ok(v),
                Ok(_) => Err("the arguments must be a JSON object".into()),
                Err(e) => Err(format!("not valid JSON: {e}")),
            }
        } else {
            Ok(self.value.get_untracked())
        }
    }

    /// Remembers the arguments just sent, for the next time this tool is selected.
    pub fn remember(self, arguments: &Value) {
        if let (Some(key), Some(s)) = (self.storage_key.get_value(), crate::storage::local()) {
            let _ = s.set_item(&key, &arguments.to_string());
        }
    }

    /// The messages of the violations at exactly `path`.
    pub fn errors_at(self, path: &str) -> Vec<String> {
        self.violations.with(|v| v.iter().filter(|x| x.path == path).map(|x| x.message.clone()).collect())
    }
}

impl Default for ArgsState {
    fn default() -> Self {
        Self::new()
    }
}

pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// Creates empty objects for the missing ancestors of `path`.
fn ensure_parents(root: &mut Value, path: &str) {
    let mut at = String::new();
    let tokens: Vec<&str> = path.split('/').skip(1).collect();
    for token in &tokens[..tokens.len().saturating_sub(1)] {
        let next = format!("{at}/{token}");
        if root.pointer(&next).is_none_or(|v| !v.is_object() && !v.is_array()) {
            pointer::set(root, &next, Value::Object(Default::default()));
        }
        at = next;
    }
}
