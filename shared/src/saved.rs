//! Saved servers: the list the page keeps in browser storage, by name, and how imported
//! `mcpServers` entries join it. The page owns the storage; this is the list's logic.

use serde_json::Value;

use crate::relay::{OAuthSettings, Target};
use crate::revision::ProtocolChoice;

/// One saved server of the page's list.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedServer {
    /// Unique in the list.
    pub name: String,
    pub target: Target,
    /// The protocol revision asked for it.
    pub protocol: ProtocolChoice,
    /// The OAuth client id and scopes to sign in with (never a token, nor a client secret).
    pub oauth: OAuthSettings,
}

/// Reads the stored list: a JSON array of `[name, target]` entries, with the protocol
/// revision third when one is pinned or OAuth settings follow, and those fourth, names
/// unique, in the order they were saved. Text
/// that is not such a list is an empty list, and an entry this version cannot read is left
/// out, so that one bad entry loses only itself. Lists saved before revisions could be
/// chosen have no third element: those servers speak `auto`.
pub fn read(text: &str) -> Vec<SavedServer> {
    let Ok(entries) = serde_json::from_str::<Vec<Vec<Value>>>(text) else { return Vec::new() };
    entries.into_iter().filter_map(entry).collect()
}

fn entry(fields: Vec<Value>) -> Option<SavedServer> {
    let mut fields = fields.into_iter();
    let name = fields.next()?.as_str()?.to_owned();
    let target = Target::read(fields.next()?).ok()?;
    let protocol = match fields.next() {
        None => ProtocolChoice::Auto,
        Some(v) => serde_json::from_value(v).ok()?,
    };
    // Strict: an entry with any other key (a token, say) is not one of ours.
    let oauth = match fields.next() {
        None => OAuthSettings::default(),
        Some(v) => serde_json::from_value(v).ok()?,
    };
    fields.next().is_none().then_some(SavedServer { name, target, protocol, oauth })
}

/// The stored form of `list`, which [`read`] reads back.
pub fn write(list: &[SavedServer]) -> Result<String, serde_json::Error> {
    let entries: Vec<Value> = list
        .iter()
        .map(|SavedServer { name, target, protocol, oauth }| match (protocol, oauth.is_empty()) {
            (ProtocolChoice::Auto, true) => serde_json::json!([name, target]),
            (pinned, true) => serde_json::json!([name, target, pinned]),
            (protocol, false) => serde_json::json!([name, target, protocol, oauth]),
        })
        .collect();
    serde_json::to_string(&entries)
}

/// Adds `found` to `list` in order: a server of a name already there replaces it and
/// moves to the end, as does a later entry of the same name within `found`.
pub fn merge(list: &mut Vec<SavedServer>, found: Vec<SavedServer>) {
    for server in found {
        list.retain(|s| s.name != server.name);
        list.push(server);
    }
}

/// What an import pasted into the page brought.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The usable servers, in file order, each with its `protocolVersion` (auto if none).
    pub servers: Vec<SavedServer>,
    /// Broken entries and ignored keys, one line each: the rest was still imported.
    pub problems: Vec<String>,
}

/// Why nothing at all could be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error("the configuration lists no servers")]
    Empty,
    /// Every entry was broken: what was wrong with each.
    #[error("{0}")]
    NoneUsable(String),
}

/// Reads an `mcpServers` document pasted into the page. The page has no environment, so
/// `${VAR}` references stay as written (the relay does not expand them either: fill them
/// in before connecting). Fails only when nothing at all can be imported.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    let keep_literal = |name: &str| Some(format!("${{{name}}}"));
    let config = crate::config::read(text, &keep_literal)?;
    let mut problems = config.warnings;
    let mut servers = Vec::new();
    for entry in config.servers {
        match entry.target {
            // The client secret stays behind: the page keeps no secret.
            Ok(target) => {
                servers.push(SavedServer { name: entry.name, target, protocol: entry.protocol, oauth: entry.oauth })
            }
            Err(e) => problems.push(format!("not imported: {e}")),
        }
    }
    if servers.is_empty() {
        return Err(if problems.is_empty() {
            ImportError::Empty
        } else {
            ImportError::NoneUsable(problems.join("; "))
        });
    }
    Ok(Imported { servers, problems })
}

/// Removes the server called `name`.
pub fn forget(list: &mut Vec<SavedServer>, name: &str) {
    list.retain(|s| s.name != name);
}

