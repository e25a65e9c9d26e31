//! A text field of a template's variable or a prompt's argument, with the server's
//! completions (`completion/complete`) under it as the person types: ↓ goes into them,
//! Enter or a click takes one, Escape closes them.

use leptos::prelude::*;
use shared::catalog::{Field, Target};
use wasm_bindgen::JsCast;

use crate::store::Store;

/// What a field shows beside its input.
#[derive(Clone)]
pub struct FieldInfo {
    pub name: String,
    pub label: String,
    pub description: Option<String>,
    pub required: bool,
}

#[component]
pub fn CompletedField(target: Target, info: FieldInfo) -> impl IntoView {
    let store = expect_context::<Store>();
    let FieldInfo { name, label, description, required } = info;
    let field: Field = (target.clone(), name.clone());
    let values = store.catalog.values_of(&target);
    let value = {
        let name = name.clone();
        move || values.with(|v| v.get(&name).cloned().unwrap_or_default())
    };
    // Suggestions for what the field holds now (a server may offer only what was typed: it
    // is valid), never for text typed before.
    let suggestions = {
        let (field, value) = (field.clone(), value.clone());
        move || {
            let now = value();
            let s = store.catalog.data.with(|c| c.completer.suggestions(&field).cloned())?;
            (s.typed == now).then_some(s)
        }
    };
    let list_id = format!("complete-{}", name);
    let path = format!("/{name}");
    let options_css = format!("[data-completion-for=\"{}\"] [data-testid=completion-option]", name.replace('"', ""));
    let focus_option = move |css: &str, i: Option<usize>| {
        let Ok(found) = document().query_selector_all(css) else { return };
        let n = found.length() as usize;
        let i = match i {
            Some(i) => i.min(n.saturating_sub(1)),
            None => return,
        };
        if let Some(el) = found.item(i as u32).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    };
    let on_input = {
        let (target, name) = (target.clone(), name.clone());
        move |ev| store.type_value(target.clone(), name.clone(), event_target_value(&ev))
    };
    let on_key = {
        let (field, css) = (field.clone(), options_css.clone());
        move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
            "ArrowDown" => {
                ev.prevent_default();
                focus_option(&css, Some(0));
            }
            "Escape" => store.dismiss_suggestions(field.clone()),
            _ => {}
        }
    };
    let input_id = format!("field-{}", name);
    // Back to the field once a suggestion is taken or the list closed: the focus stays put.
    let refocus = {
        let id = input_id.clone();
        move || {
            if let Some(el) = document().get_element_by_id(&id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = el.focus();
            }
        }
    };
    let open = {
        let suggestions = suggestions.clone();
        move || suggestions().is_some_and(|s| !s.values.is_empty())
    };
    view! {
        <div class="field-row completed" data-completion-for=name.clone()>
            <label class="field-label" for=input_id.clone()>
                <span class="mono">{label}</span>
                {required.then(|| view! { <span class="required" title="Required">"*"</span> })}
            </label>
            {description.map(|d| view! { <p class="field-help small muted">{d}</p> })}
            <input class="input mono" type="text" id=input_id data-testid="field" data-field-path=path
                role="combobox" aria-expanded=move || open().to_string()
                autocomplete="off" aria-autocomplete="list" aria-controls=list_id.clone() prop:required=required
                prop:value=value on:input=on_input on:keydown=on_key />
            {move || suggestions().map(|s| {
                let field = field.clone();
                let css = options_css.clone();
                let refocus = refocus.clone();
                match s.error {
                    Some(e) => view! { <p class="small muted">{format!("No suggestions: {e}")}</p> }.into_any(),
                    // Nothing to suggest is nothing to say.
                    None if s.values.is_empty() => ().into_any(),
                    None => {
                        let more = s.total.map(|t| format!("{} of {t}", s.values.len())).or(s.has_more.then(|| "more exist".to_owned()));
                        let count = s.values.len();
                        view! {
                            <ul class="completions" role="listbox" id=list_id.clone() aria-label="Suggestions">
                                {s.values.into_iter().enumerate().map(|(i, v)| {
                                    let (field, field2, css) = (field.clone(), field.clone(), css.clone());
                                    let (refocus, refocus2) = (refocus.clone(), refocus.clone());
                                    let (taken, shown) = (v.clone(), v.clone());
                                    view! {
                                        <li class="completion" role="option" tabindex="-1" data-testid="completion-option" data-value=v
                                            on:click=move |_| {
                                                store.take_suggestion(field.clone(), taken.clone());
                                                refocus();
                                            }
                                            on:keydown=move |ev: web_sys::KeyboardEvent| {
                                                let to = match ev.key().as_str() {
                                                    "ArrowDown" => Some((i + 1).min(count - 1)),
                                                    "ArrowUp" if i == 0 => {
                                                        ev.prevent_default();
                                                        refocus2();
                                                        return;
                                                    }
                                                    "ArrowUp" => Some(i - 1),
                                                    "Enter" | " " => {
                                                        ev.prevent_default();
                                                        let value = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.get_attribute("data-value")).unwrap_or_default();
                                                        store.take_suggestion(field2.clone(), value);
                                                        refocus2();
                                                        return;
                                                    }
                                                    "Escape" => {
                                                        store.dismiss_suggestions(field2.clone());
                                                        refocus2();
                                                        return;
                                                    }
                                                    _ => return,
                                                };
                                                ev.prevent_default();
                                                focus_option(&css, to);
                                            }>
                                            <span class="mono">{shown}</span>
                                        </li>
                                    }
                                }).collect_view()}
                                {more.map(|m| view! { <li class="completion-more small muted" role="presentation">{m}</li> })}
                            </ul>
                        }
                        .into_any()
                    }
                }
            })}
        </div>
    }
}
