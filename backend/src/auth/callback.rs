//! The redirect back from the authorization server. Each sign-in waits under its `state`
//! (32 random bytes, used once); the callback hands the answer to the one waiting and is
//! refused for any other. The relay serves it at `/oauth/callback` behind its Host check:
//! the browser arrives from the authorization server's site, so the `SameSite=Strict`
//! session cookie cannot come along, and the unguessable, single-use `state` is the
//! credential instead. The headless commands serve the same route on a loopback port of
//! their own. The page shown never repeats what the request carried.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio::sync::oneshot;

/// What the authorization server sent back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Callback {
    pub code: Option<String>,
    pub iss: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

/// The sign-ins waiting for their callback.
#[derive(Debug, Default)]
pub struct Pending {
    waiting: Mutex<HashMap<String, oneshot::Sender<Callback>>>,
}

impl Pending {
    /// Waits for the callback carrying `state`.
    pub fn wait(&self, state: &str) -> oneshot::Receiver<Callback> {
        let (tx, rx) = oneshot::channel();
        let mut waiting = self.waiting.lock().expect("pending lock");
        waiting.retain(|_, tx| !tx.is_closed());
        waiting.insert(state.to_owned(), tx);
        rx
    }

    /// Hands a callback to the sign-in waiting under its `state`; false when none is.
    pub fn deliver(&self, query: &HashMap<String, String>) -> bool {
        let Some(state) = query.get("state") else { return false };
        let Some(tx) = self.waiting.lock().expect("pending lock").remove(state) else { return false };
        let get = |k: &str| query.get(k).cloned();
        tx.send(Callback {
            code: get("code"),
            iss: get("iss"),
            error: get("error"),
            error_description: get("error_description"),
        })
        .is_ok()
    }
}

/// `GET /oauth/callback` (the relay) or `GET /callback` (the headless commands).
pub async fn route(State(pending): State<Arc<Pending>>, Query(query): Query<HashMap<String, String>>) -> Response {
    if !pending.deliver(&query) {
        return page(
            StatusCode::BAD_REQUEST,
            "This sign-in is not expected",
            "It was already used, it timed out, or it was not started by this MCP Playground. Start the sign-in again from the playground.",
        );
    }
    if query.contains_key("error") {
        return page(StatusCode::OK, "Sign-in refused", "The playground shows why. You can close this tab.");
    }
    page(StatusCode::OK, "Signed in", "The playground carries on with the server. You can close this tab.")
}

fn page(status: StatusCode, title: &str, lead: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
<title>{title} · MCP Playground</title><style>body{{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;\
min-height:100vh;background:#f6f7f9;color:#1d2433}}main{{max-width:28rem;padding:2rem;border-radius:12px;background:#fff;\
box-shadow:0 1px 3px #0002}}h1{{font-size:1.25rem;margin:0 0 .5rem}}@media(prefers-color-scheme:dark){{body{{background:#11151c;\
color:#e6e9ef}}main{{background:#1a2029}}}}</style></head><body><main><h1 data-testid=\"oauth-callback\">{title}</h1><p>{lead}</p></main></body></html>"
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        html,
    )
        .into_response()
}

/// The loopback listener for the sign-in's callback could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen for the sign-in's callback: {0}")]
pub struct NoCallback(#[source] std::io::Error);

/// Serves `/callback` on a loopback port of its own (for the headless commands); returns
/// the redirect URI. The server lives as long as the runtime.
pub async fn listen(pending: Arc<Pending>) -> Result<String, NoCallback> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await.map_err(NoCallback)?;
    let port = listener.local_addr().map_err(NoCallback)?.port();
    let app = axum::Router::new().route("/callback", axum::routing::get(route)).with_state(pending);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(format!("http://127.0.0.1:{port}/callback"))
}
