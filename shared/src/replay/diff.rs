//! A structural diff of two JSON values: what was added, removed or changed, each at its
//! JSON Pointer. Text that holds JSON on both sides is compared as JSON (the pointer goes
//! on inside it); ignore patterns (with `*` for any key or index) hide parts; the number of
//! changes reported is capped, so a hostile or huge pair costs bounded output.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Changes reported at most per comparison.
pub const MAX_CHANGES: usize = 200;

/// What happened at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only the live value has it.
    Added,
    /// Only the recorded value has it.
    Removed,
    /// Both have it, with different values.
    Changed,
}

/// One difference, at a JSON Pointer into the recorded (and live) value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub pointer: String,
    pub kind: ChangeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<Value>,
}

/// The differences of `recorded` and `live`, at most [`MAX_CHANGES`] of them (see
/// [`diff_bounded`] to know whether more were left out).
pub fn diff(recorded: &Value, live: &Value, ignore: &[String]) -> Vec<Change> {
    diff_bounded(recorded, live, ignore, MAX_CHANGES).0
}

/// The differences, at most `max`; true when there were more.
pub fn diff_bounded(recorded: &Value, live: &Value, ignore: &[String], max: usize) -> (Vec<Change>, bool) {
    let patterns: Vec<Vec<String>> = ignore.iter().filter_map(|p| crate::pointer::parse(p)).collect();
    let mut walk = Walk { patterns, path: Vec::new(), changes: Vec::new(), max, truncated: false };
    walk.compare(recorded, live);
    (walk.changes, walk.truncated)
}

struct Walk {
    patterns: Vec<Vec<String>>,
    path: Vec<String>,
    changes: Vec<Change>,
    max: usize,
    truncated: bool,
}

impl Walk {
    fn full(&mut self) -> bool {
        self.truncated || self.changes.len() >= self.max
    }

    fn ignored(&self) -> bool {
        self.patterns.iter().any(|p| {
            p.len() == self.path.len() && p.iter().zip(&self.path).all(|(want, seg)| want == "*" || want == seg)
        })
    }

    fn push(&mut self, kind: ChangeKind, recorded: Option<&Value>, live: Option<&Value>) {
        if self.changes.len() >= self.max {
            self.truncated = true;
            return;
        }
        self.changes.push(Change {
            pointer: crate::pointer::of_tokens(&self.path),
            kind,
            recorded: recorded.cloned(),
            live: live.cloned(),
        });
    }

    fn child(&mut self, segment: String, recorded: Option<&Value>, live: Option<&Value>) {
        if self.full() {
            self.truncated = true;
            return;
        }
        self.path.push(segment);
        if !self.ignored() {
            match (recorded, live) {
                (Some(r), Some(l)) => self.compare(r, l),
                (Some(r), None) => self.push(ChangeKind::Removed, Some(r), None),
                (None, Some(l)) => self.push(ChangeKind::Added, None, Some(l)),
                (None, None) => {}
            }
        }
        self.path.pop();
    }

    fn compare(&mut self, recorded: &Value, live: &Value) {
        if self.ignored() {
            return;
        }
        match (recorded, live) {
            (Value::Object(r), Value::Object(l)) => {
                for (k, rv) in r {
                    self.child(k.clone(), Some(rv), l.get(k));
                }
                for (k, lv) in l {
                    if !r.contains_key(k) {
                        self.child(k.clone(), None, Some(lv));
                    }
                }
            }
            (Value::Array(r), Value::Array(l)) => {
                for i in 0..r.len().max(l.len()) {
                    if self.full() {
                        self.truncated = true;
                        return;
                    }
                    self.child(i.to_string(), r.get(i), l.get(i));
                }
            }
            (Value::String(r), Value::String(l)) if r != l => match (json_in(r), json_in(l)) {
                (Some(rj), Some(lj)) => self.compare(&rj, &lj),
                _ => self.push(ChangeKind::Changed, Some(recorded), Some(live)),
            },
            (r, l) if r == l => {}
            (r, l) => self.push(ChangeKind::Changed, Some(r), Some(l)),
        }
    }
}

