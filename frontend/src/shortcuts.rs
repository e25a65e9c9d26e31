//! The page's keys, unless a field has the keyboard (a dialog keeps its keys to itself):
//! `/` puts the focus in the tool filter; → and ← step through a recording being played,
//! P switches the presenter view on and off (Esc leaves it).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::store::Store;

/// Listens for the page's keys for as long as the tab lives.
pub fn install(store: Store) {
    let handler = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let typing = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if typing {
            return;
        }
        match ev.key().as_str() {
            "/" => {
                let filter = document()
                    .query_selector("[data-testid=tool-filter]")
                    .ok()
                    .flatten()
                    .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
                if let Some(filter) = filter {
                    ev.prevent_default();
                    let _ = filter.focus();
                }
            }
            "ArrowRight" if store.in_playback() => {
                ev.prevent_default();
                store.playback_step();
            }
            "ArrowLeft" if store.in_playback() => {
                ev.prevent_default();
                store.playback_back();
            }
            "p" | "P" if store.in_playback() => {
                ev.prevent_default();
                store.presenter.update(|p| *p = !*p);
            }
            "Escape" if store.presenter.get_untracked() => store.presenter.set(false),
            _ => {}
        }
    });
    // The page lives as long as the tab: the listener too.
    std::mem::forget(handler);
}
