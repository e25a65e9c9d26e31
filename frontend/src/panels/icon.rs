//! An item's icon (a tool, a resource, a prompt): the one of the theme shown, of the size
//! nearest above `size`; a `data:` image as it is, an `http(s)` one as the relay fetched it
//! (`data-src-kind` says which). Always an `<img>`: an SVG never becomes part of the page.
//! A played recording shows only the icons it holds.

use leptos::prelude::*;
use shared::mcp::catalog::Icon;

use crate::store::{Fetched, Store};

#[component]
pub fn ItemIcon(
    icons: Vec<Icon>,
    /// The icon's test id (`tool-icon`), when it has one.
    #[prop(optional)]
    test_id: Option<&'static str>,
    #[prop(default = 16)] size: u32,
) -> impl IntoView {
    let store = expect_context::<Store>();
    let live = !store.in_playback() && !store.offline();
    let icon = Icon::pick(&icons, crate::theme::is_dark(), size, live).cloned()?;
    let px = size.to_string();
    if icon.is_data() {
        return Some(
            view! { <img class="item-icon" data-testid=test_id data-src-kind="data" src=icon.src alt="" width=px.clone() height=px /> }
                .into_any(),
        );
    }
    let fetched = store.fetched_icon(&icon.src);
    Some(
        (move || match fetched.get() {
            Fetched::Ready(url) => Some(view! {
                <img class="item-icon" data-testid=test_id data-src-kind="relay" src=url alt="" width=px.clone() height=px.clone() />
            }),
            Fetched::Waiting | Fetched::Failed(_) => None,
        })
        .into_any(),
    )
}
