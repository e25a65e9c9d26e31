//! The page's state and the one place that reacts to the relay: it feeds frames to the
//! sans-IO [`McpClient`] and the [`Timeline`], and turns what they say into signals that
//! the panels show. Components read signals and call the actions here; they hold no
//! protocol logic.

mod calls;

use std::collections::HashMap;

use leptos::prelude::*;
use shared::client::{CallOutcome, McpClient, Update as ClientUpdate};
use shared::cmdline;
use shared::jsonrpc::{self, Id};
use shared::mcp::{ResourceContents, Tool};
use shared::relay::{ClientMsg, Direction, RelayEvent, ServerMsg, Target};
use shared::render::output::{self, OutputCheck};
use shared::timeline::{Row, Timeline};

use crate::args::ArgsState;
use crate::ws::{RelaySocket, SocketState, token_from_location};
pub use calls::{CallState, Confirm, LogLine, Progress};

/// Stderr lines kept for the stderr view.
const MAX_STDERR_LINES: usize = 500;

/// The upstream connection as `connection-status` shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnState {
    Disconnected,
    Connecting,
    Connected,
    Error(String),
}

impl ConnState {
    pub fn as_str(&self) -> &'static str {
        match self {
            ConnState::Disconnected => "disconnected",
            ConnState::Connecting => "connecting",
            ConnState::Connected => "connected",
            ConnState::Error(_) => "error",
        }
    }
}

/// Who the server says it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    pub name: String,
    pub title: Option<String>,
    pub version: String,
    pub protocol_version: String,
    pub capabilities: Vec<String>,
    pub instructions: Option<String>,
}

/// A `resources/read` a person asked for from a resource link.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadState {
    Loading,
    Done(Vec<ResourceContents>),
    Failed(String),
}

/// A timeline row ready to show.
#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    pub seq: usize,
    pub rel_ms: f64,
    pub direction: &'static str,
    pub kind: &'static str,
    pub method: String,
    pub id: Option<String>,
    pub size: usize,
    pub duration_ms: Option<f64>,
    pub partner: Option<usize>,
}

impl RowView {
    fn new(row: &Row, start_ms: f64) -> Self {
        Self {
            seq: row.seq,
            rel_ms: row.at_ms - start_ms,
            direction: row.direction.as_str(),
            kind: row.kind.as_str(),
            method: row.method.clone().unwrap_or_default(),
            id: row.id.as_ref().map(|id| match id {
                Id::Number(n) => n.to_string(),
                Id::String(s) => s.clone(),
            }),
            size: row.size,
            duration_ms: row.duration_ms,
            partner: row.partner,
        }
    }
}

/// All the page's state: signals for what is shown, stored values for the rest.
#[derive(Clone, Copy)]
pub struct Store {
    pub relay: RwSignal<SocketState>,
    pub conn: RwSignal<ConnState>,
    pub transport: RwSignal<String>,
    pub command: RwSignal<String>,
    pub env: RwSignal<String>,
    pub url: RwSignal<String>,
    pub headers: RwSignal<String>,
    pub server: RwSignal<Option<ServerInfo>>,
    pub stderr: RwSignal<Vec<String>>,
    pub tools: RwSignal<Vec<Tool>>,
    pub tools_loading: RwSignal<bool>,
    pub tools_error: RwSignal<Option<String>>,
    pub tool_filter: RwSignal<String>,
    pub selected: RwSignal<Option<String>>,
    pub args: ArgsState,
    pub call: RwSignal<CallState>,
    pub rows: RwSignal<Vec<RowView>>,
    pub selected_row: RwSignal<Option<usize>>,
    pub notices: RwSignal<Vec<String>>,
    pub reads: RwSignal<HashMap<String, ReadState>>,
    pub calls: calls::CallsState,
    client: StoredValue<McpClient>,
    timeline: StoredValue<Timeline>,
    socket: StoredValue<Option<RelaySocket>, LocalStorage>,
    inbox: StoredValue<Vec<ServerMsg>>,
    disconnect_requested: StoredValue<bool>,
    preset_applied: StoredValue<bool>,
    last_exit: StoredValue<Option<String>>,
}

