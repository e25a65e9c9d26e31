//! The session log the timeline shows: every message both ways and every relay event, in
//! order, classified, with requests and responses paired and timed.

pub mod clock;
mod marks;
mod subject;

use std::sync::OnceLock;

use serde_json::Value;

pub use self::marks::Mark;
use crate::jsonrpc::{self, Id, Kind};
use crate::pairing::Pairing;
use crate::relay::{AuthExchange, Direction, RelayEvent};
use crate::spec_check::Verdict;

/// Which way a row went, as `data-direction` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowDirection {
    Out,
    In,
    Relay,
    /// The App lane: host → view (through the sandbox proxy).
    ToView,
    /// The App lane: view → host.
    FromView,
}

impl RowDirection {
    pub fn as_str(self) -> &'static str {
        match self {
            RowDirection::Out => "out",
            RowDirection::In => "in",
            RowDirection::Relay => "relay",
            RowDirection::ToView => "to-view",
            RowDirection::FromView => "from-view",
        }
    }

    /// A row of the bridge to an App's view, not of the server.
    pub fn is_app(self) -> bool {
        matches!(self, RowDirection::ToView | RowDirection::FromView)
    }
}

/// What a row is, as `data-kind` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Request,
    Response,
    Error,
    Notification,
    Event,
}

impl RowKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RowKind::Request => "request",
            RowKind::Response => "response",
            RowKind::Error => "error",
            RowKind::Notification => "notification",
            RowKind::Event => "event",
        }
    }
}

/// A row of the OAuth flow, as `data-auth` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthRow {
    /// One HTTP exchange with the authorization server ([`RelayEvent::AuthExchange`]).
    Exchange,
    /// Where sign-in stands ([`RelayEvent::Auth`]).
    State,
}

impl AuthRow {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthRow::Exchange => "exchange",
            AuthRow::State => "state",
        }
    }
}

/// Rows looked back through for the App lane's request a server request was sent for.
pub const VIEW_LOOKBACK: usize = 64;

/// A request's method and what it is about: `tools/call · get_weather`.
fn what(row: &Row) -> String {
    match (&row.method, &row.subject) {
        (Some(m), Some(s)) => format!("{m} · {s}"),
        (Some(m), None) => m.clone(),
        _ => String::new(),
    }
}

/// One row of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Position in the session, from 0.
    pub seq: usize,
    /// Relay time, milliseconds since the Unix epoch.
    pub at_ms: f64,
    pub direction: RowDirection,
    pub kind: RowKind,
    /// The method; for a response, the method of its request; for an event, its name.
    pub method: Option<String>,
    pub id: Option<Id>,
    pub size: usize,
    /// The frame as it crossed the wire, or the event's JSON.
    pub raw: String,
    /// For a response: the `seq` of its request; for a request: of its response, once known.
    pub partner: Option<usize>,
    /// For a response: milliseconds since its request; for a sign-in exchange, how long
    /// it took.
    pub duration_ms: Option<f64>,
    /// Its schema mark, once someone has looked (`marks.rs`).
    mark: OnceLock<Mark>,
    /// Part of the OAuth flow.
    pub auth: Option<AuthRow>,
    /// What the row reads as, where its method says too little (sign-in rows).
    pub summary: Option<String>,
    /// What a request (and its answer) is about: its tool, resource or prompt.
    pub subject: Option<String>,
    /// An error answer to `server/discover` that `initialize` follows (the session asked
    /// for `auto`): the usual way a server of an earlier revision is reached, not a failure.
    pub fell_back: bool,
}

/// The rows of one session, with the bookkeeping that pairs them.
#[derive(Debug, Default)]
pub struct Timeline {
    rows: Vec<Row>,
    /// Requests awaiting a response: their rows.
    open: Pairing<usize>,
    /// The same, on the App lane (the view's ids are its own).
    view_open: Pairing<usize>,
    /// The protocol revision rows are checked against (`marks.rs`).
    revision: Option<crate::revision::Revision>,
    /// A refused `server/discover` is a fall back to `initialize` (see `Row::fell_back`).
    discover_falls_back: bool,
}

impl Timeline {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// When the session began (the first row), for relative times.
    pub fn start_ms(&self) -> Option<f64> {
        self.rows.first().map(|r| r.at_ms)
    }

    /// Requests still waiting for a response.
    pub fn open_requests(&self) -> usize {
        self.open.len()
    }

    /// Adds an MCP message and pairs it. Returns its `seq`.
    pub fn push_message(&mut self, direction: Direction, at_ms: f64, size: usize, frame: String) -> usize {
        let classified = jsonrpc::parse(&frame).map(|(_, c)| c);
        self.push_classified(direction, at_ms, size, frame, classified)
    }

