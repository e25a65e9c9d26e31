//! Saved servers: every server connected to, and those imported from an `mcpServers` JSON
//! (Claude Desktop, Cursor, the official inspector), newest first; pick one to fill the
//! connection form, rename or forget it; the servers of the relay's `--config` file are
//! offered beside them. Bad JSON gets a precise error (which server, which key) and is
//! kept; a broken entry is left out with a notice, and the rest is imported.

use leptos::prelude::*;
use shared::saved::{self, SavedServer};

use crate::store::{ConnState, Store};

/// Marks an option of the relay's `--config` file in the list of saved servers.
const OFFERED: &str = "config:";

#[component]
pub fn SavedServers() -> impl IntoView {
    let store = expect_context::<Store>();
    let servers = store.saved.list;
    // The select shows the saved server the form is on, whoever filled it.
    let chosen = RwSignal::new(String::new());
    Effect::new(move |_| {
        if let Some(name) = store.saved.current.get() {
            chosen.set(name);
        }
    });
    let importing = RwSignal::new(false);
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let busy = move || store.in_playback() || matches!(store.conn.get(), ConnState::Connecting | ConnState::Connected);
    // A broken entry of the relay's file fails when it is picked, with its reason.
    let picked_error = RwSignal::new(None::<String>);
    let pick = move |value: String| {
        chosen.set(value.clone());
        picked_error.set(None);
        let target = match value.strip_prefix(OFFERED) {
            Some(name) => store.offered.with_untracked(|o| {
                o.iter().find(|s| s.name == name).map(|s| s.target.clone().map(|t| (t, s.protocol, s.oauth.clone())))
            }),
            None => {
                if servers.with_untracked(|s| saved::find(s, &value).is_some()) {
                    store.pick_saved(&value, false);
                }
                return;
            }
        };
        store.saved.current.set(None);
        match target {
            Some(Ok((t, protocol, oauth))) => {
                store.apply_target(&t);
                store.protocol.set(protocol);
                store.apply_oauth(&oauth);
            }
            Some(Err(why)) => picked_error.set(Some(format!("{}: {why}", value.trim_start_matches(OFFERED)))),
            None => {}
        }
    };
    let import = move |_| match saved::import(&text.get_untracked()) {
        Ok(found) => {
            let count = found.servers.len();
            store.import_servers(found.servers);
            error.set(None);
            text.set(String::new());
            importing.set(false);
            store.notice(format!("imported {count} server{}", if count == 1 { "" } else { "s" }));
            for p in found.problems {
                store.notice(p);
            }
        }
        Err(e) => error.set(Some(e.to_string())),
    };
    let remove = move |_| {
        store.forget_saved(&chosen.get_untracked());
        chosen.set(String::new());
    };
    // Renaming: the name being typed, and why it cannot be taken.
    let renaming = RwSignal::new(None::<String>);
    let rename_error = RwSignal::new(None::<String>);
    let finish_rename = move || {
        let Some(to) = renaming.get_untracked() else { return };
        match store.rename_saved(&chosen.get_untracked(), &to) {
            Ok(()) => {
                renaming.set(None);
                rename_error.set(None);
            }
            Err(e) => rename_error.set(Some(e.to_string())),
        }
    };
    let on_rename_key = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "Enter" => finish_rename(),
        "Escape" => {
            ev.stop_propagation();
            renaming.set(None);
            rename_error.set(None);
        }
        _ => {}
    };
    view! {
        <div class="saved">
            <div class="saved-row">
                <select class="input" data-testid="saved-servers" aria-label="Saved servers" prop:disabled=busy
                    prop:value=move || chosen.get()
                    on:change=move |ev| pick(event_target_value(&ev))>
                    <option value="">{move || {
                        let none = servers.with(Vec::is_empty) && store.offered.with(Vec::is_empty);
                        if none { "No saved servers" } else { "Saved servers…" }
                    }}</option>
                    {move || (!store.offered.with(Vec::is_empty)).then(|| view! {
                        <optgroup label="From the relay's --config">
                            {store.offered.get().into_iter().map(|s| {
                                let label = match &s.target {
                                    Ok(t) => format!("{} ({})", s.name, t.transport()),
                                    Err(_) => format!("{} (broken)", s.name),
                                };
                                view! { <option value=format!("{OFFERED}{}", s.name)>{label}</option> }
                            }).collect_view()}
                        </optgroup>
                    })}
                    {move || servers.get().into_iter().rev().map(|SavedServer { name, target: t, protocol, .. }| {
                        let label = match protocol {
                            shared::revision::ProtocolChoice::Auto => format!("{name} ({})", t.transport()),
                            pinned => format!("{name} ({}, {})", t.transport(), pinned.as_str()),
                        };
                        view! { <option value=name>{label}</option> }
                    }).collect_view()}
                </select>
                <button class="button small ghost" data-testid="server-import-toggle" title="Paste an mcpServers JSON"
                    on:click=move |_| importing.update(|i| *i = !*i)>"Import"</button>
                <Show when=move || { let c = chosen.get(); !c.is_empty() && !c.starts_with(OFFERED) && !busy() }>
                    <button class="button small ghost" data-testid="saved-server-rename-toggle" title="Rename this saved server"
                        on:click=move |_| renaming.set(Some(chosen.get_untracked()))>"Rename"</button>
                    <button class="button small ghost" data-testid="saved-server-forget" title="Forget this saved server (and any secrets the relay keeps for it)"
                        on:click=remove>"Forget"</button>
                </Show>
            </div>
            {move || renaming.get().map(|name| view! {
                <div class="saved-rename">
                    <input class="input" data-testid="saved-server-rename" aria-label="New name" value=name autofocus=true
                        on:input=move |ev| renaming.set(Some(event_target_value(&ev))) on:keydown=on_rename_key />
                    <button class="button small" on:click=move |_| finish_rename()>"Save"</button>
                </div>
            })}
            {move || rename_error.get().map(|e| view! { <p class="error-text" data-testid="saved-server-rename-error">{e}</p> })}
            {move || picked_error.get().map(|e| view! { <p class="error-text" data-testid="saved-server-error">{e}</p> })}
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
