//! One relay session per WebSocket: an actor that feeds the page's messages to an
//! [`upstream::Bridge`](crate::upstream::bridge::Bridge) and writes what it says to the
//! socket, in batches. Generic over the socket, so
//! tests drive it with channels. With `--record DIR`, each connection's messages go to a
//! file of their own as they go to the page.

use std::path::PathBuf;
use std::sync::Arc;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use shared::recording::{Header, Recorder};
use shared::relay::{
    ClientMsg, ConfiguredServer, Direction, Limits, OAuthSettings, RELAY_PROTOCOL, RelayEvent, RelayInfo, ServerMsg,
    Target,
};
use shared::revision::ProtocolChoice;
use tokio::sync::watch;

use crate::auth::Signing;
use crate::record::RecordFile;
use crate::upstream::bridge::{Bridge, Setup};
use crate::upstream::now_ms;
use crate::upstream::process::Inherit;

mod icons;
mod sends;

/// Most events of the bridge taken in one turn before the page's socket is flushed.
const FLUSH_BATCH: usize = 64;
/// Bytes of messages beyond which a burst goes out before the turn ends.
const BURST_BYTES: usize = 1 << 20;

/// What every session of this relay shares.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// The server the page offers first.
    pub preset: Target,
    /// The protocol revision asked for it; the page's session speaks it.
    pub preset_protocol: ProtocolChoice,
    /// Every server of the `--config` file, offered beside the preset.
    pub servers: Vec<ConfiguredServer>,
    pub limits: Limits,
    /// How to start the built-in demo server: this binary with `demo-server`.
    pub demo_command: (String, Vec<String>),
    /// Where each connection's recording is written (`--record DIR`), if anywhere.
    pub record_dir: Option<PathBuf>,
    /// A recording is loaded for the page to play back (`play FILE`).
    pub playback: bool,
    /// How much of the relay's environment a server process sees (`--inherit-env`).
    pub inherit_env: Inherit,
    /// The client id and scopes chosen for the preset (`--client-id`, `--scope`).
    pub preset_oauth: OAuthSettings,
    /// The run's OAuth sign-ins: tokens, callbacks waiting, client secrets.
    pub auth: Arc<crate::auth::Hub>,
    /// The values of saved servers' env and headers a person asked to remember.
    pub secrets: Arc<crate::secrets::SecretStore>,
    /// The origin App views run behind (`http://127.0.0.1:PORT`), when the relay serves one.
    pub sandbox: Option<String>,
    /// The `--config` file the offered servers come from (absolute).
    pub config: Option<String>,
}

impl SessionConfig {
    /// What the relay says of itself to every new socket.
    pub fn relay_info(&self) -> RelayInfo {
        RelayInfo {
            protocol: RELAY_PROTOCOL,
            version: env!("CARGO_PKG_VERSION").into(),
            preset: self.preset.clone(),
            preset_protocol: self.preset_protocol,
            preset_oauth: self.preset_oauth.clone(),
            limits: self.limits,
            servers: self.servers.clone(),
            recording: self.record_dir.is_some(),
            playback: self.playback,
            sandbox: self.sandbox.clone(),
            config: self.config.clone(),
        }
    }
}

