//! The confirmation dialog: before a call the policy asks about, show the tool, its hints
//! (with the spec's defaults where the server said nothing) and the exact arguments that
//! will be sent. Cancel sends nothing. The policy lives in the top bar and persists.

use leptos::prelude::*;
use shared::calls::{ConfirmPolicy, Hints};

use super::json::pretty;
use crate::store::Store;

/// The `confirm-policy` select.
#[component]
pub fn PolicySelect() -> impl IntoView {
    let store = expect_context::<Store>();
    view! {
        <label class="policy">
            <span class="hint small wide-only">"Confirm calls"</span>
            <select class="input compact" data-testid="confirm-policy" aria-label="Confirm calls" title="Confirm calls"
                prop:value=move || store.calls.policy.get().as_str()
                on:change=move |ev| {
                    if let Some(p) = ConfirmPolicy::parse(&event_target_value(&ev)) {
                        store.calls.set_policy(p);
                    }
                }>
                <option value="unsafe">"unless read-only"</option>
                <option value="always">"always"</option>
                <option value="never">"never"</option>
            </select>
        </label>
    }
}

#[component]
pub fn ConfirmDialog() -> impl IntoView {
    let store = expect_context::<Store>();
    move || {
        store.calls.confirm.get().map(|c| {
            let hints = Hints::of(c.tool.annotations.as_ref());
            let badges = hints
                .labels()
                .into_iter()
                .map(|(label, stated)| {
                    let class = format!("badge badge-{label}");
                    let title = if stated { "stated by the server" } else { "the spec's default: the server said nothing" };
                    view! { <span class=class title=title>{label}{(!stated).then_some(" (default)")}</span> }
                })
                .collect_view();
            let args = pretty(&c.arguments);
            // A tool that may destroy starts on Cancel: an Enter meant for elsewhere sends nothing.
            let first = if hints.destructive { "[data-testid=confirm-cancel]" } else { "[data-testid=confirm-accept]" };
            let dialog = NodeRef::new();
            let on_key = super::modal::own_keyboard(dialog, first, move || store.confirm_cancel());
            view! {
                <div class="modal-backdrop" on:keydown=on_key>
                    <div class="modal" role="dialog" aria-modal="true" aria-labelledby="confirm-title" data-testid="confirm-dialog"
                        data-tool-name=c.tool.name.clone() node_ref=dialog>
                        <h2 id="confirm-title">{if c.for_view.is_some() { "The App's view asks to call " } else { "Call " }}
                            <span class="mono">{c.tool.name.clone()}</span> "?"</h2>
                        <p class="hint">{c.tool.display_name().to_owned()}</p>
                        <div class="badges">{badges}</div>
                        <p class="hint small">"These hints come from the server, which is not trusted: a tool may do more than it says."</p>
                        <div class="field-label">"Arguments that will be sent"</div>
                        <pre class="code" data-testid="confirm-arguments">{args}</pre>
                        <div class="actions">
                            <button class="button" data-testid="confirm-cancel" on:click=move |_| store.confirm_cancel()>"Cancel"</button>
                            <button class="button primary" data-testid="confirm-accept"
                                on:click=move |_| store.confirm_accept()>"Call tool"</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
