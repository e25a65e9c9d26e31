//! The page's state: signals over the sans-IO [`Session`] of `shared`, which holds every
//! rule of the MCP session. The store moves relay messages in, the session's messages out,
//! and copies what changed into signals the panels read. Components call the actions here;
//! they hold no protocol logic.

mod app_host;
mod apps;
mod asks;
mod auth;
mod calls;
mod catalog;
mod files;
mod icons;
mod inbox;
mod link;
mod offline;
mod pace;
mod playback;
mod replay;
mod saved;
mod tasks;

use std::collections::HashMap;

use leptos::prelude::*;
use shared::connect_form::ConnectForm;
use shared::mcp::Tool;
use shared::relay::{ConfiguredServer, Target, Transport};
use shared::revision::{ProtocolChoice, Revision};
use shared::session::{Changed, Session};
use shared::timeline::{Mark, RowFilter, RowView};

use crate::args::ArgsState;
use crate::ws::{RelaySocket, SocketState};
pub use apps::{AppView, AppsUi, FRAME_ID};
pub use asks::AsksState;
pub use auth::AuthUi;
pub use calls::{CallsState, Confirm};
pub use catalog::{CatalogUi, Picked, View};
pub use files::FileJob;
pub use icons::Fetched;
pub use playback::Loading;
pub use replay::{ReplayConfirm, ReplayView};
pub use saved::SavedState;
pub use shared::session::{CallState, ConnState, LogLine, Progress, ReadState, ServerInfo};

/// Milliseconds of the page's monotonic clock.
pub(crate) fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or(0.0)
}

/// All the page's state: signals for what is shown, the session for the rest.
#[derive(Clone, Copy)]
pub struct Store {
    pub relay: RwSignal<SocketState>,
    pub conn: RwSignal<ConnState>,
    pub transport: RwSignal<Transport>,
    pub command: RwSignal<String>,
    pub env: RwSignal<String>,
    pub cwd: RwSignal<String>,
    pub url: RwSignal<String>,
    pub headers: RwSignal<String>,
    /// The protocol revision asked for (`connect-protocol`).
    pub protocol: RwSignal<ProtocolChoice>,
    pub server: RwSignal<Option<ServerInfo>>,
    pub stderr: RwSignal<Vec<String>>,
    pub tools: RwSignal<Vec<Tool>>,
    pub tools_loading: RwSignal<bool>,
    pub tools_error: RwSignal<Option<String>>,
    /// What a 2026-07-28 tool list says beyond its tools: caching, and tools left out.
    pub list_facts: RwSignal<Option<shared::client::ListFacts>>,
    pub tool_filter: RwSignal<String>,
    pub selected: RwSignal<Option<String>>,
    pub args: ArgsState,
    pub call: RwSignal<CallState>,
    /// How many rows the timeline has; the rows are read from the session.
    pub row_count: RwSignal<usize>,
    pub selected_row: RwSignal<Option<usize>>,
    /// The timeline's filter text (the tasks panel sets it to a task's id).
    pub timeline_filter: RwSignal<String>,
    pub notices: RwSignal<Vec<String>>,
    /// The servers of the relay's `--config` file, offered beside the saved ones.
    pub offered: RwSignal<Vec<ConfiguredServer>>,
    pub reads: RwSignal<HashMap<String, ReadState>>,
    pub calls: CallsState,
    /// The server's requests of the person, and the roots offered.
    pub asks: AsksState,
    /// Signing in to a remote server, and the form's OAuth fields.
    pub auth: AuthUi,
    /// The saved servers, and where the person was.
    pub saved: SavedState,
    /// An App's view of the current call.
    pub apps: AppsUi,
    /// The resources and prompts views.
    pub catalog: CatalogUi,
    /// The page captures the session (`record-toggle`); also what the next connect does.
    pub recording: RwSignal<bool>,
    /// The relay writes every session to a file (`--record DIR`).
    pub relay_recording: RwSignal<bool>,
    /// A recording being played back, and where.
    pub playback: RwSignal<Option<shared::recording::PlayerView>>,
    /// The `http(s)` icons of this connection, fetched by the relay.
    icons: icons::IconCache,
    /// The tool a link opens, until the server lists its tools.
    link: link::LinkState,
    /// The presenter view: large type, the note and the result, nothing else.
    pub presenter: RwSignal<bool>,
    /// A recording file being read.
    pub loading: RwSignal<Option<Loading>>,
    /// The replay of the loaded recording against the live server.
    pub replay_view: RwSignal<ReplayView>,
    /// Recorded calls of tools that may write, waiting for a yes.
    pub replay_confirm: RwSignal<Option<ReplayConfirm>>,
    /// JSON Pointers the replay leaves out, one per line.
    pub replay_ignore: RwSignal<String>,
    running: StoredValue<Option<replay::Running>>,
    replay_rows: StoredValue<Vec<shared::replay::ReplayRow>>,
    session: StoredValue<Session>,
    /// The live session while a recording plays.
    parked: StoredValue<Option<Session>>,
    /// The recording being played, and where.
    player: StoredValue<Option<shared::recording::Player>>,
    socket: StoredValue<Option<RelaySocket>, LocalStorage>,
    inbox: StoredValue<inbox::Inbox>,
    /// How the timeline's row count is told: at once, or at a flood's pace.
    rows: pace::Rows,
    preset_applied: StoredValue<bool>,
}

