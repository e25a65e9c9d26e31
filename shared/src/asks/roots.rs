//! The roots a person offers the server: one absolute URI per line, `file://` for a folder
//! (the spec's roots are file URIs today, but the check leaves room for other schemes).

use serde_json::{Value, json};

/// Reads the roots editor: blank lines are skipped; every other line must be an absolute
/// URI. The error names each bad line, numbered as the person sees them.
pub fn parse_roots(text: &str) -> Result<Vec<String>, String> {
    let mut roots = Vec::new();
    let mut bad = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if is_absolute_uri(line) {
            roots.push(line.to_owned());
        } else {
            bad.push(format!("line {}: {line:?} is not an absolute URI (e.g. file:///home/me/project)", n + 1));
        }
    }
    if bad.is_empty() { Ok(roots) } else { Err(bad.join("; ")) }
}

/// A scheme (a letter, then letters, digits, `+`, `-`, `.`), a colon and something after
/// it, with no whitespace; `file:` needs `//` and a path.
fn is_absolute_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut chars = scheme.chars();
    let scheme_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok || rest.is_empty() || s.chars().any(char::is_whitespace) {
        return false;
    }
    !scheme.eq_ignore_ascii_case("file") || rest.strip_prefix("//").is_some_and(|p| p.contains('/'))
}

/// The `roots/list` result: each root's URI, named after its last path segment.
pub fn roots_result(roots: &[String]) -> Value {
    let roots: Vec<Value> = roots
        .iter()
        .map(|uri| {
            let name = uri.trim_end_matches('/').rsplit('/').next().filter(|n| !n.is_empty() && !n.contains(':'));
            match name {
                Some(name) => json!({"uri": uri, "name": name}),
                None => json!({"uri": uri}),
            }
        })
        .collect();
    json!({"roots": roots})
}
