//! Things a person should know that are not the result of a call: limits hit, invalid
//! lines from the server, tool-list refreshes. Dismissible.

use leptos::prelude::*;

use crate::store::Store;

#[component]
pub fn Notices() -> impl IntoView {
    let store = expect_context::<Store>();
    let any = move || store.notices.with(|n| !n.is_empty());
    view! {
        <Show when=any>
            <div class="notices" data-testid="notices" role="status">
                <ul>
                    {move || store.notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                </ul>
                <button class="button small ghost" on:click=move |_| store.clear_notices()>"Dismiss"</button>
            </div>
        </Show>
    }
}
