//! The guard's checks one by one: `Host` and `Origin`, the token and its encoding, the
//! session cookie of this port and run, one-time codes. The door over HTTP is tested
//! with the real router in `app/tests.rs`.

use std::time::{Duration, Instant};

use axum::http::{HeaderMap, HeaderValue};

use super::codes::{Codes, LIFETIME};
use super::*;

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (k, v) in pairs {
        h.insert(*k, HeaderValue::from_static(v));
    }
    h
}

fn cookie(value: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("cookie", HeaderValue::from_str(value).unwrap());
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
    let check = |uri: &str| g.check_api(&uri.parse().unwrap(), &HeaderMap::new()).is_ok();
    assert!(check(&format!("/api/ws?a=1&token={}", g.token())));
    assert!(!check("/api/ws?token=nope"));
    assert!(!check("/api/ws"));
    assert!(!check("/api/ws?token="));
    let mut h = HeaderMap::new();
    h.insert("authorization", HeaderValue::from_str(&format!("Bearer {}", g.token())).unwrap());
    assert!(g.check_api(&"/api/ws".parse().unwrap(), &h).is_ok());
    assert_ne!(random_token(), random_token());
}

#[test]
fn a_token_in_the_query_is_read_percent_decoded() {
    // What the printed URL holds: the token form-encoded.
    let g = Guard::new("a/b+c:d e%f&g=h?ü".into(), "127.0.0.1", 1);
    let check = |query: &str| g.check_api(&format!("/api/ws?{query}").parse().unwrap(), &HeaderMap::new()).is_ok();
    assert!(check("token=a%2Fb%2Bc%3Ad%20e%25f%26g%3Dh%3F%C3%BC"));
    assert!(check("x=1&token=a/b%2Bc:d+e%25f%26g%3Dh?%C3%BC"), "`+` is a space in a query");
    assert!(!check("token=a%2Fb%2Bc%3Ad%20e%25f"));
    assert!(!check("token=a/b+c:d+e%25f%26g%3Dh%3F%C3%BC"), "an undecoded `+` is no `+`");
}

#[test]
fn the_session_cookie_is_of_this_port_and_this_run_and_not_the_token() {
    let g = Guard::new(random_token(), "127.0.0.1", 6280);
    let set = g.set_cookie();
    let (pair, attributes) = set.split_once("; ").unwrap();
    assert_eq!(attributes, "HttpOnly; SameSite=Strict; Path=/", "a session cookie: no Max-Age, no Expires");
    let (name, value) = pair.split_once('=').unwrap();
    assert_eq!(name, "mcp_playground_6280");
    assert_eq!(value.len(), 64);
    assert_ne!(value, g.token(), "the cookie is a credential of its own");

    let api = |h: &HeaderMap| g.check_api(&"/api/ws".parse().unwrap(), h).is_ok();
    assert!(api(&cookie(pair)));
    assert!(api(&cookie(&format!("theme=dark; {pair}; other=1"))));
    assert!(!api(&cookie(&format!("mcp_playground_6281={value}"))), "the name of another port's relay");
    assert!(!api(&cookie(&format!("mcp_playground_6280={}", g.token()))), "the token is not the cookie");
    assert!(!api(&cookie("mcp_playground_6280=")));
    let other_run = Guard::new(g.token().to_owned(), "127.0.0.1", 6280);
    assert!(other_run.check_api(&"/api/ws".parse().unwrap(), &cookie(pair)).is_err(), "a restarted relay");
}

#[test]
fn a_one_time_code_works_once_and_expires() {
    let now = Instant::now();
    let mut codes = Codes::default();
    let code = codes.issue(now);
    assert_eq!(code.len(), 64);
    assert!(!codes.redeem("guess", now));
    assert!(codes.redeem(&code, now + Duration::from_secs(1)));
    assert!(!codes.redeem(&code, now + Duration::from_secs(2)), "used");

    let late = codes.issue(now);
    assert!(!codes.redeem(&late, now + LIFETIME), "expired after two minutes");
    assert!(!codes.redeem(&late, now), "an expired code is gone, not kept");
    assert_eq!(LIFETIME, Duration::from_secs(120));

    // Through the guard, with the clock.
    let g = Guard::new(random_token(), "127.0.0.1", 1);
    let code = g.issue_code();
    assert_ne!(code, g.issue_code());
    assert!(!g.redeem_code(g.token()), "the token is no code");
    assert!(g.redeem_code(&code));
    assert!(!g.redeem_code(&code));
}
