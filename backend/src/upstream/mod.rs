//! Upstream connections: how the relay reaches an MCP server. Each transport turns a
//! server into a stream of [`UpstreamEvent`]s and accepts frames to write.

pub mod bridge;
pub mod oversized;
pub mod process;
pub mod queue;
pub mod remote;
pub mod sse;
#[cfg(test)]
mod sse_props;
pub mod stdio;

use std::collections::BTreeMap;

use shared::relay::{Direction, Limits, RelayEvent, ServerMsg, Target};

use process::Inherit;
use remote::{Mode, RemoteUpstream};
use stdio::StdioUpstream;

/// What an upstream reports to its session.
#[derive(Debug)]
pub enum UpstreamEvent {
    /// A complete JSON-RPC message from the server, as read.
    Frame { at_ms: f64, frame: String },
    /// A frame was written to the server.
    Written { at_ms: f64, frame: String },
    /// Anything else worth showing: stderr, an invalid line, the exit.
    Relay { at_ms: f64, event: RelayEvent },
    /// A remote connection is over (its stream closed for good).
    Ended { reason: String },
}

impl UpstreamEvent {
    /// The message the page (or the headless client) reads for this event.
    pub fn into_server_msg(self) -> ServerMsg {
        match self {
            UpstreamEvent::Frame { at_ms, frame } => {
                ServerMsg::Message { direction: Direction::In, at_ms, size: frame.len(), frame }
            }
            UpstreamEvent::Written { at_ms, frame } => {
                ServerMsg::Message { direction: Direction::Out, at_ms, size: frame.len(), frame }
            }
            UpstreamEvent::Relay { at_ms, event } => ServerMsg::Event { at_ms, event },
            UpstreamEvent::Ended { reason } => {
                ServerMsg::Event { at_ms: now_ms(), event: RelayEvent::Closed { reason, asked: false } }
            }
        }
    }
}

impl queue::Weight for UpstreamEvent {
    fn weight(&self) -> usize {
        match self {
            UpstreamEvent::Frame { frame, .. } | UpstreamEvent::Written { frame, .. } => frame.len(),
            // Stderr lines and previews are bounded; what else an event holds is small.
            UpstreamEvent::Relay { event, .. } => 256 + relay_event_text(event),
            UpstreamEvent::Ended { reason } => 256 + reason.len(),
        }
    }
}

/// The bytes of text an event carries, where it can carry many.
fn relay_event_text(event: &RelayEvent) -> usize {
    match event {
        RelayEvent::Stderr { line, .. } => line.len(),
        RelayEvent::InvalidFrame { preview, error, .. } => preview.len() + error.len(),
        RelayEvent::Error { message } | RelayEvent::Note { message } => message.len(),
        _ => 0,
    }
}

impl queue::Weight for String {
    fn weight(&self) -> usize {
        self.len()
    }
}

/// Where an upstream's events go: a queue toward the page bounded in bytes.
pub type EventSender = queue::Sender<UpstreamEvent>;
pub type EventReceiver = queue::Receiver<UpstreamEvent>;

/// Events queued from an upstream before its readers wait for the page.
const EVENT_QUEUE: usize = 256;

/// The queue between an upstream and its session: at most [`EVENT_QUEUE`] events and, in
/// bytes, twice the largest message or 64 MiB, whichever is more. A server that writes
/// faster than the page reads is not read from until the page has caught up: it blocks on
/// its own output, and the relay does not grow.
pub fn event_queue(limits: Limits) -> (EventSender, EventReceiver) {
    queue::bounded(EVENT_QUEUE, queue_bytes(limits))
}

/// The byte budget of a session's queues (toward the page, and toward a server's stdin).
pub fn queue_bytes(limits: Limits) -> usize {
    limits.max_message_bytes.saturating_mul(2).max(64 << 20)
}

/// A server process, or a remote server.
pub enum Server {
    Stdio(StdioUpstream),
    Remote(RemoteUpstream),
}

