//! The arguments being edited, as a plain model: the value the form edits, the raw JSON
//! editor and switching between the two, numbers refused as typed, and what validation
//! says of it all. The page holds each part in a signal and runs these methods over them.

use std::collections::HashMap;

use serde_json::Value;

use super::number::{self, Typed};
use super::{Checker, Field, Violation, initial};
use crate::pointer;

/// Everything about the arguments of one tool being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgsModel {
    /// The arguments, as the form shows them.
    pub value: Value,
    /// Whether the raw JSON editor is shown instead of the form.
    pub raw_mode: bool,
    /// The raw editor's text.
    pub raw_text: String,
    /// Why the raw text cannot become the arguments (shown until the next switch or call).
    pub raw_error: Option<RawArgsError>,
    /// Text a field could not turn into the value its schema asks for (an integer beyond
    /// 64 bits), by path: shown in place of what validation says there.
    pub refused: Vec<Violation>,
    /// The variant a person picked, per `oneOf`/`anyOf` path.
    pub variants: HashMap<String, usize>,
    /// The paths a person edited since the form was loaded: what validation says there is
    /// shown, the rest waits (see [`ArgsModel::shown`]).
    pub touched: Vec<String>,
    /// The person pressed Call: every problem is shown.
    pub revealed: bool,
}

impl Default for ArgsModel {
    fn default() -> Self {
        ArgsModel {
            value: Value::Object(Default::default()),
            raw_mode: false,
            raw_text: String::new(),
            raw_error: None,
            refused: Vec::new(),
            variants: HashMap::new(),
            touched: Vec::new(),
            revealed: false,
        }
    }
}

impl ArgsModel {
    /// A newly selected tool's form: the arguments `saved` last time (when they are a JSON
    /// object), else the schema's defaults.
    pub fn load(&mut self, field: &Field, schema: &Value, saved: Option<&str>) {
        let saved = saved.and_then(|t| serde_json::from_str::<Value>(t).ok()).filter(Value::is_object);
        self.variants.clear();
        self.raw_mode = false;
        self.raw_error = None;
        self.refused.clear();
        self.untouch();
        self.value = saved.unwrap_or_else(|| initial(field, schema));
    }

    /// Nothing edited yet: the form is quiet again.
    fn untouch(&mut self) {
        self.touched.clear();
        self.revealed = false;
    }

    /// A person edited the value at `path`.
    fn touch(&mut self, path: &str) {
        if !self.touched.iter().any(|t| t == path) {
            self.touched.push(path.to_owned());
        }
    }

    /// The person asked to call: every problem is shown from now on.
    pub fn reveal(&mut self) {
        self.revealed = true;
    }

    /// What of `violations` to show: nothing scolds a person before they edited a field or
    /// pressed Call. A problem shows once its value, something inside it or something around
    /// it was edited; all show after Call, and in the raw editor (its text is the person's).
    pub fn shown(&self, violations: &[Violation]) -> Vec<Violation> {
        if self.revealed || self.raw_mode {
            return violations.to_vec();
        }
        let related = |a: &str, b: &str| rebase(a, b, b).is_some() || rebase(b, a, a).is_some();
        violations.iter().filter(|v| self.touched.iter().any(|t| related(&v.path, t))).cloned().collect()
    }

    /// Back to the schema's defaults, in whichever editor is shown.
    pub fn reset(&mut self, field: &Field, schema: &Value) {
        let start = initial(field, schema);
        self.variants.clear();
        self.raw_error = None;
        self.refused.clear();
        self.untouch();
        if self.raw_mode {
            self.raw_text = pretty(&start);
        }
        self.value = start;
    }

    /// Sets the value at `path`, creating missing parent objects on the way.
    pub fn set(&mut self, path: &str, new: Value) {
        self.touch(path);
        if !pointer::set(&mut self.value, path, new.clone()) {
            ensure_parents(&mut self.value, path);
            pointer::set(&mut self.value, path, new);
        }
    }

    /// Sets a number field from its text: the number as typed, or the text itself with the
    /// reason it cannot be sent (validation then holds the call back).
    pub fn set_number(&mut self, path: &str, text: &str, integer: bool) {
        let typed = number::parse(text, integer);
        let value = typed.value(text);
        self.refused.retain(|v| v.path != path);
        if let Typed::Refused(message) = typed {
            self.refused.push(Violation { path: path.to_owned(), message });
        }
        self.set(path, value);
    }

    /// Renames the key `from` of the object at `parent` to `to` (false when `to` is taken
    /// or `from` is gone); a number refused and a variant picked under it move with it.
    pub fn rename_key(&mut self, parent: &str, from: &str, to: &str) -> bool {
        if !pointer::rename(&mut self.value, parent, from, to) {
            return false;
        }
        let (old, new) = (pointer::child(parent, from), pointer::child(parent, to));
        self.repath(|p| rebase(p, &old, &new));
        self.touch(&new);
        true
    }

