//! The top bar: product name, the server in use and the theme switch.

use leptos::prelude::*;

use crate::store::Store;
use crate::theme::ThemeToggle;

#[component]
pub fn Header() -> impl IntoView {
    let store = expect_context::<Store>();
    // A recording is not a connection: the pill says what plays, whatever its session says.
    let playing = move || store.playback.with(|p| p.as_ref().map(|p| p.name.clone()));
    let state = move || if store.in_playback() { "playback" } else { store.conn.with(|c| c.as_str()) };
    view! {
        <header class="topbar">
            <div class="brand">
                <svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" /><path d="M8 22V10l8 7 8-7v12" /></svg>
                <span class="brand-name">"MCP Playground"</span>
            </div>
            <div class="topbar-status">
                <span class="pill" data-testid="status-pill" data-state=state>
                    <span class="dot"></span>
                    {move || if let Some(name) = playing() { format!("Playing back {name}") } else { store.server.with(|s| match s {
                        Some(s) => format!("{} {}", s.title.clone().unwrap_or_else(|| s.name.clone()), s.version),
                        None => match store.conn.get() {
                            crate::store::ConnState::Connecting => "Connecting…".to_owned(),
                            crate::store::ConnState::Error(_) => "Connection failed".to_owned(),
                            _ => "Not connected".to_owned(),
                        },
                    }) }}
                </span>
            </div>
            <super::recording::RecordControls />
            <super::confirm::PolicySelect />
            <ThemeToggle />
        </header>
    }
}
