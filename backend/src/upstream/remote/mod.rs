//! Remote servers: Streamable HTTP (POST every message, JSON or SSE answers, a session id,
//! the protocol version header, the optional GET stream, DELETE at the end) and the legacy
//! HTTP+SSE transport (GET the stream, wait for its `endpoint`, POST to it), with
//! auto-detection as the spec's backwards-compatibility section describes. Frames are
//! forwarded unchanged; failures become relay events; nothing outlives the session.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, WWW_AUTHENTICATE};
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;
use shared::recording::{mask_url, mask_value};
use shared::relay::{Direction, Limits, RelayEvent, Transport};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::sse::Parser;
use super::{EventSender, SendError, UpstreamEvent, now_ms, oversized};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a legacy SSE server gets to name its message endpoint.
const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(15);
const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";
/// Messages of one batch body forwarded; a server that answers with more is told about.
const MAX_BATCH_ITEMS: usize = 1000;

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

/// A connection to a remote server.
#[derive(Debug)]
pub struct RemoteUpstream {
    frames: mpsc::Sender<String>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    max_message_bytes: usize,
}

/// Headers shown to people: names kept, values masked by the one rule recordings use too.
pub fn masked(headers: &BTreeMap<String, String>) -> Vec<String> {
    headers.iter().map(|(k, v)| format!("{k}: {}", mask_value(v))).collect()
}

fn header_map(headers: &BTreeMap<String, String>) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
    for (k, v) in headers {
        let name =
            HeaderName::from_bytes(k.trim().as_bytes()).map_err(|_| format!("{k:?} is not a valid header name"))?;
        let value = HeaderValue::from_str(v.trim()).map_err(|_| format!("the value of header {k:?} is not valid"))?;
        map.insert(name, value);
    }
    Ok(map)
}

/// Checks a server URL: only `http` and `https`.
pub fn parse_url(url: &str) -> Result<url::Url, String> {
    let parsed = url::Url::parse(url.trim()).map_err(|e| format!("{url:?} is not a valid URL: {e}"))?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed),
        other => Err(format!("only http and https URLs are supported, not {other}:")),
    }
}

/// What the connection knows, shared by its request tasks.
#[derive(Debug, Default)]
struct State {
    session_id: Option<String>,
    protocol_version: Option<String>,
    /// The id of our `initialize` request, to read the negotiated version off its response.
    init_id: Option<Value>,
    get_stream_open: bool,
    /// Legacy SSE: where to POST.
    endpoint: Option<url::Url>,
}

#[derive(Clone)]
struct Ctx {
    client: reqwest::Client,
    url: url::Url,
    headers: HeaderMap,
    state: Arc<Mutex<State>>,
    events: EventSender,
    max: usize,
    endpoint_ready: watch::Receiver<bool>,
    endpoint_tx: Arc<watch::Sender<bool>>,
}

impl Ctx {
    async fn relay(&self, event: RelayEvent) {
        let _ = self.events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await;
    }

    async fn error(&self, message: String) {
        self.relay(RelayEvent::Error { message }).await;
    }

    async fn frame(&self, frame: String) {
        if let Ok(v) = serde_json::from_str::<Value>(&frame) {
            let mut st = self.state.lock().expect("state lock");
            if st.init_id.is_some() && v.get("id") == st.init_id.as_ref() {
                st.protocol_version = v["result"]["protocolVersion"].as_str().map(str::to_owned);
            }
        }
        let _ = self.events.send(UpstreamEvent::Frame { at_ms: now_ms(), frame }).await;
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
    ) -> Result<(Self, RelayEvent), String> {
        let parsed = parse_url(url)?;
        let header_map = header_map(headers)?;
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            // Small JSON-RPC posts go out at once (see `app::no_delay`).
            .tcp_nodelay(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
        let (frames, rx) = mpsc::channel(256);
        let (stop, stop_rx) = watch::channel(false);
        let (endpoint_tx, endpoint_ready) = watch::channel(false);
        let ctx = Ctx {
            client,
            url: parsed.clone(),
            headers: header_map,
            state: Arc::default(),
            events,
            max: limits.max_message_bytes,
            endpoint_ready,
            endpoint_tx: Arc::new(endpoint_tx),
        };
        let task = tokio::spawn(run(mode, ctx, rx, stop_rx));
        // Events end up in recordings: a URL's password and query values stay out, as
        // header values do.
        let connected = RelayEvent::Connected {
            transport: mode.transport().as_str().into(),
            url: mask_url(parsed.as_str()),
            headers: masked(headers),
        };
        Ok((Self { frames, stop, task, max_message_bytes: limits.max_message_bytes }, connected))
    }

    pub fn send(&self, frame: String) -> Result<(), SendError> {
        if frame.len() > self.max_message_bytes {
            return Err(SendError::Oversized { size: frame.len(), limit: self.max_message_bytes });
        }
        serde_json::from_str::<serde::de::IgnoredAny>(&frame).map_err(|e| SendError::Invalid(e.to_string()))?;
        self.frames.try_send(frame).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => SendError::Backlog,
            mpsc::error::TrySendError::Closed(_) => SendError::Closed,
        })
    }

    /// Ends the connection: the session is deleted on the server (Streamable HTTP), every
    /// request and stream is dropped.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(5), self.task).await;
    }
}