    /// Adds a message of the bridge to an App's view (`to_view`: the host sent it), paired
    /// with the others of that lane. Returns its `seq`.
    pub fn push_view(&mut self, to_view: bool, at_ms: f64, frame: String) -> usize {
        let classified = jsonrpc::parse(&frame).map(|(_, c)| c);
        let direction = if to_view { Direction::Out } else { Direction::In };
        let size = frame.len();
        self.push_row(direction, true, at_ms, size, frame, classified)
    }

    /// Adds an MCP message its caller already parsed (large frames are parsed once).
    pub fn push_classified(
        &mut self,
        direction: Direction,
        at_ms: f64,
        size: usize,
        frame: String,
        classified: Result<jsonrpc::Classified, jsonrpc::FrameError>,
    ) -> usize {
        self.push_row(direction, false, at_ms, size, frame, classified)
    }

    fn push_row(
        &mut self,
        direction: Direction,
        app: bool,
        at_ms: f64,
        size: usize,
        frame: String,
        classified: Result<jsonrpc::Classified, jsonrpc::FrameError>,
    ) -> usize {
        let dir = match (direction, app) {
            (Direction::Out, false) => RowDirection::Out,
            (Direction::In, false) => RowDirection::In,
            (Direction::Out, true) => RowDirection::ToView,
            (Direction::In, true) => RowDirection::FromView,
        };
        let seq = self.rows.len();
        let (kind, id, mut method) = match classified {
            Ok(c) => {
                let kind = match c.kind {
                    Kind::Request => RowKind::Request,
                    Kind::Notification => RowKind::Notification,
                    Kind::Response => RowKind::Response,
                    Kind::Error => RowKind::Error,
                };
                (kind, c.id, c.method)
            }
            // The relay forwards only JSON-RPC, but a page must survive anything.
            Err(_) => (RowKind::Event, None, Some("unreadable".to_owned())),
        };
        let mut partner = None;
        let mut duration_ms = None;
        let mut subject = None;
        let open = if app { &mut self.view_open } else { &mut self.open };
        match (kind, &id) {
            (RowKind::Request, Some(id)) => {
                open.open(direction, id.clone(), seq);
                subject = method.as_deref().and_then(|m| subject::of(m, &frame));
            }
            (RowKind::Response | RowKind::Error, Some(id)) => {
                if let Some(req) = open.answer(direction, id) {
                    let request = &mut self.rows[req];
                    request.partner = Some(seq);
                    method = request.method.clone();
                    subject = request.subject.clone();
                    partner = Some(req);
                    duration_ms = Some(at_ms - request.at_ms);
                }
            }
            // A server that knows no `server/discover` may refuse it before it knows its id
            // (an HTTP 400 of the 2025 SDKs): that error answers the discover still open.
            (RowKind::Error, None) if dir == RowDirection::In && self.discover_falls_back => {
                if let Some(req) = self.open_discover() {
                    let request = &mut self.rows[req];
                    request.partner = Some(seq);
                    method = request.method.clone();
                    partner = Some(req);
                    duration_ms = Some(at_ms - request.at_ms);
                }
            }
            _ => {}
        }
        let mark = OnceLock::new();
        self.rows.push(Row {
            seq,
            at_ms,
            direction: dir,
            kind,
            method,
            id,
            size,
            raw: frame,
            partner,
            duration_ms,
            mark,
            auth: None,
            summary: None,
            subject,
            fell_back: kind == RowKind::Error
                && self.discover_falls_back
                && partner
                    .and_then(|p| self.rows.get(p))
                    .is_some_and(|r| r.method.as_deref() == Some("server/discover")),
        });
        self.notice_revision(seq);
        seq
    }

    /// The `server/discover` request of ours that no row has answered yet: the first
    /// request of a connection, so it is looked for among the newest rows only.
    fn open_discover(&self) -> Option<usize> {
        let newest = self.rows.len().saturating_sub(16);
        self.rows[newest..]
            .iter()
            .rev()
            .find(|r| {
                r.direction == RowDirection::Out
                    && r.kind == RowKind::Request
                    && r.method.as_deref() == Some("server/discover")
            })
            .filter(|r| r.partner.is_none())
            .map(|r| r.seq)
    }

