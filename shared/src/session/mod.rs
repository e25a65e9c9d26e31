//! One MCP session, sans-IO: the client, the timeline, the connection, the tool list and
//! the call with its clock. Inputs are the relay's messages, a person's (or a script's)
//! actions and the current time; outputs are messages for the relay and which parts of
//! the state changed ([`Session::drain`]). The page keeps signals over it; the headless
//! command line drives it with the relay's transports in-process. Neither adds logic.

mod asks;
mod call;
mod catalog;
mod events;
mod handover;
mod observe;
mod record;
mod requests;
mod state;
mod tasks;
#[cfg(test)]
mod tests;
mod unstamped;
mod updates;
mod views;

use std::collections::HashMap;

use serde_json::Value;

use crate::calls::Expiry;
use crate::client::{CallOutcome, Handled, ListFacts, McpClient, Update, progress_token};
use crate::jsonrpc::{self, Id};
use crate::mcp::Tool;
use crate::negotiation::Negotiated;
use crate::relay::{AuthState, ClientMsg, Direction, OAuthSettings, ServerMsg, Target};
use crate::render::output::{self, OutputCheck};
use crate::revision::ProtocolChoice;
use crate::timeline::Timeline;

pub use call::Call;
pub use requests::Answered;
pub use state::{CallLimits, CallState, Changed, ConnState, LogLine, Progress, ReadState, Refused, ServerInfo};

pub use crate::relay::RelayInfo;

/// Stderr lines kept.
pub const MAX_STDERR_LINES: usize = 500;
/// Server log lines kept.
pub const MAX_LOG_LINES: usize = 2000;
/// Notices kept (at least this many of the newest; trimmed in bulk like log lines).
pub const MAX_NOTICES: usize = 200;
/// How long `server/discover` may go unanswered before `initialize` follows it (a server
/// of an older revision may ignore a request it does not know before `initialize`).
pub const DISCOVER_WAIT_MS: f64 = 3000.0;

/// What the driver does next: send these messages to the relay, then show what changed.
#[derive(Debug, Default, PartialEq)]
pub struct Effects {
    pub send: Vec<ClientMsg>,
    pub changed: Changed,
}

/// The state of one tab's (or one command's) MCP session.
#[derive(Debug)]
pub struct Session {
    client_version: String,
    client: McpClient,
    timeline: Timeline,
    relay: Option<RelayInfo>,
    conn: ConnState,
    server: Option<ServerInfo>,
    tools: Vec<Tool>,
    tools_change: updates::ToolsChange,
    tools_loading: bool,
    tools_error: Option<String>,
    call: Call,
    stderr: Vec<String>,
    notices: Vec<String>,
    logs: Vec<LogLine>,
    next_log: usize,
    reads: HashMap<String, ReadState>,
    /// Requests made for an App's view: our id → the view's.
    for_view: HashMap<Id, Id>,
    /// Answers for the view, not yet taken by the page.
    view_answers: Vec<(Id, Result<Value, Value>)>,
    /// A person asked to disconnect: the close that follows is not an error.
    disconnect_requested: bool,
    /// How the server process ended, said when the connection closes.
    last_exit: Option<String>,
    out: Vec<ClientMsg>,
    changed: Changed,
    /// Playing a recording back: recorded requests are taken as sent, nothing is sent.
    playback: bool,
    /// What the session connected to (for a recording's header).
    target: Option<Target>,
    /// The protocol revision asked for when connecting (for a recording's header too).
    protocol: ProtocolChoice,
    /// The captured stretches of the timeline: from row, to row (open while recording).
    capture: Vec<(usize, Option<usize>)>,
    /// The server's requests waiting on the user, oldest first.
    asks: Vec<crate::asks::ServerAsk>,
    /// The roots offered to servers; they outlive a connection.
    roots: Vec<String>,
    /// When an unanswered `server/discover` has `initialize` follow it.
    discover_due: Option<f64>,
    /// What a 2026-07-28 tool list says beyond its tools.
    list_facts: Option<ListFacts>,
    /// Where signing in to a remote server stands (none: it asked for no sign-in).
    auth: Option<AuthState>,
    /// The tasks known of the connection.
    book: crate::tasks::TaskBook,
    /// Resources, templates, prompts and the rest beside the tools.
    catalog: crate::catalog::Catalog,
    requests: requests::Requests,
    /// Connections one after another: what the relay still owes of the one left.
    handover: handover::Handover,
    /// Frames sent on this socket that the relay has yet to stamp.
    unstamped: unstamped::Unstamped,
}

