//! Secrets a person asked the page to remember for a saved server ("remember secrets"): the
//! values of its env and headers, which the page never keeps. They live in one file only
//! the user may read, `$XDG_STATE_HOME/mcp-playground/secrets.json` (else
//! `~/.local/state/…`), keyed by the server's command line or URL, read and written whole
//! at each request so that every relay of the user sees the same.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use shared::relay::{RelayEvent, Secrets, ServerMsg};

#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    servers: BTreeMap<String, Secrets>,
}

/// Why the secrets file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("there is nowhere to keep secrets: neither XDG_STATE_HOME nor HOME is set")]
    Nowhere,
    #[error("{path} is not a secrets file of ours ({reason}): it was left as it is")]
    NotOurs { path: String, reason: String },
    #[error("cannot {what} {path}: {source}")]
    Io { what: &'static str, path: String, source: std::io::Error },
}

/// The secrets file of this user.
#[derive(Debug, Default)]
pub struct SecretStore {
    file: Option<PathBuf>,
    /// One read-change-write at a time within this relay.
    lock: Mutex<()>,
}

impl SecretStore {
    /// The store in `file` (`None`: nowhere to keep anything; every request says so).
    pub fn at(file: Option<PathBuf>) -> Self {
        SecretStore { file, lock: Mutex::new(()) }
    }

    /// The user's own: `$XDG_STATE_HOME/mcp-playground/secrets.json`, else under `~/.local/state`.
    pub fn user() -> Self {
        Self::at(crate::private::state_file("secrets.json"))
    }

    fn read(&self) -> Result<(PathBuf, File), SecretsError> {
        let file = self.file.clone().ok_or(SecretsError::Nowhere)?;
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((file, File { version: 1, ..File::default() }));
            }
            Err(source) => return Err(SecretsError::Io { what: "read", path: file.display().to_string(), source }),
        };
        // The reason names no part of the file: it may hold a secret.
        let parsed: File = serde_json::from_str(&text).map_err(|e| SecretsError::NotOurs {
            path: file.display().to_string(),
            reason: format!("unreadable at line {}", e.line()),
        })?;
        Ok((file, parsed))
    }

    /// Keeps `secrets` for `server`; empty ones forget what was kept.
    pub fn keep(&self, server: &str, secrets: Secrets) -> Result<(), SecretsError> {
        let _one = self.lock.lock().expect("secrets lock");
        let (path, mut file) = self.read()?;
        if secrets.is_empty() {
            if file.servers.remove(server).is_none() {
                return Ok(());
            }
        } else {
            file.servers.insert(server.to_owned(), secrets);
        }
        let text = serde_json::to_string_pretty(&file).expect("secrets serialize");
        crate::private::write(&path, text.as_bytes()).map_err(|(what, path, source)| SecretsError::Io {
            what,
            path: path.display().to_string(),
            source,
        })
    }

    /// What is kept for `server` (empty when nothing is).
    pub fn recall(&self, server: &str) -> Result<Secrets, SecretsError> {
        let _one = self.lock.lock().expect("secrets lock");
        Ok(self.read()?.1.servers.remove(server).unwrap_or_default())
    }

    /// The page's request about secrets, answered: the values recalled (none when they
    /// cannot be read, so that a page waiting for them goes on), and why a request failed
    /// (as a relay error event: the session goes on).
    pub fn answer(&self, keep: Option<Secrets>, server: String, at_ms: f64) -> Vec<ServerMsg> {
        let failed = |e: SecretsError| ServerMsg::Event { at_ms, event: RelayEvent::Error { message: e.to_string() } };
        match keep {
            Some(secrets) => self.keep(&server, secrets).err().map(failed).into_iter().collect(),
            None => match self.recall(&server) {
                Ok(secrets) => vec![ServerMsg::Secrets { server, secrets }],
                Err(e) => vec![failed(e), ServerMsg::Secrets { server, secrets: Secrets::default() }],
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-playground-secrets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("state/secrets.json")
    }

    fn secrets(k: &str, v: &str) -> Secrets {
        Secrets { env: [(k.to_owned(), v.to_owned())].into(), headers: Default::default() }
    }

    #[test]
    fn kept_secrets_come_back_from_a_file_only_the_user_reads() {
        let file = scratch("kept");
        let store = SecretStore::at(Some(file.clone()));
        assert_eq!(store.recall("stdio node s.js").unwrap(), Secrets::default(), "none yet, and no file");
        store.keep("stdio node s.js", secrets("API_KEY", "s3cret")).unwrap();
        store.keep("http https://x/mcp", secrets("B", "2")).unwrap();
        // Another relay of the same user reads what this one wrote.
        let other = SecretStore::at(Some(file.clone()));
        assert_eq!(other.recall("stdio node s.js").unwrap(), secrets("API_KEY", "s3cret"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&file), 0o600);
            assert_eq!(mode(file.parent().unwrap()), 0o700);
        }
        // Empty secrets forget.
        other.keep("stdio node s.js", Secrets::default()).unwrap();
        assert_eq!(store.recall("stdio node s.js").unwrap(), Secrets::default());
        assert_eq!(store.recall("http https://x/mcp").unwrap(), secrets("B", "2"));
        let _ = std::fs::remove_dir_all(file.parent().unwrap().parent().unwrap());
    }

    #[test]
    fn a_file_not_ours_is_left_alone_and_said() {
        let file = scratch("foreign");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "my notes").unwrap();
        let store = SecretStore::at(Some(file.clone()));
        let e = store.keep("demo", secrets("A", "1")).unwrap_err().to_string();
        assert!(e.contains("is not a secrets file of ours") && e.contains("left as it is"), "{e}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "my notes");
        let answer = store.answer(None, "demo".into(), 1.0);
        assert!(matches!(&answer[0], ServerMsg::Event { event: RelayEvent::Error { .. }, .. }), "{answer:?}");
        assert!(matches!(&answer[1], ServerMsg::Secrets { secrets, .. } if secrets.is_empty()), "the page goes on");
        assert!(SecretStore::at(None).recall("demo").unwrap_err().to_string().contains("nowhere"));
        let _ = std::fs::remove_dir_all(file.parent().unwrap().parent().unwrap());
    }
}
