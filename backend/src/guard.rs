//! The relay's front door. It starts processes on request, so it is guarded like a shell:
//! every request must name an expected `Host` (DNS rebinding) and, when it has one, a
//! same-origin `Origin`; every API request must carry the session token.

use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Who may talk to the relay.
#[derive(Debug, Clone)]
pub struct Guard {
    token: String,
    /// `host:port` values a request's `Host` may have.
    hosts: Vec<String>,
}

/// Why a request was refused. The answer says little; the log says more.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("missing or wrong token")]
    Token,
    #[error("unexpected Host header")]
    Host,
    #[error("foreign Origin")]
    Origin,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = match self {
            Refusal::Token => StatusCode::UNAUTHORIZED,
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
        Self { token, hosts }
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

    /// Checks the token, from `?token=` (browsers cannot set WebSocket headers), read
    /// percent-decoded as the page encodes it, or `Authorization: Bearer`.
    pub fn check_token(&self, uri: &Uri, headers: &HeaderMap) -> Result<(), Refusal> {
        let from_query = Query::<TokenQuery>::try_from_uri(uri).ok().and_then(|Query(q)| q.token);
        let from_header =
            headers.get(header::AUTHORIZATION).and_then(|h| h.to_str().ok()).and_then(|h| h.strip_prefix("Bearer "));
        match from_query.as_deref().or(from_header) {
            Some(given) if constant_time_eq(given.as_bytes(), self.token.as_bytes()) => Ok(()),
            _ => Err(Refusal::Token),
        }
    }
}

/// The part of a query string the guard reads; other parameters are ignored.
#[derive(Debug, serde::Deserialize)]
struct TokenQuery {
    token: Option<String>,
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

/// Middleware for `/api`: the token.
pub async fn token(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Result<Response, Refusal> {
    guard.check_token(request.uri(), request.headers()).inspect_err(|_| {
        tracing::warn!(path = request.uri().path(), "request without a valid token refused");
    })?;
    Ok(next.run(request).await)
}

/// The shortest token the relay accepts from its user: anything shorter can be guessed.
pub const MIN_TOKEN_LEN: usize = 16;

/// A fresh random token: 32 bytes as hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn host_and_origin() {
        let g = Guard::new("t".into(), "127.0.0.1", 8000);
        let ok = |h: &[(&'static str, &'static str)]| g.check_site(&headers(h)).is_ok();
        assert!(ok(&[("host", "127.0.0.1:8000")]));
        assert!(ok(&[("host", "localhost:8000"), ("origin", "http://localhost:8000")]));
        assert!(ok(&[("host", "[::1]:8000"), ("origin", "http://127.0.0.1:8000")]));
        assert!(!ok(&[]));
        assert!(!ok(&[("host", "evil.example:8000")]));
        assert!(!ok(&[("host", "127.0.0.1:8001")]));
        assert!(!ok(&[("host", "127.0.0.1:8000"), ("origin", "http://evil.example")]));
        assert!(!ok(&[("host", "127.0.0.1:8000"), ("origin", "https://127.0.0.1:8000")]));
        assert!(!ok(&[("host", "127.0.0.1:8000"), ("origin", "null")]));
        let lan = Guard::new("t".into(), "0.0.0.0", 9);
        assert!(lan.check_site(&headers(&[("host", "0.0.0.0:9")])).is_ok());
    }

    #[test]
    fn token_from_query_or_bearer() {
        let g = Guard::new(random_token(), "127.0.0.1", 1);
        assert_eq!(g.token().len(), 64);
        let check = |uri: &str| g.check_token(&uri.parse().unwrap(), &HeaderMap::new()).is_ok();
        assert!(check(&format!("/api/ws?a=1&token={}", g.token())));
        assert!(!check("/api/ws?token=nope"));
        assert!(!check("/api/ws"));
        assert!(!check("/api/ws?token="));
        let mut h = HeaderMap::new();
        h.insert("authorization", HeaderValue::from_str(&format!("Bearer {}", g.token())).unwrap());
        assert!(g.check_token(&"/api/ws".parse().unwrap(), &h).is_ok());
        assert_ne!(random_token(), random_token());
    }

    #[test]
    fn a_token_in_the_query_is_read_percent_decoded() {
        // What the page sends: its token through `encodeURIComponent`.
        let g = Guard::new("a/b+c:d e%f&g=h?ü".into(), "127.0.0.1", 1);
        let check =
            |query: &str| g.check_token(&format!("/api/ws?{query}").parse().unwrap(), &HeaderMap::new()).is_ok();
        assert!(check("token=a%2Fb%2Bc%3Ad%20e%25f%26g%3Dh%3F%C3%BC"));
        assert!(check("x=1&token=a/b%2Bc:d+e%25f%26g%3Dh?%C3%BC"), "`+` is a space in a query");
        assert!(!check("token=a%2Fb%2Bc%3Ad%20e%25f"));
        assert!(!check("token=a/b+c:d+e%25f%26g%3Dh%3F%C3%BC"), "an undecoded `+` is no `+`");
    }
}
