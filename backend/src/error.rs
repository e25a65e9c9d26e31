//! The relay's error: one enum for the crate, into which each module's own error converts at
//! the edge (a command, the relay's start, the demo server); `main.rs` prints it.

use crate::auth::store::StoreError;
use crate::cli::RemoteRefused;
use crate::cli::ServerArgError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    ServerArg(#[from] ServerArgError),
    #[error(transparent)]
    Host(#[from] RemoteRefused),
    #[error("--remember: neither XDG_STATE_HOME nor HOME says where to keep tokens")]
    NowhereToRemember,
    #[error("--remember: {0}")]
    Remember(#[from] StoreError),
    #[error("cannot record to {dir}: {source}")]
    RecordDir { dir: String, source: std::io::Error },
    #[error(transparent)]
    Recording(#[from] crate::record::OpenError),
    #[error(transparent)]
    Export(#[from] crate::export::ExportError),
    #[error("the token is {len} characters long; it must have at least {min} (or give none: a random one is made)")]
    ShortToken { len: usize, min: usize },
    #[error("cannot listen on {host}:{port}: {source}{}", if source.kind() == std::io::ErrorKind::AddrInUse { " (pass --port 0 to pick a free port)" } else { "" })]
    Listen { host: String, port: u16, source: std::io::Error },
    #[error("the demo server stopped: {0}")]
    Demo(String),
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub type Result<T> = std::result::Result<T, Error>;
