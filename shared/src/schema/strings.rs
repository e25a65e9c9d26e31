//! `minLength` and `maxLength` (in Unicode code points, as the spec counts), `pattern` (not
//! anchored, ECMA-262) and `format` (asserted, not only annotated; unknown formats pass).

use serde_json::{Map, Value};

use super::compile::{Compiled, Compiler, bad, count};
use super::format::Format;
use super::pattern::Pattern;
use super::{Run, show};

pub(super) enum Keyword {
    MinLength(u64),
    MaxLength(u64),
    Pattern(Pattern),
    Format(Format),
}

pub(super) fn compile(_: &Compiler, key: &str, map: &Map<String, Value>, loc: &str) -> Compiled<Option<Keyword>> {
    Ok(Some(match key {
        "minLength" => Keyword::MinLength(count(map, loc, key)?),
        "maxLength" => Keyword::MaxLength(count(map, loc, key)?),
        "pattern" => Keyword::Pattern(pattern(map, loc, key)?),
        "format" => match map[key].as_str() {
            Some(name) => match Format::named(name) {
                Some(f) => Keyword::Format(f),
                None => return Ok(None),
            },
            None => return Err(bad(loc, key, "must be a string")),
        },
        _ => return Ok(None),
    }))
}

/// Compiles `map[key]` as a pattern.
pub(super) fn pattern(map: &Map<String, Value>, loc: &str, key: &str) -> Compiled<Pattern> {
    let Some(source) = map[key].as_str() else { return Err(bad(loc, key, "must be a string")) };
    Pattern::new(source).map_err(|e| bad(loc, key, &format!("is not a valid regular expression: {e}")))
}

impl Keyword {
    pub(super) fn check(&self, run: &mut Run, s: &str, path: &str) {
        let shown = || show(&Value::from(s));
        match self {
            Keyword::MinLength(min) => {
                if (s.chars().count() as u64) < *min {
                    run.report(path, || format!("{} is shorter than {}", shown(), characters(*min)));
                }
            }
            Keyword::MaxLength(max) => {
                if s.chars().count() as u64 > *max {
                    run.report(path, || format!("{} is longer than {}", shown(), characters(*max)));
                }
            }
            Keyword::Pattern(p) => {
                if !p.is_match(s) {
                    run.report(path, || format!("{} does not match \"{}\"", shown(), p.source()));
                }
            }
            Keyword::Format(f) => {
                if !f.accepts(s) {
                    run.report(path, || format!("{} is not a \"{}\"", shown(), f.name()));
                }
            }
        }
    }
}

fn characters(n: u64) -> String {
    super::count(n, "character", "characters")
}
