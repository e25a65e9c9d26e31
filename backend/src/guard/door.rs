//! `/`, where a browser comes in: `?token=` (the URL the relay printed) or `?code=` (the
//! browser the relay opened) is exchanged for the session cookie and a redirect to a clean
//! `/`; with the cookie, the page; without, a static page saying which URL to open.

use std::sync::Arc;

use axum::extract::{Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};

use super::{DoorQuery, Guard, Refusal};

/// The page shown instead of the playground; `{{title}}` and `{{lead}}` are filled in. Its
/// style is inline (the policy allows inline styles), it has no script at all.
const NOTICE: &str = include_str!("notice.html");

/// Middleware of the page's routes: only `/` and `/index.html` (the page itself) are
/// doors; assets pass, guarded by `Host` and `Origin` like everything.
pub async fn door(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path != "/" && path != "/index.html" {
        return next.run(request).await;
    }
    let query = Query::<DoorQuery>::try_from_uri(request.uri()).map(|Query(q)| q).unwrap_or_default();
    if let Some(token) = query.token {
        if guard.is_token(&token) {
            return exchange(&guard);
        }
        tracing::warn!("a wrong token in the page's URL refused");
        return refused(Refusal::Token);
    }
    if let Some(code) = query.code {
        if guard.redeem_code(&code) {
            return exchange(&guard);
        }
        tracing::warn!("an unknown, used or expired one-time code refused");
        return refused(Refusal::Code);
    }
    if guard.has_cookie(request.headers()) {
        next.run(request).await
    } else {
        notice(
            StatusCode::OK,
            "Open the URL the relay printed",
            "This browser is not signed in to this relay yet. Open the URL that <code>mcp-playground</code> \
             printed when it started, <code>http://…/?token=…</code>: it signs this browser in for as long as \
             it stays open, and the token leaves the address bar.",
        )
    }
}

/// The session cookie, and a redirect to `/` that takes the secret out of the address bar
/// and the history (`303`: the next request is a plain `GET /`).
fn exchange(guard: &Guard) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, "/".to_owned()), (header::SET_COOKIE, guard.set_cookie())])
        .into_response()
}

fn refused(why: Refusal) -> Response {
    let lead = match why {
        Refusal::Code => {
            "The one-time link the relay opened this browser with was already used or is more than two \
             minutes old. Open the URL that <code>mcp-playground</code> printed, <code>http://…/?token=…</code>."
        }
        _ => {
            "The token in this URL is not this relay's: each start makes a new one. Open the URL that \
             <code>mcp-playground</code> printed most recently, <code>http://…/?token=…</code>."
        }
    };
    notice(StatusCode::UNAUTHORIZED, "This link does not open the playground", lead)
}

fn notice(status: StatusCode, title: &str, lead: &str) -> Response {
    (status, Html(NOTICE.replace("{{title}}", title).replace("{{lead}}", lead))).into_response()
}
