//! The connection's actor: it owns what the connection knows, queues the page's frames and
//! starts each POST by the order rule of the module doc, and runs every task in its
//! `JoinSet`, so they all end with it.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use shared::relay::{RelayEvent, Transport};
use tokio::sync::{mpsc, watch};
use tokio::task::{AbortHandle, JoinSet};
use tokio::time::Instant;

use super::super::{UpstreamEvent, now_ms};
use super::http::{self, Post};
use super::{Ctx, Mode, SESSION_HEADER, legacy};

/// How long a legacy SSE server gets to name its message endpoint.
const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the DELETE that ends a session may take.
const DELETE_TIMEOUT: Duration = Duration::from_secs(3);

/// What a task tells the actor.
#[derive(Debug)]
pub(super) enum Report {
    /// The POST that held the queue has its status (or failed): the next frame may go.
    Released,
    /// The server named (or renamed) the session.
    SessionId(String),
    /// The answer to `initialize` named the protocol version.
    Version(String),
    /// `notifications/initialized` was accepted: the GET stream may open. It carries the
    /// hold of that POST: later frames wait until the stream is open (or refused), so that
    /// what the server sends on it while answering them (an elicitation, say) is not lost.
    Initialized(Hold),
    /// The first POST was answered: the server speaks Streamable HTTP.
    Streamable,
    /// The first POST was refused the way legacy servers refuse it: this frame goes again,
    /// over legacy HTTP+SSE.
    FallBack(String),
    /// The legacy stream named where to POST (already checked to be the server's origin).
    Endpoint(url::Url),
    /// A `tools/list` page named these tools' `x-mcp-header` marks (property, header).
    Marks(Vec<(String, Vec<(String, String)>)>),
}

/// Held by a POST (or the GET stream opening) that later frames wait for; dropping it (status seen, failure, abort)
/// lets them go, so no path can forget to.
#[derive(Debug)]
pub(super) struct Hold(mpsc::UnboundedSender<Report>);

impl Drop for Hold {
    fn drop(&mut self) {
        let _ = self.0.send(Report::Released);
    }
}

/// A frame from the page, not yet POSTed.
struct Queued {
    frame: String,
    /// Already shown as written (the probe's frame, sent again after falling back).
    written: bool,
}

/// The fields of a frame the order rule looks at; anything else (a batch) reads as
/// neither, which holds the queue like a notification.
#[derive(Deserialize, Default)]
struct Peek {
    method: Option<String>,
    id: Option<Value>,
    #[serde(default)]
    params: Value,
}

impl Peek {
    /// The revision a stateless (2026-07-28) frame names in its `_meta`.
    fn stateless_version(&self) -> Option<&str> {
        self.params.get("_meta")?.get(shared::client::META_VERSION)?.as_str()
    }
}

struct Actor {
    ctx: Ctx,
    mode: Mode,
    tasks: JoinSet<()>,
    queue: VecDeque<Queued>,
    /// A POST is out whose status later frames wait for.
    holding: bool,
    session_id: Option<String>,
    protocol_version: Option<String>,
    get_stream_open: bool,
    /// Legacy: where to POST, once named.
    endpoint: Option<url::Url>,
    /// Legacy: when the endpoint is overdue.
    endpoint_by: Option<Instant>,
    /// Legacy: the endpoint never came; frames are failed, not queued.
    endpoint_missing: bool,
    /// 2026-07-28: each tool's `x-mcp-header` marks, from the tool lists seen.
    marks: HashMap<String, Vec<(String, String)>>,
    /// 2026-07-28: the POST of each request under way, closed to cancel it.
    posts: HashMap<String, AbortHandle>,
    /// 2026-07-28 frames went: a cancellation closes its request's stream.
    stateless: bool,
}

