//! A call taken elsewhere: the command line that makes it again (`mcp-playground call`), the
//! JSON-RPC request as it was sent, and for HTTP servers `curl`. The server is named as it
//! was connected (the demo, a command, a URL); every environment and header value is a
//! `${VAR}` placeholder for the shell to fill in, never its value.

use serde_json::{Value, json};

use crate::cmdline::join_command_line;
use crate::relay::Target;
use crate::revision::{ProtocolChoice, Revision};
use crate::session::Session;
use crate::timeline::{RowDirection, RowKind};

/// One `tools/call` request as it was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: String,
    /// `params.arguments`, when the request had them.
    pub arguments: Option<Value>,
    /// The frame, byte for byte.
    pub request: String,
}

impl Call {
    /// The call a `tools/call` request frame makes.
    pub fn from_request(raw: &str) -> Option<Call> {
        let body: Value = serde_json::from_str(raw).ok()?;
        if body.get("method").and_then(Value::as_str) != Some("tools/call") {
            return None;
        }
        let tool = body["params"]["name"].as_str()?.to_owned();
        let arguments = body["params"].get("arguments").cloned().filter(|a| !a.is_null());
        Some(Call { tool, arguments, request: raw.to_owned() })
    }
}

/// The call of timeline row `seq`: a `tools/call` request, or the answer to one.
pub fn of_row(s: &Session, seq: usize) -> Option<Call> {
    let row = s.timeline().rows().get(seq)?;
    let request = match row.direction {
        RowDirection::Out => row,
        _ => s.timeline().rows().get(row.partner?)?,
    };
    Call::from_request(&request.raw)
}

/// The newest call of `tool` sent in this session (in playback: up to where it stands),
/// the one the result pane shows.
pub fn newest(s: &Session, tool: &str) -> Option<Call> {
    s.timeline()
        .rows()
        .iter()
        .rev()
        .filter(|r| r.direction == RowDirection::Out && r.kind == RowKind::Request)
        .filter(|r| r.method.as_deref() == Some("tools/call") && r.subject.as_deref() == Some(tool))
        .find_map(|r| Call::from_request(&r.raw))
}

/// The shell variable that stands for the value of an env variable or a header: its name
/// in capitals, every other character `_` (`X-Api-Key` → `X_API_KEY`).
pub fn variable(name: &str) -> String {
    let var: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    if var.starts_with(|c: char| c.is_ascii_digit()) || var.is_empty() { format!("_{var}") } else { var }
}

/// `NAME: ${VAR}` (or `KEY=${VAR}`), double-quoted so that the shell fills it in.
fn with_placeholder(prefix: &str, name: &str) -> String {
    // The prefix is a name (no `"`, `$`, `` ` `` or `\` in it) or it is left out.
    let prefix: String = prefix.chars().filter(|c| !matches!(c, '"' | '$' | '`' | '\\')).collect();
    format!("\"{prefix}${{{}}}\"", variable(name))
}

/// A server of a `--config` file: the file (absolute) and the server's name in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Configured<'a> {
    pub file: &'a str,
    pub name: &'a str,
}

/// The server of the `--config` file `s` was connected to, when its target is one of the
/// file's, as the relay offered it.
pub fn configured(s: &Session) -> Option<Configured<'_>> {
    let relay = s.relay()?;
    let target = s.target()?;
    let server = relay.servers.iter().find(|c| c.target.as_ref().ok() == Some(target))?;
    Some(Configured { file: relay.config.as_deref()?, name: &server.name })
}