/// The JSON object or array a text holds, if it holds one (and nothing else).
fn json_in(text: &str) -> Option<Value> {
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(text).ok().filter(|v| v.is_object() || v.is_array())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pointers(changes: &[Change]) -> Vec<String> {
        changes.iter().map(|c| format!("{:?} {}", c.kind, c.pointer)).collect()
    }

    #[test]
    fn added_removed_changed_with_pointers() {
        let r = json!({"a": 1, "b": [1, 2, 3], "c": {"d": "x"}, "gone": true});
        let l = json!({"a": 2, "b": [1, 5], "c": {"d": "x", "e": null}, "new": 0});
        let c = diff(&r, &l, &[]);
        assert_eq!(
            pointers(&c),
            ["Changed /a", "Changed /b/1", "Removed /b/2", "Added /c/e", "Removed /gone", "Added /new"]
        );
        assert_eq!(c[0].recorded, Some(json!(1)));
        assert_eq!(c[0].live, Some(json!(2)));
        assert!(diff(&r, &r, &[]).is_empty());
    }

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let c = diff(&json!({"a/b": 1, "m~n": 1}), &json!({"a/b": 2, "m~n": 2}), &[]);
        assert_eq!(pointers(&c), ["Changed /a~1b", "Changed /m~0n"]);
        assert_eq!(crate::pointer::parse("/a~1b/m~0n"), Some(vec!["a/b".to_owned(), "m~n".to_owned()]));
        assert_eq!(crate::pointer::parse("nope"), None);
    }

    #[test]
    fn ignores_with_star_segments() {
        let r = json!({"items": [{"at": 1, "v": 1}, {"at": 2, "v": 2}], "meta": {"x": {"ts": 1}}});
        let l = json!({"items": [{"at": 9, "v": 1}, {"at": 8, "v": 3}], "meta": {"x": {"ts": 2}}});
        let ignore = vec!["/items/*/at".to_owned(), "/meta/*/ts".to_owned()];
        assert_eq!(pointers(&diff(&r, &l, &ignore)), ["Changed /items/1/v"]);
        // An escaped key in a pattern matches the key.
        let c = diff(&json!({"a/b": 1}), &json!({"a/b": 2}), &["/a~1b".to_owned()]);
        assert!(c.is_empty());
        // The whole value.
        assert!(diff(&json!(1), &json!(2), &[String::new()]).is_empty());
    }

    #[test]
    fn json_in_text_is_compared_as_json() {
        let r = json!({"content": [{"type": "text", "text": "{\"temperature\": 20, \"city\": \"Lisbon\"}"}]});
        let l = json!({"content": [{"type": "text", "text": "{\"city\":\"Lisbon\",\"temperature\":21}"}]});
        let c = diff(&r, &l, &[]);
        assert_eq!(pointers(&c), ["Changed /content/0/text/temperature"]);
        let ignored = diff(&r, &l, &["/content/*/text/temperature".to_owned()]);
        assert!(ignored.is_empty(), "{ignored:?}");
        // JSON on one side only: the text changed.
        let c = diff(&json!("[1]"), &json!("not json"), &[]);
        assert_eq!(pointers(&c), ["Changed "]);
    }

    #[test]
    fn huge_differences_are_capped() {
        let r = Value::Array((0..100_000).map(|i| json!(i)).collect());
        let l = Value::Array((0..100_000).map(|i| json!(i + 1)).collect());
        let (c, truncated) = diff_bounded(&r, &l, &[], MAX_CHANGES);
        assert_eq!(c.len(), MAX_CHANGES);
        assert!(truncated);
        let (c, truncated) = diff_bounded(&json!([1]), &json!([2]), &[], MAX_CHANGES);
        assert_eq!((c.len(), truncated), (1, false));
    }
}
