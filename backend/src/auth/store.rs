//! Where tokens live: in the relay's memory for this run, and with `--remember` also in a
//! file only the user may read (mode 0600, in a 0700 folder), keyed by issuer and resource.
//! Nothing else is ever written. Client registrations are kept per issuer and redirect URI
//! in memory, so a second sign-in to the same server does not register again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::discovery::resource_covers;

/// The tokens of one sign-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// Milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at_ms: Option<u64>,
    /// The scopes granted (or, when the server did not say, asked for).
    #[serde(default)]
    pub scopes: Vec<String>,
}

/// How the relay is known to an authorization server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// `none`, `client_secret_basic` or `client_secret_post`.
    pub auth_method: String,
}

/// One sign-in kept: who issued it, for which resource, with which client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignIn {
    pub issuer: String,
    pub resource: String,
    pub client: Registration,
    pub tokens: Tokens,
}

impl SignIn {
    /// Whether this sign-in is for the MCP server at `server`.
    fn covers(&self, server: &str) -> bool {
        self.resource == server || resource_covers(&self.resource, server)
    }
}

#[derive(Serialize, Deserialize)]
struct File {
    version: u32,
    signed_in: Vec<SignIn>,
}

/// Why the token file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path} is not a token file: {reason}")]
    NotTokenFile { path: String, reason: String },
    #[error("cannot {what} {path}: {source}")]
    Io { what: &'static str, path: String, source: std::io::Error },
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> StoreError {
    let path = path.display().to_string();
    move |source| StoreError::Io { what, path, source }
}

/// Every sign-in of this run.
#[derive(Debug, Default)]
pub struct Store {
    saved: Mutex<Vec<SignIn>>,
    clients: Mutex<HashMap<(String, String), Registration>>,
    file: Option<PathBuf>,
}

impl Store {
    /// A store in memory only.
    pub fn in_memory() -> Self {
        Self::default()
    }

    /// A store kept in `file` too; what the file holds is read now.
    pub fn remembered(file: PathBuf) -> Result<Self, StoreError> {
        let saved = match std::fs::read_to_string(&file) {
            Ok(text) => {
                serde_json::from_str::<File>(&text)
                    .map_err(|e| StoreError::NotTokenFile { path: file.display().to_string(), reason: e.to_string() })?
                    .signed_in
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io("read", &file)(e)),
        };
        let store = Self { saved: Mutex::new(saved), clients: Mutex::default(), file: Some(file) };
        store.write()?;
        Ok(store)
    }

    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The sign-in for the MCP server at `server`, if one is kept.
    pub fn find(&self, server: &str) -> Option<SignIn> {
        let saved = self.saved.lock().expect("store lock");
        saved.iter().rev().find(|s| s.covers(server)).cloned()
    }

    /// Keeps a sign-in, replacing the one of the same issuer and resource.
    pub fn put(&self, s: SignIn) {
        {
            let mut saved = self.saved.lock().expect("store lock");
            saved.retain(|o| !(o.issuer == s.issuer && o.resource == s.resource));
            saved.push(s);
        }
        if let Err(e) = self.write() {
            tracing::warn!(%e, "the token file was not written");
        }
    }

    /// Forgets every sign-in covering `server`; whether there was one.
    pub fn forget(&self, server: &str) -> bool {
        let before;
        {
            let mut saved = self.saved.lock().expect("store lock");
            before = saved.len();
            saved.retain(|s| !s.covers(server));
            if saved.len() == before {
                return false;
            }
        }
        if let Err(e) = self.write() {
            tracing::warn!(%e, "the token file was not written");
        }
        true
    }

    pub fn client(&self, issuer: &str, redirect: &str) -> Option<Registration> {
        self.clients.lock().expect("store lock").get(&(issuer.to_owned(), redirect.to_owned())).cloned()
    }

    pub fn put_client(&self, issuer: &str, redirect: &str, r: Registration) {
        self.clients.lock().expect("store lock").insert((issuer.to_owned(), redirect.to_owned()), r);
    }

    /// Writes the file (when remembering): a new file beside it, made readable by the user
    /// only, then renamed over it.
    fn write(&self) -> Result<(), StoreError> {
        let Some(file) = &self.file else { return Ok(()) };
        let saved = self.saved.lock().expect("store lock").clone();
        let text = serde_json::to_string_pretty(&File { version: 1, signed_in: saved }).expect("tokens serialize");
        crate::private::write(file, text.as_bytes()).map_err(|(what, path, source)| StoreError::Io {
            what,
            path: path.display().to_string(),
            source,
        })
    }
}

/// Where `--remember` keeps tokens: `$XDG_STATE_HOME/mcp-playground/tokens.json`, else
/// `~/.local/state/mcp-playground/tokens.json`.
pub fn default_file() -> Option<PathBuf> {
    crate::private::state_file("tokens.json")
}
