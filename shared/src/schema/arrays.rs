//! The keywords of arrays: `prefixItems`/`items` and draft 7's array-form `items` with
//! `additionalItems`, `contains` with `minContains`/`maxContains`, `minItems`, `maxItems`,
//! `uniqueItems` (JSON equality) and `unevaluatedItems`.

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, bad, count, leads};
use super::{Draft, Evaluated, NodeId, Run, show, types};
use crate::pointer;

pub(super) enum Keyword {
    /// One schema per leading item, then one for all the rest.
    Items {
        prefix: Vec<NodeId>,
        rest: Option<NodeId>,
    },
    Contains {
        schema: NodeId,
        min: Option<u64>,
        max: Option<u64>,
    },
    MinItems(u64),
    MaxItems(u64),
    Unique,
    Unevaluated(NodeId),
}

const ITEMS: &[&str] = &["prefixItems", "items", "additionalItems"];
const CONTAINS: &[&str] = &["contains", "minContains", "maxContains"];

pub(super) fn compile(cx: &mut Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    Ok(Some(match key {
        "prefixItems" | "items" | "additionalItems" if leads(map, key, ITEMS) => {
            let is_schema = |k: &str| map.get(k).is_some_and(|v| v.is_object() || v.is_boolean());
            if map.contains_key("prefixItems") && cx.draft >= Draft::D2020 {
                let prefix = cx.sub_list(map, loc, "prefixItems")?;
                let rest = if is_schema("items") { Some(cx.sub(map, loc, "items")?) } else { None };
                Keyword::Items { prefix, rest }
            } else if map.get("items").is_some_and(Value::is_array) {
                // Draft 7's tuple form, still accepted when `$schema` names a newer draft.
                let prefix = if map["items"].as_array().is_some_and(Vec::is_empty) {
                    Vec::new()
                } else {
                    cx.sub_list(map, loc, "items")?
                };
                let rest = if is_schema("additionalItems") { Some(cx.sub(map, loc, "additionalItems")?) } else { None };
                Keyword::Items { prefix, rest }
            } else if map.contains_key("items") {
                Keyword::Items { prefix: Vec::new(), rest: Some(cx.sub(map, loc, "items")?) }
            } else {
                // `additionalItems` means nothing without a tuple of `items`.
                return Ok(None);
            }
        }
        "contains" | "minContains" | "maxContains" if leads(map, key, CONTAINS) && cx.draft >= Draft::D6 => {
            if !map.contains_key("contains") {
                return Ok(None);
            }
            let bound = |k: &str| -> Compiled<Option<u64>> {
                if cx.draft >= Draft::D2019 && map.contains_key(k) { count(map, loc, k).map(Some) } else { Ok(None) }
            };
            let (min, max) = (bound("minContains")?, bound("maxContains")?);
            Keyword::Contains { schema: cx.sub(map, loc, "contains")?, min, max }
        }
        "minItems" => Keyword::MinItems(count(map, loc, key)?),
        "maxItems" => Keyword::MaxItems(count(map, loc, key)?),
        "uniqueItems" => match map[key] {
            Value::Bool(true) => Keyword::Unique,
            Value::Bool(false) => return Ok(None),
            _ => return Err(bad(loc, key, "must be a boolean")),
        },
        "unevaluatedItems" if cx.draft >= Draft::D2019 => Keyword::Unevaluated(cx.sub(map, loc, key)?),
        _ => return Ok(None),
    }))
}

impl Keyword {
    pub(super) fn check<'v>(
        &self,
        run: &mut Run,
        instance: &'v Value,
        items: &'v [Value],
        path: &str,
        seen: &mut Evaluated<'v>,
    ) {
        match self {
            Keyword::Items { prefix, rest } => {
                let mut unexpected = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if run.stopped() {
                        return;
                    }
                    let id = match prefix.get(i) {
                        Some(id) => *id,
                        None => match rest {
                            Some(id) if run.schema.is_false(*id) => {
                                unexpected.push(item);
                                continue;
                            }
                            Some(id) => *id,
                            None => break,
                        },
                    };
                    run.node(id, item, &pointer::index(path, i));
                    seen.items.insert(i);
                }
                if !unexpected.is_empty() {
                    let list: Vec<String> = unexpected.iter().map(|v| show(v)).collect();
                    let verb = if list.len() == 1 { "was" } else { "were" };
                    run.report(path, || {
                        format!("additional items are not allowed ({} {verb} unexpected)", list.join(", "))
                    });
                }
            }
            Keyword::Contains { schema, min, max } => {
                let mut matched = 0u64;
                for (i, item) in items.iter().enumerate() {
                    if run.probe(*schema, item, &pointer::index(path, i)).is_some() {
                        matched += 1;
                        seen.items.insert(i);
                    }
                }
                match (min, max) {
                    (None, _) if matched == 0 => {
                        run.report(path, || format!("none of {} are valid under the given schema", show(instance)));
                    }
                    (Some(min), _) if matched < *min => run.report(path, || {
                        format!("{} has fewer than {} matching the 'contains' schema", show(instance), items_word(*min))
                    }),
                    (_, Some(max)) if matched > *max => run.report(path, || {
                        format!("{} has more than {} matching the 'contains' schema", show(instance), items_word(*max))
                    }),
                    _ => {}
                }
            }
            Keyword::MinItems(min) => {
                if (items.len() as u64) < *min {
                    run.report(path, || format!("{} has less than {}", show(instance), items_word(*min)));
                }
            }
            Keyword::MaxItems(max) => {
                if items.len() as u64 > *max {
                    run.report(path, || format!("{} has more than {}", show(instance), items_word(*max)));
                }
            }
            Keyword::Unique => {
                let repeated = items.iter().enumerate().any(|(i, a)| items[..i].iter().any(|b| types::equal(a, b)));
                if repeated {
                    run.report(path, || format!("{} has non-unique elements", show(instance)));
                }
            }
            Keyword::Unevaluated(id) => {
                let mut unexpected = Vec::new();
                for (i, item) in items.iter().enumerate().filter(|(i, _)| !seen.items.contains(i)) {
                    if run.schema.is_false(*id) {
                        unexpected.push(show(item));
                    } else {
                        run.node(*id, item, &pointer::index(path, i));
                    }
                }
                if !unexpected.is_empty() {
                    let verb = if unexpected.len() == 1 { "was" } else { "were" };
                    run.report(path, || {
                        format!("unevaluated items are not allowed ({} {verb} unexpected)", unexpected.join(", "))
                    });
                }
                seen.items.extend(0..items.len());
            }
        }
    }
}

fn items_word(n: u64) -> String {
    super::count(n, "item", "items")
}
