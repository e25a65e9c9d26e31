//! The `mcpServers` configuration format of Claude Desktop, Cursor and the official
//! inspector: `{"mcpServers": {"name": {"command", "args", "env"} | {"type", "url",
//! "headers"}}}`. Errors name the server and the key that is wrong.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::relay::Target;

/// Why a configuration could not be read.
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

fn strings(server: &str, key: &str, v: &Value) -> Result<Vec<String>, ConfigError> {
    let bad =
        || ConfigError::Server { server: server.into(), problem: format!("\"{key}\" must be an array of strings") };
    v.as_array().ok_or_else(bad)?.iter().map(|x| x.as_str().map(str::to_owned).ok_or_else(bad)).collect()
}

fn string_map(server: &str, key: &str, v: &Value) -> Result<BTreeMap<String, String>, ConfigError> {
    let bad =
        |k: &str| ConfigError::Server { server: server.into(), problem: format!("\"{key}\".{k:?} must be a string") };
    let obj = v.as_object().ok_or_else(|| ConfigError::Server {
        server: server.into(),
        problem: format!("\"{key}\" must be an object of strings"),
    })?;
    obj.iter().map(|(k, v)| Ok((k.clone(), v.as_str().ok_or_else(|| bad(k))?.to_owned()))).collect()
}

/// Reads one server entry.
pub fn server_target(name: &str, entry: &Value) -> Result<Target, ConfigError> {
    let err = |problem: String| ConfigError::Server { server: name.into(), problem };
    let obj: &Map<String, Value> = entry.as_object().ok_or_else(|| err("must be an object".into()))?;
    const KNOWN: &[&str] =
        &["command", "args", "env", "type", "transport", "url", "headers", "cwd", "disabled", "timeout"];
    if let Some(k) = obj.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(err(format!("unknown key {k:?}")));
    }
    let kind = obj
        .get("type")
        .or_else(|| obj.get("transport"))
        .map(|t| t.as_str().ok_or_else(|| err("\"type\" must be a string".into())))
        .transpose()?;
    if let Some(url) = obj.get("url") {
        let url = url.as_str().ok_or_else(|| err("\"url\" must be a string".into()))?.to_owned();
        let headers = obj.get("headers").map(|h| string_map(name, "headers", h)).transpose()?.unwrap_or_default();
        return match kind {
            None => Ok(Target::Auto { url, headers }),
            Some("http" | "streamable-http" | "streamableHttp" | "streamable_http") => {
                Ok(Target::Http { url, headers })
            }
            Some("sse") => Ok(Target::Sse { url, headers }),
            Some(other) => Err(err(format!("\"type\" {other:?} is not http, streamable-http or sse"))),
        };
    }
    if let Some(command) = obj.get("command") {
        if let Some(k) = kind.filter(|k| *k != "stdio") {
            return Err(err(format!("\"type\" {k:?} needs a \"url\"")));
        }
        let command = command.as_str().ok_or_else(|| err("\"command\" must be a string".into()))?.to_owned();
        let args = obj.get("args").map(|a| strings(name, "args", a)).transpose()?.unwrap_or_default();
        let env = obj.get("env").map(|e| string_map(name, "env", e)).transpose()?.unwrap_or_default();
        return Ok(Target::Stdio { command, args, env });
    }
    Err(err("needs either \"command\" (stdio) or \"url\" (remote)".into()))
}

/// Every server of a configuration, in file order.
pub fn parse(text: &str) -> Result<Vec<(String, Target)>, ConfigError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| ConfigError::NotJson(e.to_string()))?;
    let servers = doc.get("mcpServers").and_then(Value::as_object).ok_or(ConfigError::NoServers)?;
    servers.iter().map(|(name, entry)| Ok((name.clone(), server_target(name, entry)?))).collect()
}

/// The server called `name`.
pub fn pick(text: &str, name: &str) -> Result<Target, ConfigError> {
    let all = parse(text)?;
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    let joined = names.join(", ");
    all.into_iter().find(|(n, _)| n == name).map(|(_, t)| t).ok_or(ConfigError::Unknown(name.into(), joined))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const SAMPLE: &str = r#"{"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"DEBUG": "1"}},
        "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer t"}},
        "legacy": {"type": "sse", "url": "http://127.0.0.1:3001/sse"},
        "guess": {"url": "http://127.0.0.1:3001/mcp"}
    }}"#;

    #[test]
    fn reads_every_kind_of_entry() {
        let all = parse(SAMPLE).unwrap();
        let shown: Vec<String> =
            all.iter().map(|(n, t)| format!("{n}: {}", serde_json::to_string(t).unwrap())).collect();
        expect![[r#"
            files: {"transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"env":{"DEBUG":"1"}}
            remote: {"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t"}}
            legacy: {"transport":"sse","url":"http://127.0.0.1:3001/sse","headers":{}}
            guess: {"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}"#]]
        .assert_eq(&shown.join("\n"));
        assert!(matches!(pick(SAMPLE, "legacy").unwrap(), Target::Sse { .. }));
    }

    #[test]
    fn errors_name_the_server_and_key() {
        let cases = [
            "nope",
            r#"{"servers": {}}"#,
            r#"{"mcpServers": {"a": {"command": 3}}}"#,
            r#"{"mcpServers": {"a": {"command": "x", "args": "y"}}}"#,
            r#"{"mcpServers": {"a": {"url": "http://x", "headers": {"A": 1}}}}"#,
            r#"{"mcpServers": {"a": {"url": "http://x", "type": "websocket"}}}"#,
            r#"{"mcpServers": {"a": {"comand": "x"}}}"#,
            r#"{"mcpServers": {"a": {}}}"#,
        ];
        let out: Vec<String> = cases.iter().map(|c| parse(c).unwrap_err().to_string()).collect();
        expect![[r#"
            not JSON: expected ident at line 1 column 2
            the configuration has no "mcpServers" object
            server "a": "command" must be a string
            server "a": "args" must be an array of strings
            server "a": "headers"."A" must be a string
            server "a": "type" "websocket" is not http, streamable-http or sse
            server "a": unknown key "comand"
            server "a": needs either "command" (stdio) or "url" (remote)"#]]
        .assert_eq(&out.join("\n"));
        expect![[r#"no server named "x" in the configuration (it has: files, remote, legacy, guess)"#]]
            .assert_eq(&pick(SAMPLE, "x").unwrap_err().to_string());
    }
}
