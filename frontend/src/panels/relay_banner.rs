//! A banner when the page cannot reach the relay (not signed in by the printed URL, relay
//! stopped).

use leptos::prelude::*;

use crate::store::Store;
use crate::ws::SocketState;

#[component]
pub fn RelayBanner() -> impl IntoView {
    let store = expect_context::<Store>();
    move || match store.relay.get() {
        SocketState::Lost(reason) => Some(view! {
            <div class="banner banner-error" role="alert" data-testid="relay-status" data-state="lost">
                <strong>"Relay unreachable. "</strong>{reason}
                <button class="button small" on:click=move |_| store.start()>"Retry"</button>
            </div>
        }),
        _ => None,
    }
}
