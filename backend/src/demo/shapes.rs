//! What the result-shape tools return: annotated items, an unknown content type, structured
//! content that breaks or skips its schema, an early-draft result, a very large image,
//! hostile text, long text and Markdown. Several are wrong on purpose, to test clients.

use std::fmt::Write as _;

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use rmcp::model::{Annotations, CallToolResult, ContentBlock, ImageContent, Resource, Role, TextContent};
use serde_json::json;

use super::{
    args::Args,
    media,
    rewrite::{self, Rewrite},
    tools::ToolOutcome,
};

/// Bytes in the megabyte of `get_large_image` and kilobyte of `get_long_text`.
pub(super) const MEGABYTE: usize = 1 << 20;
pub(super) const KILOBYTE: usize = 1 << 10;

pub(super) fn get_annotated() -> ToolOutcome {
    let mut for_user = Annotations::default().with_audience(vec![Role::User]).with_priority(0.9);
    for_user.last_modified = Some("2025-01-12T15:00:58Z".to_owned());
    let for_assistant = Annotations::default().with_audience(vec![Role::Assistant]).with_priority(0.2);
    let mut for_both = Annotations::default().with_audience(vec![Role::User, Role::Assistant]).with_priority(0.5);
    for_both.last_modified = Some("2025-01-10T09:30:00Z".to_owned());
    let png = media::png_pattern(24, 24).map_err(|error| format!("could not encode the image: {error}"))?;
    let link = Resource::new("demo://notes/readme.md", "readme.md")
        .with_title("Demo notes")
        .with_mime_type("text/markdown")
        .with_annotations(for_both);
    Ok(CallToolResult::success(vec![
        ContentBlock::Text(
            TextContent::new("For the user, and important (priority 0.9); last modified 2025-01-12.")
                .with_annotations(for_user),
        ),
        ContentBlock::Image(ImageContent::new(BASE64.encode(&png), "image/png").with_annotations(for_assistant)),
        ContentBlock::resource_link(link),
    ]))
}

pub(super) fn get_unusual_content() -> ToolOutcome {
    Ok(rewrite::placeholder(
        Rewrite::UnknownContent,
        json!({
            "content": [
                {"type": "text", "text": "The next item has a content type that no MCP revision defines."},
                {"type": "hologram", "frames": 3, "note": "a content type from the future"},
            ],
            "isError": false,
        }),
    ))
}

pub(super) fn get_invalid_structured() -> ToolOutcome {
    // Breaks the declared outputSchema twice: count is negative, label is not a string.
    let structured = json!({"count": -5, "label": 42});
    let mut result = CallToolResult::success(vec![ContentBlock::text(structured.to_string())]);
    result.structured_content = Some(structured);
    Ok(result)
}

pub(super) fn get_missing_structured() -> ToolOutcome {
    Ok(CallToolResult::success(vec![ContentBlock::text(
        "total: 7 (this text is all there is: the structuredContent that the outputSchema promises is missing)",
    )]))
}

pub(super) fn get_legacy_result() -> ToolOutcome {
    Ok(rewrite::placeholder(
        Rewrite::LegacyResult,
        json!({"toolResult": {"answer": 42, "note": "early-draft result shape"}}),
    ))
}

pub(super) fn get_large_image(args: &Args<'_>) -> ToolOutcome {
    let megabytes = args.number_in("megabytes", 1.0..=40.0, 20.0)?;
    let (bmp, width, height) = media::bmp_pattern((megabytes * MEGABYTE as f64) as usize);
    let data = BASE64.encode(&bmp);
    let text = format!(
        "a {width}×{height} 24-bit BMP: {} bytes ({:.2} MB) of uncompressed pixels, {} characters of base64",
        bmp.len(),
        bmp.len() as f64 / MEGABYTE as f64,
        data.len(),
    );
    Ok(CallToolResult::success(vec![ContentBlock::image(data, "image/bmp"), ContentBlock::text(text)]))
}

/// Text and names that run script if a client ever renders them as HTML.
pub(super) const HOSTILE_TEXT: &str =
    r#"<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> plain text after"#;
pub(super) const HOSTILE_NAME: &str = r#"<img src=x onerror="window.__pwned_name=1">"#;
pub(super) const HOSTILE_URI: &str = "javascript:window.__pwned_link=1";

pub(super) fn get_hostile_content() -> ToolOutcome {
    Ok(CallToolResult::success(vec![
        ContentBlock::text(HOSTILE_TEXT),
        ContentBlock::resource_link(Resource::new(HOSTILE_URI, HOSTILE_NAME)),
        ContentBlock::resource_link(Resource::new("https://example.com/docs", "Safe link")),
    ]))
}

pub(super) fn get_long_text(args: &Args<'_>) -> ToolOutcome {
    let kilobytes = args.int_in("kilobytes", 1..=8192, 300)? as usize;
    Ok(CallToolResult::success(vec![ContentBlock::text(long_text(kilobytes * KILOBYTE))]))
}

/// Exactly `len` bytes of numbered ASCII lines, the last one cut short where needed.
fn long_text(len: usize) -> String {
    const LINE: &str = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.";
    let mut text = String::with_capacity(len + LINE.len() + 16);
    let mut number = 1;
    while text.len() < len {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{number:06} {LINE}");
        number += 1;
    }
    text.truncate(len);
    text
}

pub(super) const MARKDOWN: &str = r#"# Markdown from a tool

Text items are often **Markdown**. This one has *emphasis*, `inline code` and a
[link to the MCP site](https://modelcontextprotocol.io).

- a list item
- another, with **bold** text
  - and a nested one

```rust
fn main() {
    println!("a fenced code block");
}
```

Raw HTML must stay text: <b onclick="x()">raw html</b>
"#;

pub(super) fn get_markdown() -> ToolOutcome {
    Ok(CallToolResult::success(vec![ContentBlock::text(MARKDOWN)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_has_the_exact_length_and_numbered_lines() {
        for len in [1, 80, 1024, 300 * 1024] {
            let text = long_text(len);
            assert_eq!(text.len(), len);
            assert!(text.starts_with(&"000001 Lorem"[..len.min(12)]));
        }
        assert!(long_text(10_000).lines().nth(99).is_some_and(|line| line.starts_with("000100 ")));
    }
}