    /// Row `seq` is a request sent to the server for an App's view (the view's own id
    /// `view_id`): its label says so, and the view's request on the App lane names it.
    pub fn note_for_view(&mut self, seq: usize, view_id: &crate::jsonrpc::Id) {
        let Some(row) = self.rows.get_mut(seq) else { return };
        row.summary = Some(format!("{} · for the App's view (#{view_id})", what(row)));
        let server_id = row.id.clone();
        let asked = self.rows[..seq].iter_mut().rev().take(VIEW_LOOKBACK).find(|r| {
            r.direction == RowDirection::FromView && r.kind == RowKind::Request && r.id.as_ref() == Some(view_id)
        });
        if let (Some(asked), Some(server_id)) = (asked, server_id) {
            asked.summary = Some(format!("{} · sent to the server as #{server_id}", what(asked)));
        }
    }

    /// Adds a relay event. Returns its `seq`.
    pub fn push_event(&mut self, at_ms: f64, event: &RelayEvent) -> usize {
        let seq = self.rows.len();
        let raw = serde_json::to_string(event).unwrap_or_default();
        let (auth, summary) = match event {
            RelayEvent::AuthExchange { exchange } => (Some(AuthRow::Exchange), Some(exchange_summary(exchange))),
            RelayEvent::Auth { auth } => (Some(AuthRow::State), Some(format!("auth · {}", auth_state_summary(auth)))),
            _ => (None, None),
        };
        self.rows.push(Row {
            seq,
            at_ms,
            direction: RowDirection::Relay,
            kind: RowKind::Event,
            method: Some(event.name().to_owned()),
            id: None,
            size: raw.len(),
            raw,
            partner: None,
            duration_ms: match event {
                RelayEvent::AuthExchange { exchange } => Some(exchange.ms as f64),
                _ => None,
            },
            mark: OnceLock::new(),
            auth,
            summary,
            subject: None,
            fell_back: false,
        });
        seq
    }

    /// The row's JSON pretty-printed for the detail view; raw text when it is not JSON.
    pub fn pretty(&self, seq: usize) -> Option<String> {
        let row = self.rows.get(seq)?;
        Some(match serde_json::from_str::<Value>(&row.raw) {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| row.raw.clone()),
            Err(_) => row.raw.clone(),
        })
    }

    /// The OAuth exchange of row `seq`, for its detail view; `None` for any other row.
    pub fn auth_exchange(&self, seq: usize) -> Option<AuthExchange> {
        let row = self.rows.get(seq).filter(|r| r.auth == Some(AuthRow::Exchange))?;
        match serde_json::from_str::<RelayEvent>(&row.raw).ok()? {
            RelayEvent::AuthExchange { exchange } => Some(exchange),
            _ => None,
        }
    }

    /// Whether a refused `server/discover` is followed by `initialize` (the session asked
    /// for `auto`), and so shown as a fall back, not as an error.
    pub fn set_discover_falls_back(&mut self, falls_back: bool) {
        self.discover_falls_back = falls_back;
    }

    /// The positions of the rows that pass `filter`, in order.
    pub fn filter(&self, filter: &RowFilter) -> Vec<usize> {
        let f = filter.prepared();
        self.rows.iter().filter(|r| f.passes(r)).map(|r| r.seq).collect()
    }

    /// The row paired with row `seq` (a request's answer, an answer's request); `None`
    /// when there is no row `seq`. Cheap: a list keys its drawn rows by it.
    pub fn partner(&self, seq: usize) -> Option<Option<usize>> {
        Some(self.rows.get(seq)?.partner)
    }

    /// Row `seq` as the timeline shows it.
    pub fn view(&self, seq: usize) -> Option<RowView> {
        let row = self.rows.get(seq)?;
        Some(RowView::new(row, self.start_ms().unwrap_or(row.at_ms), self.verdict(seq)))
    }

    /// The last `n` rows as the timeline shows them, without schema marks: the flow view
    /// draws hundreds at once and shows none, and marks are only ever made for rows looked at.
    pub fn tail(&self, n: usize) -> Vec<RowView> {
        let start = self.start_ms().unwrap_or(0.0);
        self.rows[self.rows.len().saturating_sub(n)..].iter().map(|r| RowView::new(r, start, None)).collect()
    }

    /// The verdict of a checked row.
    fn verdict(&self, seq: usize) -> Option<Verdict> {
        self.schema_mark(seq).and_then(Result::ok)
    }
}

/// What the timeline's filters ask for; empty parts let everything through.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFilter {
    /// Part of the method (any case), or the exact id.
    pub text: String,
    pub direction: Option<RowDirection>,
    pub kind: Option<RowKind>,
    /// Only the rows of the OAuth flow (`timeline-auth-filter`).
    pub auth: bool,
}

impl RowFilter {
    /// Whether the filter lets every row through.
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty() && self.direction.is_none() && self.kind.is_none() && !self.auth
    }

    fn prepared(&self) -> Prepared<'_> {
        Prepared { needle: self.text.trim().to_lowercase(), filter: self }
    }
}