/// `mcp-playground call TOOL --args '…' SERVER…`: the same call, run in a shell; a server
/// of a `--config` file is named by the file and its name there.
pub fn command(call: &Call, target: &Target, protocol: ProtocolChoice, configured: Option<Configured>) -> String {
    let mut words = vec!["mcp-playground".to_owned(), "call".into(), call.tool.clone()];
    let mut line = join_command_line(&words);
    if let Some(args) = &call.arguments {
        words = vec!["--args".into(), args.to_string()];
        line = format!("{line} {}", join_command_line(&words));
    }
    if protocol != ProtocolChoice::Auto {
        line = format!("{line} --protocol {}", protocol.as_str());
    }
    if let Some(Configured { file, name }) = configured {
        return format!("{line} --config {} --server {}", join_command_line(&[file]), join_command_line(&[name]));
    }
    match target {
        Target::Demo => line,
        Target::Stdio { command, args, env, cwd } => {
            for key in env.keys() {
                line = format!("{line} -e {}", with_placeholder(&format!("{key}="), key));
            }
            if let Some(cwd) = cwd {
                line = format!("{line} --cwd {}", join_command_line(&[cwd]));
            }
            let server: Vec<&String> = std::iter::once(command).chain(args).collect();
            format!("{line} -- {}", join_command_line(&server))
        }
        Target::Http { url, headers } | Target::Sse { url, headers } | Target::Auto { url, headers } => {
            let transport = match target {
                Target::Http { .. } => " --transport http",
                Target::Sse { .. } => " --transport sse",
                _ => "",
            };
            for name in headers.keys() {
                line = format!("{line} --header {}", with_placeholder(&format!("{name}: "), name));
            }
            format!("{line}{transport} --url {}", join_command_line(&[url]))
        }
    }
}

/// The request, pretty-printed (its text as sent when it is no JSON).
pub fn jsonrpc(call: &Call) -> String {
    serde_json::from_str::<Value>(&call.request)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| call.request.clone())
}

