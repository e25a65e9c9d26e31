//! The stdio transport: a child process spoken to in newline-delimited JSON-RPC. Frames go
//! both ways unchanged; stderr lines and the exit status become relay events.

use std::collections::BTreeMap;
use std::time::Duration;

use shared::relay::{Direction, Limits, RelayEvent};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{ChildStderr, ChildStdout};
use tokio::sync::watch;

use super::process::{self, ProcessGuard};
use super::queue::{self, Refused};
use super::{EventSender, SendError, UpstreamEvent, now_ms, oversized, queue_bytes};
use crate::framing::LineReader;

/// Frames queued for the server's stdin before the relay says it is not reading (the bytes
/// they may hold are bounded too, by [`queue_bytes`]).
const STDIN_QUEUE: usize = 256;
/// How long a server gets to leave on its own after its stdin closes, then after SIGTERM.
const GRACE: Duration = Duration::from_millis(1500);
/// Characters of an invalid line shown in its event.
const PREVIEW_CHARS: usize = 300;

/// A running stdio server.
#[derive(Debug)]
pub struct StdioUpstream {
    guard: ProcessGuard,
    to_server: queue::Sender<String>,
    exited: watch::Receiver<bool>,
    max_message_bytes: usize,
}

impl StdioUpstream {
    /// Starts the server; its output arrives on `events`. Returns the `spawned` event too.
    pub fn start(
        command: &str,
        args: &[String],
        env: &BTreeMap<String, String>,
        cwd: Option<&str>,
        limits: Limits,
        events: EventSender,
    ) -> std::io::Result<(Self, RelayEvent)> {
        let (mut child, guard) = process::spawn(command, args, env, cwd)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (to_server, from_session) = queue::bounded::<String>(STDIN_QUEUE, queue_bytes(limits));
        tokio::spawn(write_frames(stdin, from_session, events.clone()));
        let stdout_task = tokio::spawn(read_frames(stdout, limits.max_message_bytes, events.clone()));
        tokio::spawn(read_stderr(stderr, limits.max_stderr_line_bytes, events.clone()));

        let (exited_tx, exited) = watch::channel(false);
        let reaped = guard.on_reaped();
        tokio::spawn(async move {
            let status = child.wait().await;
            reaped();
            // Report the exit after the last stdout line, so the order on the page is true.
            let _ = tokio::time::timeout(GRACE, stdout_task).await;
            let (code, signal) = match status {
                Ok(s) => {
                    use std::os::unix::process::ExitStatusExt;
                    (s.code(), s.signal())
                }
                Err(_) => (None, None),
            };
            let _ =
                events.send(UpstreamEvent::Relay { at_ms: now_ms(), event: RelayEvent::Exited { code, signal } }).await;
            let _ = exited_tx.send(true);
        });

        let spawned = RelayEvent::Spawned { pid: Some(guard.pid()), command: command.to_owned(), args: args.to_vec() };
        Ok((Self { guard, to_server, exited, max_message_bytes: limits.max_message_bytes }, spawned))
    }

    pub fn pid(&self) -> u32 {
        self.guard.pid()
    }

    /// Queues a frame for the server after checking it is one line of JSON within limits.
    pub fn send(&self, frame: String) -> Result<(), SendError> {
        check_frame(&frame, self.max_message_bytes)?;
        self.to_server.try_send(frame).map_err(|e| match e {
            Refused::Full => SendError::Backlog,
            Refused::Closed => SendError::Closed,
        })
    }

    /// Ends the server as the MCP stdio transport describes: close its stdin, wait, SIGTERM,
    /// wait, SIGKILL. Everything it started is killed in the end whatever happened.
    pub async fn shutdown(self) {
        self.shutdown_within(GRACE).await;
    }

    /// Ends the server as the spec says: stdin closed, `grace` to exit, then SIGTERM and
    /// `grace` again, then SIGKILL to it and every process it started.
    pub async fn shutdown_within(self, grace: Duration) {
        let Self { guard, to_server, mut exited, .. } = self;
        drop(to_server);
        let mut wait = async |d| tokio::time::timeout(d, exited.wait_for(|e| *e)).await.is_ok();
        // An exited server answers at once.
        if !wait(grace).await {
            guard.terminate();
            wait(grace).await;
        }
        drop(guard);
    }
}

/// One line of JSON within the size limit; anything else would break stdio framing.
pub fn check_frame(frame: &str, limit: usize) -> Result<(), SendError> {
    if frame.len() > limit {
        return Err(SendError::Oversized { size: frame.len(), limit });
    }
    if frame.contains(['\n', '\r']) {
        return Err(SendError::Invalid("it contains a line break, which stdio framing forbids".into()));
    }
    serde_json::from_str::<serde::de::IgnoredAny>(frame).map_err(|e| SendError::Invalid(e.to_string()))?;
    Ok(())
}

