//! One field of the generated form and its containers: objects (with optional properties
//! and extra keys), arrays (add, remove, reorder, tuples), variants of `oneOf`/`anyOf`, the
//! explicit null choice, lazily expanded recursive fields, errors at the field.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;
use shared::form::{self, ArraySpec, Field, Kind, ObjectSpec};
use shared::pointer;

use super::leaf::*;
use crate::args::ArgsState;

/// Nesting past which recursive fields are edited as JSON.
const MAX_RENDER_DEPTH: usize = 40;

/// A labelled field: include / null choices, help, the widget, its errors.
pub fn field_view(field: Field, path: String, name: String, required: bool, depth: usize) -> AnyView {
    let args = expect_context::<ArgsState>();
    let label = field.label(&name).to_owned();
    let present = {
        let p = path.clone();
        Memo::new(move |_| required || args.value.with(|v| pointer::get(v, &p).is_some()))
    };
    let is_null = {
        let p = path.clone();
        Memo::new(move |_| args.value.with(|v| pointer::get(v, &p).is_some_and(Value::is_null)))
    };
    // An optional boolean is one control with three states: no include box beside it.
    let three_state = !required && !field.nullable && matches!(field.kind, Kind::Boolean);
    let include = (!required && !three_state).then(|| {
        let (p, f) = (path.clone(), field.clone());
        view! {
            <input type="checkbox" class="include" data-testid="field-include" data-field-path=path.clone()
                title="Include this optional argument" aria-label=format!("Include {label}")
                prop:checked=move || present.get()
                on:change=move |ev| {
                    if event_target_checked(&ev) {
                        let start = form::initial(&f, &args.schema.get_untracked());
                        args.set(&p, start);
                    } else {
                        args.remove(&p);
                    }
                } />
        }
    });
    let null_choice = field.nullable.then(|| {
        let (p, f) = (path.clone(), field.clone());
        view! {
            <label class="null-choice" class:hidden=move || !present.get()>
                <input type="checkbox" data-testid="field-null" data-field-path=path.clone()
                    prop:checked=move || is_null.get()
                    on:change=move |ev| {
                        if event_target_checked(&ev) {
                            args.set(&p, Value::Null);
                        } else {
                            args.set(&p, form::initial_not_null(&f, &args.schema.get_untracked()));
                        }
                    } />
                "null"
            </label>
        }
    });
    let errors = {
        let p = path.clone();
        move || {
            let msgs = args.errors_at(&p);
            (!msgs.is_empty()).then(|| {
                view! { <p class="field-error" data-testid="field-error" data-field-path=p.clone()>{msgs.join("; ")}</p> }
            })
        }
    };
    let container = matches!(field.kind, Kind::Object(_) | Kind::Array(_));
    let description = field.description.clone();
    let notes = field.notes.clone();
    let examples = examples_view(&field, path.clone(), present);
    let body = {
        let (f, p) = (field.clone(), path.clone());
        move || {
            if three_state {
                let (path, label) = (p.clone(), f.label(&name).to_owned());
                return Some(view! { <ThreeStateBool path label /> }.into_any());
            }
            (present.get() && !is_null.get()).then(|| body_view(f.clone(), p.clone(), name.clone(), depth))
        }
    };
    view! {
        <div class="form-field" class:container=container class:optional=!required>
            <div class="field-head">
                {include}
                <span class="field-name">{label.clone()}</span>
                {required.then(|| view! { <span class="required" title="required">"*"</span> })}
                {null_choice}
            </div>
            {description.map(|d| view! { <p class="field-help">{d}</p> })}
            {notes.into_iter().map(|n| view! { <p class="field-help note">{n}</p> }).collect_view()}
            {examples}
            <div class="field-body">{body}</div>
            {errors}
        </div>
    }
    .into_any()
}

