//! The message timeline: every message both ways and every relay event, in order, with
//! time since the session began, paired requests and responses, a detail view, filters and
//! an export. Only the rows in view are in the page, so 100,000 messages stay responsive.

use leptos::html::Div;
use leptos::prelude::*;

use shared::catalog::{Got, LOG_LEVELS, severity};
use shared::revision::Revision;
use shared::spec_check::Verdict;
use shared::timeline::{AuthRow, Mark, RowDirection, RowFilter, RowKind, RowView, clock};

use crate::store::Store;

/// Height of one row in pixels (fixed, so the window can be computed).
const ROW_H: f64 = 28.0;
/// Rows drawn beyond the visible ones, above and below.
const OVERSCAN: usize = 20;
/// Server log lines drawn at once (the newest).
const LOG_LINES_SHOWN: usize = 200;
/// Up to this many rows, every row is in the page (tests and find-in-page see them all).
const ALL_ROWS_UP_TO: usize = 2000;
/// Rows beyond those in view drawn in one frame at most, on the way to every row: a burst
/// of a thousand messages is drawn over 20 frames, never in one long one (200 a frame made
/// frames of 100 to 170 ms while a recording played as fast as possible).
const ROWS_A_FRAME: usize = 50;
/// How long the rows out of view wait to be drawn while messages flood in, before the
/// next look.
const FLOOD_WAIT_MS: u64 = 150;
/// Rows out of view taken out of the page in one frame at most, once there are too many to
/// keep them all.
const ROWS_DROPPED_A_FRAME: usize = 300;

fn arrow(direction: &str) -> &'static str {
    match direction {
        "out" => "→",
        "in" => "←",
        "to-view" => "⇢",
        "from-view" => "⇠",
        _ => "•",
    }
}

/// A row in its place, as the list draws it: what it is keyed by, cheap to make for
/// thousands of rows a frame (the row's words are read once, when it is drawn).
#[derive(Clone, Copy)]
struct Slot {
    slot: usize,
    seq: usize,
    partner: Option<usize>,
    selected: bool,
    highlighted: bool,
}

