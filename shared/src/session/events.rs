//! What the session does with each relay event: start the handshake once a server is
//! reached, keep stderr, explain a close, fail what can no longer be answered.

use crate::jsonrpc::Id;
use crate::relay::{AuthState, Direction, RelayEvent};

use super::{ConnState, MAX_STDERR_LINES, ReadState, Session};

impl Session {
    pub(super) fn on_relay_event(&mut self, event: RelayEvent, now_ms: f64) {
        match event {
            RelayEvent::Spawned { .. } | RelayEvent::Connected { .. } => {
                let frame = self.client.open();
                if self.client.is_discovering() {
                    self.discover_due = Some(now_ms + super::DISCOVER_WAIT_MS);
                }
                self.send_frame(frame);
            }
            RelayEvent::Note { message } => self.notice(message),
            // Shown on the timeline; a transport found is no news for the person.
            RelayEvent::Detected { .. } => {}
            RelayEvent::RequestFailed { id, message } => {
                if let Ok(id) = serde_json::from_value::<Id>(id) {
                    let handled = self.client.request_failed(&id, &message);
                    self.apply(handled, None, now_ms);
                }
            }
            RelayEvent::Stderr { line, .. } => {
                self.stderr.push(line);
                // Trimmed in bulk, so a chatty server costs O(1) per line.
                if self.stderr.len() > 2 * MAX_STDERR_LINES {
                    self.stderr.drain(..self.stderr.len() - MAX_STDERR_LINES);
                }
                self.changed.stderr = true;
            }
            RelayEvent::Exited { code, signal } => {
                self.last_exit = Some(match (code, signal) {
                    (Some(c), _) => format!("the server exited with code {c}"),
                    (None, Some(s)) => format!("the server was ended by signal {s}"),
                    _ => "the server exited".to_owned(),
                });
            }
            RelayEvent::Closed { reason, .. } => self.on_closed(reason),
            RelayEvent::Error { message } => {
                if self.conn == ConnState::Connecting {
                    self.set_conn(ConnState::Error(message));
                    // A remote server that refused us is still a connection at the relay.
                    self.disconnect();
                } else {
                    self.notice(message);
                }
            }
            RelayEvent::Oversized { direction, size, limit } => {
                let which = if direction == Direction::In { "from the server" } else { "to the server" };
                self.notice(format!(
                    "a message {which} of {size} bytes exceeded the limit of {limit} bytes and was dropped"
                ));
            }
            RelayEvent::Auth { auth } => self.on_auth(auth, now_ms),
            // Shown on the timeline, as every event is.
            RelayEvent::AuthExchange { .. } => {}
            RelayEvent::InvalidFrame { error, .. } => {
                self.notice(format!("the server wrote a line that is not JSON-RPC ({error})"));
            }
        }
    }

    /// Signing in waits on a person: while it does, `server/discover` is not given up on and
    /// the call's clock stands still; both go on once the tokens are in.
    fn on_auth(&mut self, auth: AuthState, now_ms: f64) {
        let waiting = matches!(auth, AuthState::SigningIn { .. } | AuthState::Approve { .. });
        if waiting {
            self.call.pause_clock(now_ms);
            self.discover_due = None;
        } else {
            if self.asks.is_empty() {
                self.call.resume_clock(now_ms);
            }
            if self.client.is_discovering() && self.discover_due.is_none() {
                self.discover_due = Some(now_ms + super::DISCOVER_WAIT_MS);
            }
        }
        self.auth = Some(auth);
        self.changed.auth = true;
    }

    /// The upstream connection is over: say why, unless a person asked for it, and end
    /// what was waiting on it.
    fn on_closed(&mut self, reason: String) {
        let mut call_failure = "the connection to the server ended during the call".to_owned();
        if self.disconnect_requested || matches!(self.conn, ConnState::Disconnected | ConnState::Error(_)) {
            if !matches!(self.conn, ConnState::Error(_)) {
                self.set_conn(ConnState::Disconnected);
            }
        } else {
            let mut why = self.last_exit.clone().unwrap_or(reason);
            if let Some(last) = self.stderr.last() {
                why = format!("{why}; last stderr line: {last}");
            }
            // A call cut short by a crash says how the server ended, not only that it did.
            call_failure = format!("{call_failure}: {why}");
            self.set_conn(ConnState::Error(why));
        }
        if self.tools_loading {
            self.set_tools_loading(false);
        }
        self.fail_pending_call(&call_failure);
        let mut failed = false;
        for state in self.reads.values_mut() {
            if *state == ReadState::Loading {
                *state = ReadState::Failed("the connection to the server ended before the answer".into());
                failed = true;
            }
        }
        self.changed.reads |= failed;
        self.end_requests("the connection to the server ended before the answer");
    }
}
