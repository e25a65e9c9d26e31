//! The `mcpServers` rules: every kind of entry, tolerance (unknown keys, broken entries),
//! `${VAR}` expansion and precise errors.

use expect_test::expect;

use super::*;

const SAMPLE: &str = r#"{"mcpServers": {
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"DEBUG": "1"}},
    "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer t"}},
    "legacy": {"type": "sse", "url": "http://127.0.0.1:3001/sse"},
    "guess": {"url": "http://127.0.0.1:3001/mcp"},
    "spelled": {"type": "streamable-http", "url": "http://127.0.0.1:3001/mcp"},
    "local": {"type": "stdio", "command": "python3", "args": ["server.py"], "cwd": "servers/py"}
}}"#;

fn no_env(_: &str) -> Option<String> {
    None
}

fn env(name: &str) -> Option<String> {
    match name {
        "TOKEN" => Some("s3cret".into()),
        "HOST" => Some("example.com".into()),
        _ => None,
    }
}

/// One line per entry: its target as JSON, or its error.
fn show(config: &Config) -> String {
    let lines: Vec<String> = config
        .servers
        .iter()
        .map(|e| match &e.target {
            Ok(t) => format!("{}: {}", e.name, serde_json::to_string(t).unwrap()),
            Err(err) => format!("{}: error: {err}", e.name),
        })
        .collect();
    lines.join("\n")
}

