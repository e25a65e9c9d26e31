//! The `mcpServers` configuration format of Claude Desktop, Cursor, Claude Code and the
//! official inspector: `{"mcpServers": {"name": {"command", "args", "env", "cwd"} | {"type",
//! "url", "headers"}}}`.
//!
//! Read as those tools read it, tolerantly: keys other tools add are ignored with a warning,
//! a broken entry fails only when it is picked (the others can still be listed and used),
//! and `${VAR}` references are expanded through an environment passed in ([`expand`]).
//! Errors name the server and the key that is wrong.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::relay::{ConfiguredServer, OAuthSettings, Target, Transport};
use crate::revision::ProtocolChoice;

mod expand;
mod oauth;

pub use expand::{Env, ExpandError, expand};

/// Why a configuration, or one server of it, could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("the configuration has no \"mcpServers\" object")]
    NoServers,
    #[error("server {server:?}: {problem}")]
    Server { server: String, problem: String },
    #[error("no server named {0:?} in the configuration (it has: {1})")]
    Unknown(String, String),
}

impl ConfigError {
    /// What is wrong, without the server's name when the error is about one server (for a
    /// list that shows the name beside it).
    pub fn problem(&self) -> String {
        match self {
            ConfigError::Server { problem, .. } => problem.clone(),
            other => other.to_string(),
        }
    }
}

/// Keys this reader acts on, and keys of other tools that change nothing about how a
/// server is reached (so they are ignored without a warning).
const KNOWN: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "type",
    "transport",
    "url",
    "headers",
    "protocolVersion",
    "disabled",
    "timeout",
    "oauth",
];

/// A whole `mcpServers` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Every server, in file order, each read or refused on its own.
    pub servers: Vec<Entry>,
    /// What was ignored (keys of other tools), one sentence each.
    pub warnings: Vec<String>,
}

/// One server of the file: where to reach it, or why that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub target: Result<Target, ConfigError>,
    /// `"protocolVersion"`: `"auto"` (also when absent) or the one revision to speak.
    pub protocol: ProtocolChoice,
    /// `"oauth"`: the client id and scopes to sign in with.
    pub oauth: OAuthSettings,
    /// `"oauth"."clientSecret"`: kept by the relay, never offered to the page.
    pub client_secret: Option<String>,
}

impl Entry {
    /// The entry as the relay offers it to the page.
    pub fn offered(&self) -> ConfiguredServer {
        ConfiguredServer {
            name: self.name.clone(),
            target: self.target.clone().map_err(|e| e.problem()),
            protocol: self.protocol,
            oauth: self.oauth.clone(),
        }
    }
}

impl Config {
    /// The names of every server, in file order.
    pub fn names(&self) -> Vec<&str> {
        self.servers.iter().map(|e| e.name.as_str()).collect()
    }

    /// The client secret an entry gives for this server URL and client id.
    pub fn client_secret(&self, url: &str, client_id: &str) -> Option<String> {
        self.servers
            .iter()
            .filter(|e| e.oauth.client_id.as_deref() == Some(client_id))
            .filter(|e| e.target.as_ref().is_ok_and(|t| t.url() == Some(url)))
            .find_map(|e| e.client_secret.clone())
    }

    /// The server called `name`, or why it cannot be used.
    pub fn get(&self, name: &str) -> Result<Target, ConfigError> {
        match self.servers.iter().find(|e| e.name == name) {
            Some(entry) => entry.target.clone(),
            None => {
                let names = self.names();
                let listed = if names.is_empty() { "no servers".to_owned() } else { names.join(", ") };
                Err(ConfigError::Unknown(name.into(), listed))
            }
        }
    }
}

/// Reads a configuration; only a file that is not JSON or has no `mcpServers` object fails
/// as a whole. `env` resolves `${VAR}` references in `command`, `args`, `env` values, `cwd`,
/// `url` and `headers` values (the relay passes its own environment, the page none). A
/// `cwd` stays as written: the relay, which knows where the file is, anchors a relative one
/// to the file's folder.
pub fn read(text: &str, env: Env<'_>) -> Result<Config, ConfigError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    let servers = doc.get("mcpServers").and_then(Value::as_object).ok_or(ConfigError::NoServers)?;
    let mut warnings = Vec::new();
    let servers = servers
        .iter()
        .map(|(name, entry)| {
            let target = read_entry(name, entry, env, &mut warnings);
            // A revision that cannot be read breaks the entry like a bad target would.
            let (target, protocol) = match read_protocol(name, entry) {
                Ok(protocol) => (target, protocol),
                Err(e) => (target.and(Err(e)), ProtocolChoice::Auto),
            };
            let (target, oauth, client_secret) = match oauth::read(name, entry, env) {
                Ok((oauth, secret)) => (target, oauth, secret),
                Err(e) => (target.and(Err(e)), OAuthSettings::default(), None),
            };
            Entry { name: name.clone(), target, protocol, oauth, client_secret }
        })
        .collect();
    Ok(Config { servers, warnings })
}

