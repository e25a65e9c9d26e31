//! The sequence view (the `flow-view` hook): the session as a sequence diagram on a
//! (compressed) time axis, drawn as SVG. Lifelines for the page, the relay and the server,
//! and for an App's view when the session has one (its lane is drawn left of the page);
//! arrows for requests, responses and notifications; open spans for requests still
//! waiting. Clicking an arrow selects its row.

use leptos::prelude::*;

use shared::timeline::RowView;

use crate::store::Store;

/// Rows drawn at most (the most recent ones).
const MAX_ROWS: usize = 500;
/// The drawing without the view's lifeline; the view's adds [`VIEW_LANE`] on the left.
const WIDTH: f64 = 370.0;
const PAGE_X: f64 = 60.0;
const RELAY_X: f64 = 200.0;
const SERVER_X: f64 = 330.0;
const VIEW_LANE: f64 = 150.0;
const TOP: f64 = 40.0;
const MIN_GAP: f64 = 18.0;

struct Placed {
    row: RowView,
    y: f64,
}

fn place(rows: &[RowView], zoom: f64) -> Vec<Placed> {
    let mut out = Vec::with_capacity(rows.len());
    let mut y = TOP;
    let mut last_ms: Option<f64> = None;
    for r in rows {
        if let Some(prev) = last_ms {
            // A time axis that keeps bursts readable: gaps grow with the square root of time.
            y += MIN_GAP + zoom * (r.rel_ms - prev).max(0.0).sqrt();
        }
        last_ms = Some(r.rel_ms);
        out.push(Placed { row: r.clone(), y });
    }
    out
}

lazy_view!(
    /// [`SequenceView`], in a chunk of its own loaded on first use.
    flow_view() => view! { <SequenceView /> }.into_any()
);

#[component]
fn SequenceView() -> impl IntoView {
    let store = expect_context::<Store>();
    let zoom = RwSignal::new(2.0f64);
    let drawing = move || {
        let rows = store.rows_tail(MAX_ROWS);
        // The view's lifeline, when an App's view took part: everything else moves right.
        let has_view = rows.iter().any(|r| matches!(r.direction, "to-view" | "from-view"));
        let dx = if has_view { VIEW_LANE } else { 0.0 };
        let (view_x, page_x, relay_x, server_x, width) = (PAGE_X, PAGE_X + dx, RELAY_X + dx, SERVER_X + dx, WIDTH + dx);
        let placed = place(&rows, zoom.get());
        let height = placed.last().map_or(TOP + 40.0, |p| p.y + 40.0);
        let by_seq = |seq: usize| placed.iter().find(|p| p.row.seq == seq).map(|p| p.y);
        // Spans of requests to the server, from request to response (or to the end).
        let spans = placed
            .iter()
            .filter(|p| p.row.kind == "request" && p.row.direction == "out")
            .map(|p| {
                let end = p.row.partner.and_then(by_seq);
                let y2 = end.unwrap_or(height - 10.0);
                let open = end.is_none();
                view! { <rect class="span" class:open=open x=server_x - 4.0 y=p.y width="8" height=(y2 - p.y).max(2.0) rx="2" /> }
            })
            .collect_view();
        let marks = placed
            .iter()
            .map(|p| {
                let seq = p.row.seq;
                let y = p.y;
                let label = if p.row.method.is_empty() { p.row.kind.to_owned() } else { p.row.label() };
                // The view's lane is narrow: its long notification names are cut in the middle.
                let label = match p.row.direction {
                    "to-view" | "from-view" => label.replacen("ui/notifications/", "ui/…/", 1),
                    _ => label,
                };
                let time = format!("{:.0}", p.row.rel_ms);
                let select = move |_| store.selected_row.set(Some(seq));
                let selected = move || store.selected_row.get() == Some(seq);
                let kind = if p.row.fell_back { "fell-back" } else { p.row.kind };
                let body = match p.row.direction {
                    "relay" => view! {
                        <circle class="event" cx=relay_x cy=y r="4" />
                        <text class="flow-label" x=relay_x + 8.0 y=y + 4.0>{label}</text>
                    }
                    .into_any(),
                    dir => {
                        let (x1, x2, end) = match dir {
                            "out" => (page_x, server_x - 6.0, "url(#arrow-out)"),
                            "to-view" => (page_x, view_x + 6.0, "url(#arrow-view)"),
                            "from-view" => (view_x, page_x - 6.0, "url(#arrow-view)"),
                            _ => (server_x, page_x + 6.0, "url(#arrow-in)"),
                        };
                        view! {
                            <line class=format!("arrow dir-{dir} kind-{kind}") x1=x1 y1=y x2=x2 y2=y marker-end=end />
                            <text class="flow-label" x=(x1 + x2) / 2.0 y=y - 4.0 text-anchor="middle">{label}</text>
                        }
                        .into_any()
                    }
                };
                view! {
                    <g class="flow-mark" class:selected=selected on:click=select data-seq=seq data-direction=p.row.direction>
                        <rect class="hit" x="0" y=y - 9.0 width=width height="16" />
                        <text class="flow-time" x="4" y=y + 4.0>{time}</text>
                        {body}
                    </g>
                }
            })
            .collect_view();
        view! {
            <svg class="flow" data-testid="flow-view" width="100%" height=height preserveAspectRatio="xMinYMin meet" viewBox=format!("0 0 {width} {height}")
                role="img" aria-label="Sequence diagram of the session">
                <defs>
                    <marker id="arrow-out" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head-out" /></marker>
                    <marker id="arrow-in" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head-in" /></marker>
                    <marker id="arrow-view" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="head-view" /></marker>
                </defs>
                {has_view.then(|| view! {
                    <text class="lane-name" data-lifeline="view" x=view_x y="16" text-anchor="middle">"App view"</text>
                    <line class="lane lane-view" x1=view_x y1="24" x2=view_x y2=height />
                })}
                <text class="lane-name" x=page_x y="16" text-anchor="middle">"Page"</text>
                <text class="lane-name" x=relay_x y="16" text-anchor="middle">"Relay"</text>
                <text class="lane-name" x=server_x y="16" text-anchor="middle">"Server"</text>
                <line class="lane" x1=page_x y1="24" x2=page_x y2=height />
                <line class="lane" x1=relay_x y1="24" x2=relay_x y2=height />
                <line class="lane" x1=server_x y1="24" x2=server_x y2=height />
                {spans}
                {marks}
            </svg>
        }
    };
    view! {
        <div class="flow-tools">
            <label class="hint small">"Zoom "
                <input type="range" min="0" max="12" step="0.5" data-testid="flow-zoom"
                    prop:value=move || zoom.get().to_string()
                    on:input=move |ev| if let Ok(z) = event_target_value(&ev).parse() { zoom.set(z) } />
            </label>
            <span class="hint small">{move || {
                let n = store.row_count.get();
                if n > MAX_ROWS { format!("the last {MAX_ROWS} of {n} messages") } else { format!("{n} messages") }
            }}</span>
        </div>
        <div class="flow-scroll">{drawing}</div>
    }
}
