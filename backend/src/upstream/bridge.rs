//! The one bridge between a client and a server: it takes the client's [`ClientMsg`]s,
//! owns at most one [`Server`] and its event queue, and gives back the [`ServerMsg`]s the
//! client reads. The page's socket session and the headless commands both feed it, so
//! connecting, sending, signing out, disconnecting and a server's exit mean the same in
//! both; what stays with each is only how messages reach its client.

use std::time::Duration;

use shared::relay::{AuthState, ClientMsg, Limits, RelayEvent, ServerMsg};

use super::process::Inherit;
use super::queue::Share;
use super::{EventReceiver, Server, UpstreamEvent, event_queue, now_ms};
use crate::auth::Signing;

/// What every connection of a bridge is started with.
#[derive(Debug, Clone)]
pub struct Setup {
    pub limits: Limits,
    /// How to start the built-in demo server: this binary with `demo-server`.
    pub demo_command: (String, Vec<String>),
    /// How much of the relay's environment a server process sees (`--inherit-env`).
    pub inherit: Inherit,
    /// How to sign in when a remote server asks: the run's hub, and the client id and
    /// scopes used when a connect names none.
    pub signing: Option<Signing>,
    /// How long a process gets to exit on its own when disconnected (and again after
    /// SIGTERM); `None` for the transport's own grace.
    pub grace: Option<Duration>,
}

struct Upstream {
    server: Server,
    events: EventReceiver,
    /// A remote server's URL (whose tokens a sign-out forgets).
    url: Option<String>,
}

/// A client's connection to at most one server at a time.
pub struct Bridge {
    setup: Setup,
    upstream: Option<Upstream>,
}

impl Bridge {
    pub fn new(setup: Setup) -> Self {
        Self { setup, upstream: None }
    }

    /// Signs in with `signing` from the next connect on.
    pub fn sign_in_with(&mut self, signing: Signing) {
        self.setup.signing = Some(signing);
    }

    pub fn is_connected(&self) -> bool {
        self.upstream.is_some()
    }

    /// Carries out one message of the client; what it has to say goes to `out`.
    pub async fn handle(&mut self, msg: ClientMsg, out: &mut Vec<ServerMsg>) {
        match msg {
            ClientMsg::Connect { .. } if self.upstream.is_some() => {
                out.push(event(RelayEvent::Error { message: "already connected: disconnect first".into() }));
            }
            ClientMsg::Connect { target, oauth } => {
                // A host that does not resolve or a port where nothing listens is said
                // plainly, before anything is called connected.
                if let Some(Err(why)) = match target.url().map(url::Url::parse) {
                    Some(Ok(url)) => Some(super::remote::reach::check(&url).await),
                    _ => None,
                } {
                    tracing::info!(%why, "server not reached");
                    out.push(event(RelayEvent::Error { message: why }));
                    out.push(event(RelayEvent::Closed {
                        reason: "the server could not be reached".into(),
                        asked: false,
                    }));
                    return;
                }
                let (events_tx, events) = event_queue(self.setup.limits);
                let signing = self
                    .setup
                    .signing
                    .clone()
                    .map(|s| Signing { settings: if oauth.is_empty() { s.settings } else { oauth }, hub: s.hub });
                let s = &self.setup;
                match Server::start(&target, &s.demo_command, s.limits, s.inherit, events_tx, signing) {
                    Ok((server, started)) => {
                        tracing::info!(
                            server = server.describe(),
                            transport = target.transport().as_str(),
                            "server started"
                        );
                        out.push(event(started));
                        let url = target.url().map(str::to_owned);
                        self.upstream = Some(Upstream { server, events, url });
                    }
                    Err(e) => {
                        let message = e.to_string();
                        tracing::warn!(%message, "server did not start");
                        out.push(event(RelayEvent::Error { message }));
                        out.push(event(RelayEvent::Closed { reason: "the server did not start".into(), asked: false }));
                    }
                }
            }
            ClientMsg::Send { frame } => match &self.upstream {
                Some(u) => {
                    if let Err(e) = u.server.send(frame) {
                        out.push(event(e.to_event()));
                    }
                }
                None => {
                    out.push(event(RelayEvent::Error { message: "not connected: the message was not sent".into() }))
                }
            },
            ClientMsg::SignOut {} => {
                let url = self.upstream.as_ref().and_then(|u| u.url.clone());
                if let (Some(url), Some(s)) = (&url, &self.setup.signing) {
                    s.hub.sign_out(url);
                }
                self.shut(out).await;
                out.push(event(RelayEvent::Auth { auth: AuthState::SignedOut }));
                out.push(event(RelayEvent::Closed { reason: "signed out".into(), asked: true }));
            }
            ClientMsg::Disconnect {} => {
                let reason = if self.shut(out).await { "disconnected" } else { "not connected" };
                out.push(event(RelayEvent::Closed { reason: reason.into(), asked: true }));
            }
            // The page's saved servers are the socket session's business, not a connection's.
            ClientMsg::KeepSecrets { .. } | ClientMsg::RecallSecrets { .. } => {
                out.push(event(RelayEvent::Error { message: "secrets are kept for the page only".into() }));
            }
            // So are the icons the page shows.
            ClientMsg::Icon { src } => {
                out.push(ServerMsg::Icon {
                    src,
                    data: None,
                    error: Some("icons are fetched for the page only".into()),
                });
            }
        }
    }

