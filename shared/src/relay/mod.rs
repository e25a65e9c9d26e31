//! The browser⇄relay wire protocol: one JSON object per WebSocket text message, tagged by
//! `"type"`, one enum per direction. Strict readers: a typo in either half fails loudly.
//!
//! MCP frames travel as strings (`frame`), exactly as they were read or will be written:
//! the relay never re-encodes them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::revision::ProtocolChoice;

mod auth;
mod burst;
mod secrets;
pub mod tag_first;
mod transport;

pub use auth::{AuthExchange, AuthState, OAuthSettings};
pub use burst::{burst, split as split_burst};
pub use secrets::Secrets;
pub use transport::Transport;

/// Version of this wire protocol; the relay states it in [`ServerMsg::Hello`]. 2: the
/// page's own frames are stamped (`sent`), not echoed. 3: what the relay has at one time
/// may come as one socket message, a JSON array of messages (a burst). 4: the page asks
/// for the `http(s)` icons the server declared (`icon`), which the relay fetches.
pub const RELAY_PROTOCOL: u32 = 4;

/// Why a wire message of ours could not be read.
pub type ReadError = serde_json::Error;

tag_first::tag_first! {
#[serde(tag = "transport", rename_all = "snake_case", deny_unknown_fields)]
/// Which server to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
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

tag_first::tag_first! {
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
/// Browser → relay.
#[derive(Debug, Clone, PartialEq)]
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
    /// End the upstream connection; the socket stays open. (`{}`: a variant without
    /// fields; `tag_first!` refuses any field after its tag, unit variant or not.)
    Disconnect {},
    /// Forget the OAuth tokens of the connected server (in memory and, with `--remember`,
    /// on disk) and end the connection.
    SignOut {},
    /// Keep the values of a saved server's env and headers in the relay's secrets file
    /// (the page keeps only their names); empty values forget them.
    KeepSecrets { server: String, secrets: Secrets },
    /// Ask for the values kept for a saved server: the answer is [`ServerMsg::Secrets`].
    RecallSecrets { server: String },
    /// Fetch an `http(s)` icon the connected server declared: the answer is
    /// [`ServerMsg::Icon`].
    Icon { src: String },
}
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
    /// The `--config` file `servers` come from, as an absolute path: a call copied from one
    /// of them names it so (`--config FILE --server NAME`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
}

tag_first::tag_first! {
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
/// Relay → browser.
#[derive(Debug, Clone, PartialEq)]
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
    /// The page's `n`-th `send` on this socket (counting from 0) was written to the server
    /// at `at_ms`: its stamp without the frame, which the page already has.
    Sent { n: u64, at_ms: f64, size: usize },
    /// Something the relay saw that is not an MCP message.
    Event { at_ms: f64, event: RelayEvent },
    /// The values kept for a saved server (empty when none are).
    Secrets { server: String, secrets: Secrets },
    /// An icon asked for: the image as a `data:` URL, or why not.
    Icon {
        src: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        data: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}
}

tag_first::tag_first! {
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
/// What the relay reports beside MCP messages.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// `asked`: this answers the client's disconnect or sign-out (one answer each, after
    /// everything else of that connection).
    Closed {
        reason: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        asked: bool,
    },
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
mod tests;