async fn run(mode: Mode, ctx: Ctx, mut frames: mpsc::Receiver<String>, mut stop: watch::Receiver<bool>) {
    let mut tasks = JoinSet::new();
    let mut mode = mode;
    if mode == Mode::Sse {
        tasks.spawn(legacy_stream(ctx.clone()));
    }
    loop {
        tokio::select! {
            frame = frames.recv() => {
                let Some(frame) = frame else { break };
                let value: Value = serde_json::from_str(&frame).unwrap_or(Value::Null);
                if value["method"] == "initialize" {
                    ctx.state.lock().expect("state lock").init_id = Some(value["id"].clone());
                }
                match mode {
                    Mode::Sse => { tasks.spawn(legacy_post(ctx.clone(), frame)); }
                    Mode::Http => {
                        let ctx = ctx.clone();
                        tasks.spawn(async move {
                            post(ctx, frame, value, false).await;
                        });
                    }
                    Mode::Auto => {
                        // The first message decides; later ones wait for the answer.
                        if post(ctx.clone(), frame.clone(), value, true).await == Probe::FallBack {
                            ctx.relay(RelayEvent::Note {
                                message: "Streamable HTTP was refused; falling back to the legacy HTTP+SSE transport".into(),
                            }).await;
                            mode = Mode::Sse;
                            tasks.spawn(legacy_stream(ctx.clone()));
                            tasks.spawn(legacy_post(ctx.clone(), frame));
                        } else {
                            mode = Mode::Http;
                            ctx.relay(RelayEvent::Note { message: "the server speaks Streamable HTTP".into() }).await;
                        }
                    }
                }
            }
            Some(_) = tasks.join_next(), if !tasks.is_empty() => {}
            _ = stop.changed() => break,
        }
    }
    tasks.abort_all();
    let session = ctx.state.lock().expect("state lock").session_id.clone();
    if mode == Mode::Http
        && let Some(id) = session
    {
        let req = ctx.client.delete(ctx.url.clone()).headers(ctx.headers.clone()).header(SESSION_HEADER, id);
        let _ = tokio::time::timeout(Duration::from_secs(3), req.send()).await;
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Probe {
    Done,
    FallBack,
}

fn describe_status(resp: &reqwest::Response) -> String {
    let status = resp.status();
    let mut message = format!("the server answered HTTP {}", status);
    if let Some(auth) = resp.headers().get(WWW_AUTHENTICATE).and_then(|v| v.to_str().ok()) {
        message.push_str(&format!(" (WWW-Authenticate: {auth})"));
    }
    if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
        message.push_str(": add an Authorization header to the connection");
    }
    message
}

/// POSTs one message (Streamable HTTP) and forwards what comes back.
async fn post(ctx: Ctx, frame: String, value: Value, probing: bool) -> Probe {
    let request_id = value.get("method").and(value.get("id")).cloned();
    let (session, version) = {
        let st = ctx.state.lock().expect("state lock");
        (st.session_id.clone(), st.protocol_version.clone())
    };
    let mut req = ctx
        .client
        .post(ctx.url.clone())
        .headers(ctx.headers.clone())
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json");
    if let Some(s) = session {
        req = req.header(SESSION_HEADER, s);
    }
    if let Some(v) = version
        && value["method"] != "initialize"
    {
        req = req.header(VERSION_HEADER, v);
    }
    let _ = ctx.events.send(UpstreamEvent::Written { at_ms: now_ms(), frame: frame.clone() }).await;
    let resp = match req.body(frame).send().await {
        Ok(r) => r,
        Err(e) => {
            ctx.error(format!("could not reach {}: {}", mask_url(ctx.url.as_str()), e.without_url())).await;
            fail_request(&ctx, request_id, "the request did not reach the server").await;
            return Probe::Done;
        }
    };
    let status = resp.status();
    if probing && matches!(status.as_u16(), 400 | 404 | 405) {
        return Probe::FallBack;
    }
    if let Some(id) = resp.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()) {
        ctx.state.lock().expect("state lock").session_id = Some(id.to_owned());
    }
    if !status.is_success() {
        let mut message = describe_status(&resp);
        if status == reqwest::StatusCode::NOT_FOUND && ctx.state.lock().expect("state lock").session_id.is_some() {
            message.push_str(": the server no longer knows this session; connect again");
        }
        let body = resp.text().await.unwrap_or_default();
        if !body.trim().is_empty() {
            message.push_str(&format!("; body: {}", body.chars().take(300).collect::<String>()));
        }
        ctx.error(message).await;
        fail_request(&ctx, request_id, &format!("HTTP {status}")).await;
        return Probe::Done;
    }
    let is_sse = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    if is_sse {
        let answered = read_stream(&ctx, resp, request_id.as_ref()).await;
        if let Some(id) = request_id.filter(|_| !answered) {
            fail_request(&ctx, Some(id), "the server closed the stream before answering").await;
        }
    } else if status != reqwest::StatusCode::ACCEPTED {
        read_json(&ctx, resp, request_id).await;
    }
    if value["method"] == "notifications/initialized" {
        let open = std::mem::replace(&mut ctx.state.lock().expect("state lock").get_stream_open, true);
        if !open {
            tokio::spawn(get_stream(ctx.clone()));
        }
    }
    Probe::Done
}