impl Session {
    /// A session of a client that calls itself `client_version`.
    pub fn new(client_version: &str) -> Self {
        Self {
            client_version: client_version.into(),
            client: new_client(client_version),
            timeline: Timeline::new(),
            relay: None,
            conn: ConnState::Disconnected,
            server: None,
            tools: Vec::new(),
            tools_change: updates::ToolsChange::Unlisted,
            tools_loading: false,
            tools_error: None,
            call: Call::default(),
            stderr: Vec::new(),
            notices: Vec::new(),
            logs: Vec::new(),
            next_log: 0,
            reads: HashMap::new(),
            for_view: HashMap::new(),
            view_answers: Vec::new(),
            disconnect_requested: false,
            handover: handover::Handover::default(),
            unstamped: unstamped::Unstamped::default(),
            last_exit: None,
            out: Vec::new(),
            changed: Changed::default(),
            playback: false,
            target: None,
            protocol: ProtocolChoice::Auto,
            capture: Vec::new(),
            asks: Vec::new(),
            roots: Vec::new(),
            discover_due: None,
            list_facts: None,
            auth: None,
            book: Default::default(),
            catalog: Default::default(),
            requests: Default::default(),
        }
    }

    /// A session that plays a recording back: feed it the recording's entries (as relay
    /// messages) with [`receive`](Self::receive). It reads them exactly as the live session
    /// did, takes the recorded requests as its own, and sends nothing.
    pub fn for_playback(client_version: &str, relay: RelayInfo) -> Self {
        let mut s = Self::new(client_version);
        // The revision the recording asked for (its preset's): a pinned one the server did
        // not speak fails again as it did live.
        s.client = McpClient::with_choice(client_version, relay.preset_protocol);
        s.protocol = relay.preset_protocol;
        s.timeline.set_discover_falls_back(relay.preset_protocol == ProtocolChoice::Auto);
        s.playback = true;
        s.relay = Some(relay);
        s.conn = ConnState::Connecting;
        s.changed = Changed::ALL;
        s
    }

    /// Whether this session plays a recording back.
    pub fn is_playback(&self) -> bool {
        self.playback
    }

    /// What to send and what changed since the last call.
    pub fn drain(&mut self) -> Effects {
        let mut send = std::mem::take(&mut self.out);
        if self.playback {
            send.clear();
        }
        Effects { send, changed: std::mem::take(&mut self.changed) }
    }

    // ---- what the page shows ----

