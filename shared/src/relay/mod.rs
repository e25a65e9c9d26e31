//! The browser⇄relay wire protocol: one JSON object per WebSocket text message, tagged by
//! `"type"`, one enum per direction. Strict readers: a typo in either half fails loudly.
//!
//! MCP frames travel as strings (`frame`), exactly as they were read or will be written:
//! the relay never re-encodes them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::revision::ProtocolChoice;

mod auth;
mod secrets;
mod transport;

pub use auth::{AuthExchange, AuthState, OAuthSettings};
pub use secrets::Secrets;
pub use transport::Transport;

/// Version of this wire protocol; the relay states it in [`ServerMsg::Hello`].
pub const RELAY_PROTOCOL: u32 = 1;

/// Why a wire message of ours could not be read.
pub type ReadError = serde_json::Error;

/// Which server to connect to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "transport", rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    /// The built-in demo server, run by the relay's own binary over stdio.
    Demo,
    /// A local command spoken to over stdio (newline-delimited JSON-RPC).
    Stdio {
        command: String,
        #[serde(default)]
        args: Vec<String>,
        #[serde(default)]
        env: BTreeMap<String, String>,
        /// The directory the command starts in (default: the relay's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// A remote server over Streamable HTTP (revisions 2025-03-26 and later).
    Http {
        url: String,
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
    /// A remote server over the legacy HTTP+SSE transport (2024-11-05).
    Sse {
        url: String,
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
    /// A remote URL whose transport is found out: Streamable HTTP, else legacy SSE.
    Auto {
        url: String,
        #[serde(default)]
        headers: BTreeMap<String, String>,
    },
}

impl Target {
    pub fn transport(&self) -> Transport {
        match self {
            Target::Demo => Transport::Demo,
            Target::Stdio { .. } => Transport::Stdio,
            Target::Http { .. } => Transport::Http,
            Target::Sse { .. } => Transport::Sse,
            Target::Auto { .. } => Transport::Auto,
        }
    }

    /// A remote target's URL.
    pub fn url(&self) -> Option<&str> {
        match self {
            Target::Http { url, .. } | Target::Sse { url, .. } | Target::Auto { url, .. } => Some(url),
            Target::Demo | Target::Stdio { .. } => None,
        }
    }
}

/// A server of the relay's `--config` file, offered in the page beside the preset: where
/// to reach it, or why its entry could not be read (other entries stay usable).
///
/// On the wire: `{"name": …, "target": {…}}` or `{"name": …, "error": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ConfiguredWire", into = "ConfiguredWire")]
pub struct ConfiguredServer {
    pub name: String,
    pub target: Result<Target, String>,
    /// The entry's `protocolVersion`: auto when it names none.
    pub protocol: ProtocolChoice,
    /// The entry's `oauth` client id and scopes (its client secret stays in the relay).
    pub oauth: OAuthSettings,
}

/// The JSON shape of [`ConfiguredServer`]: exactly one of `target` and `error`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfiguredWire {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<Target>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(default, skip_serializing_if = "is_auto")]
    protocol: ProtocolChoice,
    #[serde(default, skip_serializing_if = "OAuthSettings::is_empty")]
    oauth: OAuthSettings,
}

/// A protocol choice left out of our wire messages when it is the default.
pub(crate) fn is_auto(choice: &ProtocolChoice) -> bool {
    *choice == ProtocolChoice::Auto
}

impl TryFrom<ConfiguredWire> for ConfiguredServer {
    type Error = String;

    fn try_from(w: ConfiguredWire) -> Result<Self, String> {
        ConfiguredServer::new(w.name, w.target, w.error, w.protocol, w.oauth)
    }
}

impl From<ConfiguredServer> for ConfiguredWire {
    fn from(s: ConfiguredServer) -> Self {
        let (target, error) = match s.target {
            Ok(t) => (Some(t), None),
            Err(e) => (None, Some(e)),
        };
        ConfiguredWire { name: s.name, target, error, protocol: s.protocol, oauth: s.oauth }
    }
}

impl ConfiguredServer {
    fn new(
        name: String,
        target: Option<Target>,
        error: Option<String>,
        protocol: ProtocolChoice,
        oauth: OAuthSettings,
    ) -> Result<Self, String> {
        let target = match (target, error) {
            (Some(t), None) => Ok(t),
            (None, Some(e)) => Err(e),
            _ => return Err(format!("configured server `{name}`: expected either `target` or `error`")),
        };
        Ok(ConfiguredServer { name, target, protocol, oauth })
    }
}

/// Browser → relay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Start the upstream connection (one at a time per socket); `oauth` is used if the
    /// server asks for a sign-in.
    Connect {
        target: Target,
        #[serde(default, skip_serializing_if = "OAuthSettings::is_empty")]
        oauth: OAuthSettings,
    },
    /// Forward one JSON-RPC message to the server, byte for byte.
    Send { frame: String },
    /// End the upstream connection; the socket stays open. (A struct variant without fields,
    /// not a unit one: serde lets a unit variant of an internally tagged enum carry any
    /// field, a struct variant none but its own.)
    Disconnect {},
    /// Forget the OAuth tokens of the connected server (in memory and, with `--remember`,
    /// on disk) and end the connection.
    SignOut {},
    /// Keep the values of a saved server's env and headers in the relay's secrets file
    /// (the page keeps only their names); empty values forget them.
    KeepSecrets { server: String, secrets: Secrets },
    /// Ask for the values kept for a saved server: the answer is [`ServerMsg::Secrets`].
    RecallSecrets { server: String },
}

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Page → server.
    Out,
    /// Server → page.
    In,
}