/// `curl` making the call over Streamable HTTP, with the headers the transport needs: for
/// 2026-07-28 one request; before it, `initialize` first for a session, then the call
/// in it. `None` for a server not reached over Streamable HTTP.
pub fn curl(call: &Call, target: &Target, revision: Revision) -> Option<String> {
    let (url, headers) = match target {
        Target::Http { url, headers } | Target::Auto { url, headers } => (url, headers),
        _ => return None,
    };
    let mut base = format!("curl -sS {} -H 'Content-Type: application/json'", join_command_line(&[url]));
    base.push_str(" -H 'Accept: application/json, text/event-stream'");
    for name in headers.keys() {
        base = format!("{base} -H {}", with_placeholder(&format!("{name}: "), name));
    }
    let version = format!(" -H 'MCP-Protocol-Version: {}'", revision.as_str());
    let data = |body: &str| format!(" --data {}", join_command_line(&[body]));
    if revision >= Revision::V2026_07_28 {
        let body: Value = serde_json::from_str(&call.request).ok()?;
        let mut line = format!("{base}{version}");
        for (name, value) in crate::http_headers::standard(&body) {
            line = format!("{line} -H {}", join_command_line(&[format!("{name}: {value}")]));
        }
        return Some(format!("{line}{}", data(&call.request)));
    }
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": revision.as_str(), "capabilities": {},
        "clientInfo": {"name": "mcp-playground-curl", "version": env!("CARGO_PKG_VERSION")},
    }});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let session = " -H \"Mcp-Session-Id: $SESSION\"";
    Some(format!(
        "SESSION=$({base}{} -D - -o /dev/null | tr -d '\\r' | sed -n 's/^[Mm][Cc][Pp]-[Ss]ession-[Ii][Dd]: //p')\n\
         {base}{version}{session}{} -o /dev/null\n\
         {base}{version}{session}{}",
        data(&initialize.to_string()),
        data(&initialized.to_string()),
        data(&call.request),
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use expect_test::expect;

    use super::*;

    fn call() -> Call {
        Call::from_request(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lisbon's"}}}"#)
            .unwrap()
    }

    #[test]
    fn the_command_names_the_server_as_it_was_connected_with_placeholders_for_secrets() {
        let env =
            BTreeMap::from([("API_KEY".to_owned(), "sk-secret".to_owned()), ("my-var".to_owned(), "v".to_owned())]);
        let stdio = Target::Stdio {
            command: "node".into(),
            args: vec!["server.js".into(), "--name=a b".into()],
            env,
            cwd: Some("/srv/my app".into()),
        };
        expect![[r#"mcp-playground call get_weather --args '{"city":"Lisbon'\''s"}' -e "API_KEY=${API_KEY}" -e "my-var=${MY_VAR}" --cwd '/srv/my app' -- node server.js '--name=a b'"#]]
            .assert_eq(&command(&call(), &stdio, ProtocolChoice::Auto, None));
        expect![[r#"mcp-playground call get_weather --args '{"city":"Lisbon'\''s"}'"#]].assert_eq(&command(
            &call(),
            &Target::Demo,
            ProtocolChoice::Auto,
            None,
        ));
        let headers = BTreeMap::from([("Authorization".to_owned(), "Bearer sk-secret".to_owned())]);
        let http = Target::Http { url: "http://127.0.0.1:8000/mcp".into(), headers };
        let pinned = ProtocolChoice::parse("2025-06-18").unwrap();
        let line = command(&call(), &http, pinned, None);
        expect![[r#"mcp-playground call get_weather --args '{"city":"Lisbon'\''s"}' --protocol 2025-06-18 --header "Authorization: ${AUTHORIZATION}" --transport http --url http://127.0.0.1:8000/mcp"#]]
            .assert_eq(&line);
        assert!(!line.contains("sk-secret"));
        let none =
            Call::from_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}"#).unwrap();
        assert_eq!(command(&none, &Target::Demo, ProtocolChoice::Auto, None), "mcp-playground call ping");
        let named = Configured { file: "/home/me/my mcp.json", name: "files" };
        assert_eq!(
            command(&none, &stdio, ProtocolChoice::Auto, Some(named)),
            "mcp-playground call ping --config '/home/me/my mcp.json' --server files"
        );
    }

    #[test]
    fn curl_opens_a_session_before_2026_and_sends_one_request_after() {
        let headers = BTreeMap::from([("X-Api-Key".to_owned(), "sk-secret".to_owned())]);
        let http = Target::Http { url: "http://127.0.0.1:8000/mcp".into(), headers };
        let stateful = curl(&call(), &http, Revision::V2025_06_18).unwrap();
        assert!(!stateful.contains("sk-secret"));
        assert_eq!(stateful.lines().count(), 3, "{stateful}");
        assert!(stateful.starts_with("SESSION=$(curl -sS http://127.0.0.1:8000/mcp"), "{stateful}");
        assert!(stateful.contains(r#"-H "X-Api-Key: ${X_API_KEY}""#), "{stateful}");
        assert!(stateful.lines().nth(2).unwrap().contains(r#"-H "Mcp-Session-Id: $SESSION""#));
        let stateless = curl(&call(), &http, Revision::V2026_07_28).unwrap();
        expect![[r#"curl -sS http://127.0.0.1:8000/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -H "X-Api-Key: ${X_API_KEY}" -H 'MCP-Protocol-Version: 2026-07-28' -H 'mcp-method: tools/call' -H 'mcp-name: get_weather' --data '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lisbon'\''s"}}}'"#]]
            .assert_eq(&stateless);
        assert_eq!(curl(&call(), &Target::Demo, Revision::V2025_06_18), None);
        let sse = Target::Sse { url: "http://x/sse".into(), headers: BTreeMap::new() };
        assert_eq!(curl(&call(), &sse, Revision::V2024_11_05), None);
    }

    #[test]
    fn variables_are_shell_names_and_only_calls_are_copied() {
        assert_eq!(variable("x-api-key"), "X_API_KEY");
        assert_eq!(variable("1password"), "_1PASSWORD");
        assert_eq!(variable("a$b"), "A_B");
        assert!(Call::from_request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).is_none());
        assert!(Call::from_request("not json").is_none());
        assert!(jsonrpc(&call()).starts_with("{\n  \"jsonrpc\": \"2.0\""));
    }
}
