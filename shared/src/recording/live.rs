//! Recording as a session happens (the relay's `--record DIR`, the command line's
//! `--record FILE`): lines come out as soon as they can be written. The header names what
//! `initialize` negotiated, so the handshake's few lines wait until its answer (or until
//! [`HOLD_LINES`] lines or the session's end); every line after that is written at once.

use serde_json::Value;

use crate::jsonrpc::{self, Kind};
use crate::relay::{Direction, ServerMsg};

use super::{Entry, Header};

/// Lines held back waiting for the `initialize` answer before the header is written anyway.
pub const HOLD_LINES: usize = 64;

/// Turns a session's relay messages into the lines of its recording.
#[derive(Debug)]
pub struct LiveRecorder {
    header: Header,
    held: Vec<String>,
    header_written: bool,
    /// The id of our `initialize` request, once seen.
    initialize_id: Option<Value>,
}

impl LiveRecorder {
    pub fn new(header: Header) -> Self {
        Self { header, held: Vec::new(), header_written: false, initialize_id: None }
    }

    /// The lines (without their newline) that can be written now, after `msg`.
    pub fn push(&mut self, msg: &ServerMsg) -> Vec<String> {
        let Some(entry) = Entry::of(msg) else { return Vec::new() };
        if !self.header_written {
            self.watch_handshake(&entry);
        }
        let line = entry.to_line();
        if self.header_written {
            return vec![line];
        }
        self.held.push(line);
        if self.header.protocol_version.is_some() || self.held.len() >= HOLD_LINES {
            return self.release();
        }
        Vec::new()
    }

    /// What is still held, header first: call when the session ends.
    pub fn finish(&mut self) -> Vec<String> {
        if self.header_written { Vec::new() } else { self.release() }
    }

    fn release(&mut self) -> Vec<String> {
        self.header_written = true;
        let mut out = Vec::with_capacity(self.held.len() + 1);
        out.push(self.header.to_line());
        out.append(&mut self.held);
        out
    }

    fn watch_handshake(&mut self, entry: &Entry) {
        let Entry::Message { direction, frame, .. } = entry else { return };
        let Ok((value, c)) = jsonrpc::parse(frame) else { return };
        match (direction, c.kind) {
            (Direction::Out, Kind::Request)
                if matches!(c.method.as_deref(), Some("initialize" | "server/discover"))
                    && self.header.protocol_version.is_none() =>
            {
                self.initialize_id = value.get("id").cloned();
            }
            (Direction::In, Kind::Response)
                if self.initialize_id.is_some() && value.get("id") == self.initialize_id.as_ref() =>
            {
                self.header.learn_initialize(&value["result"]);
            }
            _ => {}
        }
    }
}