/// Limits the relay enforces, announced so the page can explain a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Largest MCP message, either way, in bytes.
    pub max_message_bytes: usize,
    /// Longest stderr line kept, in bytes; the rest is cut.
    pub max_stderr_line_bytes: usize,
}

/// What the relay says of itself when a socket opens: the first message on every socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RelayInfo {
    /// [`RELAY_PROTOCOL`].
    pub protocol: u32,
    #[serde(rename = "relay_version")]
    pub version: String,
    /// The server chosen on the command line, or the demo server.
    pub preset: Target,
    /// The protocol revision chosen for it (`--protocol`, or its `mcpServers` entry).
    #[serde(default, skip_serializing_if = "is_auto")]
    pub preset_protocol: ProtocolChoice,
    /// The client id and scopes chosen for it (`--client-id`, `--scope`).
    #[serde(default, skip_serializing_if = "OAuthSettings::is_empty")]
    pub preset_oauth: OAuthSettings,
    pub limits: Limits,
    /// Every server of the `--config` file, in file order (none without one).
    #[serde(default)]
    pub servers: Vec<ConfiguredServer>,
    /// The relay writes every session to a file (`--record DIR`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recording: bool,
    /// A recording is loaded (`mcp-playground play FILE`): the page fetches it from
    /// `/api/recording` and plays it back.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub playback: bool,
    /// The origin of the sandbox proxy that App views run behind (the relay's second
    /// loopback port): never the page's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
}

/// Relay → browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMsg {
    /// First message on every socket.
    Hello(RelayInfo),
    /// An MCP message forwarded (`in`) or written to the server (`out`), stamped by the relay.
    Message {
        direction: Direction,
        /// Milliseconds since the Unix epoch when the relay read or wrote it.
        at_ms: f64,
        /// Size of the frame in bytes.
        size: usize,
        frame: String,
    },
    /// Something the relay saw that is not an MCP message.
    Event { at_ms: f64, event: RelayEvent },
    /// The values kept for a saved server (empty when none are).
    Secrets { server: String, secrets: Secrets },
}

