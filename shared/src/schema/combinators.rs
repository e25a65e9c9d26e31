//! `allOf`, `anyOf`, `oneOf`, `not` and `if`/`then`/`else`. Alternatives are probed quietly:
//! a failed `anyOf` is not every branch's complaints. Where one branch is plainly the one
//! meant (its discriminating `const` matches, or it alone comes closest), its own problems
//! are told, named after it (`address is required for Courier`), at the fields that decide
//! them; otherwise one violation at the instance.

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, leads};
use super::{Draft, Evaluated, NodeId, Run, show};

pub(super) enum Keyword {
    AllOf(Vec<NodeId>),
    AnyOf(Vec<NodeId>, Vec<Branch>),
    OneOf(Vec<NodeId>, Vec<Branch>),
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
        "anyOf" => Keyword::AnyOf(cx.sub_list(map, loc, key)?, branches(&map[key])),
        "oneOf" => Keyword::OneOf(cx.sub_list(map, loc, key)?, branches(&map[key])),
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
            Keyword::AnyOf(options, branches) => {
                // Every valid option counts for `unevaluated*`, so all are tried.
                let mut any = false;
                for id in options {
                    if let Some(s) = run.probe(*id, instance, path) {
                        seen.merge(s);
                        any = true;
                    }
                }
                if !any {
                    explain(run, options, branches, instance, path, "anyOf");
                }
            }
            Keyword::OneOf(options, branches) => {
                let mut valid = Vec::new();
                for (i, id) in options.iter().enumerate() {
                    if let Some(s) = run.probe(*id, instance, path) {
                        valid.push((i, s));
                    }
                }
                match valid.len() {
                    0 => explain(run, options, branches, instance, path, "oneOf"),
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

/// What names a branch of `anyOf`/`oneOf` in a message, and how an instance says it means it.
pub(super) struct Branch {
    /// Its `title`, else the value of its discriminating property.
    label: Option<String>,
    /// A property whose `const` (or one-value `enum`) tells this branch from the others.
    discriminator: Option<(String, Value)>,
}

fn branches(list: &Value) -> Vec<Branch> {
    let list = list.as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .map(|branch| {
            let discriminator = branch["properties"].as_object().and_then(|props| {
                props.iter().find_map(|(name, p)| {
                    let value = p.get("const").or_else(|| p["enum"].as_array().filter(|e| e.len() == 1)?.first())?;
                    Some((name.clone(), value.clone()))
                })
            });
            let label = branch["title"].as_str().map(str::to_owned).or_else(|| {
                discriminator.as_ref().map(|(_, v)| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
            });
            Branch { label, discriminator }
        })
        .collect()
}

/// No branch holds: the problems of the branch the instance plainly means, else one
/// violation at the instance. The branch meant is the one whose discriminator the
/// instance carries, else the one strictly closest: fewest refusals of the value itself,
/// then fewest problems.
fn explain(run: &mut Run, options: &[NodeId], branches: &[Branch], instance: &Value, path: &str, keyword: &str) {
    if run.quiet {
        return run.report(path, String::new);
    }
    if run.explaining {
        return run.report(path, || not_any(instance, keyword));
    }
    let carried = |b: &Branch| b.discriminator.as_ref().is_some_and(|(k, v)| instance.get(k) == Some(v));
    let meant: Vec<usize> = (0..options.len()).filter(|&i| branches.get(i).is_some_and(carried)).collect();
    let found: Vec<Vec<super::Violation>> = match meant.as_slice() {
        [one] => vec![run.explain(options[*one], instance, path)],
        _ => options.iter().map(|id| run.explain(*id, instance, path)).collect(),
    };
    let chosen = match meant.as_slice() {
        [one] => Some((*one, &found[0])),
        _ => {
            // A branch that refuses the value itself (its type, say) fits worse than one
            // that only finds fault inside it.
            let score = |f: &Vec<super::Violation>| (f.iter().filter(|v| v.path == path).count(), f.len());
            let fewest = found.iter().map(score).min().unwrap_or_default();
            let mut closest = found.iter().enumerate().filter(|(_, f)| score(f) == fewest);
            match (closest.next(), closest.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        }
    };
    match chosen {
        Some((i, problems)) if !problems.is_empty() => {
            let suffix =
                branches.get(i).and_then(|b| b.label.as_ref()).map(|l| format!(" for {l}")).unwrap_or_default();
            for p in problems.clone() {
                run.report(&p.path, || format!("{}{suffix}", p.message));
            }
        }
        _ => run.report(path, || not_any(instance, keyword)),
    }
}

fn not_any(instance: &Value, keyword: &str) -> String {
    format!("{} is not valid under any of the schemas listed in the '{keyword}' keyword", show(instance))
}