    /// Swaps items `a` and `b` of the array at `parent` (the arrows move an item by one);
    /// what was refused or picked in each goes with it.
    pub fn move_item(&mut self, parent: &str, a: usize, b: usize) -> bool {
        if !pointer::swap(&mut self.value, parent, a, b) {
            return false;
        }
        let (at_a, at_b) = (pointer::index(parent, a), pointer::index(parent, b));
        self.repath(|p| rebase(p, &at_a, &at_b).or_else(|| rebase(p, &at_b, &at_a)));
        self.touch(parent);
        true
    }

    /// Adds a key not used yet (`key1`, `key2`, …) to the object at `parent`, holding the
    /// initial value of the field `field_of` gives for it; returns the key.
    pub fn add_key(&mut self, parent: &str, schema: &Value, field_of: impl FnOnce(&str) -> Field) -> String {
        let key = super::unused_key(pointer::get(&self.value, parent));
        let start = initial(&field_of(&key), schema);
        self.set(&pointer::child(parent, &key), start);
        key
    }

    /// Appends an item holding the initial value of `field` to the array at `parent` (an
    /// empty one is made where there is none).
    pub fn add_item(&mut self, parent: &str, field: &Field, schema: &Value) {
        let Some(len) = pointer::get(&self.value, parent).and_then(Value::as_array).map(Vec::len) else {
            return self.set(parent, Value::Array(vec![initial(field, schema)]));
        };
        self.set(&pointer::index(parent, len), initial(field, schema));
    }

    /// Picks variant `i` of the `oneOf`/`anyOf` at `path`, starting it from `field`.
    pub fn pick_variant(&mut self, path: &str, i: usize, field: &Field, schema: &Value) {
        self.variants.insert(path.to_owned(), i);
        self.set(path, initial(field, schema));
    }

    /// Moves the paths of refusals and picked variants by `map` (`None` leaves one be).
    fn repath(&mut self, map: impl Fn(&str) -> Option<String>) {
        for v in &mut self.refused {
            if let Some(p) = map(&v.path) {
                v.path = p;
            }
        }
        self.variants = self.variants.drain().map(|(k, i)| (map(&k).unwrap_or(k), i)).collect();
    }

    /// Removes the value at `path`.
    pub fn remove(&mut self, path: &str) {
        // Paths after a removed item shift: what was refused there no longer applies.
        self.refused.clear();
        self.touch(path);
        pointer::remove(&mut self.value, path);
    }

    /// Switches between the form and the raw JSON editor. Text that is not a JSON object
    /// stays in the editor with an error; nothing is lost.
    pub fn toggle_raw(&mut self) {
        if !self.raw_mode {
            self.raw_text = pretty(&self.value);
            self.raw_error = None;
            self.raw_mode = true;
            return;
        }
        match read_raw(&self.raw_text) {
            Ok(v) => {
                self.raw_error = None;
                self.refused.clear();
                self.variants.clear();
                self.value = v;
                self.raw_mode = false;
            }
            Err(e) => self.raw_error = Some(e),
        }
    }

    /// The arguments to send, or why there are none.
    pub fn current(&self) -> Result<Value, RawArgsError> {
        if self.raw_mode { read_raw(&self.raw_text) } else { Ok(self.value.clone()) }
    }

    /// What is wrong with the arguments shown: validation's violations (none without a
    /// `checker`, or for raw text that is not JSON), and in the form a refused number in
    /// place of what validation says at its path.
    pub fn violations(&self, checker: Option<&Checker>) -> Vec<Violation> {
        let parsed;
        let candidate = if self.raw_mode {
            parsed = serde_json::from_str::<Value>(&self.raw_text).ok();
            parsed.as_ref()
        } else {
            Some(&self.value)
        };
        let mut found = match (checker, candidate) {
            (Some(c), Some(v)) => c.check(v),
            _ => Vec::new(),
        };
        if !self.raw_mode {
            found.retain(|v| !self.refused.iter().any(|r| r.path == v.path));
            found.extend(self.refused.iter().cloned());
        }
        found
    }
}

/// The raw editor's text as arguments.
fn read_raw(text: &str) -> Result<Value, RawArgsError> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(RawArgsError::NotAnObject),
        Err(e) => Err(RawArgsError::NotJson(e.to_string())),
    }
}

/// Why the raw editor's text cannot become the arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RawArgsError {
    #[error("not valid JSON: {0}")]
    NotJson(String),
    #[error("the arguments must be a JSON object")]
    NotAnObject,
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// `path` moved from under `from` to under `to`; `None` when it is not under `from`.
fn rebase(path: &str, from: &str, to: &str) -> Option<String> {
    let rest = path.strip_prefix(from)?;
    (rest.is_empty() || rest.starts_with('/')).then(|| format!("{to}{rest}"))
}

/// Creates empty objects for the missing ancestors of `path` (and in place of ancestors
/// that are neither objects nor arrays).
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

#[cfg(test)]
mod tests;
