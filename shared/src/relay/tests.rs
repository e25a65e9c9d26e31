//! The relay's wire messages: their JSON pinned, and what the page's strict reader refuses.

use super::*;
use expect_test::expect;

fn json<T: Serialize>(t: &T) -> String {
    serde_json::to_string(t).unwrap()
}

#[test]
fn client_messages_json_is_pinned() {
    let msgs = [
        ClientMsg::Connect { target: Target::Demo, oauth: Default::default() },
        ClientMsg::Connect {
            oauth: Default::default(),
            target: Target::Stdio {
                command: "node".into(),
                args: vec!["server.js".into()],
                env: [("DEBUG".to_string(), "1".to_string())].into(),
                cwd: None,
            },
        },
        ClientMsg::Send { frame: r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into() },
        ClientMsg::Disconnect {},
        ClientMsg::Connect {
            oauth: Default::default(),
            target: Target::Http {
                url: "http://127.0.0.1:3001/mcp".into(),
                headers: [("Authorization".to_string(), "Bearer x".to_string())].into(),
            },
        },
        ClientMsg::Connect {
            oauth: Default::default(),
            target: Target::Sse { url: "http://127.0.0.1:3001/sse".into(), headers: Default::default() },
        },
        ClientMsg::Connect {
            oauth: Default::default(),
            target: Target::Auto { url: "https://example.com/mcp".into(), headers: Default::default() },
        },
        ClientMsg::KeepSecrets {
            server: "http https://example.com/mcp".into(),
            secrets: Secrets { env: Default::default(), headers: [("Authorization".into(), "Bearer x".into())].into() },
        },
        ClientMsg::RecallSecrets { server: "stdio node server.js".into() },
        ClientMsg::Icon { src: "https://e.example/i.png".into() },
    ];
    let out: Vec<String> = msgs.iter().map(json).collect();
    expect![[r#"
        {"type":"connect","target":{"transport":"demo"}}
        {"type":"connect","target":{"transport":"stdio","command":"node","args":["server.js"],"env":{"DEBUG":"1"}}}
        {"type":"send","frame":"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"}
        {"type":"disconnect"}
        {"type":"connect","target":{"transport":"http","url":"http://127.0.0.1:3001/mcp","headers":{"Authorization":"Bearer x"}}}
        {"type":"connect","target":{"transport":"sse","url":"http://127.0.0.1:3001/sse","headers":{}}}
        {"type":"connect","target":{"transport":"auto","url":"https://example.com/mcp","headers":{}}}
        {"type":"keep_secrets","server":"http https://example.com/mcp","secrets":{"headers":{"Authorization":"Bearer x"}}}
        {"type":"recall_secrets","server":"stdio node server.js"}
        {"type":"icon","src":"https://e.example/i.png"}"#]]
    .assert_eq(&out.join("\n"));
    for (m, j) in msgs.iter().zip(&out) {
        assert_eq!(&ClientMsg::read(j).unwrap(), m, "{j} does not read back");
    }
}

#[test]
fn server_messages_json_is_pinned() {
    let msgs = [
        ServerMsg::Hello(RelayInfo {
            preset_oauth: Default::default(),
            protocol: RELAY_PROTOCOL,
            version: "0.1.0".into(),
            preset: Target::Demo,
            preset_protocol: ProtocolChoice::Auto,
            limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
            servers: vec![],
            recording: false,
            playback: false,
            sandbox: None,
            config: None,
        }),
        ServerMsg::Hello(RelayInfo {
            preset_oauth: Default::default(),
            protocol: RELAY_PROTOCOL,
            version: "0.1.0".into(),
            preset: Target::Auto { url: "http://127.0.0.1:3001/mcp".into(), headers: Default::default() },
            preset_protocol: ProtocolChoice::Pinned(crate::revision::Revision::V2025_03_26),
            limits: Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
            servers: vec![
                ConfiguredServer {
                    oauth: Default::default(),
                    name: "files".into(),
                    target: Ok(Target::Stdio {
                        command: "npx".into(),
                        args: vec!["-y".into()],
                        env: Default::default(),
                        cwd: Some("/srv".into()),
                    }),
                    protocol: ProtocolChoice::Pinned(crate::revision::Revision::V2024_11_05),
                },
                ConfiguredServer {
                    oauth: Default::default(),
                    name: "broken".into(),
                    target: Err("\"args\" must be an array of strings".into()),
                    protocol: ProtocolChoice::Auto,
                },
            ],
            recording: true,
            playback: true,
            sandbox: Some("http://127.0.0.1:41234".into()),
            config: None,
        }),
        ServerMsg::Message { direction: Direction::In, at_ms: 1.5, size: 2, frame: "{}".into() },
        ServerMsg::Sent { n: 7, at_ms: 1.75, size: 42 },
        ServerMsg::Event {
            at_ms: 2.0,
            event: RelayEvent::Spawned { pid: Some(42), command: "node".into(), args: vec![] },
        },
        ServerMsg::Event { at_ms: 3.0, event: RelayEvent::Stderr { line: "warn".into(), truncated: false } },
        ServerMsg::Event {
            at_ms: 4.0,
            event: RelayEvent::InvalidFrame { preview: "hello".into(), size: 5, error: "not JSON".into() },
        },
        ServerMsg::Event { at_ms: 5.0, event: RelayEvent::Oversized { direction: Direction::In, size: 9, limit: 8 } },
        ServerMsg::Event { at_ms: 6.0, event: RelayEvent::Exited { code: Some(1), signal: None } },
        ServerMsg::Event { at_ms: 7.0, event: RelayEvent::Closed { reason: "disconnected".into(), asked: true } },
        ServerMsg::Event { at_ms: 8.0, event: RelayEvent::Error { message: "spawn failed".into() } },
        ServerMsg::Event {
            at_ms: 9.0,
            event: RelayEvent::Connected {
                transport: "http".into(),
                url: "http://127.0.0.1:1/mcp".into(),
                headers: vec!["Authorization: Bearer ••••".into()],
            },
        },
        ServerMsg::Event { at_ms: 11.0, event: RelayEvent::Note { message: "using legacy SSE".into() } },
        ServerMsg::Event {
            at_ms: 10.0,
            event: RelayEvent::RequestFailed { id: serde_json::json!(3), message: "stream closed".into() },
        },
        ServerMsg::Secrets {
            server: "stdio node server.js".into(),
            secrets: Secrets { env: [("API_KEY".into(), "k".into())].into(), headers: Default::default() },
        },
        ServerMsg::Icon {
            src: "https://e.example/i.png".into(),
            data: Some("data:image/png;base64,AA==".into()),
            error: None,
        },
        ServerMsg::Icon { src: "https://e.example/j.png".into(), data: None, error: Some("not an image".into()) },
    ];
    let out: Vec<String> = msgs.iter().map(json).collect();
    expect![[r#"
        {"type":"hello","protocol":4,"relay_version":"0.1.0","preset":{"transport":"demo"},"limits":{"max_message_bytes":1024,"max_stderr_line_bytes":64},"servers":[]}
        {"type":"hello","protocol":4,"relay_version":"0.1.0","preset":{"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}},"preset_protocol":"2025-03-26","limits":{"max_message_bytes":1024,"max_stderr_line_bytes":64},"servers":[{"name":"files","target":{"transport":"stdio","command":"npx","args":["-y"],"env":{},"cwd":"/srv"},"protocol":"2024-11-05"},{"name":"broken","error":"\"args\" must be an array of strings"}],"recording":true,"playback":true,"sandbox":"http://127.0.0.1:41234"}
        {"type":"message","direction":"in","at_ms":1.5,"size":2,"frame":"{}"}
        {"type":"sent","n":7,"at_ms":1.75,"size":42}
        {"type":"event","at_ms":2.0,"event":{"kind":"spawned","pid":42,"command":"node","args":[]}}
        {"type":"event","at_ms":3.0,"event":{"kind":"stderr","line":"warn","truncated":false}}
        {"type":"event","at_ms":4.0,"event":{"kind":"invalid_frame","preview":"hello","size":5,"error":"not JSON"}}
        {"type":"event","at_ms":5.0,"event":{"kind":"oversized","direction":"in","size":9,"limit":8}}
        {"type":"event","at_ms":6.0,"event":{"kind":"exited","code":1,"signal":null}}
        {"type":"event","at_ms":7.0,"event":{"kind":"closed","reason":"disconnected","asked":true}}
        {"type":"event","at_ms":8.0,"event":{"kind":"error","message":"spawn failed"}}
        {"type":"event","at_ms":9.0,"event":{"kind":"connected","transport":"http","url":"http://127.0.0.1:1/mcp","headers":["Authorization: Bearer ••••"]}}
        {"type":"event","at_ms":11.0,"event":{"kind":"note","message":"using legacy SSE"}}
        {"type":"event","at_ms":10.0,"event":{"kind":"request_failed","id":3,"message":"stream closed"}}
        {"type":"secrets","server":"stdio node server.js","secrets":{"env":{"API_KEY":"k"}}}
        {"type":"icon","src":"https://e.example/i.png","data":"data:image/png;base64,AA=="}
        {"type":"icon","src":"https://e.example/j.png","error":"not an image"}"#]]
    .assert_eq(&out.join("\n"));
    for (m, j) in msgs.iter().zip(&out) {
        assert_eq!(&ServerMsg::read(j).unwrap(), m, "{j} does not read back");
    }
    let targets = [
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"stdio","command":"node"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"sse","url":"http://x","headers":{"A":"b"}},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"auto","url":"http://x"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"spawned","command":"x","args":["a"]}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"exited","code":null,"signal":9}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","target":null,"error":"x"},{"name":"b","target":{"transport":"stdio","command":"c","cwd":null}}]}"#,
    ];
    // What may be left out is filled in: no args, no headers, a null cwd or target.
    for j in targets {
        assert!(ServerMsg::read(j).is_ok(), "{j}");
    }
}

