//! Streamable HTTP: one POST per frame, answered with JSON or an SSE stream, and the
//! optional GET stream on which the server sends what it starts.

use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, WWW_AUTHENTICATE};
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;
use shared::relay::{Direction, RelayEvent};

use super::super::oversized;
use super::actor::{Hold, Report};
use super::body::{self, Cut, SseBody};
use super::{Ctx, SESSION_HEADER, VERSION_HEADER, describe_status, human};

/// Messages of one batch body forwarded; a server that answers with more is told about.
pub(super) const MAX_BATCH_ITEMS: usize = 1000;

/// One frame to POST, with what the actor knew when it let it go.
pub(super) struct Post {
    pub frame: String,
    /// The id of a request, which its answer must carry.
    pub request_id: Option<Value>,
    /// It is `initialize`: its answer names the protocol version.
    pub init: bool,
    /// It is `notifications/initialized`: once accepted, the GET stream may open.
    pub initialized: bool,
    /// It is the first frame of `Auto`: its status decides the transport.
    pub probing: bool,
    pub session: Option<String>,
    pub version: Option<String>,
    /// Later frames wait until this is dropped.
    pub hold: Option<Hold>,
    /// It is `server/discover`: a refusal says the server predates 2026-07-28, nothing
    /// more (no error of the connection, no fall back to legacy SSE).
    pub discover: bool,
    /// It is `tools/list`: its answer names the `x-mcp-header` marks of the tools.
    pub lists_tools: bool,
    /// The 2026-07-28 headers: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`.
    pub headers: Vec<(String, String)>,
}

/// The POST of `p`, without its body: headers, the session, the version, the token.
fn request(ctx: &Ctx, p: &Post, token: Option<&str>) -> reqwest::RequestBuilder {
    let mut req = ctx
        .authorized_with(ctx.client.post(ctx.url.clone()), token)
        .header(ACCEPT, "application/json, text/event-stream")
        .header(CONTENT_TYPE, "application/json");
    if let Some(s) = &p.session {
        req = req.header(SESSION_HEADER, s);
    }
    if let Some(v) = &p.version {
        req = req.header(VERSION_HEADER, v);
    }
    for (name, value) in &p.headers {
        req = req.header(name.as_str(), value.as_str());
    }
    req
}

/// Posts one frame and forwards what comes back. A 401, or a 403 asking for more scope,
/// signs in (see [`crate::auth`]) and the frame goes again with the new token.
pub(super) async fn post(ctx: Ctx, mut p: Post) {
    let body = bytes::Bytes::from(std::mem::take(&mut p.frame));
    let again = (p.probing && !p.discover).then(|| body.clone());
    let resp = loop {
        let token = match &ctx.auth {
            Some(auth) => auth.fresh().await,
            None => None,
        };
        let req = request(&ctx, &p, token.as_deref()).body(body.clone());
        // `initialize` holds the rest for as long as it takes: nothing may go before its session id.
        let sent = ctx.send_holding(req, &mut p.hold, !p.init).await;
        let resp = match sent {
            Ok(r) => r,
            Err(e) => {
                drop(p.hold.take());
                ctx.error(ctx.unreachable(e)).await;
                return ctx.fail_request(p.request_id, "the request did not reach the server").await;
            }
        };
        let Some(auth) = ctx.auth.as_ref().filter(|_| wants_sign_in(&resp)) else { break resp };
        let www = resp.headers().get(WWW_AUTHENTICATE).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let code = resp.status().as_u16();
        drop(resp);
        if let Err(failed) = auth.challenged(code, www.as_deref(), token.as_deref()).await {
            drop(p.hold.take());
            ctx.error(failed.to_string()).await;
            return ctx.fail_request(p.request_id, "the server wants a sign-in, which failed").await;
        }
    };
    let status = resp.status();
    if let Some(frame) = again.filter(|_| matches!(status.as_u16(), 400 | 404 | 405)) {
        return ctx.report(Report::FallBack(String::from_utf8_lossy(&frame).into_owned()));
    }
    // A web page (a site, a proxy's error page) is no MCP server, whatever its status:
    // named so, not dumped. A refused discover only has `initialize` probe next.
    if super::is_html(&resp) {
        drop(p.hold.take());
        let message = super::not_mcp(&resp);
        if !p.discover {
            ctx.error(message.clone()).await;
        }
        return ctx.fail_request(p.request_id, &message).await;
    }
    if let Some(id) = resp.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()) {
        ctx.report(Report::SessionId(id.to_owned()));
    }
    // A refused `server/discover` says nothing of the transport: `initialize` probes next.
    if p.probing && (status.is_success() || !p.discover) {
        ctx.report(Report::Streamable);
    }
    if p.initialized
        && status.is_success()
        && let Some(hold) = p.hold.take()
    {
        ctx.report(Report::Initialized(hold));
    }
    // The status is in: later frames may go while the body is read.
    drop(p.hold.take());
    let answer = Answer { id: p.request_id, init: p.init, lists_tools: p.lists_tools };
    if !status.is_success() {
        let mut message = describe_status(&resp);
        if status == StatusCode::NOT_FOUND && p.session.is_some() {
            message.push_str(": the server no longer knows this session; connect again");
        }
        let (text, why) = body::error_body(resp, ctx.idle).await;
        // A JSON-RPC error in the body is the server's answer (2026-07-28 sends its
        // version and header errors so): the client reads it like any other.
        if why.is_none() && is_error_answer(&text) {
            ctx.frame(text.clone()).await;
            if answer.is(&ctx, &text) {
                return;
            }
        }
        message.push_str(&body::tail(&text, why));
        if p.discover {
            return ctx.fail_request(answer.id, &message).await;
        }
        ctx.error(message).await;
        return ctx.fail_request(answer.id, &format!("HTTP {status}")).await;
    }
    let is_sse = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/event-stream"));
    if is_sse {
        let ended = read_stream(&ctx, resp, &answer).await;
        if !ended.answered {
            resume(&ctx, ended, &answer, &p.session, &p.version).await;
        }
    } else if status != StatusCode::ACCEPTED {
        read_json(&ctx, resp, answer).await;
    }
}