async fn fail_request(ctx: &Ctx, id: Option<Value>, message: &str) {
    if let Some(id) = id {
        ctx.relay(RelayEvent::RequestFailed { id, message: message.to_owned() }).await;
    }
}

/// A JSON body: one message (forwarded as the body's text) or a batch (each item forwarded
/// as the exact text the server wrote for it, never re-encoded).
async fn read_json(ctx: &Ctx, resp: reqwest::Response, request_id: Option<Value>) {
    let body = match read_limited(ctx, resp).await {
        Ok(b) => b,
        Err(Body::Oversized { size }) => {
            let message = oversized::over_limit(size, ctx.max);
            return fail_request(ctx, request_id, &message).await;
        }
        Err(Body::Broken) => return fail_request(ctx, request_id, "the response broke off or was not UTF-8").await,
    };
    let text = body.trim();
    if text.is_empty() {
        return;
    }
    let read = if text.starts_with('[') {
        serde_json::from_str::<Vec<&RawValue>>(text).map(Some)
    } else {
        serde_json::from_str::<IgnoredAny>(text).map(|_| None)
    };
    match read {
        Ok(Some(items)) => {
            let total = items.len();
            for item in items.into_iter().take(MAX_BATCH_ITEMS) {
                ctx.frame(item.get().to_owned()).await;
            }
            if total > MAX_BATCH_ITEMS {
                let message = format!(
                    "the server answered a batch of {total} messages; the first {MAX_BATCH_ITEMS} were forwarded, the rest dropped"
                );
                ctx.error(message).await;
            }
        }
        Ok(None) => ctx.frame(text.to_owned()).await,
        Err(e) => {
            ctx.relay(RelayEvent::InvalidFrame {
                preview: text.chars().take(300).collect(),
                size: text.len(),
                error: e.to_string(),
            })
            .await;
            fail_request(ctx, request_id, "the response was not JSON").await;
        }
    }
}

/// Why a body was not read whole.
enum Body {
    /// Over the limit: `size` is what had come when it went over (the declared length when
    /// there is one).
    Oversized {
        size: usize,
    },
    Broken,
}

async fn read_limited(ctx: &Ctx, resp: reqwest::Response) -> Result<String, Body> {
    let declared = resp.content_length().and_then(|n| usize::try_from(n).ok());
    let mut body = Vec::new();
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| Body::Broken)?;
        if body.len() + chunk.len() > ctx.max {
            let size = declared.unwrap_or(body.len() + chunk.len());
            ctx.relay(RelayEvent::Oversized { direction: Direction::In, size, limit: ctx.max }).await;
            return Err(Body::Oversized { size });
        }
        body.extend_from_slice(&chunk);
    }
    String::from_utf8(body).map_err(|_| Body::Broken)
}