struct Prepared<'a> {
    needle: String,
    filter: &'a RowFilter,
}

impl Prepared<'_> {
    fn passes(&self, r: &Row) -> bool {
        self.filter.direction.is_none_or(|d| d == r.direction)
            && (!self.filter.auth || r.auth.is_some())
            && self.filter.kind.is_none_or(|k| k == r.kind)
            && (self.needle.is_empty()
                || r.method.as_deref().is_some_and(|m| m.to_lowercase().contains(&self.needle))
                || r.summary.as_deref().is_some_and(|m| m.to_lowercase().contains(&self.needle))
                || r.subject.as_deref().is_some_and(|s| s.to_lowercase().contains(&self.needle))
                || r.id.as_ref().is_some_and(|id| id_text(id) == self.needle))
    }
}

/// An exchange as its row reads: `auth · POST /token → 200` (its time beside, as a
/// response's is).
fn exchange_summary(x: &AuthExchange) -> String {
    // The path only: the host is the authorization server's, named by the detail view.
    let path = x.url.split_once("://").map_or(x.url.as_str(), |(_, rest)| rest.find('/').map_or("/", |i| &rest[i..]));
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let status = x.status.map_or_else(|| "failed".to_owned(), |s| s.to_string());
    format!("auth · {} {path} → {status}", x.method)
}

fn auth_state_summary(auth: &crate::relay::AuthState) -> String {
    use crate::relay::AuthState;
    match auth {
        AuthState::SigningIn { step } => format!("signing in ({step})"),
        AuthState::Approve { issuer, .. } => format!("approve at {issuer}"),
        AuthState::SignedIn { issuer, .. } => format!("signed in at {issuer}"),
        AuthState::SignedOut => "signed out".into(),
        AuthState::Failed { step, .. } => format!("failed at {step}"),
    }
}

fn id_text(id: &Id) -> String {
    match id {
        Id::Number(n) => n.to_string(),
        Id::String(s) => s.clone(),
    }
}

impl RowDirection {
    /// Reads `as_str`'s names.
    pub fn parse(s: &str) -> Option<Self> {
        [RowDirection::Out, RowDirection::In, RowDirection::Relay, RowDirection::ToView, RowDirection::FromView]
            .into_iter()
            .find(|d| d.as_str() == s)
    }
}

impl RowKind {
    /// Reads `as_str`'s names.
    pub fn parse(s: &str) -> Option<Self> {
        [RowKind::Request, RowKind::Response, RowKind::Error, RowKind::Notification, RowKind::Event]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// A row ready to show: times relative to the session's start, names as the page writes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RowView {
    pub seq: usize,
    pub rel_ms: f64,
    /// The relay's stamp, in ms since the Unix epoch.
    pub at_ms: f64,
    pub direction: &'static str,
    pub kind: &'static str,
    pub method: String,
    pub id: Option<String>,
    pub size: usize,
    pub duration_ms: Option<f64>,
    pub partner: Option<usize>,
    /// The schema verdict (`data-schema`); `None` for relay events and unchecked rows.
    pub schema: Option<Verdict>,
    /// `data-auth`: part of the OAuth flow.
    pub auth: Option<AuthRow>,
    /// What the row reads as instead of its method (sign-in rows).
    pub summary: Option<String>,
    /// What a request and its answer are about (a tool, a resource, a prompt).
    pub subject: Option<String>,
    /// A refused `server/discover` that `initialize` followed: shown quietly.
    pub fell_back: bool,
}

impl RowView {
    /// The row's words: its summary, else its method with its subject
    /// (`tools/call · submit_order`).
    pub fn label(&self) -> String {
        match (&self.summary, &self.subject) {
            _ if self.fell_back => format!("{} · fell back to initialize", self.method),
            (Some(summary), _) => summary.clone(),
            (None, Some(subject)) => format!("{} · {subject}", self.method),
            (None, None) => self.method.clone(),
        }
    }

    fn new(row: &Row, start_ms: f64, schema: Option<Verdict>) -> Self {
        Self {
            seq: row.seq,
            rel_ms: row.at_ms - start_ms,
            at_ms: row.at_ms,
            direction: row.direction.as_str(),
            kind: row.kind.as_str(),
            method: row.method.clone().unwrap_or_default(),
            id: row.id.as_ref().map(id_text),
            size: row.size,
            duration_ms: row.duration_ms,
            partner: row.partner,
            schema,
            auth: row.auth,
            summary: row.summary.clone(),
            subject: row.subject.clone(),
            fell_back: row.fell_back,
        }
    }
}

#[cfg(test)]
mod tests;