fn new_client() -> McpClient {
    McpClient::new(env!("CARGO_PKG_VERSION"), shared::DEFAULT_PROTOCOL_VERSION)
}

impl Store {
    pub fn new() -> Self {
        Self {
            relay: RwSignal::new(SocketState::Opening),
            conn: RwSignal::new(ConnState::Disconnected),
            transport: RwSignal::new("demo".into()),
            command: RwSignal::new(String::new()),
            env: RwSignal::new(String::new()),
            url: RwSignal::new(String::new()),
            headers: RwSignal::new(String::new()),
            server: RwSignal::new(None),
            stderr: RwSignal::new(Vec::new()),
            tools: RwSignal::new(Vec::new()),
            tools_loading: RwSignal::new(false),
            tools_error: RwSignal::new(None),
            tool_filter: RwSignal::new(String::new()),
            selected: RwSignal::new(None),
            args: ArgsState::new(),
            call: RwSignal::new(CallState::Idle),
            rows: RwSignal::new(Vec::new()),
            selected_row: RwSignal::new(None),
            notices: RwSignal::new(Vec::new()),
            reads: RwSignal::new(HashMap::new()),
            calls: calls::CallsState::new(),
            client: StoredValue::new(new_client()),
            timeline: StoredValue::new(Timeline::new()),
            socket: StoredValue::new_local(None),
            inbox: StoredValue::new(Vec::new()),
            disconnect_requested: StoredValue::new(false),
            preset_applied: StoredValue::new(false),
            last_exit: StoredValue::new(None),
        }
    }

    /// Opens the socket to the relay.
    pub fn start(self) {
        let Some(token) = token_from_location() else {
            self.relay.set(SocketState::Lost(
                "this page's URL has no token: open the URL that mcp-playground printed".into(),
            ));
            return;
        };
        match RelaySocket::open(&token, move |m| self.enqueue(m), move |s| self.on_socket_state(s)) {
            Ok(socket) => self.socket.set_value(Some(socket)),
            Err(e) => self.relay.set(SocketState::Lost(e)),
        }
    }

    fn send(self, msg: &ClientMsg) -> bool {
        self.socket.with_value(|s| s.as_ref().is_some_and(|s| s.send(msg)))
    }

    fn send_frame(self, frame: String) {
        self.send(&ClientMsg::Send { frame });
    }

    fn on_socket_state(self, state: SocketState) {
        if let SocketState::Lost(reason) = &state {
            if matches!(self.conn.get_untracked(), ConnState::Connecting | ConnState::Connected) {
                self.conn.set(ConnState::Error(reason.clone()));
            }
            self.fail_pending_call("the relay connection was lost");
        }
        self.relay.set(state);
    }

    /// Connects to the server described by the connection form.
    pub fn connect(self) {
        let target = match self.target_from_form() {
            Ok(t) => t,
            Err(e) => return self.conn.set(ConnState::Error(e)),
        };
        self.client.set_value(new_client());
        self.timeline.set_value(Timeline::new());
        self.rows.set(Vec::new());
        self.selected_row.set(None);
        self.stderr.set(Vec::new());
        self.server.set(None);
        self.tools.set(Vec::new());
        self.tools_error.set(None);
        self.notices.set(Vec::new());
        self.call.set(CallState::Idle);
        self.reads.set(HashMap::new());
        self.calls.logs.set(Vec::new());
        self.calls.confirm.set(None);
        self.disconnect_requested.set_value(false);
        self.last_exit.set_value(None);
        if self.send(&ClientMsg::Connect { target }) {
            self.conn.set(ConnState::Connecting);
        } else {
            self.conn.set(ConnState::Error("not connected to the relay".into()));
        }
    }

