//! Saved servers: paste an `mcpServers` JSON (Claude Desktop, Cursor, the official
//! inspector) to import servers, keep them in browser storage, pick one to fill the
//! connection form. Bad JSON gets a precise error (which server, which key) and is kept.

use leptos::prelude::*;
use shared::relay::Target;
use shared::saved;

use crate::store::{ConnState, Store};

const KEY: &str = "mcp-playground.servers.v1";

fn load() -> Vec<(String, Target)> {
    crate::storage::local().and_then(|s| s.get_item(KEY).ok().flatten()).map(|t| saved::read(&t)).unwrap_or_default()
}

fn save(list: &[(String, Target)]) {
    if let (Some(s), Ok(text)) = (crate::storage::local(), saved::write(list)) {
        let _ = s.set_item(KEY, &text);
    }
}

#[component]
pub fn SavedServers() -> impl IntoView {
    let store = expect_context::<Store>();
    let servers = RwSignal::new(load());
    let chosen = RwSignal::new(String::new());
    let importing = RwSignal::new(false);
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = move || matches!(store.conn.get(), ConnState::Connecting | ConnState::Connected);
    let pick = move |name: String| {
        chosen.set(name.clone());
        if let Some(t) = servers.with_untracked(|s| saved::find(s, &name).cloned()) {
            store.apply_target(&t);
        }
    };
    let import = move |_| match shared::config::parse(&text.get_untracked()) {
        Ok(found) => {
            let count = found.len();
            servers.update(|list| saved::merge(list, found));
            servers.with_untracked(|l| save(l));
            error.set(None);
            text.set(String::new());
            importing.set(false);
            store.notice(format!("imported {count} server{}", if count == 1 { "" } else { "s" }));
        }
        Err(e) => error.set(Some(e.to_string())),
    };
    let remove = move |_| {
        let name = chosen.get_untracked();
        servers.update(|l| saved::forget(l, &name));
        servers.with_untracked(|l| save(l));
        chosen.set(String::new());
    };
    view! {
        <div class="saved">
            <div class="saved-row">
                <select class="input" data-testid="saved-servers" aria-label="Saved servers" prop:disabled=busy
                    prop:value=move || chosen.get()
                    on:change=move |ev| pick(event_target_value(&ev))>
                    <option value="">{move || if servers.with(Vec::is_empty) { "No saved servers" } else { "Saved servers…" }}</option>
                    {move || servers.get().into_iter().map(|(name, t)| {
                        let label = format!("{name} ({})", t.transport());
                        view! { <option value=name>{label}</option> }
                    }).collect_view()}
                </select>
                <button class="button small ghost" data-testid="server-import-toggle" title="Paste an mcpServers JSON"
                    on:click=move |_| importing.update(|i| *i = !*i)>"Import"</button>
                <Show when=move || !chosen.get().is_empty()>
                    <button class="button small ghost" title="Forget this saved server" on:click=remove>"Forget"</button>
                </Show>
            </div>
            <Show when=move || importing.get()>
                <textarea class="input mono" data-testid="server-import" rows="5" spellcheck="false"
                    placeholder=r#"{"mcpServers": {"name": {"command": "npx", "args": ["…"]}}}"#
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                {move || error.get().map(|e| view! { <p class="error-text" data-testid="server-import-error">{e}</p> })}
                <button class="button small" data-testid="server-import-button" on:click=import>"Import servers"</button>
            </Show>
        </div>
    }
}
