//! The OAuth options, the same for the playground and the headless commands: which client
//! to sign in as, which scopes to ask for, and whether tokens outlive the run.

use clap::Args;
use shared::relay::OAuthSettings;

use crate::auth::{Hub, store};

/// Signing in to servers that ask for OAuth.
#[derive(Debug, Clone, Default, PartialEq, Args)]
pub struct AuthArgs {
    /// OAuth: a client id registered beforehand with the server's authorization server
    /// (without one, a Client ID Metadata Document or dynamic registration is used).
    #[arg(long, value_name = "ID")]
    pub client_id: Option<String>,
    /// OAuth: the secret of --client-id, from the environment so that it stays out of the
    /// process list.
    #[arg(long, env = "MCP_PLAYGROUND_CLIENT_SECRET", hide_env_values = true, value_name = "SECRET")]
    pub client_secret: Option<String>,
    /// OAuth: a scope to ask for (repeatable; default: those the server names).
    #[arg(long = "scope", value_name = "SCOPE")]
    pub scopes: Vec<String>,
    /// OAuth: the https URL of this client's Client ID Metadata Document, used as the client
    /// id by authorization servers that accept one.
    #[arg(long, value_name = "URL")]
    pub client_metadata_url: Option<String>,
    /// Keep OAuth tokens after the run, in a file only you can read
    /// ($XDG_STATE_HOME/mcp-playground/tokens.json, else ~/.local/state/mcp-playground/tokens.json).
    #[arg(long)]
    pub remember: bool,
}

impl AuthArgs {
    /// The client id and scopes to sign in with: these options over an `mcpServers` entry's.
    pub fn settings(&self, entry: &OAuthSettings) -> OAuthSettings {
        let scopes: Vec<String> = self.scopes.iter().flat_map(|s| s.split_whitespace()).map(str::to_owned).collect();
        OAuthSettings {
            client_id: self.client_id.clone().or_else(|| entry.client_id.clone()),
            scopes: if scopes.is_empty() { entry.scopes.clone() } else { scopes },
        }
    }

    /// The run's hub: the token store (a file with --remember), the client metadata URL and
    /// every client secret known (`secrets`: server URL, client id, secret, from the
    /// `mcpServers` file). `redirect` is the relay's callback; none for a headless command.
    pub fn hub(&self, redirect: Option<String>, secrets: Vec<(String, String, String)>) -> crate::error::Result<Hub> {
        let store = if self.remember {
            let file = store::default_file().ok_or(crate::error::Error::NowhereToRemember)?;
            store::Store::remembered(file)?
        } else {
            store::Store::in_memory()
        };
        let mut hub = match redirect {
            Some(uri) => Hub::for_relay(uri, store),
            None => Hub::for_command(store),
        }
        .with_client_metadata_url(self.client_metadata_url.clone());
        for (url, id, secret) in secrets {
            hub.add_secret(Some(url), id, secret);
        }
        if let (Some(id), Some(secret)) = (&self.client_id, &self.client_secret) {
            hub.add_secret(None, id.clone(), secret.clone());
        }
        Ok(hub)
    }
}