    /// The server the connection form describes, or what is wrong with the form.
    fn target_from_form(self) -> Result<Target, String> {
        let transport = self.transport.get_untracked();
        if transport == "demo" {
            return Ok(Target::Demo);
        }
        if transport == "stdio" {
            let words = cmdline::split_command_line(&self.command.get_untracked()).map_err(|e| e.to_string())?;
            let env = cmdline::parse_env(&self.env.get_untracked()).map_err(|e| e.to_string())?;
            let (command, args) = words.split_first().expect("split_command_line never returns nothing");
            return Ok(Target::Stdio { command: command.clone(), args: args.to_vec(), env });
        }
        let url = self.url.get_untracked().trim().to_owned();
        let lower = url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err("enter an http:// or https:// URL".into());
        }
        let headers = cmdline::parse_headers(&self.headers.get_untracked()).map_err(|e| e.to_string())?;
        Ok(match transport.as_str() {
            "http" => Target::Http { url, headers },
            "sse" => Target::Sse { url, headers },
            _ => Target::Auto { url, headers },
        })
    }

    pub fn disconnect(self) {
        self.disconnect_requested.set_value(true);
        self.send(&ClientMsg::Disconnect);
    }

    pub fn refresh_tools(self) {
        let frame = self.client.try_update_value(|c| c.list_tools()).expect("client lives");
        self.tools_loading.set(true);
        self.send_frame(frame);
    }

    pub fn select_tool(self, name: String) {
        let tool = self.tools.with_untracked(|t| t.iter().find(|t| t.name == name).cloned());
        let Some(tool) = tool else { return };
        let server = self.server.with_untracked(|s| s.as_ref().map(|s| s.name.clone()).unwrap_or_default());
        self.args.load(&tool, &server);
        self.selected.set(Some(name));
    }

    /// Whether the server offers `resources` (so links can be opened).
    pub fn has_resources(self) -> bool {
        self.server.with(|s| s.as_ref().is_some_and(|s| s.capabilities.iter().any(|c| c == "resources")))
    }

    /// Reads a resource a link points to; the result lands in `reads`.
    pub fn read_resource(self, uri: String) {
        let (_, frame) = self.client.try_update_value(|c| c.read_resource(&uri)).expect("client lives");
        self.reads.update(|r| {
            r.insert(uri, ReadState::Loading);
        });
        self.send_frame(frame);
    }

    fn fail_pending_call(self, message: &str) {
        if let CallState::Pending { tool, .. } = self.call.get_untracked() {
            self.call_finished();
            self.call.set(CallState::TransportError { tool, message: message.into() });
        }
    }

    fn push_row(self, seq: usize) -> Option<f64> {
        let (view, duration) = self.timeline.with_value(|t| {
            let row = &t.rows()[seq];
            (RowView::new(row, t.start_ms().unwrap_or(row.at_ms)), row.duration_ms)
        });
        self.rows.update(|rows| {
            if let Some(p) = view.partner
                && let Some(req) = rows.get_mut(p)
            {
                req.partner = Some(seq);
            }
            rows.push(view);
        });
        duration
    }

    /// Every row of the session with its stamps, as a JSON document to download.
    pub fn export_timeline(self) -> String {
        self.timeline.with_value(|t| serde_json::to_string_pretty(&t.export()).unwrap_or_default())
    }

    /// The full JSON of a row, for the detail view.
    pub fn row_detail(self, seq: usize) -> Option<String> {
        self.timeline.with_value(|t| t.pretty(seq))
    }

    /// Queues a relay message; the queue is worked off in one go as soon as the browser is
    /// free, so a flood of messages costs one render, not one per message.
    fn enqueue(self, msg: ServerMsg) {
        let first = self.inbox.try_update_value(|q| {
            q.push(msg);
            q.len() == 1
        });
        if first == Some(true) {
            set_timeout(move || self.flush(), std::time::Duration::ZERO);
        }
    }

    fn flush(self) {
        let batch = self.inbox.try_update_value(std::mem::take).unwrap_or_default();
        for msg in batch {
            self.on_server_msg(msg);
        }
    }

    fn on_server_msg(self, msg: ServerMsg) {
        match msg {
            ServerMsg::Hello { preset, .. } => self.apply_preset(preset),
            ServerMsg::Message { direction, at_ms, size, frame } => {
                // Parsed once: a result can be tens of megabytes.
                let parsed = jsonrpc::parse(&frame);
                let classified = parsed.as_ref().map(|(_, c)| c.clone()).map_err(Clone::clone);
                let seq = self
                    .timeline
                    .try_update_value(|t| t.push_classified(direction, at_ms, size, frame, classified))
                    .expect("timeline lives");
                let duration = self.push_row(seq);
                let parsed = parsed.ok().filter(|_| direction == Direction::In);
                if let Some((value, classified)) = parsed {
                    let handled =
                        self.client.try_update_value(|c| c.handle(&value, &classified)).expect("client lives");
                    for reply in handled.replies {
                        self.send_frame(reply);
                    }
                    for update in handled.updates {
                        self.apply(update, duration);
                    }
                }
            }
            ServerMsg::Event { at_ms, event } => {
                let seq = self.timeline.try_update_value(|t| t.push_event(at_ms, &event)).expect("timeline lives");
                self.push_row(seq);
                self.on_relay_event(event);
            }
        }
    }

    fn apply_preset(self, preset: Target) {
        if self.preset_applied.get_value() {
            return;
        }
        self.preset_applied.set_value(true);
        self.apply_target(preset);
    }

    /// Fills the connection form from a target (a preset or a saved server).
    pub fn apply_target(self, target: Target) {
        self.transport.set(target.transport().into());
        match target {
            Target::Stdio { command, args, env } => {
                let mut words = vec![command];
                words.extend(args);
                self.command.set(cmdline::join_command_line(&words));
                self.env.set(cmdline::format_env(&env));
            }
            Target::Http { url, headers } | Target::Sse { url, headers } | Target::Auto { url, headers } => {
                self.url.set(url);
                self.headers.set(cmdline::format_headers(&headers));
            }
            Target::Demo => {}
        }
    }

    fn on_relay_event(self, event: RelayEvent) {
        match event {
            RelayEvent::Spawned { .. } | RelayEvent::Connected { .. } => {
                let frame = self.client.try_update_value(|c| c.initialize()).expect("client lives");
                self.send_frame(frame);
            }
            RelayEvent::Note { message } => self.notices.update(|n| n.push(message)),
            RelayEvent::RequestFailed { id, message } => {
                if let CallState::Pending { id: pending, .. } = self.call.get_untracked()
                    && serde_json::to_value(&pending).ok().as_ref() == Some(&id)
                {
                    self.fail_pending_call(&message);
                }
            }
            RelayEvent::Stderr { line, .. } => self.stderr.update(|s| {
                s.push(line);
                // Trimmed in bulk, so a chatty server costs O(1) per line.
                if s.len() > 2 * MAX_STDERR_LINES {
                    s.drain(..s.len() - MAX_STDERR_LINES);
                }
            }),
            RelayEvent::Exited { code, signal } => {
                let how = match (code, signal) {
                    (Some(c), _) => format!("the server exited with code {c}"),
                    (None, Some(s)) => format!("the server was ended by signal {s}"),
                    _ => "the server exited".to_owned(),
                };
                self.last_exit.set_value(Some(how));
            }
            RelayEvent::Closed { reason } => {
                let asked = self.disconnect_requested.get_value();
                let state = self.conn.get_untracked();
                if asked || matches!(state, ConnState::Disconnected | ConnState::Error(_)) {
                    if !matches!(state, ConnState::Error(_)) {
                        self.conn.set(ConnState::Disconnected);
                    }
                } else {
                    let mut why = self.last_exit.get_value().unwrap_or(reason);
                    if let Some(last) = self.stderr.with_untracked(|s| s.last().cloned()) {
                        why = format!("{why}; last stderr line: {last}");
                    }
                    self.conn.set(ConnState::Error(why));
                }
                self.tools_loading.set(false);
                self.fail_pending_call("the connection to the server ended during the call");
            }
            RelayEvent::Error { message } => {
                if self.conn.get_untracked() == ConnState::Connecting {
                    self.conn.set(ConnState::Error(message));
                    // A remote server that refused us is still a connection at the relay.
                    self.disconnect();
                } else {
                    self.notices.update(|n| n.push(message));
                }
            }
            RelayEvent::Oversized { direction, size, limit } => {
                let which = if direction == Direction::In { "from the server" } else { "to the server" };
                self.notices.update(|n| {
                    n.push(format!(
                        "a message {which} of {size} bytes exceeded the limit of {limit} bytes and was dropped"
                    ))
                });
            }
            RelayEvent::InvalidFrame { error, .. } => {
                self.notices.update(|n| n.push(format!("the server wrote a line that is not JSON-RPC ({error})")));
            }
        }
    }

    fn apply(self, update: ClientUpdate, duration_ms: Option<f64>) {
        match update {
            ClientUpdate::Ready(result) => {
                self.server.set(Some(ServerInfo {
                    name: result.server_info.name.clone(),
                    title: result.server_info.title.clone(),
                    version: result.server_info.version.clone(),
                    protocol_version: result.protocol_version.clone(),
                    capabilities: result.capabilities.keys().cloned().collect(),
                    instructions: result.instructions.clone(),
                }));
                self.conn.set(ConnState::Connected);
                self.tools_loading.set(true);
            }
            ClientUpdate::InitializeFailed(message) => {
                self.conn.set(ConnState::Error(message));
                self.disconnect();
            }
            ClientUpdate::Tools(tools) => {
                self.tools_loading.set(false);
                self.tools_error.set(None);
                let keep = self.selected.get_untracked().filter(|s| tools.iter().any(|t| &t.name == s));
                self.tools.set(tools);
                if keep.is_none() {
                    self.selected.set(None);
                }
            }
            ClientUpdate::ToolsFailed(message) => {
                self.tools_loading.set(false);
                self.tools_error.set(Some(message));
            }
            ClientUpdate::ToolsChanged => {
                self.tools_loading.set(true);
                self.notices.update(|n| n.push("the server's tool list changed; refreshed".into()));
            }
            ClientUpdate::CallDone { id, outcome } => {
                if let CallState::Pending { id: pending, tool } = self.call.get_untracked()
                    && pending == id
                {
                    let schema = self
                        .tools
                        .with_untracked(|t| t.iter().find(|t| t.name == tool).and_then(|t| t.output_schema.clone()));
                    let (output, agreement) = match &outcome {
                        CallOutcome::Result { result, .. } => {
                            (output::check(schema.as_ref(), result), output::text_agreement(result))
                        }
                        _ => (OutputCheck::Skipped("no result to check".into()), None),
                    };
                    self.call_finished();
                    self.call.set(CallState::Done { tool, outcome, duration_ms, output, agreement });
                }
            }
            ClientUpdate::ResourceRead { uri, outcome } => {
                let state = match outcome {
                    Ok(contents) => ReadState::Done(contents),
                    Err(e) => ReadState::Failed(e),
                };
                self.reads.update(|r| {
                    r.insert(uri, state);
                });
            }
            ClientUpdate::Progress { token, progress, total, message } => {
                self.on_progress(token, progress, total, message)
            }
            ClientUpdate::Late { id } => self.notices.update(|n| {
                n.push(format!(
                    "a late response to request #{id} arrived after it was given up on; it is in the timeline"
                ))
            }),
            ClientUpdate::CancelledByServer { id, reason } => self.on_cancelled_by_server(id, reason),
            ClientUpdate::Log { level, logger, data } => self.on_log(level, logger, data),
            ClientUpdate::Notice(n) => self.notices.update(|v| v.push(n)),
        }
    }
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}