/// The server called `name`.
pub fn find<'a>(list: &'a [SavedServer], name: &str) -> Option<&'a SavedServer> {
    list.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn http(url: &str) -> Target {
        Target::Http { url: url.to_owned(), headers: BTreeMap::new() }
    }

    fn names(list: &[SavedServer]) -> Vec<&str> {
        list.iter().map(|s| s.name.as_str()).collect()
    }

    /// A saved server on `auto`.
    fn auto(name: &str, target: Target) -> SavedServer {
        SavedServer { name: name.to_owned(), target, protocol: ProtocolChoice::Auto, oauth: OAuthSettings::default() }
    }

    #[test]
    fn an_import_replaces_servers_of_the_same_name_and_keeps_order() {
        let mut list = vec![auto("a", http("http://a")), auto("b", http("http://b")), auto("c", Target::Demo)];
        merge(&mut list, vec![auto("b", http("http://b2")), auto("d", Target::Demo)]);
        assert_eq!(names(&list), ["a", "c", "b", "d"]);
        assert_eq!(find(&list, "b"), Some(&auto("b", http("http://b2"))));
        // Within one import, the later entry of a name wins.
        merge(&mut list, vec![auto("e", http("http://e1")), auto("a", Target::Demo), auto("e", http("http://e2"))]);
        assert_eq!(names(&list), ["c", "b", "d", "a", "e"]);
        assert_eq!(find(&list, "e"), Some(&auto("e", http("http://e2"))));
        assert_eq!(find(&list, "a"), Some(&auto("a", Target::Demo)));
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
        let Target::Stdio { env, .. } = &got.servers[0].target else { panic!() };
        assert_eq!(env["KEY"], "${API_KEY}", "kept as written: the page has no environment");
        assert_eq!(got.problems.len(), 2, "{:?}", got.problems);
        assert!(got.problems.iter().any(|p| p.contains("autoApprove")), "{:?}", got.problems);
        assert!(got.problems.iter().any(|p| p.starts_with("not imported: server \"bad\"")), "{:?}", got.problems);
        assert!(import(r#"{"mcpServers": {"bad": {"command": 7}}}"#).unwrap_err().to_string().contains("bad"));
        assert_eq!(import(r#"{"mcpServers": {}}"#).unwrap_err().to_string(), "the configuration lists no servers");
        assert!(import("nope").unwrap_err().to_string().starts_with("not JSON"));
    }

    #[test]
    fn forget_removes_only_that_name() {
        let mut list = vec![auto("a", Target::Demo), auto("b", Target::Demo)];
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
        let list = vec![auto("stdio", stdio), auto("web", http("https://example.com/mcp")), auto("demo", Target::Demo)];
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
        assert_eq!(read(text), vec![auto("ok", Target::Demo)]);
    }

    #[test]
    fn a_pinned_revision_is_saved_imported_and_old_lists_speak_auto() {
        use crate::revision::Revision;
        let pinned = ProtocolChoice::Pinned(Revision::V2024_11_05);
        let list = vec![SavedServer { protocol: pinned, ..auto("old", Target::Demo) }, auto("new", Target::Demo)];
        let text = write(&list).unwrap();
        assert_eq!(text, r#"[["old",{"transport":"demo"},"2024-11-05"],["new",{"transport":"demo"}]]"#);
        assert_eq!(read(&text), list);
        // A list saved before revisions could be chosen: every server on auto.
        assert_eq!(read(r#"[["a", {"transport": "demo"}]]"#), vec![auto("a", Target::Demo)]);
        // An unknown revision loses its entry only.
        assert_eq!(read(r#"[["a", {"transport": "demo"}, "1999-01-01"], ["b", {"transport": "demo"}]]"#).len(), 1);
        let got = import(r#"{"mcpServers": {"s": {"url": "http://x/mcp", "protocolVersion": "2024-11-05"}}}"#).unwrap();
        assert_eq!(got.servers[0].protocol, pinned);
        assert!(got.problems.is_empty(), "protocolVersion is a key of ours: {:?}", got.problems);
    }

    #[test]
    fn oauth_settings_are_saved_and_imported_but_never_a_secret() {
        let text = r#"{"mcpServers": {"s": {"url": "http://x/mcp",
            "oauth": {"clientId": "c1", "clientSecret": "SECRET-1", "scopes": ["mcp:tools", "profile"]}}}}"#;
        let got = import(text).unwrap();
        let oauth = OAuthSettings { client_id: Some("c1".into()), scopes: vec!["mcp:tools".into(), "profile".into()] };
        assert_eq!(got.servers[0].oauth, oauth);
        let stored = write(&got.servers).unwrap();
        assert_eq!(
            stored,
            r#"[["s",{"transport":"auto","url":"http://x/mcp","headers":{}},"auto",{"client_id":"c1","scopes":["mcp:tools","profile"]}]]"#
        );
        assert!(!stored.contains("SECRET"));
        assert_eq!(read(&stored), got.servers);
        assert_eq!(find(&got.servers, "s").map(|f| &f.oauth), Some(&oauth));
        // Anything else in the settings (a token, say) loses the entry.
        let bad = r#"[["s",{"transport":"demo"},"auto",{"client_id":"c1","access_token":"t"}]]"#;
        assert!(read(bad).is_empty());
    }
}
