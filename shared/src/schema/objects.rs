//! The keywords of objects: `properties` with `patternProperties` and `additionalProperties`,
//! `required`, `minProperties`/`maxProperties`, `propertyNames`, `dependentRequired`,
//! `dependentSchemas`, draft 7's `dependencies` (both forms) and `unevaluatedProperties`.

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, bad, child, count, leads, object, strings};
use super::pattern::Pattern;
use super::{Draft, Evaluated, NodeId, Run, show};
use crate::pointer;

pub(super) enum Keyword {
    /// `properties`, `patternProperties` and `additionalProperties`, which depend on each other.
    Properties {
        named: Vec<(String, NodeId)>,
        patterns: Vec<(Pattern, NodeId)>,
        additional: Option<NodeId>,
    },
    Required(Vec<String>),
    MinProperties(u64),
    MaxProperties(u64),
    PropertyNames(NodeId),
    /// Property → what it requires when present: other properties, or a schema.
    Dependent {
        required: Vec<(String, Vec<String>)>,
        schemas: Vec<(String, NodeId)>,
    },
    Unevaluated(NodeId),
}

const PROPERTIES: &[&str] = &["properties", "patternProperties", "additionalProperties"];

pub(super) fn compile(cx: &mut Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    Ok(Some(match key {
        "properties" | "patternProperties" | "additionalProperties" if leads(map, key, PROPERTIES) => {
            let named = if map.contains_key("properties") { cx.sub_map(map, loc, "properties")? } else { Vec::new() };
            let mut patterns = Vec::new();
            if map.contains_key("patternProperties") {
                let here = child(loc, "patternProperties");
                for (source, s) in object(map, loc, "patternProperties")? {
                    let p = Pattern::new(source)
                        .map_err(|e| bad(&here, source, &format!("is not a valid regular expression: {e}")))?;
                    patterns.push((p, cx.schema(s, &child(&here, source))?));
                }
            }
            let additional = if map.contains_key("additionalProperties") {
                Some(cx.sub(map, loc, "additionalProperties")?)
            } else {
                None
            };
            Keyword::Properties { named, patterns, additional }
        }
        "required" => Keyword::Required(strings(map, loc, key)?),
        "minProperties" => Keyword::MinProperties(count(map, loc, key)?),
        "maxProperties" => Keyword::MaxProperties(count(map, loc, key)?),
        "propertyNames" if cx.draft >= Draft::D6 => Keyword::PropertyNames(cx.sub(map, loc, key)?),
        "dependentRequired" if cx.draft >= Draft::D2019 => {
            let here = child(loc, key);
            let deps = object(map, loc, key)?;
            let required =
                deps.keys().map(|name| Ok((name.clone(), strings(deps, &here, name)?))).collect::<Compiled<_>>()?;
            Keyword::Dependent { required, schemas: Vec::new() }
        }
        "dependentSchemas" if cx.draft >= Draft::D2019 => {
            Keyword::Dependent { required: Vec::new(), schemas: cx.sub_map(map, loc, key)? }
        }
        // Accepted in every draft: 2019-09 split it in two, but schemas still write it.
        "dependencies" => {
            let here = child(loc, key);
            let (mut required, mut schemas) = (Vec::new(), Vec::new());
            let deps = object(map, loc, key)?;
            for (name, dep) in deps {
                if dep.is_array() {
                    required.push((name.clone(), strings(deps, &here, name)?));
                } else {
                    schemas.push((name.clone(), cx.schema(dep, &child(&here, name))?));
                }
            }
            Keyword::Dependent { required, schemas }
        }
        "unevaluatedProperties" if cx.draft >= Draft::D2019 => Keyword::Unevaluated(cx.sub(map, loc, key)?),
        _ => return Ok(None),
    }))
}

impl Keyword {
    pub(super) fn check<'v>(
        &self,
        run: &mut Run,
        instance: &'v Value,
        map: &'v Map<String, Value>,
        path: &str,
        seen: &mut Evaluated<'v>,
    ) {
        match self {
            Keyword::Properties { named, patterns, additional } => {
                for (name, id) in named {
                    if let Some((name, value)) = map.get_key_value(name) {
                        run.node(*id, value, &pointer::child(path, name));
                        seen.props.insert(name);
                    }
                }
                let mut unexpected = Vec::new();
                for (name, value) in map {
                    if run.stopped() {
                        return;
                    }
                    let mut matched = named.iter().any(|(n, _)| n == name);
                    for (p, id) in patterns {
                        if p.is_match(name) {
                            run.node(*id, value, &pointer::child(path, name));
                            matched = true;
                        }
                    }
                    match additional {
                        _ if matched => {}
                        Some(id) if run.schema.is_false(*id) => unexpected.push(name.as_str()),
                        Some(id) => {
                            run.node(*id, value, &pointer::child(path, name));
                        }
                        None => continue,
                    }
                    seen.props.insert(name);
                }
                if !unexpected.is_empty() {
                    run.report(path, || format!("additional properties are not allowed ({})", were(&unexpected)));
                }
            }
            Keyword::Required(names) => {
                for name in names.iter().filter(|n| !map.contains_key(*n)) {
                    run.report(&pointer::child(path, name), || format!("{name} is required"));
                }
            }
            Keyword::MinProperties(min) => {
                if (map.len() as u64) < *min {
                    run.report(path, || format!("{} has less than {}", show(instance), properties(*min)));
                }
            }
            Keyword::MaxProperties(max) => {
                if map.len() as u64 > *max {
                    run.report(path, || format!("{} has more than {}", show(instance), properties(*max)));
                }
            }
            Keyword::PropertyNames(id) => {
                // A name's violations belong to the object that holds it.
                for name in map.keys() {
                    run.node(*id, &Value::from(name.as_str()), path);
                }
            }
            Keyword::Dependent { required, schemas } => {
                for (_, needs) in required.iter().filter(|(n, _)| map.contains_key(n)) {
                    for need in needs.iter().filter(|n| !map.contains_key(*n)) {
                        run.report(&pointer::child(path, need), || format!("{need} is required"));
                    }
                }
                for (_, id) in schemas.iter().filter(|(n, _)| map.contains_key(n)) {
                    seen.merge(run.node(*id, instance, path));
                }
            }
            Keyword::Unevaluated(id) => {
                let mut unexpected = Vec::new();
                for (name, value) in map.iter().filter(|(n, _)| !seen.props.contains(n.as_str())) {
                    if run.schema.is_false(*id) {
                        unexpected.push(name.as_str());
                    } else {
                        run.node(*id, value, &pointer::child(path, name));
                    }
                }
                if !unexpected.is_empty() {
                    run.report(path, || format!("unevaluated properties are not allowed ({})", were(&unexpected)));
                }
                seen.props.extend(map.keys().map(String::as_str));
            }
        }
    }
}

/// `'a' was unexpected`, `'a', 'b' were unexpected`.
fn were(names: &[&str]) -> String {
    let list: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    format!("{} {} unexpected", list.join(", "), if names.len() == 1 { "was" } else { "were" })
}

fn properties(n: u64) -> String {
    super::count(n, "property", "properties")
}