/// Forwards the `message` events of an SSE response; true when the response to
/// `request_id` came by.
async fn read_stream(ctx: &Ctx, resp: reqwest::Response, request_id: Option<&Value>) -> bool {
    let mut parser = Parser::new(ctx.max);
    let mut answered = false;
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else { break };
        for event in parser.feed(&chunk) {
            match event {
                Ok(e) if e.event == "message" && !e.data.trim().is_empty() => {
                    if let Some(id) = request_id
                        && let Ok(v) = serde_json::from_str::<Value>(&e.data)
                        && v.get("method").is_none()
                        && v.get("id") == Some(id)
                    {
                        answered = true;
                    }
                    ctx.frame(e.data).await;
                }
                Ok(_) => {}
                Err(t) => {
                    ctx.relay(RelayEvent::Oversized { direction: Direction::In, size: t.size, limit: ctx.max }).await
                }
            }
        }
    }
    answered
}

/// The optional GET stream for messages the server starts (Streamable HTTP).
async fn get_stream(ctx: Ctx) {
    let session = ctx.state.lock().expect("state lock").session_id.clone();
    let mut req = ctx.client.get(ctx.url.clone()).headers(ctx.headers.clone()).header(ACCEPT, "text/event-stream");
    if let Some(s) = session {
        req = req.header(SESSION_HEADER, s);
    }
    if let Some(v) = ctx.state.lock().expect("state lock").protocol_version.clone() {
        req = req.header(VERSION_HEADER, v);
    }
    // 405 means the server offers no such stream: nothing to say.
    if let Ok(resp) = req.send().await
        && resp.status().is_success()
    {
        read_stream(&ctx, resp, None).await;
    }
}

/// Legacy HTTP+SSE: the long-lived GET stream; its first `endpoint` event says where to POST.
async fn legacy_stream(ctx: Ctx) {
    let req = ctx.client.get(ctx.url.clone()).headers(ctx.headers.clone()).header(ACCEPT, "text/event-stream");
    let resp = match req.send().await {
        Ok(r) if r.status().is_success() => r,
        Ok(r) => return ctx.error(describe_status(&r)).await,
        Err(e) => {
            return ctx.error(format!("could not reach {}: {}", mask_url(ctx.url.as_str()), e.without_url())).await;
        }
    };
    let mut parser = Parser::new(ctx.max);
    let mut stream = resp.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else { break };
        for event in parser.feed(&chunk) {
            match event {
                Ok(e) if e.event == "endpoint" => match ctx.url.join(e.data.trim()) {
                    // Only the server's own origin: never POST where a server points elsewhere.
                    Ok(u) if u.origin() == ctx.url.origin() => {
                        ctx.state.lock().expect("state lock").endpoint = Some(u);
                        let _ = ctx.endpoint_tx.send(true);
                    }
                    _ => {
                        ctx.error(format!("the server named an endpoint on another origin ({}); refused", e.data)).await
                    }
                },
                Ok(e) if e.event == "message" => ctx.frame(e.data).await,
                Ok(_) => {}
                Err(t) => {
                    ctx.relay(RelayEvent::Oversized { direction: Direction::In, size: t.size, limit: ctx.max }).await
                }
            }
        }
    }
    let _ = ctx.events.send(UpstreamEvent::Ended { reason: "the server closed its SSE stream".into() }).await;
}

/// Legacy HTTP+SSE: POST one message to the endpoint; answers come on the stream.
async fn legacy_post(ctx: Ctx, frame: String) {
    let mut ready = ctx.endpoint_ready.clone();
    if tokio::time::timeout(ENDPOINT_TIMEOUT, ready.wait_for(|r| *r)).await.is_err() {
        return ctx.error("the SSE server never sent its endpoint event".into()).await;
    }
    let Some(endpoint) = ctx.state.lock().expect("state lock").endpoint.clone() else { return };
    let _ = ctx.events.send(UpstreamEvent::Written { at_ms: now_ms(), frame: frame.clone() }).await;
    let req =
        ctx.client.post(endpoint).headers(ctx.headers.clone()).header(CONTENT_TYPE, "application/json").body(frame);
    match req.send().await {
        Ok(r) if r.status().is_success() => {}
        Ok(r) => ctx.error(describe_status(&r)).await,
        Err(e) => ctx.error(format!("could not POST to the SSE endpoint: {e}")).await,
    }
}

#[cfg(test)]
mod tests;