fn examples_view(field: &Field, path: String, present: Memo<bool>) -> Option<impl IntoView + use<>> {
    if field.examples.is_empty() {
        return None;
    }
    let args = expect_context::<ArgsState>();
    let chips = field
        .examples
        .iter()
        .take(4)
        .map(|ex| {
            let (p, v) = (path.clone(), ex.clone());
            let text = match ex {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            view! { <button type="button" class="chip" title="Use this example" on:click=move |_| args.set(&p, v.clone())>{text}</button> }
        })
        .collect_view();
    Some(
        view! { <div class="examples" class:hidden=move || !present.get()><span class="hint small">"e.g. "</span>{chips}</div> },
    )
}

/// The widget of a field whose value is present and not null.
fn body_view(field: Field, path: String, name: String, depth: usize) -> AnyView {
    let label = field.label(&name).to_owned();
    match field.kind {
        Kind::String(spec) => view! { <StringInput path spec label /> }.into_any(),
        Kind::Number(spec) => view! { <NumberInput path spec label /> }.into_any(),
        Kind::Boolean => view! { <BoolInput path label /> }.into_any(),
        Kind::Enum(choices) => view! { <EnumSelect path choices label /> }.into_any(),
        Kind::Const(value) => view! { <ConstInput path value label /> }.into_any(),
        Kind::Null => view! { <span class="hint">"null"</span> }.into_any(),
        Kind::Json { reason } => view! { <JsonInput path reason label /> }.into_any(),
        Kind::Object(spec) => object_view(spec, path, depth),
        Kind::Array(spec) if spec.choices().is_some() => view! { <ChoiceSet path spec label /> }.into_any(),
        Kind::Array(spec) => array_view(spec, path, depth),
        Kind::Variants(variants) => variants_view(variants, path, name, depth),
        Kind::Recursive { pointer: target } => {
            if depth > MAX_RENDER_DEPTH {
                return view! { <JsonInput path reason="nested too deeply for the form".to_owned() label /> }
                    .into_any();
            }
            let args = expect_context::<ArgsState>();
            let inner = form::build_at(&args.schema.get_untracked(), &target);
            body_view(inner, path, name, depth + 1)
        }
    }
}

fn object_view(spec: ObjectSpec, path: String, depth: usize) -> AnyView {
    let args = expect_context::<ArgsState>();
    let properties = spec
        .properties
        .iter()
        .map(|p| field_view(p.field.clone(), pointer::child(&path, &p.name), p.name.clone(), p.required, depth + 1))
        .collect_view();
    let extras = spec.offers_extra_keys().then(|| {
        let spec = Arc::new(spec);
        let p = path.clone();
        let keys = {
            let spec = spec.clone();
            Memo::new(move |_| args.value.with(|v| spec.extra_keys(pointer::get(v, &p))))
        };
        let pattern_hint = (!spec.pattern_properties.is_empty()).then(|| {
            let list: Vec<String> = spec.pattern_properties.iter().map(|(re, _)| format!("/{re}/")).collect();
            view! { <p class="hint small">"Keys matching " <span class="mono">{list.join(", ")}</span></p> }
        });
        let spec_add = spec.clone();
        let p_add = path.clone();
        let p_rows = path.clone();
        view! {
            <div class="extras">
                {pattern_hint}
                <For each=move || keys.get() key=|k| k.clone() let:key>
                    {
                        let item_path = pointer::child(&p_rows, &key);
                        let parent = p_rows.clone();
                        let old = key.clone();
                        let remove_path = item_path.clone();
                        view! {
                            <div class="extra-row">
                                <input class="input key mono" data-testid="field-key" data-field-path=item_path.clone()
                                    aria-label="Key" value=key.clone()
                                    on:change=move |ev| {
                                        let new = event_target_value(&ev);
                                        args.rename_key(&parent, &old, &new);
                                    } />
                                <div class="extra-value">{field_view(spec.key_schema(&key).field(), item_path, key.clone(), true, depth + 1)}</div>
                                <button type="button" class="icon-button small" data-testid="field-remove-key" data-field-path=remove_path.clone()
                                    title="Remove this key" on:click=move |_| args.remove(&remove_path)>"×"</button>
                            </div>
                        }
                    }
                </For>
                <button type="button" class="button small ghost" data-testid="field-add-key" data-field-path=path.clone()
                    on:click=move |_| {
                        args.add_key(&p_add, |key| spec_add.key_schema(key).field());
                    }>"+ Add key"</button>
            </div>
        }
    });
    view! { <div class="object" class:nested={depth > 0}>{properties}{extras}</div> }.into_any()
}

fn array_view(spec: ArraySpec, path: String, depth: usize) -> AnyView {
    let args = expect_context::<ArgsState>();
    let p = path.clone();
    let len =
        Memo::new(move |_| args.value.with(|v| pointer::get(v, &p).and_then(Value::as_array).map_or(0, Vec::len)));
    let spec = Arc::new(spec);
    let can_add = {
        let spec = spec.clone();
        move || spec.can_add(len.get())
    };
    let p_rows = path.clone();
    let p_add = path.clone();
    let spec_add = spec.clone();
    view! {
        <div class="array" class:nested={depth > 0}>
            <For each=move || 0..len.get() key=|i| *i let:i>
                {
                    let item_path = pointer::index(&p_rows, i);
                    let parent = p_rows.clone();
                    let parent2 = p_rows.clone();
                    let remove_path = item_path.clone();
                    let item = spec.item_field(i);
                    let up = spec.can_move_up(i);
                    let spec = spec.clone();
                    view! {
                        <div class="array-item">
                            <div class="item-index mono">{i}</div>
                            <div class="item-body">{field_view(item, item_path, format!("item {i}"), true, depth + 1)}</div>
                            <div class="item-actions">
                                <button type="button" class="icon-button small" title="Move up" aria-label="Move up"
                                    disabled=!up
                                    on:click=move |_| args.move_item(&parent, i - 1, i)>"↑"</button>
                                <button type="button" class="icon-button small" title="Move down" aria-label="Move down"
                                    disabled=move || !spec.can_move_down(i, len.get())
                                    on:click=move |_| args.move_item(&parent2, i, i + 1)>"↓"</button>
                                <button type="button" class="icon-button small" data-testid="field-remove-item" data-field-path=remove_path.clone()
                                    title="Remove this item" aria-label="Remove this item"
                                    on:click=move |_| args.remove(&remove_path)>"×"</button>
                            </div>
                        </div>
                    }
                }
            </For>
            <button type="button" class="button small ghost" data-testid="field-add-item" data-field-path=path.clone()
                prop:disabled=move || !can_add()
                on:click=move |_| {
                    if let Some(f) = spec_add.field_at(len.get_untracked()) {
                        args.add_item(&p_add, f);
                    }
                }>"+ Add item"</button>
        </div>
    }
    .into_any()
}

fn variants_view(variants: Vec<form::Variant>, path: String, name: String, depth: usize) -> AnyView {
    let args = expect_context::<ArgsState>();
    let chosen = {
        let (p, vs) = (path.clone(), variants.clone());
        Memo::new(move |_| {
            let picked = args.variants.with(|m| m.get(&p).copied());
            picked.unwrap_or_else(|| {
                args.value.with(|v| pointer::get(v, &p).map(|x| form::guess_variant(&vs, x)).unwrap_or(0))
            })
        })
    };
    let options = variants
        .iter()
        .enumerate()
        .map(|(i, v)| view! { <option value=i.to_string()>{v.label.clone()}</option> })
        .collect_view();
    let on_change = {
        let (p, vs) = (path.clone(), variants.clone());
        move |ev| {
            let Ok(i) = event_target_value(&ev).parse::<usize>() else { return };
            let Some(v) = vs.get(i) else { return };
            args.pick_variant(&p, i, &v.field);
        }
    };
    let body = {
        let path = path.clone();
        move || {
            let v = variants.get(chosen.get()).cloned();
            v.map(|v| body_view(v.field, path.clone(), name.clone(), depth + 1))
        }
    };
    view! {
        <div class="variants">
            <select class="input variant-select" data-testid="field-variant" data-field-path=path.clone()
                aria-label="Variant" prop:value=move || chosen.get().to_string() on:change=on_change>
                {options}
            </select>
            <div class="variant-body">{body}</div>
        </div>
    }
    .into_any()
}
