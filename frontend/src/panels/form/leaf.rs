//! Leaf inputs: one element per value (`data-testid="field"`, `data-field-path`). Each keeps
//! the text a person typed, so a half-typed number is never rewritten under their cursor,
//! and follows the arguments when they change from elsewhere (raw JSON, reset, reorder).

use leptos::prelude::*;
use serde_json::Value;
use shared::form::{Choice, NumberSpec, StringSpec};

use crate::args::ArgsState;

fn number_text(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// The value a number field's text stands for, as the arguments hold it.
fn parse_number(text: &str, integer: bool) -> Value {
    shared::form::number::parse(text, integer).value(text)
}

/// Local text that follows the value at `path` unless it already means the same.
fn synced_text(
    args: ArgsState,
    path: String,
    show: fn(&Value) -> String,
    parse: impl Fn(&str) -> Value + 'static,
) -> RwSignal<String> {
    let text = RwSignal::new(args.get(&path).map(|v| show(&v)).unwrap_or_default());
    Effect::new(move |_| {
        let current = args.value.with(|v| shared::pointer::get(v, &path).cloned());
        let typed = parse(&text.get_untracked());
        if current.as_ref() != Some(&typed) {
            text.set(current.map(|v| show(&v)).unwrap_or_default());
        }
    });
    text
}

fn string_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[component]
pub fn StringInput(path: String, spec: StringSpec, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let text = synced_text(args, path.clone(), string_text, |t| Value::String(t.to_owned()));
    let on_input = {
        let path = path.clone();
        move |ev| {
            let t = event_target_value(&ev);
            text.set(t.clone());
            args.set(&path, Value::String(t));
        }
    };
    let (kind, placeholder) = match spec.format.as_deref() {
        Some("date") => ("date", ""),
        Some("email") => ("email", "name@example.com"),
        Some("uri") | Some("url") | Some("iri") => ("url", "https://…"),
        Some("date-time") => ("text", "2026-01-31T09:30:00Z"),
        Some("time") => ("text", "09:30:00Z"),
        _ => ("text", ""),
    };
    let max = spec.max_length.map(|m| m.to_string());
    if spec.multiline {
        view! {
            <textarea class="input" data-testid="field" data-field-path=path aria-label=label rows="3"
                maxlength=max prop:value=move || text.get() on:input=on_input></textarea>
        }
        .into_any()
    } else {
        view! {
            <input class="input" type=kind data-testid="field" data-field-path=path aria-label=label
                placeholder=placeholder pattern=spec.pattern.clone() maxlength=max
                prop:value=move || text.get() on:input=on_input />
        }
        .into_any()
    }
}

#[component]
pub fn NumberInput(path: String, spec: NumberSpec, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let integer = spec.integer;
    let text = synced_text(args, path.clone(), number_text, move |t| parse_number(t, integer));
    let on_input = {
        let path = path.clone();
        move |ev| {
            let t = event_target_value(&ev);
            text.set(t.clone());
            args.set_number(&path, &t, integer);
        }
    };
    let step =
        spec.multiple_of.map(|m| m.to_string()).unwrap_or_else(|| if integer { "1".into() } else { "any".into() });
    view! {
        <input class="input number" type="number" data-testid="field" data-field-path=path aria-label=label
            step=step min=spec.minimum.or(spec.exclusive_minimum).map(|m| m.to_string())
            max=spec.maximum.or(spec.exclusive_maximum).map(|m| m.to_string())
            prop:value=move || text.get() on:input=on_input />
    }
}

#[component]
pub fn BoolInput(path: String, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let p = path.clone();
    let checked = Memo::new(move |_| args.value.with(|v| shared::pointer::get(v, &p) == Some(&Value::Bool(true))));
    view! {
        <label class="switch">
            <input type="checkbox" data-testid="field" data-field-path=path.clone() aria-label=label.clone()
                prop:checked=checked
                on:change=move |ev| args.set(&path, Value::Bool(event_target_checked(&ev))) />
            <span>{move || if checked.get() { "true" } else { "false" }}</span>
        </label>
    }
}

/// An optional boolean: one checkbox with three states, left out (shown mixed), `true`
/// and `false`; each press moves to the next.
#[component]
pub fn ThreeStateBool(path: String, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let p = path.clone();
    let current = Memo::new(move |_| args.value.with(|v| shared::pointer::get(v, &p).cloned()));
    let state = move || match current.get() {
        None => "omitted",
        Some(Value::Bool(true)) => "true",
        Some(_) => "false",
    };
    let on_change = {
        let path = path.clone();
        move |_| match shared::form::next_of_three(current.get_untracked().as_ref()) {
            Some(v) => args.set(&path, v),
            None => args.remove(&path),
        }
    };
    view! {
        <label class="switch three-state" title="Left out, true or false: each press moves to the next">
            <input type="checkbox" data-testid="field" data-field-path=path aria-label=label
                data-state=state aria-checked=move || if state() == "omitted" { "mixed" } else { state() }
                prop:checked=move || state() == "true" prop:indeterminate=move || state() == "omitted"
                on:change=on_change />
            <span class:muted=move || state() == "omitted">{move || if state() == "omitted" { "left out" } else { state() }}</span>
        </label>
    }
}

/// An array of one enum: a checkbox per value (`data-testid="field"`, the array's path, the
/// value JSON-encoded in `value`), ticked values kept in the schema's order.
#[component]
pub fn ChoiceSet(path: String, spec: shared::form::ArraySpec, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let choices = spec.choices().map(<[Choice]>::to_vec).unwrap_or_default();
    let spec = std::sync::Arc::new(spec);
    view! {
        <div class="choice-set" role="group" aria-label=label>
            {choices.into_iter().map(|c| {
                let (p, value, spec) = (path.clone(), c.value.clone(), spec.clone());
                let ticked = {
                    let (p, value) = (p.clone(), value.clone());
                    move || args.value.with(|v| shared::pointer::get(v, &p).and_then(Value::as_array).is_some_and(|a| a.contains(&value)))
                };
                let on_change = {
                    let p = p.clone();
                    move |ev| {
                        let now = args.get(&p);
                        args.set(&p, spec.tick(now.as_ref(), &value, event_target_checked(&ev)));
                    }
                };
                view! {
                    <label class="choice">
                        <input type="checkbox" data-testid="field" data-field-path=p value=c.value.to_string()
                            prop:checked=ticked on:change=on_change />
                        <span>{c.label}</span>
                    </label>
                }
            }).collect_view()}
        </div>
    }
}

#[component]
pub fn EnumSelect(path: String, choices: Vec<Choice>, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let p = path.clone();
    let current =
        Memo::new(move |_| args.value.with(|v| shared::pointer::get(v, &p).map(|v| v.to_string()).unwrap_or_default()));
    let known: Vec<String> = choices.iter().map(|c| c.value.to_string()).collect();
    let off_list = move || {
        let c = current.get();
        (!known.contains(&c)).then(|| view! { <option value=c.clone() disabled=true>{if c.is_empty() { "— choose —".to_owned() } else { format!("{c} (not in the list)") }}</option> })
    };
    view! {
        <select class="input" data-testid="field" data-field-path=path.clone() aria-label=label
            prop:value=current
            on:change=move |ev| {
                if let Ok(v) = serde_json::from_str::<Value>(&event_target_value(&ev)) {
                    args.set(&path, v);
                }
            }>
            {off_list}
            {choices.into_iter().map(|c| view! { <option value=c.value.to_string()>{c.label}</option> }).collect_view()}
        </select>
    }
}

#[component]
pub fn ConstInput(path: String, value: Value, label: String) -> impl IntoView {
    view! {
        <input class="input mono" readonly=true data-testid="field" data-field-path=path aria-label=label
            title="Fixed by the schema (const)" value=value.to_string() />
    }
}

/// Any JSON for a value the form cannot express. Text that is not JSON stays, with an error.
#[component]
pub fn JsonInput(path: String, reason: String, label: String) -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let error = RwSignal::new(None::<String>);
    let show = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let text = RwSignal::new(args.get(&path).map(|v| show(&v)).unwrap_or_default());
    let p = path.clone();
    Effect::new(move |_| {
        let current = args.value.with(|v| shared::pointer::get(v, &p).cloned());
        let typed = serde_json::from_str::<Value>(&text.get_untracked()).ok();
        if current != typed && error.get_untracked().is_none() {
            text.set(current.map(|v| show(&v)).unwrap_or_default());
        }
    });
    let on_input = {
        let path = path.clone();
        move |ev| {
            let t = event_target_value(&ev);
            text.set(t.clone());
            match serde_json::from_str::<Value>(&t) {
                Ok(v) => {
                    error.set(None);
                    args.set(&path, v);
                }
                Err(e) => error.set(Some(format!("not valid JSON: {e}"))),
            }
        }
    };
    view! {
        <textarea class="input mono" data-testid="field" data-field-path=path aria-label=label rows="3"
            spellcheck="false" title=reason.clone() prop:value=move || text.get() on:input=on_input></textarea>
        <p class="hint small">"JSON · " {reason}</p>
        {move || error.get().map(|e| view! { <p class="error-text">{e}</p> })}
    }
}
