//! The mock over Streamable HTTP: `POST /mcp` takes one JSON-RPC message. A request whose
//! answer comes alone gets it as `application/json`; one with recorded notifications gets a
//! `text/event-stream` of them and the answer, at the recorded pace. A notification or a
//! response gets `202 Accepted`; `GET` and `DELETE` are not offered (405).

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use futures_util::stream;
use tokio::io::AsyncWriteExt;

use super::{MAX_LINE_BYTES, Shared, pace};

/// The mock's router, for tests to call directly.
pub fn router(mock: Shared) -> Router {
    Router::new()
        .route("/mcp", post(answer).get(not_offered).delete(not_offered))
        .layer(DefaultBodyLimit::max(MAX_LINE_BYTES))
        .with_state(mock)
}

/// Binds `host:port` (0 picks a free port), says where on stdout, and serves until Ctrl-C.
pub async fn serve(mock: Shared, host: &str, port: u16) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    let host = if addr.is_ipv6() { format!("[{}]", addr.ip()) } else { addr.ip().to_string() };
    let mut stdout = tokio::io::stdout();
    stdout.write_all(format!("MCP mock: http://{host}:{}/mcp\n", addr.port()).as_bytes()).await?;
    stdout.flush().await?;
    axum::serve(crate::app::no_delay(listener), router(mock))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

async fn answer(State(mock): State<Shared>, body: String) -> Response {
    let replies = mock.lock().expect("the mock never panics holding its lock").answer(&body);
    match replies.len() {
        0 => StatusCode::ACCEPTED.into_response(),
        1 if replies[0].delay_ms <= 0.0 => {
            let frame = replies.into_iter().next().map(|r| r.frame).unwrap_or_default();
            ([(header::CONTENT_TYPE, "application/json")], frame).into_response()
        }
        _ => {
            let events = stream::unfold(replies.into_iter(), |mut rest| async move {
                let reply = rest.next()?;
                pace(&reply).await;
                let event = format!("event: message\ndata: {}\n\n", reply.frame);
                Some((Ok::<_, std::convert::Infallible>(event), rest))
            });
            (
                [(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")],
                Body::from_stream(events),
            )
                .into_response()
        }
    }
}

async fn not_offered() -> Response {
    (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "POST")], "the mock answers POST requests only").into_response()
}
