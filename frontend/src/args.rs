//! The arguments of the selected tool as signals over `shared::form::ArgsModel` (the value
//! the form edits, the raw JSON text, validation against the tool's `inputSchema` in the
//! browser), and the last arguments per server and tool in browser storage.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;
use shared::form::{self, ArgsModel, Checker, Field, Violation};
use shared::mcp::Tool;
use shared::pointer;

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
    pub raw_error: RwSignal<Option<form::RawArgsError>>,
    /// Why the schema cannot validate (the form still works).
    pub schema_error: RwSignal<Option<String>>,
    /// The variant a person picked, per `oneOf`/`anyOf` path.
    pub variants: RwSignal<HashMap<String, usize>>,
    /// Every problem validation finds (what holds a call back).
    pub violations: Memo<Vec<Violation>>,
    /// The problems shown: those of what the person edited, all after Call.
    pub shown: Memo<Vec<Violation>>,
    touched: RwSignal<Vec<String>>,
    revealed: RwSignal<bool>,
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
            // Only what validation reads, tracked.
            let model = ArgsModel {
                value: value.get(),
                raw_mode: raw_mode.get(),
                raw_text: raw_text.get(),
                refused: refused.get(),
                ..ArgsModel::default()
            };
            checker.with_value(|c| model.violations(c.as_ref()))
        });
        let touched = RwSignal::new(Vec::<String>::new());
        let revealed = RwSignal::new(false);
        let shown = Memo::new(move |_| {
            let model = ArgsModel {
                raw_mode: raw_mode.get(),
                touched: touched.get(),
                revealed: revealed.get(),
                ..ArgsModel::default()
            };
            violations.with(|v| model.shown(v))
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
            shown,
            touched,
            revealed,
            refused,
            checker,
            generation,
            storage_key: StoredValue::new(None),
        }
    }

    /// The model the signals hold, untracked.
    fn model(self) -> ArgsModel {
        ArgsModel {
            value: self.value.get_untracked(),
            raw_mode: self.raw_mode.get_untracked(),
            raw_text: self.raw_text.get_untracked(),
            raw_error: self.raw_error.get_untracked(),
            refused: self.refused.get_untracked(),
            variants: self.variants.get_untracked(),
            touched: self.touched.get_untracked(),
            revealed: self.revealed.get_untracked(),
        }
    }

    /// Runs `change` over the model the signals hold, then writes back (and so notifies)
    /// only the parts that changed.
    fn edit(self, change: impl FnOnce(&mut ArgsModel)) {
        let mut m = self.model();
        change(&mut m);
        write_back(self.value, m.value);
        write_back(self.raw_mode, m.raw_mode);
        write_back(self.raw_text, m.raw_text);
        write_back(self.raw_error, m.raw_error);
        write_back(self.refused, m.refused);
        write_back(self.variants, m.variants);
        write_back(self.touched, m.touched);
        write_back(self.revealed, m.revealed);
    }

    /// The person asked to send: every problem shows from now on.
    pub fn reveal(self) {
        self.edit(ArgsModel::reveal);
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
                self.schema_error.set(Some(e.to_string()));
            }
        }
        let key = format!("{STORAGE_PREFIX}.{server}.{}", tool.name);
        let saved = crate::storage::local().and_then(|s| s.get_item(&key).ok().flatten());
        self.storage_key.set_value(Some(key));
        self.edit(|m| m.load(&field, &schema, saved.as_deref()));
        self.schema.set(Arc::new(schema));
        self.field.set(Some(Arc::new(field)));
        self.generation.update(|g| *g += 1);
    }

    /// Shows the form of a schema that is no tool's (an elicitation's `requestedSchema`),
    /// starting from `start`; nothing is remembered in storage.
    pub fn load_schema(self, schema: &Value, start: Value) {
        let field = form::build(schema);
        let checker = Checker::new(schema);
        self.schema_error.set(checker.as_ref().err().map(ToString::to_string));
        self.checker.set_value(checker.ok());
        self.storage_key.set_value(None);
        self.edit(|m| m.load(&field, schema, Some(&start.to_string())));
        self.schema.set(Arc::new(schema.clone()));
        self.field.set(Some(Arc::new(field)));
        self.generation.update(|g| *g += 1);
    }

    /// Back to the schema's defaults.
    pub fn reset(self) {
        let Some(field) = self.field.get_untracked() else { return };
        let schema = self.schema.get_untracked();
        self.edit(|m| m.reset(&field, &schema));
    }

    /// The value at `path`, cloned.
    pub fn get(self, path: &str) -> Option<Value> {
        self.value.with(|v| pointer::get(v, path).cloned())
    }

    /// Sets the value at `path`, creating missing parent objects on the way.
    pub fn set(self, path: &str, new: Value) {
        self.edit(|m| m.set(path, new));
    }

    /// Sets a number field from its text: the number as typed, or the text itself with the
    /// reason it cannot be sent (validation then holds the call back).
    pub fn set_number(self, path: &str, text: &str, integer: bool) {
        self.edit(|m| m.set_number(path, text, integer));
    }

    /// Renames a key of the object at `parent`; what was refused or picked under it follows.
    pub fn rename_key(self, parent: &str, from: &str, to: &str) {
        self.edit(|m| {
            m.rename_key(parent, from, to);
        });
    }

    /// Swaps two items of the array at `parent`; what was refused or picked follows.
    pub fn move_item(self, parent: &str, a: usize, b: usize) {
        self.edit(|m| {
            m.move_item(parent, a, b);
        });
    }

    /// Adds an unused key to the object at `parent`, starting from `field_of` its key.
    pub fn add_key(self, parent: &str, field_of: impl FnOnce(&str) -> Field) {
        let schema = self.schema.get_untracked();
        self.edit(|m| {
            m.add_key(parent, &schema, field_of);
        });
    }

    /// Appends an item starting from `field` to the array at `parent`.
    pub fn add_item(self, parent: &str, field: &Field) {
        let schema = self.schema.get_untracked();
        self.edit(|m| m.add_item(parent, field, &schema));
    }

    /// Picks variant `i` at `path`, starting it from `field`.
    pub fn pick_variant(self, path: &str, i: usize, field: &Field) {
        let schema = self.schema.get_untracked();
        self.edit(|m| m.pick_variant(path, i, field, &schema));
    }

    pub fn remove(self, path: &str) {
        self.edit(|m| m.remove(path));
    }

    /// Switches between the form and the raw JSON editor. Text that is not a JSON object
    /// stays in the editor with an error; nothing is lost.
    pub fn toggle_raw(self) {
        self.edit(ArgsModel::toggle_raw);
    }

    /// The arguments to send, or why there are none.
    pub fn current(self) -> Result<Value, form::RawArgsError> {
        self.model().current()
    }

    /// Remembers the arguments just sent, for the next time this tool is selected.
    pub fn remember(self, arguments: &Value) {
        if let (Some(key), Some(s)) = (self.storage_key.get_value(), crate::storage::local()) {
            let _ = s.set_item(&key, &arguments.to_string());
        }
    }

    /// The messages of the violations shown at exactly `path`.
    pub fn errors_at(self, path: &str) -> Vec<String> {
        self.shown.with(|v| v.iter().filter(|x| x.path == path).map(|x| x.message.clone()).collect())
    }
}

impl Default for ArgsState {
    fn default() -> Self {
        Self::new()
    }
}

/// Sets `signal` to `new` when that changes it, so an edit notifies only what it changed.
fn write_back<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, new: T) {
    signal.maybe_update(|old| {
        let changed = *old != new;
        if changed {
            *old = new;
        }
        changed
    });
}