impl Store {
    pub fn new() -> Self {
        Self {
            relay: RwSignal::new(SocketState::Opening),
            // The first screen connects by itself once the relay says hello.
            conn: RwSignal::new(ConnState::Connecting),
            transport: RwSignal::new(Transport::Demo),
            command: RwSignal::new(String::new()),
            env: RwSignal::new(String::new()),
            cwd: RwSignal::new(String::new()),
            url: RwSignal::new(String::new()),
            headers: RwSignal::new(String::new()),
            protocol: RwSignal::new(ProtocolChoice::Auto),
            server: RwSignal::new(None),
            stderr: RwSignal::new(Vec::new()),
            tools: RwSignal::new(Vec::new()),
            tools_loading: RwSignal::new(false),
            tools_error: RwSignal::new(None),
            list_facts: RwSignal::new(None),
            tool_filter: RwSignal::new(String::new()),
            selected: RwSignal::new(None),
            args: ArgsState::new(),
            call: RwSignal::new(CallState::Idle),
            row_count: RwSignal::new(0),
            selected_row: RwSignal::new(None),
            timeline_filter: RwSignal::new(String::new()),
            notices: RwSignal::new(Vec::new()),
            offered: RwSignal::new(Vec::new()),
            reads: RwSignal::new(HashMap::new()),
            calls: CallsState::new(),
            asks: AsksState::new(),
            auth: AuthUi::new(),
            saved: SavedState::new(),
            apps: AppsUi::new(),
            catalog: CatalogUi::new(),
            recording: RwSignal::new(true),
            relay_recording: RwSignal::new(false),
            playback: RwSignal::new(None),
            icons: StoredValue::new(HashMap::new()),
            link: link::LinkState::new(),
            presenter: RwSignal::new(false),
            loading: RwSignal::new(None),
            replay_view: RwSignal::new(Default::default()),
            replay_confirm: RwSignal::new(None),
            replay_ignore: RwSignal::new(String::new()),
            running: StoredValue::new(None),
            replay_rows: StoredValue::new(Vec::new()),
            session: StoredValue::new(Session::new(env!("CARGO_PKG_VERSION"))),
            parked: StoredValue::new(None),
            player: StoredValue::new(None),
            socket: StoredValue::new_local(None),
            inbox: StoredValue::new(Default::default()),
            rows: pace::Rows::new(),
            preset_applied: StoredValue::new(false),
        }
    }

    /// Opens the socket to the relay, signed in by the session cookie the relay set when
    /// this browser opened the URL it printed.
    pub fn start(self) {
        if let Some((name, blob)) = offline::recording() {
            return self.play_held(name, blob);
        }
        self.read_link();
        self.load_roots();
        match RelaySocket::open(move |m| self.enqueue(m), move |s| self.on_socket_state(s)) {
            Ok(socket) => self.socket.set_value(Some(socket)),
            Err(e) => self.relay.set(SocketState::Lost(e)),
        }
    }

    /// Runs an action on the session, then sends what it asks and shows what changed.
    fn act<R>(self, action: impl FnOnce(&mut Session) -> R) -> R {
        let r = self.session.try_update_value(action).expect("the session lives as long as the page");
        self.sync();
        r
    }

    /// Reads from the session.
    pub fn with_session<R>(self, read: impl FnOnce(&Session) -> R) -> R {
        self.session.with_value(read)
    }

