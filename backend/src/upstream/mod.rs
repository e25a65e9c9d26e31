//! Upstream connections: how the relay reaches an MCP server. Each transport turns a
//! server into a stream of [`UpstreamEvent`]s and accepts frames to write.

pub mod process;
pub mod remote;
pub mod sse;
pub mod stdio;

use shared::relay::{Direction, RelayEvent};

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

/// Milliseconds since the Unix epoch, the relay's stamp on everything.
pub fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64() * 1000.0).unwrap_or(0.0)
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
