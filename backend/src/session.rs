//! One relay session per WebSocket: an actor that owns at most one upstream server at a
//! time and moves frames and events between it and the page. Generic over the socket, so
//! tests drive it with channels. With `--record DIR`, each connection's messages go to a
//! file of their own as they go to the page.

use std::path::PathBuf;
use std::sync::Arc;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use shared::recording::{Header, Recorder};
use shared::relay::{
    AuthState, ClientMsg, ConfiguredServer, Limits, OAuthSettings, RELAY_PROTOCOL, RelayEvent, ServerMsg, Target,
};
use shared::revision::ProtocolChoice;
use tokio::sync::watch;

use crate::record::RecordFile;
use crate::upstream::process::Inherit;
use crate::upstream::{EventReceiver, Server, UpstreamEvent, event_queue, now_ms};

/// Most messages written to the page's socket before it is flushed.
const FLUSH_BATCH: usize = 64;

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
}

struct Upstream {
    server: Server,
    events: EventReceiver,
    /// A remote server's URL (whose tokens a sign-out forgets).
    url: Option<String>,
}

/// Runs a session until the page goes away or the relay shuts down; the upstream server,
/// if any, is ended before this returns.
pub async fn run<Tx, Rx>(mut tx: Tx, mut rx: Rx, config: Arc<SessionConfig>, mut shutdown: watch::Receiver<bool>)
where
    Tx: Sink<String> + Unpin,
    Rx: Stream<Item = String> + Unpin,
{
    let hello = ServerMsg::Hello {
        preset_oauth: config.preset_oauth.clone(),
        protocol: RELAY_PROTOCOL,
        relay_version: env!("CARGO_PKG_VERSION").into(),
        preset: config.preset.clone(),
        preset_protocol: config.preset_protocol,
        limits: config.limits,
        servers: config.servers.clone(),
        recording: config.record_dir.is_some(),
        playback: config.playback,
    };
    let mut out = Outbox { tx: &mut tx, open: true, recording: None };
    out.send(&hello).await;
    out.flush().await;
    let mut upstream: Option<Upstream> = None;
    while out.open {
        let next_event = async {
            match upstream.as_mut() {
                Some(u) => u.events.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            incoming = rx.next() => match incoming {
                Some(text) => on_client_message(&text, &config, &mut upstream, &mut out).await,
                None => break,
            },
            Some(first) = next_event => {
                // Whatever else is already queued goes into the same flush: one write to
                // the socket for a burst of answers, not one each. The events' shares of
                // the queue's bytes are given back once the socket has taken them, so a
                // page that reads slowly holds its server back.
                let mut next = Some(first);
                let mut shares = Vec::new();
                while let Some((event, share)) = next.take() {
                    shares.push(share);
                    if !on_upstream_event(event, &mut upstream, &mut out).await {
                        break;
                    }
                    if shares.len() < FLUSH_BATCH {
                        next = upstream.as_mut().and_then(|u| u.events.try_recv());
                    }
                }
                out.flush().await;
                drop(shares);
            }
            _ = shutdown.changed() => break,
        }
        out.flush().await;
    }
    if let Some(u) = upstream.take() {
        tracing::info!(server = u.server.describe(), "session over; ending its server");
        u.server.shutdown().await;
    }
    out.stop_recording();
}

/// Handles one event of the upstream; false once the upstream is gone.
async fn on_upstream_event<Tx: Sink<String> + Unpin>(
    event: UpstreamEvent,
    upstream: &mut Option<Upstream>,
    out: &mut Outbox<'_, Tx>,
) -> bool {
    if let UpstreamEvent::Ended { reason } = event {
        if let Some(u) = upstream.take() {
            u.server.shutdown().await;
        }
        out.event(RelayEvent::Closed { reason }).await;
        return false;
    }
    let exited = matches!(event, UpstreamEvent::Relay { event: RelayEvent::Exited { .. }, .. });
    out.forward(event).await;
    if exited {
        close(upstream.take(), "the server exited", out).await;
        return false;
    }
    true
}

async fn on_client_message<Tx: Sink<String> + Unpin>(
    text: &str,
    config: &SessionConfig,
    upstream: &mut Option<Upstream>,
    out: &mut Outbox<'_, Tx>,
) {
    let msg = match ClientMsg::read(text) {
        Ok(msg) => msg,
        Err(e) => {
            return out.event(RelayEvent::Error { message: format!("unreadable message from the page: {e}") }).await;
        }
    };
    match msg {
        ClientMsg::Connect { .. } if upstream.is_some() => {
            out.event(RelayEvent::Error { message: "already connected: disconnect first".into() }).await;
        }
        ClientMsg::Connect { target, oauth } => {
            if let Some(dir) = &config.record_dir {
                out.start_recording(dir, &target);
            }
            let (events_tx, events) = event_queue(config.limits);
            let signing = crate::auth::Signing { hub: config.auth.clone(), settings: oauth };
            let started = Server::start(
                &target,
                &config.demo_command,
                config.limits,
                config.inherit_env,
                events_tx,
                Some(signing),
            );
            match started {
                Ok((server, event)) => {
                    tracing::info!(
                        server = server.describe(),
                        transport = target.transport().as_str(),
                        "server started"
                    );
                    out.event(event).await;
                    *upstream = Some(Upstream { server, events, url: target.url().map(str::to_owned) });
                }
                Err(message) => {
                    tracing::warn!(%message, "server did not start");
                    out.event(RelayEvent::Error { message }).await;
                    out.event(RelayEvent::Closed { reason: "the server did not start".into() }).await;
                }
            }
        }
        ClientMsg::Send { frame } => match upstream {
            Some(u) => {
                if let Err(e) = u.server.send(frame) {
                    out.event(e.to_event()).await;
                }
            }
            None => out.event(RelayEvent::Error { message: "not connected: the message was not sent".into() }).await,
        },
        ClientMsg::SignOut => {
            let url = upstream.as_ref().and_then(|u| u.url.clone());
            if let Some(url) = &url {
                config.auth.sign_out(url);
            }
            if let Some(u) = upstream.take() {
                shut(u, out).await;
            }
            out.event(RelayEvent::Auth { auth: AuthState::SignedOut }).await;
            close(None, "signed out", out).await;
        }
        ClientMsg::Disconnect => match upstream.take() {
            Some(u) => {
                shut(u, out).await;
                close(None, "disconnected", out).await;
            }
            None => out.event(RelayEvent::Closed { reason: "not connected".into() }).await,
        },
    }
}

/// Ends the server the way a person asked to; the exit and any last words are reported
/// before the session says it closed.
async fn shut<Tx: Sink<String> + Unpin>(mut u: Upstream, out: &mut Outbox<'_, Tx>) {
    u.server.shutdown().await;
    while let Some((event, _share)) = u.events.try_recv() {
        out.forward(event).await;
    }
}

async fn close<Tx: Sink<String> + Unpin>(upstream: Option<Upstream>, reason: &str, out: &mut Outbox<'_, Tx>) {
    if let Some(mut u) = upstream {
        while let Some((event, _share)) = u.events.try_recv() {
            out.forward(event).await;
        }
        // Dropping the server kills whatever is left of its process group.
        drop(u);
    }
    out.event(RelayEvent::Closed { reason: reason.into() }).await;
}

/// The page's side of the socket, and the recording of the current connection: what the
/// page is told is what the file gets. After a failed send the session ends.
struct Outbox<'a, Tx> {
    tx: &'a mut Tx,
    open: bool,
    recording: Option<RecordFile>,
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
        let text = serde_json::to_string(msg).expect("relay messages serialize");
        if self.tx.feed(text).await.is_err() {
            self.open = false;
        }
    }

    async fn flush(&mut self) {
        if self.open && self.tx.flush().await.is_err() {
            self.open = false;
        }
    }

    async fn event(&mut self, event: RelayEvent) {
        self.send(&ServerMsg::Event { at_ms: now_ms(), event }).await;
    }

    async fn forward(&mut self, event: UpstreamEvent) {
        self.send(&event.into_server_msg()).await;
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