    fn sync(self) {
        loop {
            let fx = self.session.try_update_value(Session::drain).expect("session");
            if fx.send.is_empty() && !fx.changed.any() {
                return;
            }
            for msg in &fx.send {
                let sent = self.socket.with_value(|s| s.as_ref().is_some_and(|s| s.send(msg)));
                if !sent {
                    // Said once, by the session; the next turn of the loop shows it.
                    self.session.update_value(|s| s.relay_lost("not connected to the relay"));
                    break;
                }
            }
            self.show(fx.changed);
        }
    }

    /// Copies the parts of the session that changed into their signals.
    fn show(self, changed: Changed) {
        let mut pick_later = None;
        // A tool list came: whether the tool a reload or a link asked for is in it (said
        // once the session is free again).
        let mut listed = None;
        let mut played_view = None;
        let mut keep = false;
        let mut played_activity = None;
        let first_hello = self.session.with_value(|s| {
            let first_hello = if changed.relay
                && !self.preset_applied.get_value()
                && let Some(relay) = s.relay()
            {
                self.preset_applied.set_value(true);
                self.apply_target(&relay.preset);
                self.protocol.set(relay.preset_protocol);
                self.apply_oauth(&relay.preset_oauth);
                self.offered.set(relay.servers.clone());
                self.relay_recording.set(relay.recording);
                Some(relay.playback)
            } else {
                None
            };
            if changed.auth {
                self.show_auth(s);
            }
            if changed.conn {
                let was_connected = self.conn.with_untracked(|c| *c == ConnState::Connected);
                self.conn.set(s.conn().clone());
                if !was_connected && *s.conn() == ConnState::Connected && !s.is_playback() {
                    keep = true;
                }
            }
            if changed.server {
                self.server.set(s.server().cloned());
            }
            if changed.tasks {
                self.calls.book.set(s.task_book().clone());
            }
            if changed.conn || changed.server {
                self.settle_auth_tab(s);
            }
            if changed.tools {
                self.tools_loading.set(s.tools_loading());
                self.tools_error.set(s.tools_error().map(str::to_owned));
                if self.list_facts.with_untracked(|f| f.as_ref() != s.list_facts()) {
                    self.list_facts.set(s.list_facts().cloned());
                }
                if self.tools.with_untracked(|t| t.as_slice() != s.tools()) {
                    let keep = self.selected.get_untracked().filter(|name| s.tool(name).is_some());
                    self.tools.set(s.tools().to_vec());
                    self.tools_listed(s.tools());
                    if keep.is_none() {
                        self.selected.set(None);
                    }
                    // After a reload, the tool the person had picked comes back.
                    if !s.is_playback() {
                        let asked = self.saved.pending_tool.try_update_value(Option::take).flatten();
                        pick_later = asked.filter(|t| s.tool(t).is_some());
                        listed = Some(pick_later.is_some());
                    }
                }
            }
            if changed.call {
                self.call.set(s.call().clone());
                self.calls.progress.set(s.progress().cloned());
                self.calls.task.set(s.task().cloned());
                if s.is_playback() {
                    self.follow_recorded_call(s);
                    // A recorded call of an App tool shows its view again, from the file (at
                    // full speed its request and answer may come in one go).
                    if let Some(name) = s.call().tool()
                        && let Some(t) = s.tool(name).filter(|t| shared::apps::resource_uri(t).is_some())
                    {
                        let id = match s.call() {
                            CallState::Pending { id, .. } => Some(id.clone()),
                            _ => None,
                        };
                        played_view = Some((t.clone(), id, s.last_arguments(name).unwrap_or_default()));
                        if self.selected.get_untracked().as_deref() != Some(name) {
                            pick_later = Some(name.to_owned());
                        }
                    }
                }
            }
            if changed.rows {
                let count = self.row_count;
                self.rows.tell(move || count.set(self.with_session(|s| s.timeline().len())));
            }
            if changed.notices {
                self.notices.set(s.notices().to_vec());
            }
            if changed.stderr {
                self.stderr.set(s.stderr().to_vec());
            }
            if changed.logs {
                self.calls.logs_moved();
            }
            if changed.reads {
                self.reads.set(s.reads().clone());
            }
            if changed.asks {
                self.asks.queue.set(s.asks().to_vec());
            }
            if changed.catalog {
                played_activity = self.show_catalog(s);
            }
            first_hello
        });
        match first_hello {
            // `mcp-playground play FILE`: the relay holds a recording to play.
            Some(true) => {
                self.conn.set(ConnState::Disconnected);
                self.fetch_recording();
            }
            // The first screen connects to the server the relay was started on (the demo
            // server when none was named), as the README says; a failure leaves the form
            // filled and says why beside it.
            // Unless the person was on another server under this same relay: that one.
            Some(false) if self.with_session(|s| *s.conn() == ConnState::Disconnected) => {
                let preset = self.with_session(|s| s.relay().map(|r| r.preset.clone())).unwrap_or(Target::Demo);
                if !self.restore_last(&preset) {
                    self.connect();
                }
            }
            _ => {}
        }
        if keep {
            self.keep_connected();
            self.with_session(|s| s.target().cloned()).inspect(|t| self.restore_place(t));
        }
        if let Some(activity) = played_activity {
            self.follow_activity(activity);
        }
        // An App's view follows the call, the reads, its answers and the connection.
        if changed.conn && self.conn.with_untracked(|c| *c != ConnState::Connected) {
            self.close_view("the connection ended");
        }
        if let Some((tool, id, arguments)) = played_view {
            self.view_for_call(&tool, id, arguments);
        }
        if changed.reads {
            self.reads_changed();
        }
        if changed.call {
            self.call_changed();
        }
        if changed.view {
            self.view_answers();
        }
        if keep {
            self.list_tasks_if_kept();
        }
        if let Some(listed) = listed {
            self.link_listed(listed);
        }
        if let Some(tool) = pick_later {
            self.select_tool(tool);
        }
    }

