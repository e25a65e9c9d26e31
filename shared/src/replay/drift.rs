//! Tool drift: how a server's live tool list differs from a recorded one, each change
//! classified. Breaking: a tool removed, an argument removed or newly required, an
//! argument's type narrowed (or its allowed values cut), an output field removed or its
//! type changed. Compatible: a tool added, an optional argument added, a type widened, an
//! output field added, text (title, description) or annotations changed.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::mcp::Tool;

/// How much a change matters to a caller written against the recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriftClass {
    Breaking,
    Compatible,
}

/// One change of one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drift {
    pub tool: String,
    pub class: DriftClass,
    pub what: String,
}

/// Every change from `recorded` to `live`, breaking ones first, then by tool.
pub fn drift(recorded: &[Tool], live: &[Tool]) -> Vec<Drift> {
    // By name, the first definition of a name counting (a list may repeat one).
    let by_name = |tools: &[Tool]| {
        let mut map: HashMap<String, usize> = HashMap::new();
        for (i, t) in tools.iter().enumerate() {
            map.entry(t.name.clone()).or_insert(i);
        }
        map
    };
    let (rmap, lmap) = (by_name(recorded), by_name(live));
    let mut out = Vec::new();
    for (_, r) in recorded.iter().enumerate().filter(|(i, r)| rmap.get(&r.name) == Some(i)) {
        match lmap.get(&r.name) {
            None => out.push(Drift { tool: r.name.clone(), class: DriftClass::Breaking, what: "tool removed".into() }),
            Some(&l) => tool_drift(r, &live[l], &mut out),
        }
    }
    for (i, l) in live.iter().enumerate() {
        if lmap.get(&l.name) == Some(&i) && !rmap.contains_key(&l.name) {
            out.push(Drift { tool: l.name.clone(), class: DriftClass::Compatible, what: "tool added".into() });
        }
    }
    out.sort_by(|a, b| a.class.cmp(&b.class).then_with(|| a.tool.cmp(&b.tool)));
    out
}

fn tool_drift(r: &Tool, l: &Tool, out: &mut Vec<Drift>) {
    let mut say = |class, what: String| out.push(Drift { tool: r.name.clone(), class, what });
    if r.title != l.title {
        say(DriftClass::Compatible, "title changed".into());
    }
    if r.description != l.description {
        say(DriftClass::Compatible, "description changed".into());
    }
    if r.annotations != l.annotations {
        say(DriftClass::Compatible, "annotations changed".into());
    }
    super::view_drift::tool_view_drift(r, l, &mut say);
    input_drift(&r.input_schema, &l.input_schema, &mut say);
    match (&r.output_schema, &l.output_schema) {
        (Some(_), None) => say(DriftClass::Breaking, "output schema removed".into()),
        (None, Some(_)) => say(DriftClass::Compatible, "output schema added".into()),
        (Some(ro), Some(lo)) => output_drift(ro, lo, &mut say),
        (None, None) => {}
    }
}

fn input_drift(r: &Value, l: &Value, say: &mut impl FnMut(DriftClass, String)) {
    let (rp, lp) = (properties(r), properties(l));
    let (rreq, lreq) = (required(r), required(l));
    for (name, rs) in &rp {
        match lp.get(name) {
            None => say(DriftClass::Breaking, format!("argument {name:?} removed")),
            Some(ls) => {
                type_drift(&format!("argument {name:?}"), rs, ls, true, say);
                text_drift(&format!("argument {name:?}"), rs, ls, say);
            }
        }
    }
    for (name, _) in &lp {
        if !rp.contains_key(name) {
            if lreq.contains(name.as_str()) {
                say(DriftClass::Breaking, format!("new required argument {name:?}"));
            } else {
                say(DriftClass::Compatible, format!("optional argument {name:?} added"));
            }
        }
    }
    for name in lreq.difference(&rreq) {
        if rp.contains_key(*name) {
            say(DriftClass::Breaking, format!("argument {name:?} is now required"));
        }
    }
    for name in rreq.difference(&lreq) {
        if lp.contains_key(*name) {
            say(DriftClass::Compatible, format!("argument {name:?} is now optional"));
        }
    }
    type_drift("the arguments", r, l, true, say);
}

fn output_drift(r: &Value, l: &Value, say: &mut impl FnMut(DriftClass, String)) {
    let (rp, lp) = (properties(r), properties(l));
    for (name, rs) in &rp {
        match lp.get(name) {
            None => say(DriftClass::Breaking, format!("output field {name:?} removed")),
            Some(ls) => type_drift(&format!("output field {name:?}"), rs, ls, false, say),
        }
    }
    for (name, _) in &lp {
        if !rp.contains_key(name) {
            say(DriftClass::Compatible, format!("output field {name:?} added"));
        }
    }
}

