//! Response bodies read with bounds: a JSON body up to the message limit and an error body
//! up to [`ERROR_BODY_BYTES`], each giving up when it stops delivering for the idle bound;
//! SSE bodies through the bounded parser, with no idle bound (see the module doc).

use std::time::Duration;

use axum::body::Bytes;

use super::super::sse::{Event, Parser, TooLarge};
use super::{ERROR_BODY_BYTES, human};

/// Why a body was not read whole.
#[derive(Debug)]
pub(super) enum Cut {
    /// Over the limit: `size` is what had come when it went over (the declared length when
    /// there is one).
    Oversized { size: usize },
    /// No byte came for the idle bound.
    Stalled,
    /// The connection broke, or the text was not UTF-8.
    Broken,
}

/// The next chunk; with `idle`, no more than that is waited for it.
async fn chunk(resp: &mut reqwest::Response, idle: Option<Duration>) -> Result<Option<Bytes>, Cut> {
    let next = resp.chunk();
    let got = match idle {
        Some(idle) => tokio::time::timeout(idle, next).await.map_err(|_| Cut::Stalled)?,
        None => next.await,
    };
    got.map_err(|_| Cut::Broken)
}

/// A whole JSON body of at most `max` bytes.
pub(super) async fn json(mut resp: reqwest::Response, max: usize, idle: Duration) -> Result<String, Cut> {
    let declared = resp.content_length().and_then(|n| usize::try_from(n).ok());
    let mut body = Vec::new();
    while let Some(c) = chunk(&mut resp, Some(idle)).await? {
        if body.len() + c.len() > max {
            return Err(Cut::Oversized { size: declared.unwrap_or(body.len() + c.len()) });
        }
        body.extend_from_slice(&c);
    }
    String::from_utf8(body).map_err(|_| Cut::Broken)
}

/// The first bytes of an error body, ready to append to the message that names the status:
/// empty when there is no body, and saying so when it was cut.
pub(super) async fn error_text(resp: reqwest::Response, idle: Duration) -> String {
    let (text, why) = error_body(resp, idle).await;
    tail(&text, why)
}

/// The first bytes of an error body (trimmed), and why it was cut if it was.
pub(super) async fn error_body(mut resp: reqwest::Response, idle: Duration) -> (String, Option<String>) {
    let mut body = Vec::new();
    let mut why = None;
    loop {
        match chunk(&mut resp, Some(idle)).await {
            Ok(Some(c)) => {
                let room = ERROR_BODY_BYTES - body.len();
                if c.len() > room {
                    body.extend_from_slice(&c[..room]);
                    why = Some(format!("cut at {ERROR_BODY_BYTES} bytes"));
                    break;
                }
                body.extend_from_slice(&c);
            }
            Ok(None) => break,
            Err(Cut::Stalled) => {
                why = Some(format!("cut: no data for {}", human(idle)));
                break;
            }
            Err(_) => {
                why = Some("cut: the connection broke".into());
                break;
            }
        }
    }
    (String::from_utf8_lossy(&body).trim().to_owned(), why)
}

/// An error body as a message appends it: `; body: …`, saying where it was cut.
pub(super) fn tail(text: &str, why: Option<String>) -> String {
    match (text.is_empty(), why) {
        (true, _) => String::new(),
        (false, None) => format!("; body: {text}"),
        (false, Some(why)) => format!("; body ({why}): {text}"),
    }
}

/// An SSE body, read as long as the server keeps it open.
pub(super) struct SseBody {
    resp: reqwest::Response,
    parser: Parser,
}

impl SseBody {
    pub(super) fn new(resp: reqwest::Response, max: usize) -> Self {
        Self { resp, parser: Parser::new(max) }
    }

    /// Where and when the stream says to resume it: its last event id and `retry:` (ms).
    pub(super) fn resume_point(&self) -> (Option<String>, Option<u64>) {
        (self.parser.last_event_id().map(str::to_owned), self.parser.retry_ms())
    }

    /// The events the next chunk completed; `None` once the stream ended or broke.
    pub(super) async fn next(&mut self) -> Option<Vec<Result<Event, TooLarge>>> {
        match chunk(&mut self.resp, None).await {
            Ok(Some(c)) => Some(self.parser.feed(&c)),
            _ => None,
        }
    }
}
