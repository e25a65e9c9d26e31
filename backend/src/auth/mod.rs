//! OAuth 2.1 as the MCP authorization spec describes it, run by the relay: the relay is the
//! client, so tokens never reach the page, its storage, the timeline or a recording.
//!
//! A remote connection carries an [`Authorizer`] ([`flow`]). A 401 (or a 403
//! `insufficient_scope`) hands it the challenge; it finds the authorization server
//! ([`discovery`]), gets a client id ([`register`]: configured, a Client ID Metadata
//! Document, or dynamic registration), sends the person to approve (authorization code with
//! PKCE S256 and the `resource` indicator), takes the code at the callback ([`callback`]),
//! and trades it for tokens; the request then goes again with the token. Refresh is
//! automatic, a scope step-up asks for the union of scopes, and limits stop loops. Every
//! HTTP exchange is told to the timeline, masked ([`exchange`]); tokens are kept in
//! [`store`]. The [`Hub`] is what a run shares: the store, the callbacks waiting, the
//! redirect URI and the client secrets configured.

mod authorizer;
pub mod browser;
pub mod callback;
pub mod challenge;
pub mod discovery;
pub mod exchange;
mod register;
pub mod store;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

pub use authorizer::Authorizer;
use shared::relay::OAuthSettings;

/// Where the authorization server sends the person back.
#[derive(Debug)]
enum Redirect {
    /// The relay's own `/oauth/callback`.
    Fixed(String),
    /// A loopback port of the headless command's own, opened when first needed.
    Loopback(tokio::sync::OnceCell<String>),
}

/// A client secret configured for a client id (and, from an `mcpServers` entry, a server).
#[derive(Debug, Clone)]
struct Secret {
    server: Option<String>,
    client_id: String,
    secret: String,
}

/// What every sign-in of a run shares.
#[derive(Debug)]
pub struct Hub {
    pub store: store::Store,
    pending: Arc<callback::Pending>,
    redirect: Redirect,
    http: reqwest::Client,
    /// A Client ID Metadata Document's URL, used as the client id where accepted.
    client_metadata_url: Option<String>,
    secrets: Vec<Secret>,
}

/// How long the person has to approve.
pub const APPROVAL_WAIT: Duration = Duration::from_secs(600);

impl Hub {
    fn new(redirect: Redirect, store: store::Store) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("an HTTP client");
        Self { store, pending: Arc::default(), redirect, http, client_metadata_url: None, secrets: Vec::new() }
    }

    /// The relay's hub: the callback is `redirect_uri`, served by the relay's router.
    pub fn for_relay(redirect_uri: String, store: store::Store) -> Self {
        Self::new(Redirect::Fixed(redirect_uri), store)
    }

    /// A headless command's hub: the callback gets a loopback port when a sign-in needs it.
    pub fn for_command(store: store::Store) -> Self {
        Self::new(Redirect::Loopback(tokio::sync::OnceCell::new()), store)
    }

    pub fn with_client_metadata_url(mut self, url: Option<String>) -> Self {
        self.client_metadata_url = url;
        self
    }

    /// A client secret for `client_id`; `server` limits it to one server URL.
    pub fn add_secret(&mut self, server: Option<String>, client_id: String, secret: String) {
        self.secrets.push(Secret { server, client_id, secret });
    }

    fn secret_for(&self, server: &str, client_id: &str) -> Option<String> {
        self.secrets
            .iter()
            .filter(|s| s.client_id == client_id && s.server.as_deref().is_none_or(|u| u == server))
            .max_by_key(|s| s.server.is_some())
            .map(|s| s.secret.clone())
    }

    /// The callbacks waiting (the relay's router hands them their answers).
    pub fn pending(&self) -> Arc<callback::Pending> {
        self.pending.clone()
    }

    async fn redirect_uri(&self) -> Result<String, callback::NoCallback> {
        match &self.redirect {
            Redirect::Fixed(uri) => Ok(uri.clone()),
            Redirect::Loopback(cell) => cell.get_or_try_init(|| callback::listen(self.pending.clone())).await.cloned(),
        }
    }

    /// Forgets the tokens of the server at `url`; whether there were any.
    pub fn sign_out(&self, url: &str) -> bool {
        self.store.forget(url)
    }
}

/// Signing in for one connection: the run's hub and what the person chose.
#[derive(Debug, Clone)]
pub struct Signing {
    pub hub: Arc<Hub>,
    pub settings: OAuthSettings,
}