    pub fn relay(&self) -> Option<&RelayInfo> {
        self.relay.as_ref()
    }
    pub fn conn(&self) -> &ConnState {
        &self.conn
    }
    pub fn server(&self) -> Option<&ServerInfo> {
        self.server.as_ref()
    }
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }
    /// The caching hints and the tools left out of a 2026-07-28 list (`None` before).
    pub fn list_facts(&self) -> Option<&ListFacts> {
        self.list_facts.as_ref()
    }
    pub fn tools_loading(&self) -> bool {
        self.tools_loading
    }
    pub fn tools_error(&self) -> Option<&str> {
        self.tools_error.as_deref()
    }
    pub fn call(&self) -> &CallState {
        self.call.state()
    }
    pub fn progress(&self) -> Option<&Progress> {
        self.call.progress()
    }
    /// The call of `tool` to show: under way, or its last that finished.
    pub fn call_of(&self, tool: &str) -> Option<&CallState> {
        self.call.of_tool(tool)
    }
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }
    pub fn stderr(&self) -> &[String] {
        &self.stderr
    }
    pub fn notices(&self) -> &[String] {
        &self.notices
    }
    pub fn logs(&self) -> &[LogLine] {
        &self.logs
    }
    pub fn reads(&self) -> &HashMap<String, ReadState> {
        &self.reads
    }
    /// What the session last connected (or tried to connect) to.
    pub fn target(&self) -> Option<&Target> {
        self.target.as_ref()
    }

    /// The protocol revision asked for when connecting.
    pub fn protocol(&self) -> ProtocolChoice {
        self.protocol
    }
    /// The revision agreed with the server and why, once `initialize` is answered.
    pub fn negotiated(&self) -> Option<&Negotiated> {
        self.client.negotiated()
    }

    /// The arguments the current (or last) call was sent with, as its request carried them.
    pub fn call_arguments(&self) -> Option<Value> {
        let id = self.call.pending()?.0.clone();
        self.sent_arguments(|r| r.id.as_ref() == Some(&id))
    }

    /// The arguments of the last call of `tool` sent in this session (in playback: up to
    /// where the recording stands), as its request carried them.
    pub fn last_arguments(&self, tool: &str) -> Option<Value> {
        self.sent_arguments(|r| {
            r.kind == crate::timeline::RowKind::Request
                && r.method.as_deref() == Some("tools/call")
                && r.subject.as_deref() == Some(tool)
        })
    }

    /// The `arguments` of the newest request sent that `pick` picks.
    fn sent_arguments(&self, pick: impl Fn(&crate::timeline::Row) -> bool) -> Option<Value> {
        let row =
            self.timeline.rows().iter().rev().find(|r| r.direction == crate::timeline::RowDirection::Out && pick(r))?;
        let value: Value = serde_json::from_str(&row.raw).ok()?;
        Some(value["params"]["arguments"].clone()).filter(|a| !a.is_null())
    }

    /// When [`tick`](Self::tick) should next run: the pending call's deadline, or when
    /// `server/discover` is given up on.
    pub fn next_deadline_ms(&self) -> Option<f64> {
        let discover = self.discover_due.filter(|_| self.client.is_discovering());
        [self.call.due_ms(), discover, self.task_wake_ms(), self.requests_wake_ms()]
            .into_iter()
            .flatten()
            .reduce(f64::min)
    }

    // ---- actions ----

    /// Starts a connection to `target`, speaking the revision `protocol` asks for;
    /// everything of the previous session is cleared. `record` starts capturing it from its
    /// first message. The choice is the client's, not the relay's: it travels no further
    /// than this session's `server/discover` or `initialize`.
    pub fn connect_with(&mut self, target: Target, protocol: ProtocolChoice, record: bool) {
        self.connect_signing_in(target, protocol, OAuthSettings::default(), record);
    }

    /// [`connect_with`](Self::connect_with), with the client id and scopes the relay signs
    /// in with if the server asks for it.
    pub fn connect_signing_in(&mut self, target: Target, protocol: ProtocolChoice, oauth: OAuthSettings, record: bool) {
        let relay = self.relay.take();
        let roots = std::mem::take(&mut self.roots);
        // What belongs to the socket, not to the connection, stays.
        let (out, handover) = (std::mem::take(&mut self.out), std::mem::take(&mut self.handover));
        let unstamped = std::mem::take(&mut self.unstamped);
        *self = Self { relay, out, handover, unstamped, ..Self::new(&self.client_version) };
        self.changed = Changed::ALL;
        self.protocol = protocol;
        self.client = McpClient::with_choice(&self.client_version, protocol);
        // With `auto`, a refused `server/discover` is the way to `initialize`, not a failure.
        self.timeline.set_discover_falls_back(protocol == ProtocolChoice::Auto);
        self.set_roots(roots);
        self.remember_target(&target);
        if record {
            self.capture.push((0, None));
        }
        self.conn = ConnState::Connecting;
        self.handover.connect(ClientMsg::Connect { target, oauth }, &mut self.out);
    }

    /// Asks the relay to forget the server's OAuth tokens; the connection ends with them.
    pub fn sign_out(&mut self) {
        self.disconnect_requested = true;
        self.handover.owe();
        self.out.push(ClientMsg::SignOut {});
    }

    /// Where signing in to the remote server stands; none when it asked for no sign-in.
    pub fn auth(&self) -> Option<&AuthState> {
        self.auth.as_ref()
    }

    /// Ends the connection; what the relay says next closes it without an error. A connect
    /// still waiting for the relay to close the one before is dropped, unsent.
    pub fn disconnect(&mut self) {
        if self.handover.cancel() {
            self.set_conn(ConnState::Disconnected);
            return;
        }
        self.disconnect_requested = true;
        self.handover.owe();
        self.out.push(ClientMsg::Disconnect {});
    }

    /// The link to the relay itself broke (or was never there).
    pub fn relay_lost(&mut self, reason: &str) {
        self.handover.forget();
        self.unstamped.reset();
        if self.conn.is_live() {
            self.set_conn(ConnState::Error(reason.into()));
        }
        self.fail_pending_call("the relay connection was lost");
        self.end_requests("the relay connection was lost");
    }

    /// Asks for the tool list again, from its first page.
    pub fn refresh_tools(&mut self) {
        let frame = self.client.list_tools();
        self.set_tools_loading(true);
        self.send_frame(frame);
    }

    /// Calls `tool` with `arguments` (sent exactly as given), under `limits`. Refused while
    /// another call is pending or no server is connected.
    pub fn call_tool(&mut self, tool: &str, arguments: Value, limits: CallLimits, now_ms: f64) -> Result<Id, Refused> {
        if self.call.pending().is_some() {
            return Err(Refused::CallRunning);
        }
        if self.conn != ConnState::Connected {
            return Err(Refused::NotConnected);
        }
        let (id, frame) = match self.runs_as_task(tool) {
            true => self.client.call_tool_as_task(tool, arguments, self.call.task_ttl_ms()),
            false => self.client.call_tool(tool, arguments),
        };
        self.call.start(id.clone(), tool.to_owned(), Some(limits), !self.asks.is_empty(), now_ms);
        self.changed.call = true;
        self.send_frame(frame);
        Ok(id)
    }

    /// Gives up on the pending call: `notifications/cancelled` to the server, and the
    /// `cancelled` state. Its answer, should it come, shows in the timeline only.
    pub fn cancel_call(&mut self) {
        if self.cancel_task() {
            return;
        }
        let reason = "cancelled by the user";
        if let Some(tool) = self.give_up(reason) {
            self.set_call(CallState::Cancelled { tool, reason: reason.into() });
        }
    }

    /// The clock moved: a call past its deadline ends as a timeout, and `server/discover`
    /// unanswered for [`DISCOVER_WAIT_MS`] has `initialize` follow it.
    pub fn tick(&mut self, now_ms: f64) {
        if self.discover_due.is_some_and(|due| now_ms >= due) {
            self.discover_due = None;
            if !self.playback {
                let handled = self.client.discover_overdue();
                self.apply(handled, None, now_ms);
            }
        }
        self.tick_task(now_ms);
        self.tick_requests(now_ms);
        let Some(expiry) = self.call.expired(now_ms) else { return };
        let (after_ms, reason) = match expiry {
            Expiry::Silent { after_ms } => {
                (after_ms, format!("timed out after {:.0} s without a response", after_ms / 1000.0))
            }
            Expiry::TooLong { after_ms } => {
                (after_ms, format!("timed out: still running after the maximum of {:.0} s", after_ms / 1000.0))
            }
        };
        if let Some(tool) = self.give_up(&reason) {
            self.set_call(CallState::Timeout { tool, after_ms });
        }
    }

    /// Reads a resource a link points to; the result lands in [`reads`](Self::reads).
    pub fn read_resource(&mut self, uri: &str) {
        if !self.conn.is_live() && !self.playback {
            self.reads.insert(uri.to_owned(), ReadState::Failed("not connected to a server".into()));
            self.changed.reads = true;
            return;
        }
        self.note_read(uri);
        let (_, frame) = self.client.read_resource(uri);
        self.reads.insert(uri.to_owned(), ReadState::Loading);
        self.changed.reads = true;
        self.send_frame(frame);
    }

    /// Something to tell the person that is not a protocol matter.
    pub fn notice(&mut self, message: String) {
        self.notices.push(message);
        // Trimmed in bulk, so a server that floats a notice per message costs O(1) each.
        if self.notices.len() > 2 * MAX_NOTICES {
            self.notices.drain(..self.notices.len() - MAX_NOTICES);
        }
        self.changed.notices = true;
    }

    pub fn clear_notices(&mut self) {
        self.notices.clear();
        self.changed.notices = true;
    }

    pub fn clear_logs(&mut self) {
        self.logs.clear();
        self.changed.logs = true;
    }

    // ---- input from the relay ----

    /// Reads one message of the relay; `now_ms` is the caller's clock (for deadlines).
    pub fn receive(&mut self, msg: ServerMsg, now_ms: f64) {
        let msg = match msg {
            // The relay's stamp of a frame of ours: the frame is here.
            ServerMsg::Sent { n, at_ms, size } => match self.unstamped.stamped(n) {
                Some(frame) => ServerMsg::Message { direction: Direction::Out, at_ms, size, frame },
                None => return,
            },
            msg => msg,
        };
        if matches!(msg, ServerMsg::Event { event: crate::relay::RelayEvent::Closed { .. }, .. }) {
            self.unstamped.closed();
        }
        match self.handover.sort(&msg) {
            handover::Verdict::Current => {}
            handover::Verdict::Earlier => return,
            handover::Verdict::Release(connect) => return self.out.push(connect),
        }
        match msg {
            ServerMsg::Hello(info) => {
                // Every socket opens with it: its sends count from 0.
                self.unstamped.reset();
                self.relay = Some(info);
                self.changed.relay = true;
            }
            ServerMsg::Message { direction, at_ms, size, frame } => {
                // Parsed once: a result can be tens of megabytes.
                let parsed = jsonrpc::parse(&frame);
                let classified = parsed.as_ref().map(|(_, c)| c.clone()).map_err(Clone::clone);
                let seq = self.timeline.push_classified(direction, at_ms, size, frame, classified);
                self.changed.rows = true;
                // A request an App's view made says so in its row.
                if let (Direction::Out, Ok((_, c))) = (direction, parsed.as_ref())
                    && let Some(view_id) = c.id.as_ref().and_then(|id| self.for_view.get(id))
                {
                    self.timeline.note_for_view(seq, view_id);
                }
                let duration = self.timeline.rows()[seq].duration_ms;
                match (parsed.as_ref(), direction) {
                    (Ok((value, classified)), Direction::In) => {
                        let handled = self.client.handle(value, classified);
                        self.apply(handled, duration, now_ms);
                    }
                    (Ok((value, classified)), Direction::Out) if self.playback => {
                        match self.recorded_view_request(value, classified) {
                            Some(view_id) => self.observe_for_view(classified, seq, view_id),
                            None => self.observe_sent(value, classified, seq),
                        }
                    }
                    _ => {}
                }
            }
            ServerMsg::Event { at_ms, event } => {
                self.timeline.push_event(at_ms, &event);
                self.changed.rows = true;
                self.on_relay_event(event, now_ms);
            }
            // The page's saved servers, not the connection's: the page takes them itself.
            // (A stamp was made its message above.)
            ServerMsg::Secrets { .. } | ServerMsg::Sent { .. } | ServerMsg::Icon { .. } => {}
        }
    }

    // ---- inside ----

    /// Sends a frame to a live connection; one that failed or ended takes nothing more
    /// (the relay would only answer "not connected").
    fn send_frame(&mut self, frame: String) {
        if !self.conn.is_live() {
            return;
        }
        // A relay on a socket stamps the frame without echoing it (`ServerMsg::Sent`).
        self.unstamped.sent(&frame, self.relay.is_some() && !self.playback);
        self.out.push(ClientMsg::Send { frame });
    }

    fn set_conn(&mut self, conn: ConnState) {
        if !conn.is_live() {
            self.clear_asks();
        }
        self.conn = conn;
        self.changed.conn = true;
    }

    fn set_call(&mut self, call: CallState) {
        let ended = !call.is_pending();
        self.call.end(call);
        self.changed.call = true;
        if ended {
            self.drop_task_questions();
        }
    }

    fn set_tools_loading(&mut self, loading: bool) {
        self.tools_loading = loading;
        self.changed.tools = true;
    }

    /// Stops the pending call's clock and tells the server; the call's tool, if one was pending.
    fn give_up(&mut self, reason: &str) -> Option<String> {
        let (id, tool) = self.call.stop_clock()?;
        if let Some(frame) = self.client.cancel(&id, reason) {
            self.send_frame(frame);
        }
        // Questions of the call's input round go with it.
        let before = self.asks.len();
        let client = &self.client;
        self.asks.retain(|a| client.is_asked(&a.id));
        self.changed.asks |= self.asks.len() != before;
        Some(tool)
    }

    fn fail_pending_call(&mut self, message: &str) {
        if let Some((_, tool)) = self.call.pending() {
            let tool = tool.to_owned();
            self.set_call(CallState::TransportError { tool, message: message.into() });
        }
    }

    fn apply(&mut self, handled: Handled, duration_ms: Option<f64>, now_ms: f64) {
        for reply in handled.replies {
            self.send_frame(reply);
        }
        for update in handled.updates {
            self.update(update, duration_ms, now_ms);
        }
    }
}

/// The revision the unit tests pin, so that they open with `initialize` (the tests of
/// `auto` and of discovery connect otherwise).
#[cfg(test)]
pub(crate) fn tests_pin() -> ProtocolChoice {
    ProtocolChoice::Pinned(crate::revision::Revision::V2025_06_18)
}

fn new_client(version: &str) -> McpClient {
    McpClient::new(version, crate::DEFAULT_PROTOCOL_VERSION)
}
