//! The message timeline: every message both ways and every relay event, in order, with
//! time since the session began, paired requests and responses, and a detail view.

use leptos::prelude::*;

use crate::store::{RowView, Store};

fn arrow(direction: &str) -> &'static str {
    match direction {
        "out" => "→",
        "in" => "←",
        _ => "•",
    }
}

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let filter = RwSignal::new(String::new());
    let visible = move || {
        let needle = filter.get().trim().to_lowercase();
        store.rows.with(|rows| {
            rows.iter()
                .filter(|r| {
                    needle.is_empty()
                        || r.method.to_lowercase().contains(&needle)
                        || r.kind == needle
                        || r.direction == needle
                        || r.id.as_deref() == Some(needle.as_str())
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    let detail = move || store.selected_row.get().and_then(|seq| store.row_detail(seq));
    view! {
        <section class="panel timeline-panel">
            <div class="panel-head">
                <h2 class="panel-title">"Timeline " <span class="count">{move || store.rows.with(Vec::len)}</span></h2>
            </div>
            <input class="input" type="search" data-testid="timeline-filter" placeholder="Filter by method, id, in/out, kind"
                prop:value=move || filter.get() on:input=move |ev| filter.set(event_target_value(&ev)) />
            <ol class="timeline" data-testid="timeline">
                <For each=visible key=|r| (r.seq, r.partner) let:row>
                    <TimelineRow row />
                </For>
            </ol>
            {move || detail().map(|text| view! {
                <div class="timeline-detail-wrap">
                    <div class="panel-head"><h3>"Message"</h3>
                        <button class="button small ghost" on:click=move |_| store.selected_row.set(None)>"Close"</button>
                    </div>
                    <pre class="code" data-testid="timeline-detail">{text}</pre>
                </div>
            })}
        </section>
    }
}

#[component]
fn TimelineRow(row: RowView) -> impl IntoView {
    let store = expect_context::<Store>();
    let seq = row.seq;
    let partner = row.partner;
    let selected = move || store.selected_row.get() == Some(seq);
    let highlighted = move || partner.is_some() && store.selected_row.get() == partner;
    let time = format!("{:.0} ms", row.rel_ms);
    let id = row.id.clone();
    let took = row.duration_ms.map(|d| format!("{d:.0} ms"));
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            store.selected_row.set(Some(seq));
        }
    };
    view! {
        <li class="timeline-row" data-testid="timeline-row" tabindex="0"
            data-direction=row.direction data-kind=row.kind data-method=row.method.clone() data-id=id.clone()
            class:selected=selected class:partner=highlighted
            on:click=move |_| store.selected_row.set(Some(seq)) on:keydown=on_key>
            <span class="t-time mono">{time}</span>
            <span class=format!("t-dir dir-{}", row.direction)>{arrow(row.direction)}</span>
            <span class="t-method mono">{row.method.clone()}</span>
            <span class=format!("t-kind kind-{}", row.kind)>{row.kind}</span>
            <span class="t-id mono">{row.id.map(|i| format!("#{i}"))}</span>
            <span class="t-took mono">{took}</span>
        </li>
    }
}