pub(super) async fn run(
    mode: Mode,
    ctx: Ctx,
    mut frames: crate::upstream::queue::Receiver<String>,
    mut reports: mpsc::UnboundedReceiver<Report>,
    mut stop: watch::Receiver<bool>,
) {
    let mut a = Actor {
        ctx,
        mode,
        tasks: JoinSet::new(),
        queue: VecDeque::new(),
        holding: false,
        session_id: None,
        protocol_version: None,
        get_stream_open: false,
        endpoint: None,
        endpoint_by: None,
        endpoint_missing: false,
        marks: HashMap::new(),
        posts: HashMap::new(),
        stateless: false,
    };
    if let Some(auth) = a.ctx.auth.clone() {
        auth.announce().await;
    }
    if mode == Mode::Sse {
        a.open_legacy();
    }
    loop {
        let overdue = a.endpoint_by;
        tokio::select! {
            // Reports before frames: a task reports (the protocol version, say) before it
            // forwards the answer the page reacts to, so the next frame sees it.
            biased;
            _ = stop.changed() => break,
            Some(report) = reports.recv() => a.on_report(report).await,
            // One frame taken at a time: the rest wait in the channel (bounded in count and
            // bytes), so a server that holds the queue makes `send` say `Backlog` instead of
            // frames piling up here.
            frame = frames.recv_item(), if a.queue.is_empty() => {
                let Some(frame) = frame else { break };
                a.queue.push_back(Queued { frame, written: false });
            }
            Some(_) = a.tasks.join_next(), if !a.tasks.is_empty() => {}
            _ = sleep_until(overdue), if overdue.is_some() => a.no_endpoint().await,
        }
        a.pump().await;
    }
    a.tasks.abort_all();
    a.delete_session().await;
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl Actor {
    fn hold(&mut self) -> Hold {
        self.holding = true;
        Hold(self.ctx.reports.clone())
    }

    fn open_legacy(&mut self) {
        self.tasks.spawn(legacy::stream(self.ctx.clone()));
        self.endpoint_by = Some(Instant::now() + ENDPOINT_TIMEOUT);
    }

    async fn on_report(&mut self, report: Report) {
        match report {
            Report::Released => self.holding = false,
            Report::SessionId(id) => self.session_id = Some(id),
            Report::Version(v) => self.protocol_version = Some(v),
            Report::Initialized(hold) if !self.get_stream_open => {
                self.get_stream_open = true;
                let (session, version) = (self.session_id.clone(), self.protocol_version.clone());
                self.tasks.spawn(http::get_stream(self.ctx.clone(), session, version, hold));
            }
            Report::Initialized(_) => {}
            Report::Streamable if self.mode == Mode::Auto => {
                self.mode = Mode::Http;
                self.ctx.relay(RelayEvent::Detected { transport: Transport::Http.as_str().into() }).await;
            }
            Report::Streamable => {}
            Report::FallBack(frame) => {
                let message = "Streamable HTTP was refused; falling back to the legacy HTTP+SSE transport".into();
                self.ctx.relay(RelayEvent::Note { message }).await;
                self.mode = Mode::Sse;
                self.open_legacy();
                self.queue.push_front(Queued { frame, written: true });
            }
            Report::Endpoint(url) => {
                self.endpoint = Some(url);
                self.endpoint_by = None;
            }
            Report::Marks(marks) => self.marks.extend(marks),
        }
    }

    async fn no_endpoint(&mut self) {
        self.endpoint_by = None;
        self.endpoint_missing = true;
        let message = format!("the SSE server did not name its endpoint within {} s", ENDPOINT_TIMEOUT.as_secs());
        self.ctx.error(message).await;
    }

    /// Starts queued frames for as long as the order rule lets them go.
    async fn pump(&mut self) {
        while !self.holding {
            let Some(next) = self.queue.front() else { return };
            let peek: Peek = serde_json::from_str(&next.frame).unwrap_or_default();
            let request_id = peek.method.as_ref().and(peek.id.clone());
            if self.mode == Mode::Sse && self.endpoint.is_none() {
                if !self.endpoint_missing {
                    return;
                }
                self.queue.pop_front();
                self.ctx.fail_request(request_id, "the SSE server never named its endpoint").await;
                continue;
            }
            let Some(Queued { frame, written }) = self.queue.pop_front() else { return };
            if self.stateless && self.mode != Mode::Sse && self.cancel_by_closing(&peek).await {
                continue;
            }
            if !written {
                let event = UpstreamEvent::Written { at_ms: now_ms(), frame: frame.clone() };
                let _ = self.ctx.events.send(event).await;
            }
            match (self.mode, self.endpoint.clone()) {
                (Mode::Sse, Some(endpoint)) => {
                    let hold = self.hold();
                    self.tasks.spawn(legacy::post(self.ctx.clone(), endpoint, frame, request_id, hold));
                }
                _ => {
                    let init = peek.method.as_deref() == Some("initialize");
                    let probing = self.mode == Mode::Auto;
                    let hold = (probing || init || request_id.is_none()).then(|| self.hold());
                    let stateless = peek.stateless_version().map(str::to_owned);
                    self.stateless |= stateless.is_some();
                    let headers = match &stateless {
                        Some(_) => self.headers_of(&peek),
                        None => Vec::new(),
                    };
                    let key = request_id.as_ref().map(Value::to_string);
                    let post = Post {
                        frame,
                        initialized: peek.method.as_deref() == Some("notifications/initialized"),
                        request_id,
                        init,
                        probing,
                        // A stateless request names its own revision and has no session.
                        session: self.session_id.clone().filter(|_| stateless.is_none()),
                        version: stateless.or_else(|| self.protocol_version.clone().filter(|_| !init)),
                        hold,
                        discover: peek.method.as_deref() == Some("server/discover"),
                        lists_tools: peek.method.as_deref() == Some("tools/list"),
                        headers,
                    };
                    let handle = self.tasks.spawn(http::post(self.ctx.clone(), post));
                    if let Some(key) = key.filter(|_| self.stateless) {
                        self.posts.retain(|_, h| !h.is_finished());
                        self.posts.insert(key, handle);
                    }
                }
            }
        }
    }

    /// The 2026-07-28 headers of a frame: `Mcp-Method`, `Mcp-Name`, and a call's
    /// `Mcp-Param-*` by its tool's marks.
    fn headers_of(&self, peek: &Peek) -> Vec<(String, String)> {
        let body = serde_json::json!({"method": peek.method, "params": peek.params});
        let mut headers: Vec<(String, String)> =
            shared::http_headers::standard(&body).into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
        if peek.method.as_deref() == Some("tools/call")
            && let Some(marks) = peek.params["name"].as_str().and_then(|n| self.marks.get(n))
        {
            headers.extend(shared::http_headers::params(marks, &peek.params["arguments"]));
        }
        headers
    }

    /// 2026-07-28 over HTTP: a request is cancelled by closing its stream, not by a
    /// notification. True when `peek` was such a cancellation (and is not sent).
    async fn cancel_by_closing(&mut self, peek: &Peek) -> bool {
        if peek.method.as_deref() != Some("notifications/cancelled") {
            return false;
        }
        let id = &peek.params["requestId"];
        if let Some(post) = self.posts.remove(&id.to_string()) {
            post.abort();
        }
        let message = format!("request {id} cancelled: its stream was closed, as 2026-07-28 cancels over HTTP");
        self.ctx.relay(RelayEvent::Note { message }).await;
        true
    }

    async fn delete_session(&self) {
        if self.mode == Mode::Http
            && let Some(id) = &self.session_id
        {
            let ctx = &self.ctx;
            let req = ctx.authorized(ctx.client.delete(ctx.url.clone())).header(SESSION_HEADER, id);
            let _ = tokio::time::timeout(DELETE_TIMEOUT, req.send()).await;
        }
    }
}