lazy_view!(
    /// [`TimelinePanel`], in a chunk of its own loaded on first use.
    timeline_panel() => view! { <TimelinePanel /> }.into_any()
);

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let text = store.timeline_filter;
    let direction = RwSignal::new(None::<RowDirection>);
    let kind = RwSignal::new(None::<RowKind>);
    let auth_only = RwSignal::new(false);
    let criteria = Memo::new(move |_| RowFilter {
        text: text.get(),
        direction: direction.get(),
        kind: kind.get(),
        auth: auth_only.get(),
    });
    // Indices of the rows that pass the filters; `None` when nothing is filtered.
    let filtered = Memo::new(move |_| criteria.with(|f| (!f.is_empty()).then(|| store.filter_rows(f))));
    let total =
        Memo::new(move |_| filtered.with(|f| f.as_ref().map(Vec::len)).unwrap_or_else(|| store.row_count.get()));
    let scroller = NodeRef::<Div>::new();
    let scroll_top = RwSignal::new(0.0f64);
    let viewport = RwSignal::new(600.0f64);
    let follow = RwSignal::new(true);
    // The rows drawn beside those in view: the first `drawn`. They grow a frame at a time
    // to every row, and shrink the same way once the list is windowed.
    let drawn = RwSignal::new(0usize);
    let stepping = StoredValue::new(false);
    Effect::new(move |_| {
        let n = total.get();
        let want = if n <= ALL_ROWS_UP_TO { n } else { 0 };
        if drawn.get() != want && !stepping.get_value() {
            stepping.set_value(true);
            request_animation_frame(move || {
                let n = total.get_untracked();
                let want = if n <= ALL_ROWS_UP_TO { n } else { 0 };
                if want > drawn.get_untracked() && store.flooding() {
                    // A flood fills every frame already: the rows out of view wait for its
                    // end (it may well bring more than are ever all drawn).
                    return set_timeout(
                        move || {
                            stepping.set_value(false);
                            drawn.update(|_| {});
                        },
                        std::time::Duration::from_millis(FLOOD_WAIT_MS),
                    );
                }
                stepping.set_value(false);
                drawn.update(|d| {
                    *d = if *d < want {
                        (*d + ROWS_A_FRAME).min(want)
                    } else {
                        d.saturating_sub(ROWS_DROPPED_A_FRAME).max(want)
                    };
                });
            });
        }
    });
    // What other filters show is drawn anew, a frame at a time. New rows that pass the
    // same filters only add to what is drawn: the rows already there stay (a row a person
    // or a test holds is not taken out from under it).
    Effect::new(move |was: Option<()>| {
        criteria.track();
        if was.is_some() {
            drawn.set(0);
        }
    });
    // The rows in view (and a margin), and the first `drawn`, in order.
    let window = move || {
        let n = total.get();
        let shown = (viewport.get() / ROW_H).ceil() as usize;
        let first = if follow.get() { n.saturating_sub(shown) } else { (scroll_top.get() / ROW_H) as usize };
        let in_view = first.saturating_sub(OVERSCAN).min(n)..(first + shown + OVERSCAN).min(n);
        let drawn = drawn.get().min(n);
        let head = 0..drawn.min(in_view.start);
        let tail = in_view.end..drawn.max(in_view.end);
        head.chain(in_view).chain(tail)
    };
    // New rows keep the view at the bottom while a person has not scrolled up: once a
    // frame, when the browser lays the page out anyway.
    let pinning = StoredValue::new(false);
    Effect::new(move |_| {
        total.track();
        if follow.get_untracked() && !pinning.get_value() {
            pinning.set_value(true);
            request_animation_frame(move || {
                pinning.set_value(false);
                if follow.get_untracked()
                    && let Some(el) = scroller.get_untracked()
                {
                    el.set_scroll_top(el.scroll_height());
                }
            });
        }
    });
    // Rows that came while the person was scrolled up: a chip counts them and brings the
    // view back down.
    // A change of filter starts the count again: what it shows is not "new".
    let seen = RwSignal::new(0usize);
    Effect::new(move |_| {
        text.track();
        direction.track();
        kind.track();
        auth_only.track();
        seen.set(total.get_untracked());
    });
    Effect::new(move |_| {
        if follow.get() {
            seen.set(total.get());
        }
    });
    let unseen = move || total.get().saturating_sub(seen.get());
    let to_bottom = move |_| {
        if let Some(el) = scroller.get() {
            el.set_scroll_top(el.scroll_height());
        }
        follow.set(true);
    };
    // At the bottom, the view follows; moved up, it stays. A scroll that did not go up
    // leaves it as it was: the view's own move to the bottom reports its scroll a frame
    // later, when new rows may already have made the list longer.
    let on_scroll = move |_| {
        if let Some(el) = scroller.get() {
            let top = f64::from(el.scroll_top());
            let went_up = top < scroll_top.get_untracked();
            scroll_top.set(top);
            viewport.set(f64::from(el.client_height()).max(ROW_H));
            let at_bottom = top + f64::from(el.client_height()) >= f64::from(el.scroll_height()) - ROW_H;
            if at_bottom || went_up {
                follow.set(at_bottom);
            }
        }
    };
    let index_of = move |slot: usize| filtered.with(|f| f.as_ref().map_or(Some(slot), |f| f.get(slot).copied()));
    // Whether calls can be copied as curl: the server is reached over Streamable HTTP.
    let http = Memo::new(move |_| {
        store.server.track();
        super::copy_call::over_http(store)
    });
    let rows_in_view = move || {
        let slots = window();
        let chosen = store.selected_row.get();
        store.with_partners(|partner_of| {
            slots
                .filter_map(|slot| {
                    let seq = index_of(slot)?;
                    let partner = partner_of(seq)?;
                    let selected = chosen == Some(seq);
                    let highlighted = partner.is_some() && chosen == partner;
                    Some(Slot { slot, seq, partner, selected, highlighted })
                })
                .collect::<Vec<_>>()
        })
    };
    let detail = move || store.selected_row.get().and_then(|seq| Some((store.row_detail(seq)?, store.row_mark(seq))));
    // The view comes back after a reload.
    let flow = RwSignal::new(store.saved.flow());
    Effect::new(move |was: Option<bool>| {
        let now = flow.get();
        if was.is_some_and(|w| w != now) {
            store.remember_where(|l| l.flow = now);
        }
        now
    });
    view! {
        <section class="panel timeline-panel">
            <div class="panel-head">
                <h2 class="panel-title">"Timeline " <span class="count">{move || store.row_count.get()}</span></h2>
                <div class="segmented" role="group" aria-label="Timeline view">
                    <button class="seg" data-label="List" aria-label="List" class:active=move || !flow.get() on:click=move |_| flow.set(false)></button>
                    <button class="seg" data-label="Flow" aria-label="Flow" data-testid="flow-toggle" class:active=move || flow.get() on:click=move |_| flow.set(true)></button>
                </div>
                <button class="button small ghost" data-testid="timeline-export" title="Download the session as a recording (JSON Lines, every message with its stamps)"
                    on:click=move |_| store.file_job(crate::store::FileJob::Save)>"Export"</button>
            </div>
            <Show when=move || flow.get()>
                // The flow diagram's code arrives when it is first shown.
                {super::later(super::sequence::flow_view())}
            </Show>
            <div class="timeline-filters" class:hidden=move || flow.get()>
                <input class="input" type="search" data-testid="timeline-filter" placeholder="Filter by method or id"
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev)) />
                <select class="input compact" data-testid="timeline-filter-direction" aria-label="Direction"
                    on:change=move |ev| direction.set(RowDirection::parse(&event_target_value(&ev)))>
                    <option value="">"both ways"</option>
                    <option value="out">"→ to server"</option>
                    <option value="in">"← from server"</option>
                    <option value="relay">"• relay"</option>
                    <option value="to-view">"⇢ to the App's view"</option>
                    <option value="from-view">"⇠ from the App's view"</option>
                </select>
                <select class="input compact" data-testid="timeline-filter-kind" aria-label="Kind"
                    on:change=move |ev| kind.set(RowKind::parse(&event_target_value(&ev)))>
                    <option value="">"all kinds"</option>
                    <option value="request">"requests"</option>
                    <option value="response">"responses"</option>
                    <option value="error">"errors"</option>
                    <option value="notification">"notifications"</option>
                    <option value="event">"relay events"</option>
                </select>
                <label class="chip auth-filter" class:active=move || auth_only.get() title="Only the sign-in (OAuth) rows">
                    <input type="checkbox" data-testid="timeline-auth-filter"
                        prop:checked=move || auth_only.get() on:change=move |ev| auth_only.set(event_target_checked(&ev)) />
                    "auth"
                </label>
            </div>
            <div class="timeline-box" class:hidden=move || flow.get()>
            <div class="timeline" data-testid="timeline" role="list" node_ref=scroller on:scroll=on_scroll
                on:click=move |ev| super::copy_call::from_row(store, &ev)>
                <div class="timeline-space" style=move || format!("height: {}px", total.get() as f64 * ROW_H)>
                    // A row is drawn once, without reactive parts, and kept while it stays the
                    // same (slot, row, partner, selection): new rows cost their own drawing,
                    // and thousands of rows come and go cheaply.
                    <For each=rows_in_view key=|r| (r.slot, r.seq, r.partner, r.selected, r.highlighted) let:r>
                        {store.row_view(r.seq).map(|row| view! {
                            <TimelineRow row top=r.slot as f64 * ROW_H selected=r.selected highlighted=r.highlighted http=http.get() />
                        })}
                    </For>
                </div>
            </div>
            <Show when=move || { !follow.get() && unseen() > 0 }>
                <button class="new-rows" data-testid="timeline-new-rows" on:click=to_bottom
                    title="Back to the newest messages">{move || format!("{} new ↓", unseen())}</button>
            </Show>
            </div>
            {move || detail().map(|(text, mark)| view! {
                <div class="timeline-detail-wrap">
                    <div class="panel-head"><h3>"Message"</h3>
                        <button class="button small ghost" on:click=move |_| store.selected_row.set(None)>"Close"</button>
                    </div>
                    {mark.map(|(revision, mark)| view! { <SchemaNote revision mark /> })}
                    {store.selected_row.get_untracked().and_then(|seq| store.auth_exchange(seq)).map(|x| view! { <ExchangeDetail x /> })}
                    <pre class="code" data-testid="timeline-detail">{text}</pre>
                </div>
            })}
        </section>
    }
}

