//! The origin App views run behind: a second loopback port of the relay that serves the
//! sandbox proxy and nothing else (no API, no cookie, no page). The proxy's document carries
//! the view's Content-Security-Policy, built from what the view declared (the page passes
//! it in the URL; it is checked again here) and inherited by the view's frame, and may be
//! framed only by the relay's own page.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

/// The proxy's page: a frame for the view and the proxy's script, nothing inline to run.
const PAGE: &str = "<!doctype html><html><head><meta charset=\"utf-8\"><title>App view</title>\
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}\
iframe{border:0;width:100%;height:100%;display:block;color-scheme:normal}</style></head>\
<body><script src=\"/sandbox.js\"></script></body></html>";

const SCRIPT: &str = include_str!("sandbox.js");

/// What the sandbox origin knows.
#[derive(Debug)]
pub struct Sandbox {
    /// `Host` values this origin answers to (`127.0.0.1:PORT`, …).
    hosts: Vec<String>,
    /// The page origins that may frame the proxy (the relay's own).
    pages: Vec<String>,
}

impl Sandbox {
    /// The sandbox on `sandbox_port`, for the page served on `page_port`.
    pub fn new(page_port: u16, sandbox_port: u16) -> Self {
        let names = ["127.0.0.1", "localhost", "[::1]"];
        Sandbox {
            hosts: names.iter().map(|h| format!("{h}:{sandbox_port}")).collect(),
            pages: names.iter().map(|h| format!("http://{h}:{page_port}")).collect(),
        }
    }
}

#[derive(Deserialize)]
struct ProxyQuery {
    /// The page's origin, which alone may frame the proxy and talk to it.
    host: Option<String>,
    /// The view's declared `_meta.ui.csp`, as JSON.
    csp: Option<String>,
}

pub fn router(sandbox: Arc<Sandbox>) -> Router {
    Router::new()
        .route("/sandbox", get(proxy))
        .route("/sandbox.js", get(script))
        .fallback(|| async { StatusCode::NOT_FOUND })
        .with_state(sandbox)
}

fn host_ok(sandbox: &Sandbox, headers: &HeaderMap) -> bool {
    headers.get(header::HOST).and_then(|h| h.to_str().ok()).is_some_and(|h| sandbox.hosts.iter().any(|k| k == h))
}

async fn proxy(State(sandbox): State<Arc<Sandbox>>, headers: HeaderMap, Query(q): Query<ProxyQuery>) -> Response {
    if !host_ok(&sandbox, &headers) {
        return (StatusCode::FORBIDDEN, "unexpected Host\n").into_response();
    }
    let Some(page) = q.host.filter(|h| sandbox.pages.contains(h)) else {
        return (StatusCode::BAD_REQUEST, "the proxy serves the relay's own page only\n").into_response();
    };
    let declared = match q.csp.as_deref().map(serde_json::from_str::<serde_json::Value>) {
        None => None,
        Some(Ok(v)) => Some(shared::apps::Csp::read(&v).0),
        Some(Err(_)) => return (StatusCode::BAD_REQUEST, "csp is not JSON\n").into_response(),
    };
    let policy = format!("{}; frame-ancestors {page}", shared::apps::csp_header(declared.as_ref()));
    let Ok(policy) = HeaderValue::from_str(&policy) else {
        return (StatusCode::BAD_REQUEST, "unusable csp\n").into_response();
    };
    tracing::info!(csp = %policy.to_str().unwrap_or_default(), "an App view loads");
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CONTENT_SECURITY_POLICY, policy),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        ],
        PAGE,
    )
        .into_response()
}

async fn script(State(sandbox): State<Arc<Sandbox>>, headers: HeaderMap) -> Response {
    if !host_ok(&sandbox, &headers) {
        return (StatusCode::FORBIDDEN, "unexpected Host\n").into_response();
    }
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        SCRIPT,
    )
        .into_response()
}
