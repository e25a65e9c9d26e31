//! Remote servers: Streamable HTTP (POST every message, JSON or SSE answers, a session id,
//! the protocol version header, the optional GET stream, DELETE at the end) and the legacy
//! HTTP+SSE transport (GET the stream, wait for its `endpoint`, POST to it), with
//! auto-detection as the spec's backwards-compatibility section describes. Frames are
//! forwarded unchanged; failures become relay events.
//!
//! One actor per connection ([`actor`]) owns what the connection knows: the session id, the
//! negotiated protocol version, the legacy endpoint, whether the GET stream is open. Every
//! request and stream runs as a task in the actor's `JoinSet` and reports what it saw over a
//! channel, so no state is shared and nothing outlives the session: `shutdown` stops the
//! actor, which aborts its tasks, and aborts the actor itself when it does not end in time.
//!
//! # Order
//! Frames reach the server in the order the page sent them, by this rule:
//! - `initialize`, and every notification or response, is POSTed and its HTTP status awaited
//!   before the next frame is POSTed: `notifications/initialized` always reaches the server
//!   before `tools/list`.
//! - Other requests are started in order but do not hold later frames: a slow `tools/call`
//!   answered with JSON must not block its own `notifications/cancelled`.
//! - Legacy HTTP+SSE POSTs are answered at once (the answers come on the stream): they are
//!   simply serialised.
//! - With `Auto`, the first POST decides the transport; later frames wait for its status.
//!
//! # Bounded reads
//! Connecting has a timeout. Waiting for response headers has none: a server may compute a
//! long tool call before it answers, and the page's call timeout and cancel cover that. Once
//! the headers arrived, a JSON body or an error body must keep delivering bytes (at most
//! [`IDLE`] between chunks), and an error body is read up to [`ERROR_BODY_BYTES`]. SSE
//! streams may stay idle as long as they like: the GET stream legitimately waits hours for
//! a server's notification, and an SSE answer may be silent until its result. That is why
//! the bound is applied per body, not with the client-wide read timeout.

mod actor;
mod body;
mod http;
mod legacy;
pub mod reach;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue, WWW_AUTHENTICATE};
use serde_json::Value;
use shared::recording::{mask_url, mask_value};
use shared::relay::{Direction, Limits, RelayEvent, Transport};
use tokio::sync::{mpsc, watch};

use super::sse::TooLarge;
use super::{EventSender, SendError, StartError, UpstreamEvent, now_ms, oversized};
use actor::Report;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How much of an HTTP error body is read and shown.
pub const ERROR_BODY_BYTES: usize = 4096;
/// The longest a JSON or error body may go without a byte once its headers arrived.
pub const IDLE: Duration = Duration::from_secs(30);
/// How long `shutdown` waits for the actor (which deletes the session) before aborting it.
const GRACE: Duration = Duration::from_secs(5);
/// How long a notification or response may hold later frames while its HTTP status is out:
/// a server that never gives one slows the session, but does not stop it.
const HOLD_LIMIT: Duration = Duration::from_secs(10);
const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
/// Frames the page may send ahead of the one being POSTed (their bytes bounded too, by
/// [`super::queue_bytes`]); past either `send` says `Backlog`.
const FRAMES_AHEAD: usize = 256;

/// Which remote transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Http,
    Sse,
    /// Streamable HTTP first; legacy SSE when the first POST is refused with 400, 404 or 405.
    Auto,
}

impl Mode {
    /// The connection kind this mode is, by its one name.
    pub fn transport(self) -> Transport {
        match self {
            Mode::Http => Transport::Http,
            Mode::Sse => Transport::Sse,
            Mode::Auto => Transport::Auto,
        }
    }
}

/// The bounds on time, in one place so tests can shorten them.
#[derive(Debug, Clone, Copy)]
struct Tuning {
    idle: Duration,
    grace: Duration,
    hold: Duration,
}

impl Default for Tuning {
    fn default() -> Self {
        Self { idle: IDLE, grace: GRACE, hold: HOLD_LIMIT }
    }
}

/// A connection to a remote server.
#[derive(Debug)]
pub struct RemoteUpstream {
    frames: super::queue::Sender<String>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    max_message_bytes: usize,
    grace: Duration,
}

/// Headers shown to people: names kept, values masked by the one rule recordings use too.
pub fn masked(headers: &BTreeMap<String, String>) -> Vec<String> {
    headers.iter().map(|(k, v)| format!("{k}: {}", mask_value(v))).collect()
}