/// The transport a `"type"` names; `streamable-http` and its spellings are Streamable HTTP.
fn kind_of(name: &str) -> Option<Transport> {
    match name {
        "streamable-http" | "streamableHttp" | "streamable_http" => Some(Transport::Http),
        other => Transport::parse(other).filter(|t| matches!(t, Transport::Stdio | Transport::Http | Transport::Sse)),
    }
}

fn read_entry(name: &str, entry: &Value, env: Env<'_>, warnings: &mut Vec<String>) -> Result<Target, ConfigError> {
    let err = |problem: String| ConfigError::Server { server: name.into(), problem };
    let obj = entry.as_object().ok_or_else(|| err("must be an object".into()))?;
    for key in obj.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
        warnings.push(format!("server {name:?}: unknown key {key:?} ignored"));
    }
    let r = Reader { name, obj, env };
    // `type` is the common spelling; `transport` that of some older files.
    let type_key = if obj.contains_key("type") { "type" } else { "transport" };
    let kind = match obj.get(type_key) {
        None => None,
        Some(Value::String(s)) => Some(kind_of(s).ok_or_else(|| {
            err(format!("{type_key:?} {s:?} is not \"stdio\", \"http\", \"streamable-http\" or \"sse\""))
        })?),
        Some(_) => return Err(err(format!("{type_key:?} must be a string"))),
    };
    let (has_command, has_url) = (obj.contains_key("command"), obj.contains_key("url"));
    let remote = match kind {
        Some(Transport::Stdio) if !has_command => {
            return Err(err(format!("{type_key:?} \"stdio\" needs a \"command\"")));
        }
        Some(Transport::Stdio) => false,
        Some(t) if !has_url => return Err(err(format!("{type_key:?} {:?} needs a \"url\"", t.as_str()))),
        Some(_) => true,
        None if has_command && has_url => {
            return Err(err("has both \"command\" and \"url\": add \"type\" to say which to use".into()));
        }
        None if has_command || has_url => has_url,
        None => return Err(err("needs either \"command\" (stdio) or \"url\" (remote)".into())),
    };
    if remote {
        let url = r.string("url")?.unwrap_or_default();
        let headers = r.map("headers")?;
        return Ok(match kind {
            Some(Transport::Http) => Target::Http { url, headers },
            Some(Transport::Sse) => Target::Sse { url, headers },
            _ => Target::Auto { url, headers },
        });
    }
    Ok(Target::Stdio {
        command: r.string("command")?.unwrap_or_default(),
        args: r.list("args")?,
        env: r.map("env")?,
        cwd: r.string("cwd")?,
    })
}

/// An entry's `"protocolVersion"` (the key `initialize` uses for the same thing).
fn read_protocol(name: &str, entry: &Value) -> Result<ProtocolChoice, ConfigError> {
    let err = |problem: String| ConfigError::Server { server: name.into(), problem };
    match entry.get("protocolVersion") {
        None => Ok(ProtocolChoice::Auto),
        Some(Value::String(s)) => ProtocolChoice::parse(s).map_err(|e| err(format!("\"protocolVersion\": {e}"))),
        Some(_) => Err(err("\"protocolVersion\" must be a string".into())),
    }
}

/// Reads the values of one entry, expanding references; errors name the server and key.
struct Reader<'a> {
    name: &'a str,
    obj: &'a Map<String, Value>,
    env: Env<'a>,
}

impl Reader<'_> {
    fn err(&self, problem: String) -> ConfigError {
        ConfigError::Server { server: self.name.into(), problem }
    }

    fn expand(&self, at: &str, value: &str) -> Result<String, ConfigError> {
        expand(value, self.env).map_err(|e| self.err(format!("{at}: {e}")))
    }

    fn string(&self, key: &str) -> Result<Option<String>, ConfigError> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => self.expand(&format!("{key:?}"), s).map(Some),
            Some(_) => Err(self.err(format!("{key:?} must be a string"))),
        }
    }

    fn list(&self, key: &str) -> Result<Vec<String>, ConfigError> {
        let bad = || self.err(format!("{key:?} must be an array of strings"));
        let Some(v) = self.obj.get(key) else { return Ok(Vec::new()) };
        let items = v.as_array().ok_or_else(bad)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| self.expand(&format!("{key:?}[{i}]"), item.as_str().ok_or_else(bad)?))
            .collect()
    }

    fn map(&self, key: &str) -> Result<BTreeMap<String, String>, ConfigError> {
        let Some(v) = self.obj.get(key) else { return Ok(BTreeMap::new()) };
        let obj = v.as_object().ok_or_else(|| self.err(format!("{key:?} must be an object of strings")))?;
        obj.iter()
            .map(|(k, v)| {
                let at = format!("{key:?}.{k:?}");
                let s = v.as_str().ok_or_else(|| self.err(format!("{at} must be a string")))?;
                Ok((k.clone(), self.expand(&at, s)?))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