/// What the relay reports beside MCP messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RelayEvent {
    /// The server process started.
    Spawned { pid: Option<u32>, command: String, args: Vec<String> },
    /// A remote server is being reached. Header values are masked.
    Connected { transport: String, url: String, headers: Vec<String> },
    /// A request that will get no response: its answer was over the size limit, or (remote
    /// servers) the HTTP request failed, was refused or its stream ended before the
    /// response. That call failed; the session goes on.
    RequestFailed { id: serde_json::Value, message: String },
    /// One line the server wrote to stderr.
    Stderr { line: String, truncated: bool },
    /// Server output that is not JSON-RPC (a stdout line, an HTTP body); it was not
    /// forwarded as a message.
    InvalidFrame { preview: String, size: usize, error: String },
    /// A message over the size limit; it was dropped.
    Oversized { direction: Direction, size: usize, limit: usize },
    /// The server process ended.
    Exited { code: Option<i32>, signal: Option<i32> },
    /// The upstream connection is over (after a disconnect or an exit); nothing runs.
    Closed { reason: String },
    /// A request the relay could not carry out; the session goes on.
    Error { message: String },
    /// Something worth knowing that is not an error (a fall back to legacy SSE, say).
    Note { message: String },
    /// `auto` found the transport the server speaks (`http` or `sse`): the timeline says
    /// it; it is no news for the person.
    Detected { transport: String },
    /// Where signing in to the remote server stands.
    Auth { auth: AuthState },
    /// One HTTP exchange of the OAuth flow, secrets masked.
    AuthExchange { exchange: AuthExchange },
}

impl RelayEvent {
    /// A short name for timeline rows.
    pub fn name(&self) -> &'static str {
        match self {
            RelayEvent::Spawned { .. } => "spawned",
            RelayEvent::Connected { .. } => "connected",
            RelayEvent::RequestFailed { .. } => "request failed",
            RelayEvent::Stderr { .. } => "stderr",
            RelayEvent::InvalidFrame { .. } => "invalid frame",
            RelayEvent::Oversized { .. } => "oversized",
            RelayEvent::Exited { .. } => "exited",
            RelayEvent::Closed { .. } => "closed",
            RelayEvent::Error { .. } => "error",
            RelayEvent::Note { .. } => "note",
            RelayEvent::Detected { .. } => "detected",
            RelayEvent::Auth { .. } => "auth",
            RelayEvent::AuthExchange { .. } => "auth exchange",
        }
    }
}

impl ServerMsg {
    /// Reads one message of the relay, strictly.
    pub fn read(text: &str) -> Result<ServerMsg, ReadError> {
        serde_json::from_str(text)
    }
}

impl ClientMsg {
    /// Reads one message of the page, strictly.
    pub fn read(text: &str) -> Result<ClientMsg, ReadError> {
        serde_json::from_str(text)
    }
}

impl Target {
    /// Reads a server target (as the relay announces it, or as the page stored it).
    pub fn read(value: serde_json::Value) -> Result<Target, ReadError> {
        serde_json::from_value(value)
    }
}

