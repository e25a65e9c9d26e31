//! The HTTP side of the relay: the router (the front door at `/`, page assets, `/api/ws`,
//! `/api/health`, `/api/recording`), the WebSocket upgrade into a session, and serving
//! until shutdown.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt, future};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::guard::{self, Guard};
use crate::session::{self, SessionConfig};

/// Everything the router needs.
#[derive(Debug, Clone)]
pub struct AppState {
    pub guard: Arc<Guard>,
    pub session: Arc<SessionConfig>,
    /// The built page (`dist/`, from `cargo xtask page`).
    pub assets: PathBuf,
    /// Free session slots; a socket holds one while it lives.
    pub sessions: Arc<Semaphore>,
    pub shutdown: watch::Receiver<bool>,
    /// The recording `play FILE` loaded, served as read.
    pub recording: Option<Loaded>,
    /// The origin App views run behind, the one other origin the page may frame.
    pub sandbox: Option<String>,
}

/// Where authorization servers send the person back after a sign-in (see
/// [`crate::auth::callback`]: guarded by the Host check and the sign-in's one-time `state`).
pub const OAUTH_CALLBACK: &str = "/oauth/callback";

/// Sessions one relay serves at once.
pub const MAX_SESSIONS: usize = 32;

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/ws", get(upgrade))
        .route("/api/health", get(|| async { "ok\n" }))
        .route("/api/recording", get(recording))
        .route(
            "/api/export",
            axum::routing::post(export)
                .layer(axum::extract::DefaultBodyLimit::max(crate::record::MAX_FILE_BYTES as usize)),
        )
        .route_layer(middleware::from_fn_with_state(state.guard.clone(), guard::api));
    let page = if state.assets.join("index.html").is_file() {
        Router::new().fallback_service(
            ServeDir::new(&state.assets).precompressed_br().precompressed_gzip().append_index_html_on_directories(true),
        )
    } else {
        tracing::warn!(assets = %state.assets.display(), "the page is not built; serving a notice instead");
        Router::new().fallback(not_built)
    };
    let guard = state.guard.clone();
    let csp = HeaderValue::from_str(&content_security_policy(state.sandbox.as_deref()))
        .unwrap_or_else(|_| HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    let callback =
        Router::new().route(OAUTH_CALLBACK, get(crate::auth::callback::route)).with_state(state.session.auth.pending());
    api.with_state(state)
        .merge(callback)
        .merge(page)
        // `/` trades the token for the session cookie; it runs after the site check.
        .layer(middleware::from_fn_with_state(guard.clone(), guard::door))
        .layer(middleware::from_fn_with_state(guard, guard::site))
        // The token is in the first URL a browser opens (until `/` redirects it away): never
        // let it leak through a Referer.
        .layer(SetResponseHeaderLayer::overriding(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::overriding(
            header::HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(header::CONTENT_SECURITY_POLICY, csp))
        .layer(middleware::map_response(cache_control))
}

/// What the page may load and do. Everything it runs comes from the relay: scripts are
/// files (`dist/` has no inline script), `'wasm-unsafe-eval'` lets the page compile its
/// own Wasm. `'unsafe-inline'` styles are for the `style=` attributes the page sets (the
/// timeline's virtual rows, the progress bar); no style sheet of a server is ever added.
/// `connect-src 'self'` covers the same-origin WebSocket (`ws:` of an `http:` page) and the
/// fetch of the Wasm and of `/api/recording`. Images and audio of results are `data:` or
/// `blob:` URLs; `'self'` in `img-src` is for the page's icon.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data: blob:; media-src data: blob:; \
    font-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/// [`CONTENT_SECURITY_POLICY`], and the one origin the page may frame: the sandbox App
/// views run behind (`frame-src`; none without one).
pub fn content_security_policy(sandbox: Option<&str>) -> String {
    let frames = sandbox.filter(|s| s.starts_with("http://") && !s.contains([' ', ';', '\'']));
    format!("{CONTENT_SECURITY_POLICY}; frame-src {}", frames.unwrap_or("'none'"))
}

/// The page and every `/api` answer hold or lead to the session: never stored. The assets
/// named by their content hash (`frontend-0123456789abcdef.wasm`) never change.
async fn cache_control(uri: Uri, mut response: Response) -> Response {
    let policy = if is_hashed_asset(uri.path()) { "public, max-age=31536000, immutable" } else { "no-store" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

/// `/NAME-HASH.EXT`, the names `cargo xtask page` gives: a 16-digit hex hash.
fn is_hashed_asset(path: &str) -> bool {
    let Some(name) = path.strip_prefix('/').filter(|n| !n.contains('/')) else { return false };
    let Some((stem, _ext)) = name.rsplit_once('.') else { return false };
    stem.rsplit_once('-').is_some_and(|(_, hash)| hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

async fn not_built() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "The MCP Playground page is not built. Run `cargo xtask run`, or point --assets at a built dist/ folder.\n",
    )
        .into_response()
}

/// A recording `play FILE` loaded: the file's name (for the page to say what it plays
/// back) and its text.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub name: String,
    pub text: Bytes,
}

/// The header that names the loaded recording's file, percent-encoded (a header is ASCII).
pub const RECORDING_NAME: &str = "x-recording-name";

/// The loaded recording, byte for byte as the file had it, and its file's name.
async fn recording(State(state): State<AppState>) -> Response {
    match state.recording {
        Some(Loaded { name, text }) => {
            let headers = [
                (header::CONTENT_TYPE, "application/x-ndjson".to_owned()),
                (header::HeaderName::from_static(RECORDING_NAME), percent_encode(&name)),
            ];
            (headers, text).into_response()
        }
        None => {
            (StatusCode::NOT_FOUND, "no recording is loaded: start with `mcp-playground play FILE`\n").into_response()
        }
    }
}

/// The page's "Save as web page": the recording it sends (checked as `play` checks a file)
/// in the offline player, named `?name=`.
async fn export(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
    body: String,
) -> Response {
    let player = match crate::export::player(&state.assets) {
        Ok(p) => p,
        Err(e) => return (StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n")).into_response(),
    };
    if let Err(problem) = crate::export::check(&body) {
        return (StatusCode::BAD_REQUEST, format!("this is no recording: {problem}\n")).into_response();
    }
    let name = query.get("name").cloned().unwrap_or_default();
    match tokio::task::spawn_blocking(move || crate::export::page(&player, &name, &body)).await {
        Ok(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the page could not be made\n").into_response(),
    }
}

/// `name` with every byte but ASCII letters, digits and `._-` as `%XX`, as the page's
/// `decodeURIComponent` reads it.
fn percent_encode(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn upgrade(State(state): State<AppState>, ws: WebSocketUpgrade) -> Response {
    let Ok(slot) = state.sessions.clone().try_acquire_owned() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "too many sessions\n").into_response();
    };
    let limit = state.session.limits.max_message_bytes;
    // Leave room for the envelope around a frame of the largest size.
    ws.max_message_size(limit * 2 + 4096).max_frame_size(limit * 2 + 4096).on_upgrade(move |socket| async move {
        serve_socket(socket, state).await;
        drop(slot);
    })
}

async fn serve_socket(socket: WebSocket, state: AppState) {
    let (sink, stream) = socket.split();
    let tx = sink.with(|text: String| future::ready(Ok::<_, axum::Error>(Message::Text(text.into()))));
    let rx =
        stream.take_while(|m| future::ready(matches!(m, Ok(m) if !matches!(m, Message::Close(_))))).filter_map(|m| {
            future::ready(match m {
                Ok(Message::Text(t)) => Some(t.to_string()),
                // Binary frames are not part of the protocol: a typo that the session reports.
                Ok(Message::Binary(_)) => Some("binary frame".to_owned()),
                _ => None,
            })
        });
    tracing::info!("session opened");
    session::run(Box::pin(tx), Box::pin(rx), state.session.clone(), state.shutdown.clone()).await;
    tracing::info!("session closed");
}

/// Every accepted socket sends small writes at once. Without `TCP_NODELAY`, Nagle's
/// algorithm holds the second of two small WebSocket messages (the echo of a request, then
/// its answer) until the browser's delayed acknowledgement: about 40 ms on every call.
pub fn no_delay(listener: TcpListener) -> impl axum::serve::Listener<Addr = std::net::SocketAddr> {
    listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(%e, "cannot set TCP_NODELAY on an accepted socket");
        }
    })
}

/// Serves until `shutdown` resolves, then tells every session to end and waits (briefly)
/// for their servers to be gone.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    stop: watch::Sender<bool>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sessions = state.sessions.clone();
    let app = router(state);
    axum::serve(no_delay(listener), app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            let _ = stop.send(true);
        })
        .await?;
    // Sessions hand back their slot once their server is ended.
    let all = u32::try_from(MAX_SESSIONS).expect("small");
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), sessions.acquire_many(all)).await;
    Ok(())
}

pub mod sandbox;
#[cfg(test)]
mod tests;