#[test]
fn the_pages_reader_refuses_and_says_why() {
    let bad = [
        "not json",
        "[]",
        r#"{"type":"hi"}"#,
        r#"{"protocol":1}"#,
        r#"{"type":"message","direction":"in","at_ms":1,"size":2,"frame":"{}","extra":1}"#,
        r#"{"type":"message","direction":"sideways","at_ms":1,"size":2,"frame":"{}"}"#,
        r#"{"type":"message","direction":"in","at_ms":"1","size":2,"frame":"{}"}"#,
        r#"{"type":"message","direction":"in","at_ms":1,"size":-2,"frame":"{}"}"#,
        r#"{"type":"message","direction":"in","at_ms":1,"size":2.5,"frame":"{}"}"#,
        r#"{"type":"message","direction":"in","at_ms":1,"size":2}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"stderr","line":"x"}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"stderr","line":"x","truncated":false,"more":1}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"exploded"}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"spawned","pid":-1,"command":"x","args":[]}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"spawned","pid":1,"command":"x"}}"#,
        r#"{"type":"event","at_ms":1,"event":{"kind":"connected","transport":"http","url":"u","headers":[1]}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"ftp"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"stdio","command":"x","env":{"A":1}},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":4294967296,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":null}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":{}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a"}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","target":{"transport":"demo"},"error":"x"}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","error":"x","note":"y"}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":1,"error":"x"}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","target":{"transport":"ftp"}}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","error":7}]}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"preset_protocol":"1999-01-01","limits":{"max_message_bytes":1,"max_stderr_line_bytes":1}}"#,
        r#"{"type":"hello","protocol":1,"relay_version":"1","preset":{"transport":"demo"},"limits":{"max_message_bytes":1,"max_stderr_line_bytes":1},"servers":[{"name":"a","error":"x","protocol":5}]}"#,
    ];
    let mut out = Vec::new();
    for j in bad {
        out.push(ServerMsg::read(j).expect_err(j).to_string());
    }
    expect![[r#"
        expected ident at line 1 column 2
        invalid type: sequence, expected an object with `type` first at line 1 column 0
        unknown variant `hi`, expected one of `hello`, `message`, `sent`, `event`, `secrets`, `icon` at line 1 column 12
        `type` must be the first field at line 1 column 11
        unknown field `extra`, expected one of `direction`, `at_ms`, `size`, `frame` at line 1 column 74
        unknown variant `sideways`, expected `out` or `in` at line 1 column 40
        invalid type: string "1", expected f64 at line 1 column 46
        invalid value: integer `-2`, expected usize at line 1 column 54
        invalid type: floating point `2.5`, expected usize at line 1 column 55
        missing field `frame` at line 1 column 54
        missing field `truncated` at line 1 column 62
        unknown field `more`, expected `line` or `truncated` at line 1 column 86
        unknown variant `exploded`, expected one of `spawned`, `connected`, `request_failed`, `stderr`, `invalid_frame`, `oversized`, `exited`, `closed`, `error`, `note`, `detected`, `auth`, `auth_exchange` at line 1 column 52
        invalid value: integer `-1`, expected u32 at line 1 column 60
        missing field `args` at line 1 column 74
        invalid type: integer `1`, expected a string at line 1 column 95
        unknown variant `ftp`, expected one of `demo`, `stdio`, `http`, `sse`, `auto` at line 1 column 76
        missing field `max_stderr_line_bytes` at line 1 column 111
        invalid type: integer `1`, expected a string at line 1 column 105
        invalid value: integer `4294967296`, expected u32 at line 1 column 37
        invalid type: null, expected a sequence at line 1 column 152
        invalid type: map, expected a sequence at line 1 column 148
        configured server `a`: expected either `target` or `error` at line 1 column 162
        configured server `a`: expected either `target` or `error` at line 1 column 204
        unknown field `note`, expected one of `name`, `target`, `error`, `protocol`, `oauth` at line 1 column 179
        invalid type: integer `1`, expected a string at line 1 column 158
        unknown variant `ftp`, expected one of `demo`, `stdio`, `http`, `sse`, `auto` at line 1 column 188
        invalid type: integer `7`, expected a string at line 1 column 170
        unknown protocol revision "1999-01-01": use auto or one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 at line 1 column 109
        invalid type: integer `5`, expected a string at line 1 column 185"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn our_own_messages_are_read_strictly() {
    let typo = r#"{"type":"connect","target":{"transport":"stdio","comand":"node"}}"#;
    let err = ClientMsg::read(typo).unwrap_err().to_string();
    assert!(err.contains("comand"), "{err}");
    for bad in [
        r#"{"type":"launch"}"#,
        r#"{"type":"send","frame":"{}","x":1}"#,
        r#"{"type":"send","frame":{}}"#,
        r#"{"type":"send"}"#,
        r#"{"type":"connect"}"#,
        r#"{"type":"connect","target":{"transport":"http"}}"#,
        "binary frame",
    ] {
        assert!(ClientMsg::read(bad).is_err(), "the relay's reader accepts {bad}");
    }
    // Unknown fields are refused in a message without fields too.
    assert!(ClientMsg::read(r#"{"type":"disconnect","now":true}"#).is_err());
}
