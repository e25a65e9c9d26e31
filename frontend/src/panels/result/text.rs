//! A text block: plain text, pretty and foldable JSON when it is JSON, Markdown as an
//! option, and a preview with "show all" and a download for long text. Never HTML.

use leptos::prelude::*;
use shared::render::TextView;
use shared::render::media::human_size;

use super::json_tree::JsonTree;
use crate::download;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Text,
    Json,
    Markdown,
}

#[component]
pub fn TextBlock(text: TextView, name: String) -> impl IntoView {
    let mode = RwSignal::new(if text.json.is_some() { Mode::Json } else { Mode::Text });
    let show_all = RwSignal::new(false);
    let has_json = text.json.is_some();
    let md = text.looks_like_markdown;
    let long = text.long;
    let size = text.text.len();
    let text = StoredValue::new(text);
    let switch = move |m: Mode, label: &'static str| {
        // Labels are drawn by CSS so that the item's text stays the content's own text.
        view! { <button class="seg" data-label=label aria-label=label class:active=move || mode.get() == m on:click=move |_| mode.set(m)></button> }
    };
    let body = move || match mode.get() {
        Mode::Json => text.with_value(|t| t.json.clone()).map(|v| view! { <JsonTree value=v /> }.into_any()),
        Mode::Markdown => {
            Some(crate::panels::later(super::markdown::markdown_view(text.with_value(|t| t.text.clone()))).into_any())
        }
        Mode::Text => Some(
            text.with_value(|t| {
                let shown = if show_all.get() { t.text.clone() } else { t.preview().to_owned() };
                view! { <pre class="text-content">{shown}</pre> }
            })
            .into_any(),
        ),
    };
    let download_name = name.clone();
    view! {
        <div class="text-block">
            <div class="text-tools">
                {(has_json || md).then(|| view! {
                    <div class="segmented" role="group" aria-label="View as">
                        {switch(Mode::Text, "Text")}
                        {has_json.then(|| switch(Mode::Json, "JSON"))}
                        {switch(Mode::Markdown, "Markdown")}
                    </div>
                })}
                {(!has_json && !md).then(|| view! { <button class="seg subtle"
                    data-label=move || if mode.get() == Mode::Markdown { "Plain text" } else { "Markdown" }
                    aria-label="Switch between plain text and Markdown"
                    on:click=move |_| mode.set(if mode.get_untracked() == Mode::Markdown { Mode::Text } else { Mode::Markdown })></button> })}
                <span class="spacer"></span>
                <button class="button small ghost drawn-label" data-label="Copy" aria-label="Copy" data-testid="copy-text" on:click=move |_| text.with_value(|t| download::copy(&t.text))></button>
            </div>
            {body}
            {long.then(|| view! {
                <div class="long-text">
                    <span class="hint small">{move || if show_all.get() {
                        format!("All {} shown", human_size(size))
                    } else {
                        format!("Showing the first {} of {}", human_size(shared::render::LONG_TEXT_BYTES), human_size(size))
                    }}</span>
                    <button class="button small" data-testid="show-all" prop:disabled=move || show_all.get()
                        on:click=move |_| { mode.set(Mode::Text); show_all.set(true); }>"Show all"</button>
                    <button class="button small" data-testid="download" on:click=move |_| text.with_value(|t| download::text(&download_name, &t.text, "text/plain"))>"Download"</button>
                </div>
            })}
        </div>
    }
}