/// One HTTP exchange of the sign-in, as text: what was asked of whom, and what came back
/// (the relay masked tokens, codes and secrets before sending it).
#[component]
fn ExchangeDetail(x: shared::relay::AuthExchange) -> impl IntoView {
    let status = x.status.map_or_else(|| "no answer".to_owned(), |s| s.to_string());
    let ok = x.status.is_some_and(|s| (200..400).contains(&s));
    view! {
        <div class="auth-exchange" data-testid="auth-exchange-detail">
            <dl class="facts">
                <dt>"Step"</dt><dd>{x.step}</dd>
                <dt>"Request"</dt><dd class="mono">{x.method} " " {x.url}</dd>
                <dt>"Status"</dt><dd class="mono" class:ok=ok class:bad=!ok>{status} " · " {x.ms} " ms"</dd>
            </dl>
            {(!x.request.is_empty()).then(|| view! { <h4>"Request body"</h4><pre class="code">{x.request}</pre> })}
            {(!x.response.is_empty()).then(|| view! { <h4>"Response"</h4><pre class="code">{pretty_json(x.response)}</pre> })}
        </div>
    }
}

/// JSON laid out for reading; any other text as it is.
fn pretty_json(text: String) -> String {
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or(text)
}

/// What the schema check says of the open message: that it matches its revision's schema,
/// the first rule it breaks and where, or why it was not checked.
#[component]
fn SchemaNote(revision: Option<Revision>, mark: Mark) -> impl IntoView {
    let schema = revision.map_or_else(|| "the schema".to_owned(), |r| format!("the {r} schema"));
    let (state, text) = match mark {
        Ok(Verdict::Valid) => (Some("valid"), format!("Matches {schema}.")),
        Ok(Verdict::Invalid { pointer, rule }) => {
            let at = if pointer.is_empty() { "the message".to_owned() } else { pointer };
            (Some("invalid"), format!("Breaks {schema} at {at}: {rule}"))
        }
        Err(why) => (None, format!("Not checked against the protocol schema: {why}.")),
    };
    view! { <p class="schema-note" data-testid="timeline-schema" data-schema=state>{text}</p> }
}

