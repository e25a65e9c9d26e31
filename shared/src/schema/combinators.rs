//! `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. Alternatives are probed quietly:
//! a failed `anyOf` is one violation at the instance, not every branch's complaints.

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, leads};
use super::{Draft, Evaluated, NodeId, Run, show};

pub(super) enum Keyword {
    AllOf(Vec<NodeId>),
    AnyOf(Vec<NodeId>),
    OneOf(Vec<NodeId>),
    /// The subschema, and how it is shown in the message.
    Not(NodeId, String),
    If {
        condition: NodeId,
        then: Option<NodeId>,
        otherwise: Option<NodeId>,
    },
}

const CONDITION: &[&str] = &["if", "then", "else"];

pub(super) fn compile(cx: &mut Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    Ok(Some(match key {
        "allOf" => Keyword::AllOf(cx.sub_list(map, loc, key)?),
        "anyOf" => Keyword::AnyOf(cx.sub_list(map, loc, key)?),
        "oneOf" => Keyword::OneOf(cx.sub_list(map, loc, key)?),
        "not" => Keyword::Not(cx.sub(map, loc, key)?, show(&map[key])),
        "if" | "then" | "else" if cx.draft >= Draft::D7 && leads(map, key, CONDITION) => {
            if !map.contains_key("if") {
                // `then` and `else` mean nothing without `if`.
                return Ok(None);
            }
            let mut branch = |k: &str| if map.contains_key(k) { cx.sub(map, loc, k).map(Some) } else { Ok(None) };
            let (then, otherwise) = (branch("then")?, branch("else")?);
            Keyword::If { condition: cx.sub(map, loc, "if")?, then, otherwise }
        }
        _ => return Ok(None),
    }))
}

impl Keyword {
    pub(super) fn check<'v>(&self, run: &mut Run, instance: &'v Value, path: &str, seen: &mut Evaluated<'v>) {
        match self {
            Keyword::AllOf(parts) => {
                for id in parts {
                    seen.merge(run.node(*id, instance, path));
                }
            }
            Keyword::AnyOf(options) => {
                // Every valid option counts for `unevaluated*`, so all are tried.
                let mut any = false;
                for id in options {
                    if let Some(s) = run.probe(*id, instance, path) {
                        seen.merge(s);
                        any = true;
                    }
                }
                if !any {
                    run.report(path, || not_any(instance, "anyOf"));
                }
            }
            Keyword::OneOf(options) => {
                let mut valid = Vec::new();
                for (i, id) in options.iter().enumerate() {
                    if let Some(s) = run.probe(*id, instance, path) {
                        valid.push((i, s));
                    }
                }
                match valid.len() {
                    0 => run.report(path, || not_any(instance, "oneOf")),
                    1 => seen.merge(valid.pop().map(|(_, s)| s).unwrap_or_default()),
                    _ => {
                        let which: Vec<String> = valid.iter().map(|(i, _)| (i + 1).to_string()).collect();
                        run.report(path, || {
                            format!(
                                "{} is valid under more than one of the schemas listed in the 'oneOf' keyword (#{})",
                                show(instance),
                                which.join(", #")
                            )
                        });
                    }
                }
            }
            Keyword::Not(id, shown) => {
                if run.probe(*id, instance, path).is_some() {
                    run.report(path, || format!("{} should not be valid under {shown}", show(instance)));
                }
            }
            Keyword::If { condition, then, otherwise } => {
                let branch = match run.probe(*condition, instance, path) {
                    Some(s) => {
                        seen.merge(s);
                        then
                    }
                    None => otherwise,
                };
                if let Some(id) = branch {
                    seen.merge(run.node(*id, instance, path));
                }
            }
        }
    }
}

fn not_any(instance: &Value, keyword: &str) -> String {
    format!("{} is not valid under any of the schemas listed in the '{keyword}' keyword", show(instance))
}
