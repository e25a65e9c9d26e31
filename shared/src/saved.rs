//! Saved servers: the list the page keeps in browser storage, by name, how imported
//! `mcpServers` entries join it, and how every server a person connects to joins it by
//! itself (its command or URL, and the names of its env and headers; their values stay
//! out unless the person asks to remember them, and then they live in the relay's secrets
//! file, never in the page's storage). The page owns the storage; this is the list's logic.

use serde_json::Value;

use crate::relay::{OAuthSettings, Secrets, Target};
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
    /// The values of its env and headers are kept by the relay (the target here holds
    /// only their names).
    pub remember_secrets: bool,
}

/// What the stored list says of an entry beyond its name, target, protocol and OAuth.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    remember_secrets: bool,
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
    let options: Options = match fields.next() {
        None => Options::default(),
        Some(v) => serde_json::from_value(v).ok()?,
    };
    let remember_secrets = options.remember_secrets;
    fields.next().is_none().then_some(SavedServer { name, target, protocol, oauth, remember_secrets })
}

/// The stored form of `list`, which [`read`] reads back: targets without the values of
/// their env and headers, whoever filled them in.
pub fn write(list: &[SavedServer]) -> Result<String, serde_json::Error> {
    let entries: Vec<Value> = list
        .iter()
        .map(|SavedServer { name, target, protocol, oauth, remember_secrets }| {
            let target = without_secrets(target);
            match (protocol, oauth.is_empty(), remember_secrets) {
                (ProtocolChoice::Auto, true, false) => serde_json::json!([name, target]),
                (pinned, true, false) => serde_json::json!([name, target, pinned]),
                (protocol, false, false) => serde_json::json!([name, target, protocol, oauth]),
                (protocol, _, true) => {
                    serde_json::json!([name, target, protocol, oauth, Options { remember_secrets: true }])
                }
            }
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
            Ok(target) => servers.push(SavedServer {
                name: entry.name,
                target,
                protocol: entry.protocol,
                oauth: entry.oauth,
                remember_secrets: false,
            }),
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

/// `target` as the page's storage may hold it: the names of its env and headers with empty
/// values.
pub fn without_secrets(target: &Target) -> Target {
    let mut kept = target.clone();
    let names = Secrets::of(target);
    let blank = |m: &std::collections::BTreeMap<String, String>| m.keys().map(|k| (k.clone(), String::new())).collect();
    Secrets { env: blank(&names.env), headers: blank(&names.headers) }.fill(&mut kept);
    kept
}

/// What tells one server from another, whatever it is called and whatever its secrets:
/// how it is reached and its command line or URL. The relay keeps secrets under it.
pub fn key(target: &Target) -> String {
    match target {
        Target::Demo => "demo".to_owned(),
        Target::Stdio { command, args, cwd, .. } => {
            let words: Vec<&String> = std::iter::once(command).chain(args).collect();
            let line = crate::cmdline::join_command_line(&words);
            match cwd {
                Some(dir) => format!("stdio {line} (in {dir})"),
                None => format!("stdio {line}"),
            }
        }
        other => format!("{} {}", other.transport(), other.url().unwrap_or_default()),
    }
}

/// A name for a server a person connected to: the program and its script, or the URL's
/// host and path; unique in `list`.
pub fn name_for(target: &Target, list: &[SavedServer]) -> String {
    let base = match target {
        Target::Demo => "Built-in demo server".to_owned(),
        Target::Stdio { command, args, .. } => {
            let last = |s: &str| s.trim_end_matches('/').rsplit('/').next().unwrap_or(s).to_owned();
            let script =
                args.iter().find(|a| !a.starts_with('-') && (a.contains('/') || a.contains('.') || a.contains('@')));
            match script {
                Some(s) => format!("{} {}", last(command), last(s)),
                None => last(command),
            }
        }
        other => {
            let url = other.url().unwrap_or_default();
            let rest = url.split_once("://").map_or(url, |(_, r)| r);
            rest.trim_end_matches('/').to_owned()
        }
    };
    let base: String = base.chars().take(48).collect();
    let taken = |n: &str| list.iter().any(|s| s.name == n);
    (1..).map(|i| if i == 1 { base.clone() } else { format!("{base} ({i})") }).find(|n| !taken(n)).unwrap_or(base)
}

/// Keeps `server`, just connected to, at the end of `list` (the most recent last): the entry
/// of the same server (by [`key`]) takes its target, protocol, OAuth settings and choice about
/// secrets and keeps its name; else it is added under [`name_for`]. The target is kept
/// without its secrets. The name it is kept under.
pub fn keep(list: &mut Vec<SavedServer>, server: SavedServer) -> String {
    let target = without_secrets(&server.target);
    let name = match list.iter().position(|s| key(&s.target) == key(&target)) {
        Some(at) => list.remove(at).name,
        None => name_for(&target, list),
    };
    list.push(SavedServer { name: name.clone(), target, ..server });
    name
}

/// Where the person was, for a reload: the server (by its saved name), the tool and the
/// timeline's view, and the server the relay offered then. A relay started on another
/// server offers that one instead: the command line has the last word.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Last {
    /// The [`key`] of the relay's preset when this was written.
    pub preset: String,
    pub server: Option<String>,
    pub tool: Option<String>,
    /// The timeline showed the flow view.
    pub flow: bool,
    /// The view and selection last shown for each server (by its [`key`]).
    pub places: std::collections::BTreeMap<String, Place>,
}

/// What was shown of one server: its view (`tools`, `resources`, `prompts`) and what was
/// picked in the resources and prompts views.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Place {
    pub view: String,
    pub resource: Option<String>,
    pub template: Option<String>,
    pub prompt: Option<String>,
}

/// Servers whose place is remembered; past it, places are forgotten in key order.
pub const MAX_PLACES: usize = 64;

impl Last {
    /// Remembers `place` for the server of `key`, keeping at most [`MAX_PLACES`].
    pub fn set_place(&mut self, key: String, place: Place) {
        while self.places.len() >= MAX_PLACES && !self.places.contains_key(&key) {
            let Some(first) = self.places.keys().next().cloned() else { break };
            self.places.remove(&first);
        }
        self.places.insert(key, place);
    }

    /// Reads what was stored; anything unreadable is nothing remembered.
    pub fn read(text: &str) -> Last {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn write(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The saved server to come back to under a relay whose preset is `preset`.
    pub fn server_under(&self, preset: &Target) -> Option<&str> {
        self.server.as_deref().filter(|_| self.preset == key(preset))
    }
}

/// Why a saved server cannot take a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenameError {
    #[error("a name cannot be empty")]
    Empty,
    #[error("another saved server is called {0:?}")]
    Taken(String),
    #[error("no saved server is called {0:?}")]
    Missing(String),
}

/// Renames the saved server `from` to `to` (trimmed); the name it has now.
pub fn rename(list: &mut [SavedServer], from: &str, to: &str) -> Result<String, RenameError> {
    let to = to.trim();
    if to.is_empty() {
        return Err(RenameError::Empty);
    }
    if to != from && list.iter().any(|s| s.name == to) {
        return Err(RenameError::Taken(to.to_owned()));
    }
    let server = list.iter_mut().find(|s| s.name == from).ok_or_else(|| RenameError::Missing(from.to_owned()))?;
    to.clone_into(&mut server.name);
    Ok(server.name.clone())
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
        SavedServer {
            name: name.to_owned(),
            target,
            protocol: ProtocolChoice::Auto,
            oauth: OAuthSettings::default(),
            remember_secrets: false,
        }
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
    fn the_stored_list_reads_back_without_values() {
        let stdio = |v: &str| {
            let t =
                serde_json::json!({"transport": "stdio", "command": "npx", "args": ["-y", "server"], "env": {"K": v}});
            Target::read(t).unwrap()
        };
        let list =
            vec![auto("stdio", stdio("v")), auto("web", http("https://example.com/mcp")), auto("demo", Target::Demo)];
        let text = write(&list).unwrap();
        assert!(text.starts_with(r#"[["stdio",{"transport":"stdio","command":"npx""#), "{text}");
        assert!(!text.contains("\"v\""), "{text}");
        let back = read(&text);
        assert_eq!(back[0], auto("stdio", stdio("")), "the name of the env stays, its value does not");
        assert_eq!(back[1..], list[1..]);
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

    fn stdio(line: &[&str], env: &[(&str, &str)]) -> Target {
        Target::Stdio {
            command: line[0].to_owned(),
            args: line[1..].iter().map(|a| a.to_string()).collect(),
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            cwd: None,
        }
    }

    #[test]
    fn a_connected_server_is_kept_by_itself_without_its_secrets() {
        let mut list = vec![auto("mine", Target::Demo)];
        let server = |t: Target| SavedServer { remember_secrets: false, ..auto("", t) };
        let everything = stdio(&["npx", "-y", "@modelcontextprotocol/server-everything"], &[("API_KEY", "s3cret")]);
        assert_eq!(keep(&mut list, server(everything.clone())), "npx server-everything");
        let kept = find(&list, "npx server-everything").unwrap();
        assert_eq!(kept.target, stdio(&["npx", "-y", "@modelcontextprotocol/server-everything"], &[("API_KEY", "")]));
        assert!(!write(&list).unwrap().contains("s3cret"), "a value never reaches the page's storage");

        // The same server again (other secrets): one entry, its name kept, now the latest.
        keep(&mut list, server(Target::Demo));
        assert_eq!(
            names(&list),
            ["npx server-everything", "mine"],
            "the demo server is kept under its name, latest last"
        );
        let again = stdio(&["npx", "-y", "@modelcontextprotocol/server-everything"], &[("API_KEY", "other")]);
        assert_eq!(keep(&mut list, SavedServer { remember_secrets: true, ..server(again) }), "npx server-everything");
        assert_eq!(names(&list), ["mine", "npx server-everything"]);
        assert!(list[1].remember_secrets);
        assert_eq!(read(&write(&list).unwrap()), list, "the choice about secrets is stored");

        // Remote servers by URL; headers keep their names only; names stay unique.
        let remote = |url: &str| Target::Http {
            url: url.into(),
            headers: [("Authorization".to_string(), "Bearer t".to_string())].into(),
        };
        assert_eq!(keep(&mut list, server(remote("https://example.com/mcp"))), "example.com/mcp");
        let Target::Http { headers, .. } = &find(&list, "example.com/mcp").unwrap().target else { panic!() };
        assert_eq!(headers["Authorization"], "");
        list.push(auto("127.0.0.1:9/mcp", Target::Demo));
        assert_eq!(keep(&mut list, server(remote("http://127.0.0.1:9/mcp/"))), "127.0.0.1:9/mcp (2)");
        assert_eq!(key(&remote("https://example.com/mcp")), "http https://example.com/mcp");
        assert_eq!(key(&everything), "stdio npx -y @modelcontextprotocol/server-everything");
    }

    #[test]
    fn the_last_server_comes_back_under_the_same_relay_only() {
        let everything = stdio(&["npx", "server-everything"], &[]);
        let mut last = Last {
            preset: key(&Target::Demo),
            server: Some("mine".into()),
            tool: Some("echo".into()),
            flow: true,
            ..Last::default()
        };
        let place = Place { view: "prompts".into(), prompt: Some("greet".into()), ..Place::default() };
        last.set_place(key(&everything), place.clone());
        let back = Last::read(&last.write());
        assert_eq!(back.places.get(&key(&everything)), Some(&place), "the view and pick of each server");
        assert_eq!(back, last);
        assert_eq!(back.server_under(&Target::Demo), Some("mine"));
        assert_eq!(back.server_under(&everything), None, "a relay started on another server offers that one");
        assert_eq!(Last::read("garbage"), Last::default());
        assert_eq!(Last::read(r#"{"tool": "x"}"#).tool.as_deref(), Some("x"), "what can be read is read");
    }

    #[test]
    fn places_are_kept_for_at_most_so_many_servers() {
        let mut last = Last::default();
        for i in 0..MAX_PLACES + 5 {
            last.set_place(format!("server-{i:03}"), Place { view: "resources".into(), ..Place::default() });
        }
        assert_eq!(last.places.len(), MAX_PLACES);
        assert!(last.places.contains_key(&format!("server-{:03}", MAX_PLACES + 4)), "the newest is kept");
        last.set_place("a-first-in-order".into(), Place::default());
        assert!(last.places.contains_key("a-first-in-order"), "even when it sorts first");
        assert_eq!(last.places.len(), MAX_PLACES);
    }

    #[test]
    fn a_saved_server_is_renamed_to_a_free_name_only() {
        let mut list = vec![auto("a", Target::Demo), auto("b", Target::Demo)];
        assert_eq!(rename(&mut list, "a", "  alpha "), Ok("alpha".to_owned()));
        assert_eq!(names(&list), ["alpha", "b"]);
        assert_eq!(rename(&mut list, "alpha", "b"), Err(RenameError::Taken("b".into())));
        assert_eq!(rename(&mut list, "alpha", " "), Err(RenameError::Empty));
        assert_eq!(rename(&mut list, "zzz", "c"), Err(RenameError::Missing("zzz".into())));
        assert_eq!(rename(&mut list, "b", "b"), Ok("b".to_owned()), "its own name is free");
    }

    #[test]
    fn secrets_fill_the_names_a_target_has() {
        let mut t = stdio(&["node", "s.js"], &[("A", ""), ("B", "")]);
        let kept = Secrets {
            env: [("A".to_string(), "1".to_string()), ("C".to_string(), "3".to_string())].into(),
            headers: Default::default(),
        };
        kept.fill(&mut t);
        assert_eq!(t, stdio(&["node", "s.js"], &[("A", "1"), ("B", "")]), "C is not added, B stays empty");
        assert_eq!(Secrets::of(&t).env.len(), 2);
        assert!(Secrets::of(&Target::Demo).is_empty());
    }
}