/// Most frames written to stdin in one system call.
const WRITE_BATCH: usize = 64;

async fn write_frames(mut stdin: tokio::process::ChildStdin, mut frames: queue::Receiver<String>, events: EventSender) {
    // Frames that queued up while the last write was under way go out in one write: one
    // system call and one wake-up of the server for many calls in flight.
    let mut buf = Vec::new();
    while let Some((first, share)) = frames.recv().await {
        let mut batch = vec![first];
        // Each frame's share of the queue's bytes is given back once it is written.
        let mut shares = vec![share];
        while batch.len() < WRITE_BATCH {
            match frames.try_recv() {
                Some((frame, share)) => {
                    batch.push(frame);
                    shares.push(share);
                }
                None => break,
            }
        }
        buf.clear();
        for frame in &batch {
            buf.extend_from_slice(frame.as_bytes());
            buf.push(b'\n');
        }
        // Said before the bytes go: the server cannot answer what it has not read, so a
        // request always comes before its answer in the session (and in a recording).
        let at_ms = now_ms();
        for frame in batch {
            if events.send(UpstreamEvent::Written { at_ms, frame }).await.is_err() {
                return;
            }
        }
        let written = async {
            stdin.write_all(&buf).await?;
            stdin.flush().await
        };
        if let Err(e) = written.await {
            // A closed pipe is a server that has gone (or is going): its exit, with its
            // code and last stderr line, is the reason to give, and it follows. Said as
            // an error first, it stood in for that reason whenever the write lost the race.
            let event = if e.kind() == std::io::ErrorKind::BrokenPipe {
                RelayEvent::Note {
                    message: "the server closed its stdin: the messages just shown were not delivered".into(),
                }
            } else {
                let message =
                    format!("could not write to the server's stdin ({e}): the messages just shown were not delivered");
                RelayEvent::Error { message }
            };
            let _ = events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await;
            return;
        }
        drop(shares);
        // A burst of large frames should not pin a large buffer for the session's life.
        if buf.capacity() > 1 << 20 {
            buf = Vec::new();
        }
    }
    // Dropping stdin here closes it: the first step of a stdio shutdown.
}

async fn read_frames(stdout: ChildStdout, max: usize, events: EventSender) {
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, stdout), max);
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => return,
            Err(e) => {
                let event = RelayEvent::Error { message: format!("reading the server's stdout failed: {e}") };
                let _ = events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await;
                return;
            }
        };
        let at_ms = now_ms();
        // An answer too large to forward still ends its call now, not at its timeout.
        let failed = line.truncated().then(|| oversized::failed_call(&line.bytes, line.size, max)).flatten();
        let event = match classify_line(line.bytes, line.size, max) {
            Some(Ok(frame)) => UpstreamEvent::Frame { at_ms, frame },
            Some(Err(event)) => UpstreamEvent::Relay { at_ms, event },
            None => continue,
        };
        if events.send(event).await.is_err() {
            return;
        }
        if let Some(event) = failed
            && events.send(UpstreamEvent::Relay { at_ms, event }).await.is_err()
        {
            return;
        }
    }
}

/// What a stdout line is: a frame to forward, an event to report, or nothing (blank).
pub fn classify_line(bytes: Vec<u8>, size: usize, max: usize) -> Option<Result<String, RelayEvent>> {
    if size > bytes.len() {
        return Some(Err(RelayEvent::Oversized { direction: Direction::In, size, limit: max }));
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let preview = preview(&String::from_utf8_lossy(e.as_bytes()));
            return Some(Err(RelayEvent::InvalidFrame { preview, size, error: "not UTF-8".into() }));
        }
    };
    if text.trim().is_empty() {
        return None;
    }
    Some(match shared::jsonrpc::parse(&text) {
        Ok(_) => Ok(text),
        Err(e) => Err(RelayEvent::InvalidFrame { preview: preview(&text), size, error: e.to_string() }),
    })
}

fn preview(text: &str) -> String {
    let mut p: String = text.chars().take(PREVIEW_CHARS).collect();
    if p.len() < text.len() {
        p.push('…');
    }
    p
}

async fn read_stderr(stderr: ChildStderr, max: usize, events: EventSender) {
    let mut lines = LineReader::new(BufReader::new(stderr), max);
    while let Ok(Some(line)) = lines.next_line().await {
        let truncated = line.truncated();
        let event = RelayEvent::Stderr { line: String::from_utf8_lossy(&line.bytes).into_owned(), truncated };
        if events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
