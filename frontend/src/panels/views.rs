//! The three views of one connection (tools, resources, prompts) as tabs, each present
//! only where the server offers it; and the ping with its round trip.

use leptos::prelude::*;
use shared::catalog::Got;
use wasm_bindgen::JsCast;

use crate::store::{ConnState, Store, View};

#[component]
pub fn ViewTabs() -> impl IntoView {
    let store = expect_context::<Store>();
    let offered = move || View::ALL.into_iter().filter(|v| store.offers(*v)).collect::<Vec<_>>();
    // One tab is no choice: the bar shows when there are two or more.
    let shown = move || store.conn.get() == ConnState::Connected && offered().len() > 1;
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let views = offered();
        let current = views.iter().position(|v| *v == store.catalog.view.get_untracked()).unwrap_or(0);
        let next = match ev.key().as_str() {
            "ArrowRight" => (current + 1) % views.len(),
            "ArrowLeft" => (current + views.len() - 1) % views.len(),
            "Home" => 0,
            "End" => views.len() - 1,
            _ => return,
        };
        ev.prevent_default();
        store.open_view(views[next]);
        let css = format!("[data-testid=view-tab][data-view={}]", views[next].as_str());
        if let Some(el) =
            document().query_selector(&css).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    };
    view! {
        <Show when=shown>
            <div class="view-tabs" role="tablist" aria-label="What the server offers" on:keydown=on_key>
                <For each=offered key=|v| v.as_str() let:v>
                    {
                        let selected = move || store.catalog.view.get() == v;
                        view! {
                            <button class="view-tab" role="tab" data-testid="view-tab" data-view=v.as_str()
                                aria-selected=move || selected().to_string()
                                tabindex=move || if selected() { "0" } else { "-1" }
                                class:selected=selected
                                on:click=move |_| store.open_view(v)>
                                {v.label()}
                            </button>
                        }
                    }
                </For>
            </div>
        </Show>
    }
}

/// `ping` and its round trip, in milliseconds.
#[component]
pub fn Ping() -> impl IntoView {
    let store = expect_context::<Store>();
    let result = move || match store.catalog.data.with(|c| c.ping.clone()) {
        None => None,
        Some(Got::Loading) => Some(("…".to_owned(), "Waiting for the answer".to_owned())),
        Some(Got::Done(ms)) => Some((format!("{ms:.0} ms"), "The round trip of the last ping".to_owned())),
        Some(Got::Failed(e)) => Some(("failed".to_owned(), e)),
    };
    // 2026-07-28 has no ping.
    let has_ping =
        move || store.server.with(|s| s.as_ref().and_then(|s| s.negotiated).is_none_or(|n| n.revision.has_ping()));
    view! {
        <Show when=has_ping>
        <span class="ping">
            <button class="button small ghost" data-testid="ping-button" title="Send ping and time the answer"
                prop:disabled=move || store.conn.get() != ConnState::Connected || store.in_playback()
                on:click=move |_| store.ping()>"Ping"</button>
            {move || result().map(|(text, title)| view! { <span class="ping-result muted small" data-testid="ping-result" title=title>{text}</span> })}
        </span>
        </Show>
    }
}
