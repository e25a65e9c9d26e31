//! What every dialog does with the keyboard. On opening it takes the focus (on the element
//! it names: the safe button of a destructive call, the first field of a form); Tab and
//! Shift+Tab go round inside it; Esc is its Cancel; no key reaches the page behind it (a
//! second Enter can no longer type into the field the call came from); on closing, the
//! focus goes back to where it was.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

/// What can take the focus inside a dialog.
const FOCUSABLE: &str = "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), \
                         textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/// Gives the dialog `dialog` the keyboard: focus on `first` (a selector; the first thing
/// that can take the focus when it matches nothing) once it is in the page, and back where
/// it was when it goes. Returns the handler to put on the backdrop's `on:keydown`; `cancel`
/// is what Esc does.
pub fn own_keyboard(
    dialog: NodeRef<Div>,
    first: &'static str,
    cancel: impl Fn() + 'static,
) -> impl Fn(KeyboardEvent) + 'static {
    let before = StoredValue::new_local(document().active_element());
    on_cleanup(move || {
        if let Some(el) = before.get_value().and_then(|e| e.dyn_into::<HtmlElement>().ok())
            && el.is_connected()
        {
            let _ = el.focus();
        }
    });
    dialog.on_load(move |el| {
        request_animation_frame(move || {
            let target = el.query_selector(first).ok().flatten().or_else(|| focusable(&el).into_iter().next());
            if let Some(t) = target.and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
                let _ = t.focus();
            }
        });
    });
    move |ev: KeyboardEvent| {
        // The page behind (its shortcuts, the field the call came from) hears nothing.
        ev.stop_propagation();
        match ev.key().as_str() {
            "Escape" => {
                ev.prevent_default();
                cancel();
            }
            "Tab" => {
                if let Some(el) = dialog.get_untracked() {
                    keep_inside(&el, &ev);
                }
            }
            _ => {}
        }
    }
}

/// Tab from the last element goes to the first, Shift+Tab from the first to the last, and
/// a focus that strayed outside comes back in.
fn keep_inside(dialog: &Element, ev: &KeyboardEvent) {
    let all = focusable(dialog);
    let (Some(first), Some(last)) = (all.first(), all.last()) else {
        ev.prevent_default();
        return;
    };
    let active = document().active_element();
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    let at = |e: &Element| active.as_ref() == Some(e);
    let target = match (ev.shift_key(), inside) {
        (_, false) => Some(first),
        (true, true) if at(first) => Some(last),
        (false, true) if at(last) => Some(first),
        _ => None,
    };
    if let Some(t) = target.and_then(|t| t.dyn_ref::<HtmlElement>()) {
        ev.prevent_default();
        let _ = t.focus();
    }
}

/// The elements of `dialog` that can take the focus, in document order, visible ones only.
fn focusable(dialog: &Element) -> Vec<Element> {
    let Ok(list) = dialog.query_selector_all(FOCUSABLE) else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .filter(|e| e.offset_parent().is_some())
        .map(Into::into)
        .collect()
}