/// Types, and `enum` values of an argument. An input may widen but not narrow; an output
/// may narrow but not widen.
fn type_drift(what: &str, r: &Value, l: &Value, input: bool, say: &mut impl FnMut(DriftClass, String)) {
    let (rt, lt) = (types(r), types(l));
    if rt != lt {
        let narrowed = !subset(&rt, &lt);
        let widened = !subset(&lt, &rt);
        let breaking = if input { narrowed } else { widened };
        let how = match (narrowed, widened) {
            (true, false) => "narrowed",
            (false, true) => "widened",
            _ => "changed",
        };
        let class = if breaking { DriftClass::Breaking } else { DriftClass::Compatible };
        say(class, format!("{what}: type {how} ({} → {})", names(&rt), names(&lt)));
    }
    if input
        && let (Some(re), Some(le)) = (r.get("enum").and_then(Value::as_array), l.get("enum").and_then(Value::as_array))
    {
        if re.iter().any(|v| !le.contains(v)) {
            say(DriftClass::Breaking, format!("{what}: allowed values removed"));
        } else if le.iter().any(|v| !re.contains(v)) {
            say(DriftClass::Compatible, format!("{what}: allowed values added"));
        }
    }
}

fn text_drift(what: &str, r: &Value, l: &Value, say: &mut impl FnMut(DriftClass, String)) {
    for key in ["description", "title"] {
        if r.get(key) != l.get(key) {
            say(DriftClass::Compatible, format!("{what}: {key} changed"));
        }
    }
}

fn properties(schema: &Value) -> Map<String, Value> {
    schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}

fn required(schema: &Value) -> BTreeSet<&str> {
    schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect()
}

/// The JSON types a schema allows; `None` when it says nothing (any type).
fn types(schema: &Value) -> Option<BTreeSet<String>> {
    match schema.get("type")? {
        Value::String(t) => Some(BTreeSet::from([t.clone()])),
        Value::Array(ts) => Some(ts.iter().filter_map(Value::as_str).map(str::to_owned).collect()),
        _ => None,
    }
}

/// Whether every value of type set `a` is allowed by `b` (`None` allows everything).
fn subset(a: &Option<BTreeSet<String>>, b: &Option<BTreeSet<String>>) -> bool {
    match (a, b) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(a), Some(b)) => a.iter().all(|t| b.contains(t) || (t == "integer" && b.contains("number"))),
    }
}

fn names(t: &Option<BTreeSet<String>>) -> String {
    match t {
        None => "any".into(),
        Some(t) => t.iter().cloned().collect::<Vec<_>>().join("|"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(v: Value) -> Tool {
        serde_json::from_value(v).expect("a tool")
    }

    fn lines(d: &[Drift]) -> Vec<String> {
        d.iter().map(|d| format!("{:?} {}: {}", d.class, d.tool, d.what)).collect()
    }

    #[test]
    fn tools_removed_and_added() {
        let a = tool(json!({"name": "a", "inputSchema": {"type": "object"}}));
        let b = tool(json!({"name": "b", "inputSchema": {"type": "object"}}));
        assert_eq!(
            lines(&drift(std::slice::from_ref(&a), &[b])),
            ["Breaking a: tool removed", "Compatible b: tool added"]
        );
        assert!(drift(std::slice::from_ref(&a), std::slice::from_ref(&a)).is_empty());
    }

    #[test]
    fn arguments_required_types_and_text() {
        let r = tool(json!({"name": "t", "description": "old", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "number"}, "s": {"type": ["string", "null"]}, "gone": {},
                "e": {"enum": ["a", "b"]}, "w": {"type": "integer"}},
            "required": ["n"]}}));
        let l = tool(json!({"name": "t", "description": "new", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": "string"}, "e": {"enum": ["a"]},
                "w": {"type": "number"}, "req": {"type": "string"}, "opt": {"type": "string", "description": "x"}},
            "required": ["n", "req", "s"]}}));
        assert_eq!(
            lines(&drift(&[r], &[l])),
            [
                "Breaking t: argument \"n\": type narrowed (number → integer)",
                "Breaking t: argument \"s\": type narrowed (null|string → string)",
                "Breaking t: argument \"gone\" removed",
                "Breaking t: argument \"e\": allowed values removed",
                "Breaking t: new required argument \"req\"",
                "Breaking t: argument \"s\" is now required",
                "Compatible t: description changed",
                "Compatible t: argument \"w\": type widened (integer → number)",
                "Compatible t: optional argument \"opt\" added",
            ]
        );
    }

    #[test]
    fn output_fields() {
        let r = tool(json!({"name": "t", "inputSchema": {}, "outputSchema": {"type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}}));
        let l = tool(json!({"name": "t", "inputSchema": {}, "outputSchema": {"type": "object",
            "properties": {"b": {"type": "number"}, "c": {}}}}));
        assert_eq!(
            lines(&drift(std::slice::from_ref(&r), &[l])),
            [
                "Breaking t: output field \"a\" removed",
                "Breaking t: output field \"b\": type widened (integer → number)",
                "Compatible t: output field \"c\" added",
            ]
        );
        let mut none = r.clone();
        none.output_schema = None;
        assert_eq!(lines(&drift(&[r], &[none])), ["Breaking t: output schema removed"]);
    }
}
