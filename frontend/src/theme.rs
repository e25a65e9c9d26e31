//! Light and dark themes: follow the system until a person picks one, then remember it.

use leptos::prelude::*;

const KEY: &str = "mcp-playground.theme";

fn root() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// Applies the remembered theme, if any.
pub fn init() {
    if let (Some(root), Some(theme)) = (root(), crate::storage::local().and_then(|s| s.get_item(KEY).ok().flatten())) {
        let _ = root.set_attribute("data-theme", &theme);
    }
}

/// Whether the page is dark now.
pub fn is_dark() -> bool {
    if let Some(t) = root().and_then(|r| r.get_attribute("data-theme")) {
        return t == "dark";
    }
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// A button that switches between light and dark.
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let dark = RwSignal::new(is_dark());
    let toggle = move |_| {
        let next = if dark.get_untracked() { "light" } else { "dark" };
        if let Some(root) = root() {
            let _ = root.set_attribute("data-theme", next);
        }
        if let Some(s) = crate::storage::local() {
            let _ = s.set_item(KEY, next);
        }
        dark.set(next == "dark");
        // An App's view follows the page's look.
        if let Some(store) = use_context::<crate::store::Store>() {
            store.view_theme(next == "dark");
        }
    };
    view! {
        <button class="icon-button" data-testid="theme-toggle" on:click=toggle
            title=move || if dark.get() { "Switch to light theme" } else { "Switch to dark theme" }
            aria-label="Toggle dark mode">
            {move || if dark.get() { "☀" } else { "☾" }}
        </button>
    }
}