/// Whether an answer asks for a sign-in: a 401, or a 403 whose challenge is
/// `insufficient_scope` (a step-up).
fn wants_sign_in(resp: &reqwest::Response) -> bool {
    match resp.status() {
        StatusCode::UNAUTHORIZED => true,
        StatusCode::FORBIDDEN => resp
            .headers()
            .get(WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
            .and_then(crate::auth::challenge::parse)
            .is_some_and(|c| c.insufficient_scope()),
        _ => false,
    }
}

/// Whether an error body is a JSON-RPC error response.
fn is_error_answer(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v["jsonrpc"] == "2.0" && v["error"].is_object())
}

/// Which answer a POST waits for.
struct Answer {
    id: Option<Value>,
    init: bool,
    lists_tools: bool,
}

impl Answer {
    const NONE: Answer = Answer { id: None, init: false, lists_tools: false };

    /// Whether `text` is the answer; the answer to `initialize` reports its version.
    fn is(&self, ctx: &Ctx, text: &str) -> bool {
        let Some(id) = &self.id else { return false };
        let Ok(v) = serde_json::from_str::<Value>(text) else { return false };
        if v.get("method").is_some() || v.get("id") != Some(id) {
            return false;
        }
        if self.init
            && let Some(version) = v["result"]["protocolVersion"].as_str()
        {
            ctx.report(Report::Version(version.to_owned()));
        }
        if self.lists_tools
            && let Some(tools) = v["result"]["tools"].as_array()
        {
            let marks = tools
                .iter()
                .filter_map(|t| serde_json::from_value::<shared::mcp::Tool>(t.clone()).ok())
                .map(|t| (t.name.clone(), shared::http_headers::marks(&t)))
                .collect();
            ctx.report(Report::Marks(marks));
        }
        true
    }
}

/// A JSON body: one message (forwarded as the body's text) or a batch (each item forwarded
/// as the exact text the server wrote for it, never re-encoded).
async fn read_json(ctx: &Ctx, resp: reqwest::Response, answer: Answer) {
    let body = match body::json(resp, ctx.max, ctx.idle).await {
        Ok(b) => b,
        Err(Cut::Oversized { size }) => {
            ctx.relay(RelayEvent::Oversized { direction: Direction::In, size, limit: ctx.max }).await;
            return ctx.fail_request(answer.id, &oversized::over_limit(size, ctx.max)).await;
        }
        Err(Cut::Stalled) => {
            let message = format!("the server stopped sending its answer: no data for {}", human(ctx.idle));
            ctx.error(message.clone()).await;
            return ctx.fail_request(answer.id, &message).await;
        }
        Err(Cut::Broken) => return ctx.fail_request(answer.id, "the response broke off or was not UTF-8").await,
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
                answer.is(ctx, item.get());
                ctx.frame(item.get().to_owned()).await;
            }
            if total > MAX_BATCH_ITEMS {
                let message = format!(
                    "the server answered a batch of {total} messages; the first {MAX_BATCH_ITEMS} were forwarded, the rest dropped"
                );
                ctx.error(message).await;
            }
        }
        Ok(None) => {
            answer.is(ctx, text);
            ctx.frame(text.to_owned()).await;
        }
        Err(e) => {
            ctx.relay(RelayEvent::InvalidFrame {
                preview: text.chars().take(300).collect(),
                size: text.len(),
                error: e.to_string(),
            })
            .await;
            ctx.fail_request(answer.id, "the response was not JSON").await;
        }
    }
}

