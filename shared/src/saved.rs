//! Saved servers: the list the page keeps in browser storage, by name, and how imported
//! `mcpServers` entries join it. The page owns the storage; this is the list's logic.

use serde_json::Value;

use crate::relay::Target;

/// Reads the stored list: a JSON array of `[name, target]` pairs, names unique, in the
/// order they were saved. Text that is not such a list is an empty list, and an entry whose
/// target this version cannot read is left out, so that one bad entry loses only itself.
pub fn read(text: &str) -> Vec<(String, Target)> {
    let Ok(entries) = serde_json::from_str::<Vec<(String, Value)>>(text) else { return Vec::new() };
    entries.into_iter().filter_map(|(name, target)| Some((name, Target::read(target).ok()?))).collect()
}

/// The stored form of `list`, which [`read`] reads back.
pub fn write(list: &[(String, Target)]) -> Result<String, serde_json::Error> {
    serde_json::to_string(list)
}

/// Adds `found` to `list` in order: a server of a name already there replaces it and
/// moves to the end, as does a later entry of the same name within `found`.
pub fn merge(list: &mut Vec<(String, Target)>, found: Vec<(String, Target)>) {
    for (name, target) in found {
        list.retain(|(n, _)| *n != name);
        list.push((name, target));
    }
}

/// What an import pasted into the page brought.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The usable servers, in file order.
    pub servers: Vec<(String, Target)>,
    /// Broken entries and ignored keys, one line each: the rest was still imported.
    pub problems: Vec<String>,
}

/// Reads an `mcpServers` document pasted into the page. The page has no environment, so
/// `${VAR}` references stay as written (the relay does not expand them either: fill them
/// in before connecting). Fails only when nothing at all can be imported.
pub fn import(text: &str) -> Result<Imported, String> {
    let keep_literal = |name: &str| Some(format!("${{{name}}}"));
    let config = crate::config::read(text, &keep_literal).map_err(|e| e.to_string())?;
    let mut problems = config.warnings;
    let mut servers = Vec::new();
    for entry in config.servers {
        match entry.target {
            Ok(t) => servers.push((entry.name, t)),
            Err(e) => problems.push(format!("not imported: {e}")),
        }
    }
    if servers.is_empty() {
        let why =
            if problems.is_empty() { "the configuration lists no servers".to_owned() } else { problems.join("; ") };
        return Err(why);
    }
    Ok(Imported { servers, problems })
}

/// Removes the server called `name`.
pub fn forget(list: &mut Vec<(String, Target)>, name: &str) {
    list.retain(|(n, _)| n != name);
}

/// The target of the server called `name`.
pub fn find<'a>(list: &'a [(String, Target)], name: &str) -> Option<&'a Target> {
    list.iter().find(|(n, _)| n == name).map(|(_, t)| t)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn http(url: &str) -> Target {
        Target::Http { url: url.to_owned(), headers: BTreeMap::new() }
    }

    fn names(list: &[(String, Target)]) -> Vec<&str> {
        list.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn an_import_replaces_servers_of_the_same_name_and_keeps_order() {
        let mut list = vec![("a".into(), http("http://a")), ("b".into(), http("http://b")), ("c".into(), Target::Demo)];
        merge(&mut list, vec![("b".into(), http("http://b2")), ("d".into(), Target::Demo)]);
        assert_eq!(names(&list), ["a", "c", "b", "d"]);
        assert_eq!(find(&list, "b"), Some(&http("http://b2")));
        // Within one import, the later entry of a name wins.
        merge(
            &mut list,
            vec![("e".into(), http("http://e1")), ("a".into(), Target::Demo), ("e".into(), http("http://e2"))],
        );
        assert_eq!(names(&list), ["c", "b", "d", "a", "e"]);
        assert_eq!(find(&list, "e"), Some(&http("http://e2")));
        assert_eq!(find(&list, "a"), Some(&Target::Demo));
    }

    #[test]
    fn an_import_takes_what_it_can_and_says_what_it_left() {
        let text = r#"{"mcpServers": {
            "ok": {"command": "node", "args": ["s.js"], "env": {"KEY": "${API_KEY}"}, "autoApprove": []},
            "bad": {"command": 7},
            "remote": {"url": "http://127.0.0.1:1/mcp"}
        }}"#;
        let got = import(text).unwrap();
        assert_eq!(names(&got.servers), ["ok", "remote"]);
        let Target::Stdio { env, .. } = &got.servers[0].1 else { panic!() };
        assert_eq!(env["KEY"], "${API_KEY}", "kept as written: the page has no environment");
        assert_eq!(got.problems.len(), 2, "{:?}", got.problems);
        assert!(got.problems.iter().any(|p| p.contains("autoApprove")), "{:?}", got.problems);
        assert!(got.problems.iter().any(|p| p.starts_with("not imported: server \"bad\"")), "{:?}", got.problems);
        assert!(import(r#"{"mcpServers": {"bad": {"command": 7}}}"#).unwrap_err().contains("bad"));
        assert_eq!(import(r#"{"mcpServers": {}}"#).unwrap_err(), "the configuration lists no servers");
        assert!(import("nope").unwrap_err().starts_with("not JSON"));
    }

    #[test]
    fn forget_removes_only_that_name() {
        let mut list = vec![("a".into(), Target::Demo), ("b".into(), Target::Demo)];
        forget(&mut list, "a");
        assert_eq!(names(&list), ["b"]);
        forget(&mut list, "zzz");
        assert_eq!(names(&list), ["b"]);
        assert_eq!(find(&list, "a"), None);
    }

    #[test]
    fn the_stored_list_reads_back() {
        let stdio =
            serde_json::json!({"transport": "stdio", "command": "npx", "args": ["-y", "server"], "env": {"K": "v"}});
        let stdio = Target::read(stdio).unwrap();
        let list = vec![
            ("stdio".to_owned(), stdio),
            ("web".to_owned(), http("https://example.com/mcp")),
            ("demo".to_owned(), Target::Demo),
        ];
        let text = write(&list).unwrap();
        assert!(text.starts_with(r#"[["stdio",{"transport":"stdio","command":"npx""#), "{text}");
        assert_eq!(read(&text), list);
    }

    #[test]
    fn unreadable_storage_is_an_empty_list_and_bad_entries_are_left_out() {
        assert!(read("").is_empty());
        assert!(read("{\"a\": 1}").is_empty());
        assert!(read("[[\"a\"]]").is_empty());
        let text = r#"[["old", {"transport": "carrier-pigeon"}], ["ok", {"transport": "demo"}],
                       ["typo", {"transport": "http", "url": "http://x", "hedaers": {}}]]"#;
        assert_eq!(read(text), vec![("ok".to_owned(), Target::Demo)]);
    }
}