/// The row's quiet mark: nothing for a valid message, a small sign for one that breaks the
/// schema, with the pointer and the rule on hover.
fn schema_sign(verdict: Option<&Verdict>) -> Option<impl IntoView + use<>> {
    let Some(Verdict::Invalid { pointer, rule }) = verdict else { return None };
    let at = if pointer.is_empty() { "/" } else { pointer.as_str() };
    let title = format!("Breaks the protocol schema at {at}: {rule}");
    Some(view! { <span class="t-schema" title=title.clone() aria-label=title>"!"</span> })
}

/// A row's kind in its badge, short enough for a narrow column (the whole word is its tooltip).
fn short_kind(kind: &str) -> &str {
    match kind {
        "request" => "req",
        "response" => "res",
        "notification" => "notif",
        other => other,
    }
}

#[component]
fn TimelineRow(row: RowView, top: f64, selected: bool, highlighted: bool, http: bool) -> impl IntoView {
    let store = expect_context::<Store>();
    let seq = row.seq;
    let time = clock::elapsed(row.rel_ms);
    // The zone's offset at that moment, not today's: a recording may cross a clock change.
    let offset = -(js_sys::Date::new(&row.at_ms.into()).get_timezone_offset() as i32);
    let at = clock::wall_clock(row.at_ms, offset);
    let took = row.duration_ms.map(clock::took);
    let took_exact = row.duration_ms.map(|d| format!("took {d:.1} ms"));
    let id_label = row.id.as_ref().map(|i| format!("#{i}"));
    // A call of a tool (its request or its answer, not an App view's lane) can be copied.
    let copyable = row.method == "tools/call"
        && matches!(row.kind, "request" | "response")
        && matches!(row.direction, "out" | "in");
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            store.selected_row.set(Some(seq));
        }
    };
    view! {
        <div class="timeline-row" data-testid="timeline-row" tabindex="0" role="listitem" style=format!("top: {top}px")
            data-direction=row.direction data-lane=row.direction.ends_with("view").then_some("app") data-kind=row.kind data-method=row.method.clone() data-id=row.id.clone()
            data-seq=seq data-schema=row.schema.as_ref().map(Verdict::as_str) class:selected=selected class:partner=highlighted
            data-auth=row.auth.map(AuthRow::as_str) class:auth-row=row.auth.is_some()
            on:click=move |_| store.selected_row.set(Some(seq)) on:keydown=on_key>
            <span class="t-time mono" title=at>{time}</span>
            <span class=format!("t-dir dir-{}", row.direction)>{arrow(row.direction)}</span>
            <span class="t-method mono" title=row.label()>{row.label()}</span>
            <span class="t-schema-slot">{schema_sign(row.schema.as_ref())}</span>
            // A refused `server/discover` that `initialize` followed is how a 2025 server is
            // reached: said quietly, not as a red error.
            <span class=format!("t-kind kind-{}", if row.fell_back { "fell-back" } else { row.kind }) title=row.kind>
                {if row.fell_back { "fell back" } else { short_kind(row.kind) }}
            </span>
            <span class="t-id mono">{id_label}</span>
            <span class="t-took mono" title=took_exact>{took}</span>
            {copyable.then(|| super::copy_call::buttons(http, true))}
        </div>
    }
}