#[test]
fn reads_every_kind_of_entry() {
    let config = read(SAMPLE, &no_env).unwrap();
    expect![[r#"
        files: {"transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"env":{"DEBUG":"1"}}
        remote: {"transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer t"}}
        legacy: {"transport":"sse","url":"http://127.0.0.1:3001/sse","headers":{}}
        guess: {"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}}
        spelled: {"transport":"http","url":"http://127.0.0.1:3001/mcp","headers":{}}
        local: {"transport":"stdio","command":"python3","args":["server.py"],"env":{},"cwd":"servers/py"}"#]]
    .assert_eq(&show(&config));
    assert!(config.warnings.is_empty());
    assert!(matches!(config.get("legacy").unwrap(), Target::Sse { .. }));
    assert_eq!(config.names(), ["files", "remote", "legacy", "guess", "spelled", "local"]);
}

#[test]
fn keys_of_other_tools_are_ignored_with_a_warning() {
    // Cursor, MCPJam, Cline and the inspector's exports add keys of their own.
    let text = r#"{"globalShortcut": "Ctrl+M", "mcpServers": {
        "a": {"command": "x", "autoApprove": ["t"], "envFile": ".env", "disabled": false},
        "b": {"url": "http://x/mcp", "note": "added by the inspector", "timeout": 30}
    }}"#;
    let config = read(text, &no_env).unwrap();
    expect![[r#"
        a: {"transport":"stdio","command":"x","args":[],"env":{}}
        b: {"transport":"auto","url":"http://x/mcp","headers":{}}"#]]
    .assert_eq(&show(&config));
    expect![[r#"
        server "a": unknown key "autoApprove" ignored
        server "a": unknown key "envFile" ignored
        server "b": unknown key "note" ignored"#]]
    .assert_eq(&config.warnings.join("\n"));
}

#[test]
fn a_broken_entry_fails_only_when_picked() {
    let text = r#"{"mcpServers": {
        "good": {"command": "node", "args": ["s.js"]},
        "bad": {"command": "node", "args": "s.js"},
        "secret": {"url": "https://x/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
    }}"#;
    let config = read(text, &no_env).unwrap();
    expect![[r#"
        good: {"transport":"stdio","command":"node","args":["s.js"],"env":{}}
        bad: error: server "bad": "args" must be an array of strings
        secret: error: server "secret": "headers"."Authorization": variable TOKEN is not set"#]]
    .assert_eq(&show(&config));
    assert!(config.get("good").is_ok());
    expect![[r#"server "bad": "args" must be an array of strings"#]]
        .assert_eq(&config.get("bad").unwrap_err().to_string());
    expect![[r#"no server named "nope" in the configuration (it has: good, bad, secret)"#]]
        .assert_eq(&config.get("nope").unwrap_err().to_string());
    // What the page is shown beside the name: the problem without the name again.
    let offered: Vec<String> = config.servers.iter().map(|e| serde_json::to_string(&e.offered()).unwrap()).collect();
    expect![[r#"
        {"name":"good","target":{"transport":"stdio","command":"node","args":["s.js"],"env":{}}}
        {"name":"bad","error":"\"args\" must be an array of strings"}
        {"name":"secret","error":"\"headers\".\"Authorization\": variable TOKEN is not set"}"#]]
    .assert_eq(&offered.join("\n"));
    expect![[r#"server "bad": "args" must be an array of strings"#]]
        .assert_eq(&read(text, &no_env).unwrap().get("bad").unwrap_err().to_string());
    expect!["no server named \"x\" in the configuration (it has: no servers)"]
        .assert_eq(&read(r#"{"mcpServers": {}}"#, &no_env).unwrap().get("x").unwrap_err().to_string());
}

#[test]
fn variables_are_expanded_where_values_are_read() {
    let text = r#"{"mcpServers": {
        "remote": {"url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}", "X-Literal": "$${TOKEN}"}},
        "local": {"command": "${BIN:-node}", "args": ["--token=${TOKEN}", "$HOME"], "env": {"API_KEY": "${TOKEN}"}, "cwd": "${HOST}/dir"},
        "unset": {"command": "x", "env": {"KEY": "${NOPE}"}},
        "in-args": {"command": "x", "args": ["a", "${NOPE}"]},
        "in-url": {"url": "${NOPE}/mcp"},
        "vscode-input": {"command": "x", "env": {"KEY": "${input:key}"}}
    }}"#;
    let config = read(text, &env).unwrap();
    expect![[r#"
        remote: {"transport":"auto","url":"https://example.com/mcp","headers":{"Authorization":"Bearer s3cret","X-Literal":"${TOKEN}"}}
        local: {"transport":"stdio","command":"node","args":["--token=s3cret","$HOME"],"env":{"API_KEY":"s3cret"},"cwd":"example.com/dir"}
        unset: error: server "unset": "env"."KEY": variable NOPE is not set
        in-args: error: server "in-args": "args"[1]: variable NOPE is not set
        in-url: error: server "in-url": "url": variable NOPE is not set
        vscode-input: error: server "vscode-input": "env"."KEY": "${input:key}" is not a variable reference (write ${VAR}, ${env:VAR} or ${VAR:-default}; $${ for a literal ${)"#]]
    .assert_eq(&show(&config));
}

#[test]
fn errors_name_the_server_and_key() {
    let whole = ["nope", r#"{"servers": {}}"#, r#"{"mcpServers": []}"#];
    let out: Vec<String> = whole.iter().map(|c| read(c, &no_env).unwrap_err().to_string()).collect();
    expect![[r#"
        not JSON: expected ident at line 1 column 2
        the configuration has no "mcpServers" object
        the configuration has no "mcpServers" object"#]]
    .assert_eq(&out.join("\n"));
    let entries = r#"{"mcpServers": {
        "not-object": "npx server",
        "command-type": {"command": 3},
        "args-items": {"command": "x", "args": ["a", 1]},
        "env-type": {"command": "x", "env": ["A=1"]},
        "env-value": {"command": "x", "env": {"PORT": 3000}},
        "cwd-type": {"command": "x", "cwd": false},
        "header-value": {"url": "http://x", "headers": {"A": 1}},
        "url-type": {"url": 80},
        "type-unknown": {"url": "http://x", "type": "websocket"},
        "type-type": {"url": "http://x", "type": 1},
        "transport-key": {"url": "http://x", "transport": "ws"},
        "http-without-url": {"type": "http", "command": "x"},
        "stdio-without-command": {"type": "stdio", "url": "http://x"},
        "both": {"command": "x", "url": "http://x"},
        "neither": {"comand": "x"}
    }}"#;
    expect![[r#"
        not-object: error: server "not-object": must be an object
        command-type: error: server "command-type": "command" must be a string
        args-items: error: server "args-items": "args" must be an array of strings
        env-type: error: server "env-type": "env" must be an object of strings
        env-value: error: server "env-value": "env"."PORT" must be a string
        cwd-type: error: server "cwd-type": "cwd" must be a string
        header-value: error: server "header-value": "headers"."A" must be a string
        url-type: error: server "url-type": "url" must be a string
        type-unknown: error: server "type-unknown": "type" "websocket" is not "stdio", "http", "streamable-http" or "sse"
        type-type: error: server "type-type": "type" must be a string
        transport-key: error: server "transport-key": "transport" "ws" is not "stdio", "http", "streamable-http" or "sse"
        http-without-url: error: server "http-without-url": "type" "http" needs a "url"
        stdio-without-command: error: server "stdio-without-command": "type" "stdio" needs a "command"
        both: error: server "both": has both "command" and "url": add "type" to say which to use
        neither: error: server "neither": needs either "command" (stdio) or "url" (remote)"#]]
    .assert_eq(&show(&read(entries, &no_env).unwrap()));
}

#[test]
fn an_entry_may_pin_a_protocol_revision() {
    use crate::revision::Revision;
    let text = r#"{"mcpServers": {
        "old": {"type": "sse", "url": "http://127.0.0.1:1/sse", "protocolVersion": "2024-11-05"},
        "plain": {"command": "node"},
        "auto": {"command": "node", "protocolVersion": "auto"},
        "typo": {"command": "node", "protocolVersion": "2024-11-5"},
        "number": {"command": "node", "protocolVersion": 20241105}
    }}"#;
    let config = read(text, &no_env).unwrap();
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    let protocols: Vec<_> = config.servers.iter().map(|e| (e.name.as_str(), e.protocol, e.target.is_ok())).collect();
    assert_eq!(
        protocols,
        [
            ("old", ProtocolChoice::Pinned(Revision::V2024_11_05), true),
            ("plain", ProtocolChoice::Auto, true),
            ("auto", ProtocolChoice::Auto, true),
            ("typo", ProtocolChoice::Auto, false),
            ("number", ProtocolChoice::Auto, false),
        ]
    );
    expect![[r#"server "typo": "protocolVersion": unknown protocol revision "2024-11-5": use auto or one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28"#]]
        .assert_eq(&config.get("typo").unwrap_err().to_string());
    assert_eq!(config.servers[0].offered().protocol, ProtocolChoice::Pinned(Revision::V2024_11_05));
}
