//! The relay's front door. It starts processes on request, so it is guarded like a shell:
//! every request must name an expected `Host` (DNS rebinding) and, when it has one, a
//! same-origin `Origin`; every API request must carry the session cookie (browsers) or the
//! token (other clients). The token is exchanged for the cookie once, at `/` ([`door`]), so
//! it never stays in the address bar, the history or a browser's arguments.

mod codes;
mod door;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use codes::Codes;
pub use door::door;

/// Who may talk to the relay.
pub struct Guard {
    token: String,
    /// The session cookie's value: a secret of its own, so that the cookie is not the token
    /// (a cookie jar read later yields nothing the command line or `?token=` would take).
    cookie_secret: String,
    /// The cookie's name. Cookies ignore ports: two relays on one host each need their own.
    cookie_name: String,
    /// `host:port` values a request's `Host` may have.
    hosts: Vec<String>,
    /// One-time codes for the browser the relay opens itself.
    codes: Mutex<Codes>,
}

/// Secrets stay out of logs: only where the guard answers is shown.
impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard").field("hosts", &self.hosts).field("cookie_name", &self.cookie_name).finish()
    }
}

/// Why a request was refused. The answer says little; the log says more.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("missing or wrong token")]
    Token,
    #[error("unknown, used or expired one-time code")]
    Code,
    #[error("unexpected Host header")]
    Host,
    #[error("foreign Origin")]
    Origin,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = match self {
            Refusal::Token | Refusal::Code => StatusCode::UNAUTHORIZED,
            Refusal::Host | Refusal::Origin => StatusCode::FORBIDDEN,
        };
        (status, [(header::CACHE_CONTROL, "no-store")], format!("{self}\n")).into_response()
    }
}

impl Guard {
    /// A guard for a relay bound to `bind_host:port`. Loopback names are always accepted.
    pub fn new(token: String, bind_host: &str, port: u16) -> Self {
        let mut hosts: Vec<String> =
            ["127.0.0.1", "localhost", "[::1]"].iter().map(|h| format!("{h}:{port}")).collect();
        let bound = if bind_host.contains(':') && !bind_host.starts_with('[') {
            format!("[{bind_host}]:{port}")
        } else {
            format!("{bind_host}:{port}")
        };
        if !hosts.contains(&bound) {
            hosts.push(bound);
        }
        Self {
            token,
            cookie_secret: random_token(),
            cookie_name: format!("mcp_playground_{port}"),
            hosts,
            codes: Mutex::new(Codes::default()),
        }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// Checks `Host` and `Origin`.
    pub fn check_site(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).ok_or(Refusal::Host)?;
        if !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Err(Refusal::Host);
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().map_err(|_| Refusal::Origin)?;
            let same =
                origin.strip_prefix("http://").is_some_and(|o| self.hosts.iter().any(|h| h.eq_ignore_ascii_case(o)));
            if !same {
                return Err(Refusal::Origin);
            }
        }
        Ok(())
    }

    /// Checks an API request: the session cookie (the page), or the token (other clients).
    pub fn check_api(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        if self.has_cookie(headers) { Ok(()) } else { self.check_token(uri, headers) }
    }

    /// Checks the token, from `?token=`, read percent-decoded as the printed URL encodes it,
    /// or `Authorization: Bearer`.
    pub fn check_token(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let from_query = Query::<DoorQuery>::try_from_uri(uri).ok().and_then(|Query(q)| q.token);
        let from_header =
            headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok()).and_then(|h| h.strip_prefix("Bearer "));
        match from_query.as_deref().or(from_header) {
            Some(given) if self.is_token(given) => Ok(()),
            _ => Err(Refusal::Token),
        }
    }

    fn is_token(&self, given: &str) -> bool {
        constant_time_eq(given.as_bytes(), self.token.as_bytes())
    }

    /// Whether the request carries this relay's session cookie (of this port, with this
    /// run's secret).
    pub fn has_cookie(&self, headers: &HeaderMap) -> bool {
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|h| h.to_str().ok())
            .flat_map(|h| h.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(name, value)| {
                name == self.cookie_name && constant_time_eq(value.as_bytes(), self.cookie_secret.as_bytes())
            })
    }

    /// The `Set-Cookie` value that hands out the session cookie: out of the page's scripts'
    /// reach (`HttpOnly`), never sent by another site's request (`SameSite=Strict`), and gone
    /// when the browser closes (no `Max-Age`). Not `Secure`: the relay speaks plain HTTP.
    pub fn set_cookie(&self) -> String {
        format!("{}={}; HttpOnly; SameSite=Strict; Path=/", self.cookie_name, self.cookie_secret)
    }

    /// A fresh one-time code for the browser the relay opens: its arguments are readable
    /// by every local user, so they get a code that dies on first use instead of the token.
    pub fn issue_code(&self) -> String {
        self.codes.lock().expect("no panic while holding the codes").issue(Instant::now())
    }

    /// Takes a one-time code: true once for a live code, never again.
    pub fn redeem_code(&self, code: &str) -> bool {
        self.codes.lock().expect("no panic while holding the codes").redeem(code, Instant::now())
    }
}

/// The parts of a query string the guard reads; other parameters are ignored.
#[derive(Debug, Default, serde::Deserialize)]
struct DoorQuery {
    token: Option<String>,
    code: Option<String>,
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Middleware for every route: `Host` and `Origin`.
pub async fn site(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Result<Response, Refusal> {
    guard.check_site(request.headers()).inspect_err(|e| {
        tracing::warn!(reason = %e, host = ?request.headers().get(header::HOST), origin = ?request.headers().get(header::ORIGIN), "request refused");
    })?;
    Ok(next.run(request).await)
}

/// Middleware for `/api`: the session cookie or the token.
pub async fn api(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Result<Response, Refusal> {
    guard.check_api(request.uri(), request.headers()).inspect_err(|_| {
        tracing::warn!(path = request.uri().path(), "request without the session cookie or a valid token refused");
    })?;
    Ok(next.run(request).await)
}

/// The shortest token the relay accepts from its user: anything shorter can be guessed.
pub const MIN_TOKEN_LEN: usize = 16;

/// A fresh random secret: 32 bytes as hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