#[cfg(test)]
mod tests {
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
                secrets: Secrets {
                    env: Default::default(),
                    headers: [("Authorization".into(), "Bearer x".into())].into(),
                },
            },
            ClientMsg::RecallSecrets { server: "stdio node server.js".into() },
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
            {"type":"recall_secrets","server":"stdio node server.js"}"#]]
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
            }),
            ServerMsg::Message { direction: Direction::In, at_ms: 1.5, size: 2, frame: "{}".into() },
            ServerMsg::Event {
                at_ms: 2.0,
                event: RelayEvent::Spawned { pid: Some(42), command: "node".into(), args: vec![] },
            },
            ServerMsg::Event { at_ms: 3.0, event: RelayEvent::Stderr { line: "warn".into(), truncated: false } },
            ServerMsg::Event {
                at_ms: 4.0,
                event: RelayEvent::InvalidFrame { preview: "hello".into(), size: 5, error: "not JSON".into() },
            },
            ServerMsg::Event {
                at_ms: 5.0,
                event: RelayEvent::Oversized { direction: Direction::In, size: 9, limit: 8 },
            },
            ServerMsg::Event { at_ms: 6.0, event: RelayEvent::Exited { code: Some(1), signal: None } },
            ServerMsg::Event { at_ms: 7.0, event: RelayEvent::Closed { reason: "disconnected".into() } },
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
        ];
        let out: Vec<String> = msgs.iter().map(json).collect();
        expect![[r#"
            {"type":"hello","protocol":1,"relay_version":"0.1.0","preset":{"transport":"demo"},"limits":{"max_message_bytes":1024,"max_stderr_line_bytes":64},"servers":[]}
            {"type":"hello","protocol":1,"relay_version":"0.1.0","preset":{"transport":"auto","url":"http://127.0.0.1:3001/mcp","headers":{}},"preset_protocol":"2025-03-26","limits":{"max_message_bytes":1024,"max_stderr_line_bytes":64},"servers":[{"name":"files","target":{"transport":"stdio","command":"npx","args":["-y"],"env":{},"cwd":"/srv"},"protocol":"2024-11-05"},{"name":"broken","error":"\"args\" must be an array of strings"}],"recording":true,"playback":true}
            {"type":"message","direction":"in","at_ms":1.5,"size":2,"frame":"{}"}
            {"type":"event","at_ms":2.0,"event":{"kind":"spawned","pid":42,"command":"node","args":[]}}
            {"type":"event","at_ms":3.0,"event":{"kind":"stderr","line":"warn","truncated":false}}
            {"type":"event","at_ms":4.0,"event":{"kind":"invalid_frame","preview":"hello","size":5,"error":"not JSON"}}
            {"type":"event","at_ms":5.0,"event":{"kind":"oversized","direction":"in","size":9,"limit":8}}
            {"type":"event","at_ms":6.0,"event":{"kind":"exited","code":1,"signal":null}}
            {"type":"event","at_ms":7.0,"event":{"kind":"closed","reason":"disconnected"}}
            {"type":"event","at_ms":8.0,"event":{"kind":"error","message":"spawn failed"}}
            {"type":"event","at_ms":9.0,"event":{"kind":"connected","transport":"http","url":"http://127.0.0.1:1/mcp","headers":["Authorization: Bearer ••••"]}}
            {"type":"event","at_ms":11.0,"event":{"kind":"note","message":"using legacy SSE"}}
            {"type":"event","at_ms":10.0,"event":{"kind":"request_failed","id":3,"message":"stream closed"}}
            {"type":"secrets","server":"stdio node server.js","secrets":{"env":{"API_KEY":"k"}}}"#]]
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
            missing field `type` at line 1 column 2
            unknown variant `hi`, expected one of `hello`, `message`, `event`, `secrets` at line 1 column 12
            missing field `type` at line 1 column 14
            unknown field `extra`, expected one of `direction`, `at_ms`, `size`, `frame`
            unknown variant `sideways`, expected `out` or `in`
            invalid type: string "1", expected f64
            invalid value: integer `-2`, expected usize
            invalid type: floating point `2.5`, expected usize
            missing field `frame`
            missing field `truncated`
            unknown field `more`, expected `line` or `truncated`
            unknown variant `exploded`, expected one of `spawned`, `connected`, `request_failed`, `stderr`, `invalid_frame`, `oversized`, `exited`, `closed`, `error`, `note`, `detected`, `auth`, `auth_exchange`
            invalid value: integer `-1`, expected u32
            missing field `args`
            invalid type: integer `1`, expected a string
            unknown variant `ftp`, expected one of `demo`, `stdio`, `http`, `sse`, `auto`
            missing field `max_stderr_line_bytes`
            invalid type: integer `1`, expected a string
            invalid value: integer `4294967296`, expected u32
            invalid type: null, expected a sequence
            invalid type: map, expected a sequence
            configured server `a`: expected either `target` or `error`
            configured server `a`: expected either `target` or `error`
            unknown field `note`, expected one of `name`, `target`, `error`, `protocol`, `oauth`
            invalid type: integer `1`, expected a string
            unknown variant `ftp`, expected one of `demo`, `stdio`, `http`, `sse`, `auto`
            invalid type: integer `7`, expected a string
            unknown protocol revision "1999-01-01": use auto or one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28
            invalid type: integer `5`, expected a string"#]]
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
}