    /// The upstream's next event, with its share of the queue's bytes (to hold until the
    /// client has taken what it became). Pends while not connected; a queue whose every
    /// sender is gone is a transport that ended without saying so.
    pub async fn next_event(&mut self) -> (UpstreamEvent, Option<Share>) {
        match self.upstream.as_mut() {
            Some(u) => match u.events.recv().await {
                Some((e, share)) => (e, Some(share)),
                None => (ended(), None),
            },
            None => std::future::pending().await,
        }
    }

    /// The upstream's next event if one is already queued.
    pub fn try_next_event(&mut self) -> Option<(UpstreamEvent, Option<Share>)> {
        self.upstream.as_mut()?.events.try_recv().map(|(e, share)| (e, Some(share)))
    }

    /// What an upstream event tells the client; false once the upstream is gone (it ended,
    /// or the server exited: what it still had to say comes before the close).
    pub async fn on_event(&mut self, e: UpstreamEvent, out: &mut Vec<ServerMsg>) -> bool {
        if let UpstreamEvent::Ended { reason } = e {
            if let Some(u) = self.upstream.take() {
                u.server.shutdown().await;
            }
            out.push(event(RelayEvent::Closed { reason, asked: false }));
            return false;
        }
        let exited = matches!(e, UpstreamEvent::Relay { event: RelayEvent::Exited { .. }, .. });
        out.push(e.into_server_msg());
        if exited {
            if let Some(mut u) = self.upstream.take() {
                drain(&mut u.events, out);
                // Dropping the server kills whatever is left of its process group.
                drop(u);
            }
            out.push(event(RelayEvent::Closed { reason: "the server exited".into(), asked: false }));
        }
        !exited
    }

    /// Ends the server, if any, without telling the client (the session or the command is over).
    pub async fn end(&mut self) {
        if let Some(u) = self.upstream.take() {
            tracing::info!(server = u.server.describe(), "ending the server");
            u.server.shutdown().await;
        }
    }

    /// Ends the server the way a person asked to: the exit and any last words are reported
    /// before the close. Whether there was one.
    async fn shut(&mut self, out: &mut Vec<ServerMsg>) -> bool {
        let Some(Upstream { server, mut events, .. }) = self.upstream.take() else { return false };
        match self.setup.grace {
            Some(grace) => server.shutdown_within(grace).await,
            None => server.shutdown().await,
        }
        drain(&mut events, out);
        true
    }
}

fn drain(events: &mut EventReceiver, out: &mut Vec<ServerMsg>) {
    while let Some((e, _share)) = events.try_recv() {
        out.push(e.into_server_msg());
    }
}

fn event(event: RelayEvent) -> ServerMsg {
    ServerMsg::Event { at_ms: now_ms(), event }
}

fn ended() -> UpstreamEvent {
    UpstreamEvent::Ended { reason: "the server's transport ended".into() }
}

#[cfg(test)]
mod tests;