/// Runs a session until the page goes away or the relay shuts down; the upstream server,
/// if any, is ended before this returns.
pub async fn run<Tx, Rx>(mut tx: Tx, mut rx: Rx, config: Arc<SessionConfig>, mut shutdown: watch::Receiver<bool>)
where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = String> + Unpin,
{
    let hello = ServerMsg::Hello(config.relay_info());
    let mut out = Outbox {
        tx: &mut tx,
        open: true,
        recording: None,
        sends: sends::Sends::default(),
        burst: Vec::new(),
        bytes: 0,
    };
    out.send(&hello).await;
    out.flush().await;
    let mut bridge = Bridge::new(Setup {
        limits: config.limits,
        demo_command: config.demo_command.clone(),
        inherit: config.inherit_env,
        // The page names the client id and scopes with each connect.
        signing: Some(Signing { hub: config.auth.clone(), settings: OAuthSettings::default() }),
        grace: None,
    });
    let mut said = Vec::new();
    let mut icons = icons::Icons::default();
    while out.open {
        tokio::select! {
            incoming = rx.next() => match incoming {
                Some(text) => {
                    match ClientMsg::read(&text) {
                        // The page's saved servers: nothing to do with the connection.
                        Ok(ClientMsg::KeepSecrets { server, secrets }) => {
                            said.extend(config.secrets.answer(Some(secrets), server, now_ms()));
                        }
                        Ok(ClientMsg::RecallSecrets { server }) => {
                            said.extend(config.secrets.answer(None, server, now_ms()));
                        }
                        Ok(ClientMsg::Icon { src }) => said.extend(icons.ask(src)),
                        Ok(msg) => {
                            if let ClientMsg::Send { frame } = &msg {
                                out.sends.note(frame);
                            }
                            if matches!(msg, ClientMsg::Connect { .. }) && !bridge.is_connected() {
                                icons.forget();
                            }
                            if let (ClientMsg::Connect { target, .. }, Some(dir)) = (&msg, &config.record_dir)
                                && !bridge.is_connected()
                            {
                                out.start_recording(dir, target);
                            }
                            bridge.handle(msg, &mut said).await;
                        }
                        Err(e) => said.push(ServerMsg::Event {
                            at_ms: now_ms(),
                            event: RelayEvent::Error { message: format!("unreadable message from the page: {e}") },
                        }),
                    }
                    out.send_all(&mut said).await;
                }
                None => break,
            },
            first = bridge.next_event() => {
                // Whatever else is already queued goes into the same flush: one write to
                // the socket for a burst of answers, not one each. The events' shares of
                // the queue's bytes are given back once the socket has taken them, so a
                // page that reads slowly holds its server back.
                let mut next = Some(first);
                let mut shares = Vec::new();
                while let Some((event, share)) = next.take() {
                    shares.push(share);
                    let live = bridge.on_event(event, &mut said).await;
                    said.iter().for_each(|m| icons.learn(m));
                    out.send_all(&mut said).await;
                    if !live {
                        break;
                    }
                    if shares.len() < FLUSH_BATCH {
                        next = bridge.try_next_event();
                    }
                }
                out.flush().await;
                drop(shares);
            }
            answer = icons.next() => out.send(&answer).await,
            _ = shutdown.changed() => break,
        }
        out.flush().await;
    }
    bridge.end().await;
    out.stop_recording();
}

/// The page's side of the socket, and the recording of the current connection: what the
/// page is told is what the file gets. What a turn says goes as one socket message (a burst).
/// After a failed send the session ends.
struct Outbox<'a, Tx> {
    tx: &'a mut Tx,
    open: bool,
    recording: Option<RecordFile>,
    sends: sends::Sends,
    /// The messages of the burst under way, and their bytes.
    burst: Vec<String>,
    bytes: usize,
}

impl<Tx: Sink<String> + Unpin> Outbox<'_, Tx> {
    /// Queues a message; the session loop flushes after each turn.
    async fn send(&mut self, msg: &ServerMsg) {
        if let Some(file) = &mut self.recording {
            file.push(msg);
            // A closed connection is the end of its recording; the next connect starts another.
            if matches!(msg, ServerMsg::Event { event: RelayEvent::Closed { .. }, .. }) {
                self.stop_recording();
            }
        }
        if !self.open {
            return;
        }
        // A frame the page sent is stamped, not echoed: the page has it.
        let text = match msg {
            ServerMsg::Message { direction: Direction::Out, at_ms, size, frame } => match self.sends.written(frame) {
                Some(n) => serde_json::to_string(&ServerMsg::Sent { n, at_ms: *at_ms, size: *size }),
                None => serde_json::to_string(msg),
            },
            _ => serde_json::to_string(msg),
        }
        .expect("relay messages serialize");
        self.bytes += text.len();
        self.burst.push(text);
        if self.bytes >= BURST_BYTES {
            self.feed_burst().await;
        }
    }

    /// Hands the burst under way to the socket.
    async fn feed_burst(&mut self) {
        if self.burst.is_empty() {
            return;
        }
        let text = shared::relay::burst(&self.burst);
        self.burst.clear();
        self.bytes = 0;
        if self.open && self.tx.feed(text).await.is_err() {
            self.open = false;
        }
    }

    /// Queues every message of `msgs`, emptying it.
    async fn send_all(&mut self, msgs: &mut Vec<ServerMsg>) {
        for msg in msgs.drain(..) {
            self.send(&msg).await;
        }
    }

    async fn flush(&mut self) {
        self.feed_burst().await;
        if self.open && self.tx.flush().await.is_err() {
            self.open = false;
        }
    }

    /// Starts a new file for the connection to `target`. Without one, the session goes on
    /// unrecorded.
    fn start_recording(&mut self, dir: &std::path::Path, target: &Target) {
        self.stop_recording();
        let header = Header::new(Recorder::Relay, env!("CARGO_PKG_VERSION"), target, now_ms());
        match RecordFile::create_in(dir, header, target) {
            Ok(file) => {
                tracing::info!(path = %file.path().display(), "recording the session");
                self.recording = Some(file);
            }
            Err(e) => {
                tracing::warn!(dir = %dir.display(), %e, "cannot start a recording; this connection is not recorded");
            }
        }
    }

    fn stop_recording(&mut self) {
        if let Some(mut file) = self.recording.take() {
            file.finish();
        }
    }
}

#[cfg(test)]
mod tests;