/// How an SSE response ended.
struct Ended {
    /// The answer came by (or was too large, and its call already failed).
    answered: bool,
    /// The stream's last event id and reconnection time, to resume it with.
    last_event_id: Option<String>,
    retry_ms: Option<u64>,
}

/// Forwards the `message` events of an SSE response until it ends.
async fn read_stream(ctx: &Ctx, resp: reqwest::Response, answer: &Answer) -> Ended {
    let mut body = SseBody::new(resp, ctx.max);
    let mut answered = false;
    while let Some(events) = body.next().await {
        for event in events {
            match event {
                Ok(e) if e.event == "message" && !e.data.trim().is_empty() => {
                    answered |= answer.is(ctx, &e.data);
                    ctx.frame(e.data).await;
                }
                Ok(_) => {}
                Err(t) => {
                    let failed = ctx.too_large(t).await;
                    answered |= failed.is_some() && failed == answer.id;
                }
            }
        }
    }
    let (last_event_id, retry_ms) = body.resume_point();
    Ended { answered, last_event_id, retry_ms }
}

/// Times a request's stream is resumed before its call fails.
const MAX_RESUMES: usize = 5;
/// The wait before resuming when the stream named none, and the most a stream may ask for.
const DEFAULT_RETRY_MS: u64 = 1000;
const MAX_RETRY_MS: u64 = 30_000;

/// A request's stream ended before its answer. A server may close it on purpose (2025-11-25,
/// SEP-1699) once it has given the stream an event id: the client waits the stream's
/// `retry` time and asks for the rest with a GET carrying `Last-Event-ID`. Without an id
/// there is nothing to resume and the call fails; each step is told on the timeline.
async fn resume(ctx: &Ctx, mut ended: Ended, answer: &Answer, session: &Option<String>, version: &Option<String>) {
    for _ in 0..MAX_RESUMES {
        let Some(last) = ended.last_event_id.take() else { break };
        let wait = ended.retry_ms.unwrap_or(DEFAULT_RETRY_MS).min(MAX_RETRY_MS);
        ctx.note(format!(
            "the server closed the stream before answering; resuming it after {wait} ms (Last-Event-ID: {last})"
        ))
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        let mut req = ctx.authorized(ctx.client.get(ctx.url.clone())).header(ACCEPT, "text/event-stream");
        req = req.header("last-event-id", &last);
        if let Some(s) = session {
            req = req.header(SESSION_HEADER, s);
        }
        if let Some(v) = version {
            req = req.header(VERSION_HEADER, v);
        }
        let resp = match req.send().await {
            Ok(r) if r.status().is_success() => r,
            Ok(r) => {
                let why = format!("resuming the stream failed: {}", describe_status(&r));
                return ctx.fail_request(answer.id.clone(), &why).await;
            }
            Err(e) => {
                return ctx
                    .fail_request(answer.id.clone(), &format!("resuming the stream failed: {}", ctx.unreachable(e)))
                    .await;
            }
        };
        let retry_ms = ended.retry_ms;
        ended = read_stream(ctx, resp, answer).await;
        if ended.answered {
            return;
        }
        ended.retry_ms = ended.retry_ms.or(retry_ms);
    }
    ctx.fail_request(answer.id.clone(), "the server closed the stream before answering").await;
}

/// How long later frames wait for the GET stream to open: a server slow to answer it must
/// not stall the session.
const GET_STREAM_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The optional GET stream for messages the server starts. It may stay silent for hours.
/// `hold` keeps later frames back until its status is in (or [`GET_STREAM_WAIT`] passed).
pub(super) async fn get_stream(ctx: Ctx, session: Option<String>, version: Option<String>, hold: Hold) {
    let mut req = ctx.authorized(ctx.client.get(ctx.url.clone())).header(ACCEPT, "text/event-stream");
    if let Some(s) = session {
        req = req.header(SESSION_HEADER, s);
    }
    if let Some(v) = version {
        req = req.header(VERSION_HEADER, v);
    }
    let send = req.send();
    tokio::pin!(send);
    let waited = tokio::time::timeout(GET_STREAM_WAIT, &mut send).await;
    drop(hold);
    let sent = match waited {
        Ok(sent) => sent,
        Err(_) => send.await,
    };
    // 405 means the server offers no such stream: nothing to say.
    if let Ok(resp) = sent
        && resp.status().is_success()
    {
        read_stream(&ctx, resp, &Answer::NONE).await;
    }
}