fn header_map(headers: &BTreeMap<String, String>) -> Result<HeaderMap, StartError> {
    let mut map = HeaderMap::new();
    for (k, v) in headers {
        let name = HeaderName::from_bytes(k.trim().as_bytes()).map_err(|_| StartError::HeaderName(k.clone()))?;
        let value = HeaderValue::from_str(v.trim()).map_err(|_| StartError::HeaderValue(k.clone()))?;
        map.insert(name, value);
    }
    Ok(map)
}

/// Checks a server URL: only `http` and `https`.
pub fn parse_url(url: &str) -> Result<url::Url, StartError> {
    let parsed =
        url::Url::parse(url.trim()).map_err(|e| StartError::NotUrl { url: url.to_owned(), reason: e.to_string() })?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed),
        other => Err(StartError::Scheme(other.to_owned())),
    }
}

/// What every task of a connection needs: how to reach the server and whom to tell.
#[derive(Clone)]
struct Ctx {
    client: reqwest::Client,
    url: url::Url,
    headers: HeaderMap,
    events: EventSender,
    /// To the actor: what a task saw that the connection must know.
    reports: mpsc::UnboundedSender<Report>,
    max: usize,
    idle: Duration,
    /// See [`HOLD_LIMIT`].
    hold_limit: Duration,
    /// Signs in when the server asks for OAuth (none when the person gave their own
    /// `Authorization` header).
    auth: Option<Arc<crate::auth::Authorizer>>,
}

impl Ctx {
    /// `req` with the connection's headers and, once signed in, its access token.
    fn authorized(&self, req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        self.authorized_with(req, self.auth.as_ref().and_then(|a| a.bearer()).as_deref())
    }

    /// `req` with the connection's headers and `token`.
    fn authorized_with(&self, req: reqwest::RequestBuilder, token: Option<&str>) -> reqwest::RequestBuilder {
        let req = req.headers(self.headers.clone());
        match token {
            Some(token) => req.bearer_auth(token),
            None => req,
        }
    }

    async fn relay(&self, event: RelayEvent) {
        let _ = self.events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await;
    }

    async fn error(&self, message: String) {
        self.relay(RelayEvent::Error { message }).await;
    }

    async fn note(&self, message: String) {
        self.relay(RelayEvent::Note { message }).await;
    }

    async fn frame(&self, frame: String) {
        let _ = self.events.send(UpstreamEvent::Frame { at_ms: now_ms(), frame }).await;
    }

    fn report(&self, report: Report) {
        // The actor only goes away with its tasks; nothing to do when it has.
        let _ = self.reports.send(report);
    }

    async fn fail_request(&self, id: Option<Value>, message: &str) {
        if let Some(id) = id {
            self.relay(RelayEvent::RequestFailed { id, message: message.to_owned() }).await;
        }
    }

    /// An SSE event over the limit: said, and its call failed at once when its first bytes
    /// name it. Returns the id of the call that failed.
    async fn too_large(&self, t: TooLarge) -> Option<Value> {
        self.relay(RelayEvent::Oversized { direction: Direction::In, size: t.size, limit: self.max }).await;
        let failed = oversized::failed_call(&t.head, t.size, self.max)?;
        let id = match &failed {
            RelayEvent::RequestFailed { id, .. } => Some(id.clone()),
            _ => None,
        };
        self.relay(failed).await;
        id
    }

    /// Sends `req`; when `bounded` and the status has not come within [`HOLD_LIMIT`], `hold`
    /// is let go (so later frames go on) and the wait for the status goes on.
    async fn send_holding(
        &self,
        req: reqwest::RequestBuilder,
        hold: &mut Option<actor::Hold>,
        bounded: bool,
    ) -> reqwest::Result<reqwest::Response> {
        let sending = req.send();
        tokio::pin!(sending);
        if hold.is_none() || !bounded {
            return sending.await;
        }
        tokio::select! {
            resp = &mut sending => resp,
            _ = tokio::time::sleep(self.hold_limit) => {
                drop(hold.take());
                let waited = human(self.hold_limit);
                self.note(format!("the server gave no HTTP status for a message within {waited}; the next ones go on")).await;
                sending.await
            }
        }
    }

    fn unreachable(&self, e: reqwest::Error) -> String {
        reach::words(&self.url, &e)
    }
}

impl RemoteUpstream {
    /// Starts the connection; returns the `connected` event to show.
    pub fn start(
        mode: Mode,
        url: &str,
        headers: &BTreeMap<String, String>,
        limits: Limits,
        events: EventSender,
    ) -> Result<(Self, RelayEvent), StartError> {
        Self::start_with(mode, url, headers, limits, events, Tuning::default(), None)
    }

