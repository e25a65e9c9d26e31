//! `mcp-playground mock FILE`: a recording served as an MCP server, over stdio (newline-
//! delimited JSON-RPC on stdin/stdout, logs on stderr) or, with `--port`, over Streamable
//! HTTP at `/mcp`. What each request gets is [`shared::recording::Mock`]'s business; this
//! module reads the file, carries the frames and keeps the recorded pace.

#![allow(clippy::print_stderr, reason = "a command line's error")]

mod http;

use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shared::recording::{self, Mock, Reply};
use tokio::io::{AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::cli::MockArgs;
use crate::framing::LineReader;

/// Longest request line read from the client; a longer one is answered with an error.
pub const MAX_LINE_BYTES: usize = 32 * 1024 * 1024;
/// The exit code of a recording that cannot be read (or a port that cannot be bound).
const FAILED: u8 = 2;

/// One mock session's state, shared by the requests of a transport.
pub type Shared = Arc<Mutex<Mock>>;

/// `mcp-playground mock FILE [--port PORT] [--host HOST]`
pub async fn run(args: MockArgs) -> crate::error::Result<ExitCode> {
    if args.port.is_some() {
        match crate::cli::check_host(&args.host, args.allow_remote) {
            Ok(false) => {}
            Ok(true) => tracing::warn!(
                host = %args.host,
                "serving beyond loopback over plain HTTP: anyone who can reach this address gets the recording's answers"
            ),
            Err(refused) => {
                eprintln!("error: {refused}");
                return Ok(ExitCode::from(FAILED));
            }
        }
    }
    let mock = match load(&args.file) {
        Ok(mock) => mock,
        Err(message) => {
            eprintln!("error: {message}");
            return Ok(ExitCode::from(FAILED));
        }
    };
    let mock = Arc::new(Mutex::new(mock));
    match args.port {
        None => {
            serve_stdio(mock, tokio::io::stdin(), tokio::io::stdout()).await?;
            Ok(ExitCode::SUCCESS)
        }
        Some(port) => match http::serve(mock, &args.host, port).await {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("error: {e}");
                Ok(ExitCode::from(FAILED))
            }
        },
    }
}

/// The mock of a recording file, or why there is none.
pub fn load(path: &Path) -> Result<Mock, crate::record::OpenError> {
    let (_, recording) = crate::record::open(path)?;
    let mock = Mock::new(&recording);
    tracing::info!(file = %path.display(), answers = mock.answers(), "mock ready");
    Ok(mock)
}

/// Waits out one reply's delay (bounded again here: the mock is the last line of defence).
pub async fn pace(reply: &Reply) {
    let ms = reply.delay_ms.clamp(0.0, recording::MAX_DELAY_MS);
    if ms > 0.0 {
        tokio::time::sleep(Duration::from_secs_f64(ms / 1000.0)).await;
    }
}

/// Serves newline-delimited JSON-RPC on `read`/`write` until `read` ends and every reply
/// under way is written. Each request's replies keep their own pace, so a slow one does not
/// hold up the next request.
pub async fn serve_stdio<R, W>(mock: Shared, read: R, write: W) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out, frames) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(write_lines(frames, write));
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, read), MAX_LINE_BYTES);
    let mut under_way = JoinSet::new();
    while let Some(line) = lines.next_line().await? {
        if line.bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let replies = if line.truncated() {
            tracing::warn!(size = line.size, limit = MAX_LINE_BYTES, "request line too long");
            let message = format!("a line of {} bytes, more than the mock's limit of {MAX_LINE_BYTES}", line.size);
            vec![Reply { delay_ms: 0.0, frame: error_without_id(-32600, &message) }]
        } else {
            let text = String::from_utf8_lossy(&line.bytes);
            tracing::debug!(frame = %text, "request");
            mock.lock().expect("the mock never panics holding its lock").answer(&text)
        };
        if replies.is_empty() {
            continue;
        }
        let out = out.clone();
        under_way.spawn(async move {
            for reply in replies {
                pace(&reply).await;
                if out.send(reply.frame).is_err() {
                    return;
                }
            }
        });
        // Finished tasks are reaped as we go, so a long session holds no dead handles.
        while under_way.try_join_next().is_some() {}
    }
    while under_way.join_next().await.is_some() {}
    drop(out);
    writer.await.map_err(std::io::Error::other)?
}

/// An error response to a frame whose id cannot be read.
pub fn error_without_id(code: i64, message: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

async fn write_lines<W: AsyncWrite + Unpin>(
    mut frames: mpsc::UnboundedReceiver<String>,
    mut write: W,
) -> std::io::Result<()> {
    while let Some(frame) = frames.recv().await {
        write.write_all(frame.as_bytes()).await?;
        write.write_all(b"\n").await?;
        write.flush().await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
