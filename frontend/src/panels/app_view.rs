//! An App's view: its frame on the sandbox origin (kept while the view lives, whatever else
//! changes), inline, fullscreen over the page or picture-in-picture; why it cannot be shown;
//! its log; what it would tell the model; and the dialog for a link it asks to open.

use leptos::prelude::*;
use shared::apps::DisplayMode;

use crate::store::{FRAME_ID, Store};

lazy_view!(
    /// [`AppViewPanel`], in a chunk of its own loaded on first use.
    app_view_panel() => view! { <AppViewPanel /> }.into_any()
);

#[component]
pub fn AppViewPanel() -> impl IntoView {
    let store = expect_context::<Store>();
    let view = store.apps.view;
    let shown = move || view.with(Option::is_some);
    let get =
        move |f: fn(&crate::store::AppView) -> String| move || view.with(|v| v.as_ref().map(f).unwrap_or_default());
    let mode = move || view.with(|v| v.as_ref().map_or(DisplayMode::Inline, |v| v.mode));
    // The frame is made once per view: its address and features, nothing that changes later.
    let frame =
        Memo::new(move |_| view.with(|v| v.as_ref().and_then(|v| Some((v.serial, v.src.clone()?, v.allow.clone())))));
    let height = move || view.with(|v| v.as_ref().map_or(240, |v| v.height));
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Escape" && mode() != DisplayMode::Inline {
            ev.stop_propagation();
            store.set_view_mode(DisplayMode::Inline);
        }
    };
    view! {
        <Show when=shown>
            <section class="panel app-view" data-testid="app-view" data-state=get(|v| v.state.to_owned())
                data-display-mode=move || mode().as_str() data-resource-uri=get(|v| v.uri.clone())
                class:fullscreen=move || mode() == DisplayMode::Fullscreen class:pip=move || mode() == DisplayMode::Pip
                class:borderless=move || view.with(|v| v.as_ref().and_then(|v| v.prefers_border) == Some(false))
                // Another tool picked: its own result shows, this view waits out of sight.
                class:hidden=move || view.with(|v| v.as_ref().map(|v| v.tool.clone())) != store.selected.get()
                on:keydown=on_key>
                <div class="panel-head app-head">
                    <h2 class="panel-title">"App " <span class="mono app-tool">{get(|v| v.tool.clone())}</span></h2>
                    <span class="hint small app-state">{move || match get(|v| v.state.to_owned())().as_str() {
                        "loading" => "loading…",
                        "closed" => "closing",
                        _ => "",
                    }}</span>
                    <div class="segmented" role="group" aria-label="How the view is shown">
                        {DisplayMode::ALL.map(|m| view! {
                            <button class="seg" data-label=mode_label(m) aria-label=mode_label(m)
                                class:active=move || mode() == m on:click=move |_| store.set_view_mode(m)></button>
                        }).collect_view()}
                    </div>
                    <Show when=move || mode() != DisplayMode::Inline>
                        <button class="button small" data-testid="app-exit-fullscreen" title="Back into the page (Esc)"
                            on:click=move |_| store.set_view_mode(DisplayMode::Inline)>"Exit"</button>
                    </Show>
                </div>
                {move || view.with(|v| v.as_ref().and_then(|v| v.error.clone())).map(|e| view! {
                    <p class="error-text app-error" data-testid="app-error" role="alert">{e}</p>
                })}
                {move || frame.get().map(|(serial, src, allow)| view! {
                    <iframe id=FRAME_ID class="app-frame" data-testid="app-frame" data-serial=serial
                        src=src sandbox="allow-scripts allow-same-origin" allow=allow title="App view"
                        referrerpolicy="no-referrer"
                        style=move || format!("height: {}px", height())></iframe>
                })}
                {move || {
                    let granted = view.with(|v| v.as_ref().map(|v| v.granted.clone()).unwrap_or_default());
                    (!granted.is_empty()).then(|| view! {
                        <p class="hint small">"Granted to this view, as it asked: " {granted.join(", ")}</p>
                    })
                }}
                <AppLog />
            </section>
        </Show>
        <OpenLinkDialog />
    }
}

fn mode_label(m: DisplayMode) -> &'static str {
    match m {
        DisplayMode::Inline => "Inline",
        DisplayMode::Fullscreen => "Fullscreen",
        DisplayMode::Pip => "Picture in picture",
    }
}

/// The view's log and what it would tell the model (there is no model here).
#[component]
fn AppLog() -> impl IntoView {
    let store = expect_context::<Store>();
    let log = store.apps.log;
    let said = store.apps.for_model;
    view! {
        <details class="app-extra" data-testid="app-log">
            <summary>"View log " <span class="count">{move || log.with(Vec::len)}</span></summary>
            <div class="app-lines mono">
                <For each=move || log.get().into_iter().enumerate() key=|(i, _)| *i let:line>
                    <div class=format!("app-line level-{}", line.1.0)>{line.1.1}</div>
                </For>
            </div>
        </details>
        <details class="app-extra" data-testid="app-model-messages" prop:open=move || said.with(|s| !s.is_empty())>
            <summary>"What the App would tell the model " <span class="count">{move || said.with(Vec::len)}</span></summary>
            <For each=move || said.get().into_iter().enumerate() key=|(i, _)| *i let:item>
                <div class="app-said"><span class="mono small">{item.1.0}</span><pre class="code">{item.1.1}</pre></div>
            </For>
        </details>
    }
}

/// A link the view asks to open: shown as text; opened in a new tab only on the person's yes.
#[component]
fn OpenLinkDialog() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        store.apps.link.get().map(|(_, url)| {
            let dialog = NodeRef::new();
            let on_key = super::modal::own_keyboard(dialog, "[data-testid=app-open-link-cancel]", move || {
                store.view_link_answered(false)
            });
            view! {
                <div class="modal-backdrop" on:keydown=on_key>
                    <div class="modal" role="dialog" aria-modal="true" aria-labelledby="link-title" data-testid="app-open-link"
                        node_ref=dialog>
                        <h2 id="link-title">"The App asks to open a link"</h2>
                        <p class="hint">"It opens in a new tab, with no way back to this page."</p>
                        <pre class="code link-url">{url}</pre>
                        <div class="actions">
                            <button class="button" data-testid="app-open-link-cancel" on:click=move |_| store.view_link_answered(false)>"Cancel"</button>
                            <button class="button primary" data-testid="app-open-link-accept" on:click=move |_| store.view_link_answered(true)>"Open link"</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