    /// [`start`](Self::start), signing in with `signing` when the server asks for OAuth.
    pub fn start_signing(
        mode: Mode,
        url: &str,
        headers: &BTreeMap<String, String>,
        limits: Limits,
        events: EventSender,
        signing: Option<crate::auth::Signing>,
    ) -> Result<(Self, RelayEvent), StartError> {
        Self::start_with(mode, url, headers, limits, events, Tuning::default(), signing)
    }

    fn start_with(
        mode: Mode,
        url: &str,
        headers: &BTreeMap<String, String>,
        limits: Limits,
        events: crate::upstream::EventSender,
        tuning: Tuning,
        signing: Option<crate::auth::Signing>,
    ) -> Result<(Self, RelayEvent), StartError> {
        let parsed = parse_url(url)?;
        let header_map = header_map(headers)?;
        // No client-wide read timeout: it would end idle SSE streams (see the module doc).
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            // Small JSON-RPC posts go out at once (see `app::no_delay`).
            .tcp_nodelay(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| StartError::Client(e.to_string()))?;
        let (frames, frames_rx) = super::queue::bounded(FRAMES_AHEAD, super::queue_bytes(limits));
        let (stop, stop_rx) = watch::channel(false);
        let (reports, reports_rx) = mpsc::unbounded_channel();
        // A person's own `Authorization` header is what they want sent: no sign-in then.
        let own_token = headers.keys().any(|k| k.trim().eq_ignore_ascii_case("authorization"));
        let auth = signing
            .filter(|_| !own_token)
            .map(|s| Arc::new(crate::auth::Authorizer::new(s, url.trim(), events.clone())));
        let ctx = Ctx {
            client,
            url: parsed.clone(),
            headers: header_map,
            events,
            reports,
            max: limits.max_message_bytes,
            idle: tuning.idle,
            hold_limit: tuning.hold,
            auth,
        };
        let task = tokio::spawn(actor::run(mode, ctx, frames_rx, reports_rx, stop_rx));
        // Events end up in recordings: a URL's password and query values stay out, as
        // header values do.
        let connected = RelayEvent::Connected {
            transport: mode.transport().as_str().into(),
            url: mask_url(parsed.as_str()),
            headers: masked(headers),
        };
        let upstream = Self { frames, stop, task, max_message_bytes: limits.max_message_bytes, grace: tuning.grace };
        Ok((upstream, connected))
    }

    pub fn send(&self, frame: String) -> Result<(), SendError> {
        if frame.len() > self.max_message_bytes {
            return Err(SendError::Oversized { size: frame.len(), limit: self.max_message_bytes });
        }
        serde_json::from_str::<serde::de::IgnoredAny>(&frame).map_err(|e| SendError::Invalid(e.to_string()))?;
        self.frames.try_send(frame).map_err(|e| match e {
            super::queue::Refused::Full => SendError::Backlog,
            super::queue::Refused::Closed => SendError::Closed,
        })
    }

    /// Ends the connection: the session is deleted on the server (Streamable HTTP), every
    /// request and stream is dropped. An actor that does not end within the grace (stuck
    /// on a full event channel, say) is aborted, and its tasks with it.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let mut task = self.task;
        if tokio::time::timeout(self.grace, &mut task).await.is_err() {
            task.abort();
            let _ = task.await;
        }
    }
}

/// A duration as people read it in a message: `30 s`, `300 ms`.
fn human(d: Duration) -> String {
    if d.subsec_millis() == 0 { format!("{} s", d.as_secs()) } else { format!("{} ms", d.as_millis()) }
}

/// What a URL that answers with a web page is called, whatever its status.
pub const NOT_MCP: &str = "not an MCP endpoint (it answered an HTML page)";

/// Whether `resp` is a web page (`text/html`), which no MCP server answers with.
fn is_html(resp: &reqwest::Response) -> bool {
    resp.headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.trim_start().to_ascii_lowercase().starts_with("text/html"))
}

/// [`NOT_MCP`], with the status and the URL it came from.
fn not_mcp(resp: &reqwest::Response) -> String {
    format!("{NOT_MCP}: HTTP {} from {}", resp.status(), mask_url(resp.url().as_str()))
}

fn describe_status(resp: &reqwest::Response) -> String {
    let status = resp.status();
    let mut message = format!("the server answered HTTP {}", status);
    if let Some(auth) = resp.headers().get(WWW_AUTHENTICATE).and_then(|v| v.to_str().ok()) {
        message.push_str(&format!(" (WWW-Authenticate: {auth})"));
    }
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        message.push_str(
            ": the server wants a sign-in the relay could not do; an Authorization header may be given instead",
        );
    }
    message
}

#[cfg(test)]
mod tests;
