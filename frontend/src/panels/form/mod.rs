//! The arguments editor: the form generated from the tool's `inputSchema`, or the raw JSON
//! editor, with the validation summary.

mod field;
mod leaf;

use leptos::prelude::*;
use shared::form::Kind;

use crate::args::ArgsState;

#[component]
pub fn ArgsEditor() -> impl IntoView {
    let args = expect_context::<ArgsState>();
    let form = move || {
        let field = args.field.get()?;
        let has_inputs = match &field.kind {
            Kind::Object(o) => !o.properties.is_empty() || o.additional.is_some() || !o.pattern_properties.is_empty(),
            _ => true,
        };
        Some(if has_inputs {
            field::field_view((*field).clone(), String::new(), "arguments".into(), true, 0)
        } else {
            view! { <p class="hint">"This tool takes no arguments."</p> }.into_any()
        })
    };
    view! {
        <div class="args">
            <div class="args-toolbar">
                <span class="field-label">"Arguments"</span>
                <span class="hint small">"Ctrl+Enter to call"</span>
                <span class="spacer"></span>
                <button type="button" class="button small ghost" data-testid="args-reset" title="Back to the schema's defaults"
                    on:click=move |_| args.reset()>"Reset"</button>
                <button type="button" class="button small ghost" data-testid="raw-args-toggle"
                    on:click=move |_| args.toggle_raw()>
                    {move || if args.raw_mode.get() { "Edit as form" } else { "Edit as JSON" }}
                </button>
            </div>
            {move || args.schema_error.get().map(|e| view! { <p class="hint small">{e}</p> })}
            <Show when=move || args.raw_mode.get()
                fallback=move || view! { <div class="tool-form" data-testid="tool-form">{form}</div> }>
                <textarea class="input mono args-editor" data-testid="raw-args-editor" spellcheck="false"
                    aria-label="Arguments as JSON"
                    rows=move || args.raw_text.with(|t| t.lines().count().clamp(4, 24).to_string())
                    prop:value=move || args.raw_text.get()
                    on:input=move |ev| args.raw_text.set(event_target_value(&ev))></textarea>
            </Show>
            {move || args.raw_error.get().map(|e| view! { <p class="error-text" role="alert">{e.to_string()}</p> })}
            <Summary />
        </div>
    }
}

#[component]
pub fn Summary() -> impl IntoView {
    let args = expect_context::<ArgsState>();
    move || {
        let violations = args.shown.get();
        (!violations.is_empty()).then(|| {
            let count = violations.len();
            view! {
                <div class="args-errors" data-testid="args-errors" role="status">
                    <strong>{format!("{count} problem{} with these arguments", if count == 1 { "" } else { "s" })}</strong>
                    <ul>
                        {violations.into_iter().map(|v| view! {
                            <li><span class="mono">{if v.path.is_empty() { "/".to_owned() } else { v.path }}</span> " " {v.message}</li>
                        }).collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

/// Only the fields of the form in context, without the editor's toolbar: for a dialog
/// whose form is not a tool's (an elicitation's `requestedSchema`).
#[component]
pub fn FormFields() -> impl IntoView {
    let args = expect_context::<ArgsState>();
    view! {
        <div class="tool-form">
            {move || args.field.get().map(|f| field::field_view((*f).clone(), String::new(), "content".into(), true, 0))}
        </div>
        <Summary />
    }
}
