//! A foldable JSON tree for structured content and JSON text: objects and arrays fold,
//! large ones start folded, values are coloured by type. Always text, never HTML.

use leptos::prelude::*;
use serde_json::Value;

/// Children past which a node starts folded.
const OPEN_LIMIT: usize = 50;
/// Levels open at first.
const OPEN_DEPTH: usize = 3;

#[component]
pub fn JsonTree(value: Value) -> impl IntoView {
    view! { <div class="json-tree mono">{node(None, value, 0)}</div> }
}

fn scalar(v: &Value) -> AnyView {
    let (class, text) = match v {
        Value::String(s) => ("j-str", format!("\"{s}\"")),
        Value::Number(n) => ("j-num", n.to_string()),
        Value::Bool(b) => ("j-bool", b.to_string()),
        Value::Null => ("j-null", "null".into()),
        _ => ("", String::new()),
    };
    view! { <span class=class>{text}</span> }.into_any()
}

fn key_view(key: Option<String>) -> Option<AnyView> {
    key.map(|k| view! { <span class="j-key">{k}</span><span class="j-punct">": "</span> }.into_any())
}

fn node(key: Option<String>, value: Value, depth: usize) -> AnyView {
    let (open_mark, close_mark, children): (&str, &str, Vec<(Option<String>, Value)>) = match value {
        Value::Object(map) => ("{", "}", map.into_iter().map(|(k, v)| (Some(format!("\"{k}\"")), v)).collect()),
        Value::Array(items) => ("[", "]", items.into_iter().map(|v| (None, v)).collect()),
        scalar_value => {
            return view! { <div class="j-line">{key_view(key)}{scalar(&scalar_value)}</div> }.into_any();
        }
    };
    if children.is_empty() {
        return view! { <div class="j-line">{key_view(key)}<span class="j-punct">{format!("{open_mark}{close_mark}")}</span></div> }
            .into_any();
    }
    let count = children.len();
    let open = depth < OPEN_DEPTH && count <= OPEN_LIMIT;
    let opened = RwSignal::new(open);
    let summary = format!("{open_mark} {count} {} {close_mark}", if open_mark == "{" { "keys" } else { "items" });
    view! {
        <details class="j-node" open=open on:toggle=move |_| opened.set(true)>
            <summary>{key_view(key)}<span class="j-punct j-fold">{summary}</span></summary>
            <div class="j-children">
                {move || opened.get().then(|| children.clone().into_iter().map(|(k, v)| node(k, v, depth + 1)).collect_view())}
            </div>
        </details>
    }
    .into_any()
}
