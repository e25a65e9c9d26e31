//! OAuth on the wire between page and relay. The relay is the OAuth client: tokens stay in
//! it, so nothing here carries one. The page learns where sign-in stands ([`AuthState`]),
//! sees each HTTP exchange of the flow with its secrets masked ([`AuthExchange`]), and may
//! name the client id and scopes to use ([`OAuthSettings`]).

use serde::{Deserialize, Serialize};

/// What a person (or an `mcpServers` entry) chose for signing in to a remote server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OAuthSettings {
    /// A client id registered beforehand with the authorization server; without one the
    /// relay uses a Client ID Metadata Document or registers itself (RFC 7591).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    /// The scopes to ask for; without them, those the server names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

impl OAuthSettings {
    pub fn is_empty(&self) -> bool {
        self.client_id.is_none() && self.scopes.is_empty()
    }
}

super::tag_first::tag_first! {
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
/// Where a remote connection stands with OAuth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthState {
    /// The server asked for a sign-in; the flow is at `step` (discovery, registration…).
    SigningIn { step: String },
    /// Waiting for the person: open `url` and approve there.
    Approve { issuer: String, url: String },
    /// Tokens are in.
    SignedIn {
        issuer: String,
        scopes: Vec<String>,
        /// When the access token expires (milliseconds since the Unix epoch), if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expires_at_ms: Option<u64>,
    },
    /// The tokens were forgotten.
    SignedOut,
    /// The flow stopped at `step` (discovery, metadata, registration, approval, token,
    /// refresh, scope step-up) for `message`.
    Failed { step: String, message: String },
}
}

impl AuthState {
    /// The state's one-word name, as `auth-status` shows it in `data-state`.
    pub fn name(&self) -> &'static str {
        match self {
            AuthState::SigningIn { .. } | AuthState::Approve { .. } => "signing-in",
            AuthState::SignedIn { .. } => "signed-in",
            AuthState::SignedOut => "signed-out",
            AuthState::Failed { .. } => "failed",
        }
    }
}

/// One HTTP exchange of the OAuth flow, for the timeline. Secrets (tokens, codes, the PKCE
/// verifier, client secrets, `Authorization` values) are masked before it leaves the relay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthExchange {
    /// Which step of the flow: `resource metadata`, `server metadata`, `registration`,
    /// `authorization`, `token`, `refresh`.
    pub step: String,
    pub method: String,
    /// The URL, its secret query values masked.
    pub url: String,
    /// The HTTP status; none when the request failed before one came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The request body (form or JSON), masked; empty for a GET.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub request: String,
    /// The response body, masked and cut to a few KB; or why there is none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub response: String,
    /// How long it took, in milliseconds.
    pub ms: u64,
}
