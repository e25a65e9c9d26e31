//! JSON shown to people: pretty text in a `<pre>`, always as text, never as HTML.

use leptos::prelude::*;
use serde_json::Value;

/// Pretty-prints a value.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// A block of pretty JSON.
#[component]
pub fn JsonBlock(value: Value, #[prop(optional, into)] testid: Option<&'static str>) -> impl IntoView {
    view! { <pre class="code" data-testid=testid>{pretty(&value)}</pre> }
}