    fn on_socket_state(self, state: SocketState) {
        if let SocketState::Lost(reason) = &state {
            self.act(|s| s.relay_lost(reason));
            if !self.preset_applied.get_value() {
                // The connection the first screen was about to make never started.
                self.conn.set(ConnState::Error(reason.clone()));
            }
        }
        self.relay.set(state);
    }

    /// The connection form's fields.
    fn form(self) -> ConnectForm {
        ConnectForm {
            transport: self.transport.get_untracked(),
            command: self.command.get_untracked(),
            env: self.env.get_untracked(),
            cwd: self.cwd.get_untracked(),
            url: self.url.get_untracked(),
            headers: self.headers.get_untracked(),
        }
    }

    /// Connects to the server described by the connection form.
    pub fn connect(self) {
        let target = match self.form().target() {
            Ok(t) => t,
            Err(e) => return self.conn.set(ConnState::Error(e.to_string())),
        };
        self.selected_row.set(None);
        self.calls.confirm.set(None);
        let record = self.recording.get_untracked();
        let protocol = self.protocol.get_untracked();
        // Only a remote server signs in; the fields of another transport stay unsent.
        let oauth = if target.url().is_some() { self.oauth_settings() } else { Default::default() };
        self.note_connecting(&target);
        self.forget_icons();
        self.act(|s| s.connect_signing_in(target, protocol, oauth, record));
    }

    /// Starts or stops the page's capture of the session (and of the sessions to come).
    pub fn toggle_recording(self) {
        let on = !self.recording.get_untracked();
        self.recording.set(on);
        if !self.in_playback() {
            self.act(|s| s.set_recording(on));
        }
    }

    /// The recording file to download: the captured session, or the recording being
    /// played back exactly as it was loaded.
    pub fn export_recording(self) -> Option<String> {
        if self.in_playback() {
            return self.playback_text();
        }
        self.with_session(Session::export_recording)
    }

    /// `mcp-playground play FILE`: the relay holds a recording; play it.
    fn fetch_recording(self) {
        leptos::task::spawn_local(async move {
            match crate::fetch::blob("/api/recording", "x-recording-name").await {
                Ok((blob, name)) => {
                    let name = name.unwrap_or_else(|| "the recording the relay opened".to_owned());
                    self.file_job(FileJob::Open { name, blob });
                }
                Err(e) => self.notice(format!("the relay's recording could not be fetched: {e}")),
            }
        });
    }

    pub fn disconnect(self) {
        self.act(Session::disconnect);
    }

    pub fn refresh_tools(self) {
        self.act(Session::refresh_tools);
    }