lazy_view!(
    /// [`LogPanel`], in a chunk of its own loaded on first use.
    log_panel() => view! { <LogPanel /> }.into_any()
);

/// The server's `notifications/message` lines, with their level.
#[component]
pub fn LogPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let count = move || {
        store.calls.logs_changed.track();
        store.with_session(|s| s.logs().len())
    };
    let logging = move || store.server.with(|s| s.as_ref().is_some_and(|s| s.has("logging")));
    let floor = store.catalog.log_floor;
    let shown = move || {
        let floor = floor.get();
        store.calls.logs_changed.track();
        // Read from the newest back: a flood of lines costs the lines shown, not the log.
        store.with_session(|s| {
            let mut kept: Vec<_> = s
                .logs()
                .iter()
                .rev()
                .filter(|line| severity(&line.level) >= floor)
                .take(LOG_LINES_SHOWN)
                .cloned()
                .collect();
            kept.reverse();
            kept
        })
    };
    let level = move || store.catalog.data.with(|c| c.log_level.clone());
    view! {
        <Show when=move || { count() > 0 || logging() }>
            <section class="panel log-panel">
                <div class="panel-head">
                    <h2 class="panel-title">"Server log " <span class="count">{count}</span></h2>
                    <label class="small muted" title="Show lines of this level and above">"Show "
                        <select class="select small" data-testid="log-filter" on:change=move |ev| floor.set(event_target_value(&ev).parse().unwrap_or(0))>
                            {LOG_LEVELS.iter().enumerate().map(|(i, l)| view! { <option value=i.to_string() selected=move || floor.get() == i>{format!("{l}+")}</option> }).collect_view()}
                        </select>
                    </label>
                    <Show when=logging>
                        <label class="small muted" title="logging/setLevel: the least severe level the server sends">"Server sends "
                            <select class="select small" data-testid="log-level"
                                prop:disabled=move || store.conn.get() != crate::store::ConnState::Connected || store.in_playback()
                                on:change=move |ev| store.set_log_level(event_target_value(&ev))>
                                <option value="" disabled=true selected=move || level().is_none()>"—"</option>
                                {LOG_LEVELS.iter().map(|l| view! { <option value=*l selected=move || level().is_some_and(|x| x.level == *l)>{*l}</option> }).collect_view()}
                            </select>
                        </label>
                        {move || match level().map(|l| l.state) {
                            Some(Got::Failed(e)) => Some(view! { <span class="error-text small" title=e.clone()>"refused"</span> }),
                            _ => None,
                        }}
                    </Show>
                    <button class="button small ghost" on:click=move |_| store.clear_logs()>"Clear"</button>
                </div>
                <div class="log-lines mono" data-testid="log-view">
                    // The newest lines; the full log stays in the store (and the timeline).
                    <For each=shown key=|l| l.seq let:line>
                        <div class="log-line" data-testid="log-line" data-level=line.level.clone()>
                            <span class=format!("level level-{}", line.level)>{line.level.clone()}</span>
                            {line.logger.map(|l| view! { <span class="muted">{format!("[{l}]")}</span> })}
                            " " {line.text}
                        </div>
                    </For>
                </div>
            </section>
        </Show>
    }
}
