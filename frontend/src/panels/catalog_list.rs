//! What the resources and prompts lists share: the keys of a list of items (↑/↓, Home/End,
//! Enter), the head with its count and refresh.

use leptos::prelude::*;
use shared::listbox;
use wasm_bindgen::JsCast;

/// The items of the list `list_css` in order.
fn items(list_css: &str) -> Vec<web_sys::HtmlElement> {
    let Ok(found) = document().query_selector_all(&format!("{list_css} [role=option]")) else { return Vec::new() };
    (0..found.length()).filter_map(|i| found.item(i)?.dyn_into::<web_sys::HtmlElement>().ok()).collect()
}

/// The list's keys: ↑/↓ and Home/End move the focus, Enter or Space picks (a click).
pub fn on_list_key(list_css: &'static str, ev: web_sys::KeyboardEvent) {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return;
    }
    let items = items(list_css);
    let focused = document().active_element();
    let current = items.iter().position(|el| focused.as_ref().is_some_and(|f| f.is_same_node(Some(el))));
    let key = ev.key();
    if key == "Enter" || key == " " {
        if let Some(el) = current.and_then(|i| items.get(i)) {
            ev.prevent_default();
            el.click();
        }
        return;
    }
    let Some(i) = listbox::step(&key, current, items.len()) else { return };
    ev.prevent_default();
    if let Some(el) = items.get(i) {
        let _ = el.focus();
        el.scroll_into_view_with_bool(false);
    }
}

/// A list's head: its title, how many are shown of how many, and Refresh.
#[component]
pub fn ListHead(
    title: &'static str,
    #[prop(into)] count: Signal<String>,
    #[prop(into)] loading: Signal<bool>,
    #[prop(into)] disabled: Signal<bool>,
    refresh_title: &'static str,
    on_refresh: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <div class="panel-head">
            <h2 class="panel-title">{title}" "<span class="count">{count}</span></h2>
            <button class="button small ghost" title=refresh_title prop:disabled=disabled on:click=move |_| on_refresh()>
                {move || if loading.get() { "Loading…" } else { "Refresh" }}
            </button>
        </div>
    }
}