    pub fn select_tool(self, name: String) {
        let tool = self.tools.with_untracked(|t| t.iter().find(|t| t.name == name).cloned());
        let Some(tool) = tool else { return };
        let server = self.server.with_untracked(|s| s.as_ref().map(|s| s.name.clone()).unwrap_or_default());
        self.args.load(&tool, &server);
        self.prefetch_view(&tool);
        if !self.in_playback() {
            self.show_link(&name);
            let name = name.clone();
            self.remember_where(|l| l.tool = Some(name));
            if let Some(arguments) = self.link_args() {
                self.args.value.set(arguments);
            }
        }
        // A recording shows a tool as it was called: with the arguments of its last call.
        if self.in_playback()
            && let Some(arguments) = self.session.with_value(|s| s.last_arguments(&name))
        {
            self.args.value.set(arguments);
        }
        self.selected.set(Some(name));
    }

    /// Playback: the tool of a recorded call is selected with the arguments it was sent
    /// with, as the person had it when it was live.
    fn follow_recorded_call(self, s: &Session) {
        let CallState::Pending { tool, .. } = s.call() else { return };
        self.catalog.view.set(View::Tools);
        let Some(t) = s.tool(tool).cloned() else { return };
        if self.selected.get_untracked().as_deref() != Some(tool.as_str()) {
            let server = s.server().map(|i| i.name.clone()).unwrap_or_default();
            self.args.load(&t, &server);
            self.selected.set(Some(tool.clone()));
        }
        if let Some(arguments) = s.call_arguments() {
            self.args.value.set(arguments);
        }
    }

    /// Whether the server offers `resources` (so links can be opened).
    pub fn has_resources(self) -> bool {
        self.server.with(|s| s.as_ref().is_some_and(|s| s.has("resources")))
    }

    /// Reads a resource a link points to; the result lands in `reads`.
    pub fn read_resource(self, uri: String) {
        self.act(|s| s.read_resource(&uri));
    }

    /// Tells the person something (shown with the session's own notices).
    pub fn notice(self, message: String) {
        self.act(|s| s.notice(message));
    }

    pub fn clear_notices(self) {
        self.act(Session::clear_notices);
    }

    pub fn clear_logs(self) {
        self.act(Session::clear_logs);
    }

    /// Fills the connection form from a target (a preset or a saved server).
    pub fn apply_target(self, target: &Target) {
        let mut form = self.form();
        form.fill(target);
        self.transport.set(form.transport);
        self.command.set(form.command);
        self.env.set(form.env);
        self.cwd.set(form.cwd);
        self.url.set(form.url);
        self.headers.set(form.headers);
    }

    /// The full JSON of a row, for the detail view.
    pub fn row_detail(self, seq: usize) -> Option<String> {
        self.with_session(|s| s.timeline().pretty(seq))
    }

    /// The sign-in exchange of a row, for the detail view.
    pub fn auth_exchange(self, seq: usize) -> Option<shared::relay::AuthExchange> {
        self.with_session(|s| s.timeline().auth_exchange(seq))
    }

    /// A row's schema mark and the revision it was checked against, for the detail view
    /// (`None` for relay events).
    pub fn row_mark(self, seq: usize) -> Option<(Option<Revision>, Mark)> {
        self.with_session(|s| s.timeline().schema_mark(seq).map(|m| (s.timeline().revision(), m)))
    }

    /// Each row's partner by its position (tracks new rows; see `Timeline::partner`).
    pub fn with_partners<R>(self, read: impl FnOnce(&dyn Fn(usize) -> Option<Option<usize>>) -> R) -> R {
        self.row_count.track();
        self.with_session(|s| read(&|seq| s.timeline().partner(seq)))
    }

    /// Row `seq` as the timeline shows it, now (tracks nothing).
    pub fn row_view(self, seq: usize) -> Option<RowView> {
        self.with_session(|s| s.timeline().view(seq))
    }

    /// Whether messages flood in (taken in by the thousand, or a recording played as fast as
    /// possible): every frame is full already, and what can wait does.
    pub fn flooding(self) -> bool {
        self.rows.flooding()
    }

    /// The last `n` rows (tracks new rows).
    pub fn rows_tail(self, n: usize) -> Vec<RowView> {
        self.row_count.track();
        self.with_session(|s| s.timeline().tail(n))
    }

    /// The rows passing `filter`, by position (tracks new rows).
    pub fn filter_rows(self, filter: &RowFilter) -> Vec<usize> {
        self.row_count.track();
        self.with_session(|s| s.timeline().filter(filter))
    }
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}
