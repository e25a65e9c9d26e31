//! Legacy HTTP+SSE: a long-lived GET stream whose first `endpoint` event says where to
//! POST; every answer comes on that stream, and each POST is answered at once.

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use serde_json::Value;

use super::super::UpstreamEvent;
use super::actor::{Hold, Report};
use super::body::{self, SseBody};
use super::{Ctx, describe_status, is_html, not_mcp};

/// The stream: endpoint and messages. It may stay silent for hours.
pub(super) async fn stream(ctx: Ctx) {
    let req = ctx.authorized(ctx.client.get(ctx.url.clone())).header(ACCEPT, "text/event-stream");
    let resp = match req.send().await {
        Ok(r) if is_html(&r) => return ctx.error(not_mcp(&r)).await,
        Ok(r) if r.status().is_success() => r,
        Ok(r) => {
            let message = describe_status(&r) + &body::error_text(r, ctx.idle).await;
            return ctx.error(message).await;
        }
        Err(e) => return ctx.error(ctx.unreachable(e)).await,
    };
    let mut body = SseBody::new(resp, ctx.max);
    while let Some(events) = body.next().await {
        for event in events {
            match event {
                Ok(e) if e.event == "endpoint" => match ctx.url.join(e.data.trim()) {
                    // Only the server's own origin: never POST where a server points elsewhere.
                    Ok(u) if u.origin() == ctx.url.origin() => ctx.report(Report::Endpoint(u)),
                    _ => {
                        let message = format!("the server named an endpoint on another origin ({}); refused", e.data);
                        ctx.error(message).await;
                    }
                },
                Ok(e) if e.event == "message" => ctx.frame(e.data).await,
                Ok(_) => {}
                Err(t) => {
                    ctx.too_large(t).await;
                }
            }
        }
    }
    let _ = ctx.events.send(UpstreamEvent::Ended { reason: "the server closed its SSE stream".into() }).await;
}

/// POSTs one frame to the endpoint; its answer, if any, comes on the stream. The next frame
/// waits for the status (`hold`).
pub(super) async fn post(ctx: Ctx, endpoint: url::Url, frame: String, request_id: Option<Value>, hold: Hold) {
    let req = ctx.authorized(ctx.client.post(endpoint)).header(CONTENT_TYPE, "application/json").body(frame);
    let mut hold = Some(hold);
    let resp = ctx.send_holding(req, &mut hold, true).await;
    drop(hold);
    match resp {
        Ok(r) if r.status().is_success() => {}
        Ok(r) if is_html(&r) => {
            ctx.error(not_mcp(&r)).await;
            ctx.fail_request(request_id, super::NOT_MCP).await;
        }
        Ok(r) => {
            let status = r.status();
            let message = describe_status(&r) + &body::error_text(r, ctx.idle).await;
            ctx.error(message).await;
            ctx.fail_request(request_id, &format!("HTTP {status}")).await;
        }
        Err(e) => {
            ctx.error(format!("could not POST to the SSE endpoint: {}", e.without_url())).await;
            ctx.fail_request(request_id, "the request did not reach the server").await;
        }
    }
}