impl Server {
    /// Starts what `target` names; its events go to `events`. A process sees `inherit` of
    /// the relay's environment. Returns the server and the event that says it started, or
    /// why it did not.
    pub fn start(
        target: &Target,
        demo_command: &(String, Vec<String>),
        limits: Limits,
        inherit: Inherit,
        events: EventSender,
        signing: Option<crate::auth::Signing>,
    ) -> Result<(Server, RelayEvent), StartError> {
        match target {
            Target::Demo | Target::Stdio { .. } => {
                let no_env = BTreeMap::new();
                let (command, args, env, cwd) = match target {
                    Target::Stdio { command, args, env, cwd } => (command, args, env, cwd.as_deref()),
                    _ => (&demo_command.0, &demo_command.1, &no_env, None),
                };
                // The minimal environment is what `process::spawn` gives anyway.
                let whole;
                let env = match inherit {
                    Inherit::Minimal => env,
                    Inherit::All => {
                        whole = inherit.environment(env);
                        &whole
                    }
                };
                StdioUpstream::start(command, args, env, cwd, limits, events)
                    .map(|(s, ev)| (Server::Stdio(s), ev))
                    .map_err(|error| StartError::Spawn { command: command.clone(), error })
            }
            Target::Http { url, headers } | Target::Sse { url, headers } | Target::Auto { url, headers } => {
                let mode = match target {
                    Target::Http { .. } => Mode::Http,
                    Target::Sse { .. } => Mode::Sse,
                    _ => Mode::Auto,
                };
                RemoteUpstream::start_signing(mode, url, headers, limits, events, signing)
                    .map(|(r, ev)| (Server::Remote(r), ev))
            }
        }
    }

    pub fn send(&self, frame: String) -> Result<(), SendError> {
        match self {
            Server::Stdio(s) => s.send(frame),
            Server::Remote(r) => r.send(frame),
        }
    }

    pub async fn shutdown(self) {
        match self {
            Server::Stdio(s) => s.shutdown().await,
            Server::Remote(r) => r.shutdown().await,
        }
    }

    /// Like [`shutdown`](Self::shutdown), with `grace` for a process to exit on its own
    /// (and again after SIGTERM).
    pub async fn shutdown_within(self, grace: std::time::Duration) {
        match self {
            Server::Stdio(s) => s.shutdown_within(grace).await,
            Server::Remote(r) => r.shutdown().await,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Server::Stdio(s) => format!("pid {}", s.pid()),
            Server::Remote(_) => "remote".into(),
        }
    }
}

/// Milliseconds since the Unix epoch, the relay's stamp on everything.
pub fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0)
}

/// Why a server could not be started, or a remote one not set out for.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("could not start {command:?}: {error}")]
    Spawn { command: String, error: std::io::Error },
    #[error("{url:?} is not a valid URL: {reason}")]
    NotUrl { url: String, reason: String },
    #[error("only http and https URLs are supported, not {0}:")]
    Scheme(String),
    #[error("{0:?} is not a valid header name")]
    HeaderName(String),
    #[error("the value of header {0:?} is not valid")]
    HeaderValue(String),
    #[error("cannot make an HTTP client: {0}")]
    Client(String),
}

/// Why a frame from the page was not forwarded.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("message of {size} bytes exceeds the limit of {limit} bytes")]
    Oversized { size: usize, limit: usize },
    #[error("not a JSON-RPC message: {0}")]
    Invalid(String),
    #[error("the server is not reading its input; message dropped")]
    Backlog,
    #[error("the server is gone")]
    Closed,
}

impl SendError {
    /// The relay event that tells the page.
    pub fn to_event(&self) -> RelayEvent {
        match self {
            SendError::Oversized { size, limit } => {
                RelayEvent::Oversized { direction: Direction::Out, size: *size, limit: *limit }
            }
            other => RelayEvent::Error { message: other.to_string() },
        }
    }
}
