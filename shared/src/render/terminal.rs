//! Results, tool lists and protocol errors as plain text for a terminal (the headless
//! `call` and `tools` commands): no colour, so that it reads the same through a pipe.

use std::fmt::Write;

use serde_json::Value;

use super::Body;
use super::media::{MediaKind, decoded_len, human_size, inspect};
use super::output::{TextAgreement, text_agreement};
use crate::calls::Hints;
use crate::form::cli;
use crate::jsonrpc::ErrorObject;
use crate::mcp::catalog::{GetPromptResult, Prompt, Resource, ResourceTemplate};
use crate::mcp::{CallToolResult, Content, EmbeddedResource, MediaContent, ResourceContents, Tool};
use crate::schema::Resolver;

/// A tool result: each content item in order (text as is, media and blobs as a bracketed
/// line with their size), then `structuredContent` when no text item already holds the
/// same JSON, and the early-draft `toolResult` when a server sends one.
pub fn call_result(result: &CallToolResult) -> String {
    let mut out = String::new();
    if result.is_error == Some(true) {
        out.push_str("the tool reported an error:\n");
    }
    for c in &result.content {
        out.push_str(&item(c));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    if let Some(s) = &result.structured_content
        && text_agreement(result) != Some(TextAgreement::Matches)
    {
        let _ = writeln!(out, "structured content:\n{}", pretty(s));
    }
    if let Some(t) = &result.tool_result {
        let _ = writeln!(out, "toolResult (an early-draft field):\n{}", pretty(t));
    }
    if result.content.is_empty() && result.structured_content.is_none() && result.tool_result.is_none() {
        out.push_str("(no content)\n");
    }
    out
}

fn item(content: &Content) -> String {
    match content {
        Content::Text(t) => t.text.clone(),
        Content::Image(m) => media("image", MediaKind::Image, m),
        Content::Audio(m) => media("audio", MediaKind::Audio, m),
        Content::ResourceLink(r) => {
            let about: Vec<&str> =
                [r.name.as_str(), r.mime_type.as_deref().unwrap_or("")].into_iter().filter(|s| !s.is_empty()).collect();
            let about = if about.is_empty() { String::new() } else { format!(" ({})", about.join(", ")) };
            format!("[resource link] {}{about}", r.uri)
        }
        Content::Resource(r) => {
            let uri = &r.resource.uri;
            let mime = r.resource.mime_type.as_deref().map(|m| format!(" {m}")).unwrap_or_default();
            match Body::of(&r.resource) {
                Body::Text(t) => t.text,
                Body::Media { data, .. } | Body::Download { data, .. } => {
                    format!("[resource {uri}: blob{mime}, {}]", size(&data))
                }
                Body::Empty => format!("[resource {uri}: no contents]"),
            }
        }
        Content::Unknown(v) => v.to_string(),
    }
}

/// `[image image/png, 70 B]`, with what is wrong with the data or its type, if anything.
fn media(label: &str, kind: MediaKind, m: &MediaContent) -> String {
    let mime = if m.mime_type.is_empty() { String::new() } else { format!(" {}", m.mime_type) };
    let mut line = format!("[{label}{mime}, {}]", size(&m.data));
    if decoded_len(&m.data).is_some()
        && let Some(notice) = inspect(kind, &m.mime_type, &m.data).notice
    {
        let _ = write!(line, " ({notice})");
    }
    line
}

fn size(base64: &str) -> String {
    decoded_len(base64).map_or_else(|| "not valid base64".to_owned(), human_size)
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// Tools, one block each: the name (and the title, when it differs), the first paragraph
/// of the description, the behaviour hints (those the server did not state are marked as
/// the spec's defaults), and the arguments with their types.
pub fn tool_list(tools: &[Tool]) -> String {
    let blocks: Vec<String> = tools.iter().map(tool).collect();
    if blocks.is_empty() { "(no tools)\n".into() } else { blocks.join("\n") }
}

fn tool(t: &Tool) -> String {
    let mut out = t.name.clone();
    if t.display_name() != t.name {
        let _ = write!(out, " ({})", t.display_name());
    }
    out.push('\n');
    if let Some(d) = t.description.as_deref().map(first_paragraph).filter(|d| !d.is_empty()) {
        let _ = writeln!(out, "  {d}");
    }
    let hints: Vec<String> = Hints::of(t.annotations.as_ref())
        .labels()
        .into_iter()
        .map(|(label, stated)| if stated { label.to_owned() } else { format!("{label} (default)") })
        .collect();
    let _ = writeln!(out, "  hints: {}", hints.join(", "));
    if let Some(ui) = crate::apps::tool_ui(t) {
        match (&ui.resource_uri, ui.visibility.model) {
            (Some(uri), true) => {
                let _ = writeln!(out, "  [App] view: {uri}");
            }
            (Some(uri), false) => {
                let _ = writeln!(out, "  [App] view: {uri}; for the view only");
            }
            (None, false) => out.push_str("  [App] for the view only\n"),
            (None, true) => {}
        }
    }
    let root = &t.input_schema;
    let refs = Resolver::new(root);
    let schema = root.get("$ref").and_then(Value::as_str).and_then(|r| refs.resolve(r)).unwrap_or(root);
    let required: Vec<&str> =
        schema["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    match schema["properties"].as_object().filter(|p| !p.is_empty()) {
        None => out.push_str("  arguments: none\n"),
        Some(properties) => {
            out.push_str("  arguments:\n");
            for (name, p) in properties {
                let _ = write!(out, "    {name}: {}", cli::type_label(&refs, p));
                if required.contains(&name.as_str()) {
                    out.push_str(" (required)");
                }
                if let Some(d) = p["description"].as_str().and_then(|d| d.lines().next()).filter(|d| !d.is_empty()) {
                    let _ = write!(out, " - {}", d.trim());
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Resources, one line each (`uri  name (title), mime, size`), then the templates.
pub fn resource_list(resources: &[Resource], templates: &[ResourceTemplate]) -> String {
    let mut out = String::new();
    for r in resources {
        let mut about: Vec<String> = vec![r.display_name().to_owned()];
        about.extend(r.mime_type.clone());
        about.extend(r.size.map(|s| human_size(s as usize)));
        about.extend(r.annotations.as_ref().and_then(|a| a.summary()));
        let _ = writeln!(out, "{}  {}", r.uri, about.join(", "));
    }
    if resources.is_empty() {
        out.push_str("(no resources)\n");
    }
    if !templates.is_empty() {
        out.push_str("templates:\n");
        for t in templates {
            let mime = t.mime_type.as_deref().map(|m| format!(", {m}")).unwrap_or_default();
            let _ = writeln!(out, "  {}  {}{mime}", t.uri_template, t.display_name());
        }
    }
    out
}

/// Prompts, one block each: the name (and title), the description's first paragraph, and
/// the arguments (`*` marks the required ones).
pub fn prompt_list(prompts: &[Prompt]) -> String {
    let blocks: Vec<String> = prompts
        .iter()
        .map(|p| {
            let mut out = p.name.clone();
            if p.display_name() != p.name {
                let _ = write!(out, " ({})", p.display_name());
            }
            out.push('\n');
            if let Some(d) = p.description.as_deref().map(first_paragraph).filter(|d| !d.is_empty()) {
                let _ = writeln!(out, "  {d}");
            }
            for a in &p.arguments {
                let required = if a.required { " (required)" } else { "" };
                let d = a.description.as_deref().map(|d| format!(" - {}", first_paragraph(d))).unwrap_or_default();
                let _ = writeln!(out, "    {}{required}{d}", a.name);
            }
            out
        })
        .collect();
    if blocks.is_empty() { "(no prompts)\n".into() } else { blocks.join("\n") }
}

/// A resource's contents as `call` prints a result's embedded resources.
pub fn contents(contents: &[ResourceContents]) -> String {
    let mut out = String::new();
    for c in contents {
        out.push_str(&item(&Content::Resource(EmbeddedResource { resource: c.clone(), extra: Default::default() })));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    if contents.is_empty() {
        out.push_str("(no contents)\n");
    }
    out
}

/// A prompt's messages: `[role]` then its content, as a result's content prints.
pub fn prompt_messages(got: &GetPromptResult) -> String {
    let mut out = String::new();
    if let Some(d) = &got.description {
        let _ = writeln!(out, "{d}");
    }
    for m in &got.messages {
        let _ = writeln!(out, "[{}]", m.role);
        out.push_str(&item(&m.content));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The first paragraph, its lines joined.
fn first_paragraph(text: &str) -> String {
    let lines = text.trim().lines().map(str::trim).take_while(|l| !l.is_empty());
    lines.collect::<Vec<_>>().join(" ")
}

/// A JSON-RPC error answering a request: the code with its meaning, the message, and the
/// `data`, if any (text as is, other JSON pretty).
pub fn protocol_error(error: &ErrorObject) -> String {
    let mut out = format!("protocol error {}", error.code);
    if let Some(meaning) = ErrorObject::code_meaning(error.code) {
        let _ = write!(out, " ({meaning})");
    }
    let message = if error.message.is_empty() { "(no message)" } else { &error.message };
    let _ = writeln!(out, ": {message}");
    match &error.data {
        None => {}
        Some(Value::String(s)) => {
            let _ = writeln!(out, "data: {s}");
        }
        Some(v) => {
            let _ = writeln!(out, "data:\n{}", pretty(v));
        }
    }
    out
}

#[cfg(test)]
mod tests;
