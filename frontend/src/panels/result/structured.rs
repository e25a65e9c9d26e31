//! `structuredContent` as a foldable tree (any JSON value), `output-validation` against the
//! tool's `outputSchema`, and whether the text content says the same.

use leptos::prelude::*;
use serde_json::Value;
use shared::render::output::{OutputCheck, TextAgreement};

use super::json_tree::JsonTree;
use crate::download;

#[component]
pub fn Structured(value: Option<Value>, output: OutputCheck, agreement: Option<TextAgreement>) -> impl IntoView {
    let state = output.state();
    let (summary, violations, skipped) = match output {
        OutputCheck::Valid => ("Matches the tool's outputSchema".to_owned(), Vec::new(), None),
        OutputCheck::Invalid(v) => (
            format!(
                "Does not match the tool's outputSchema ({} problem{})",
                v.len(),
                if v.len() == 1 { "" } else { "s" }
            ),
            v,
            None,
        ),
        OutputCheck::Absent => ("The tool declares no outputSchema".to_owned(), Vec::new(), None),
        OutputCheck::Skipped(why) => (String::new(), Vec::new(), Some(why)),
    };
    let agreement_note = agreement.map(|a| match a {
        TextAgreement::Matches => "The text content carries the same JSON.",
        TextAgreement::Differs => "The text content holds different JSON than the structured content.",
        TextAgreement::NoJsonText => "The text content does not carry this JSON.",
    });
    if value.is_none() && state != Some("invalid") {
        // Nothing structured to show: just say whether a schema was declared (quietly).
        return view! {
            {state.map(|s| view! { <p class="output-validation quiet" data-testid="output-validation" data-state=s>{summary.clone()}</p> })}
            {skipped.map(|s| view! { <p class="hint small">{s}</p> })}
        }
        .into_any();
    }
    let copy_value = value.clone();
    view! {
        <div class="structured">
            <div class="structured-head">
                <h4>"Structured content"</h4>
                <span class="spacer"></span>
                {copy_value.map(|v| view! {
                    <button class="button small ghost" data-testid="copy-structured" on:click=move |_| download::copy(&v.to_string())>"Copy"</button>
                })}
            </div>
            {state.map(|s| view! {
                <div class="output-validation" data-testid="output-validation" data-state=s>
                    <span class="validation-mark">{match s { "valid" => "✓", "invalid" => "✕", _ => "–" }}</span>
                    <div>
                        <div>{summary.clone()}</div>
                        {(!violations.is_empty()).then(|| view! {
                            <ul>{violations.iter().map(|v| view! {
                                <li><span class="mono">{if v.path.is_empty() { "/".to_owned() } else { v.path.clone() }}</span> " " {v.message.clone()}</li>
                            }).collect_view()}</ul>
                        })}
                    </div>
                </div>
            })}
            {skipped.map(|s| view! { <p class="hint small">{s}</p> })}
            {value.map(|v| view! { <div data-testid="structured-content"><JsonTree value=v /></div> })}
            {agreement_note.map(|n| view! { <p class="hint small" data-testid="text-agreement">{n}</p> })}
        </div>
    }
    .into_any()
}
