//! Definitions of the tools that show every shape a tool result can take, including
//! shapes that break the spec or try to attack the client.

use rmcp::model::{Tool, object};
use serde_json::json;

use super::{harmless, no_arguments, tool};

pub(super) fn tools() -> Vec<Tool> {
    [
        tool(
            "get_annotated",
            "Get annotated content",
            "Returns a text item, an image and a resource link that carry annotations \
             (audience, priority, lastModified).",
            no_arguments(),
        ),
        tool(
            "get_unusual_content",
            "Get unusual content",
            "Returns a text item and a `hologram` item: a content type that no MCP revision \
             defines, as a server from the future might send.",
            no_arguments(),
        ),
        tool(
            "get_invalid_structured",
            "Get invalid structured content",
            "Declares an outputSchema ({count: integer ≥ 0, label: string}) but returns \
             structuredContent that violates it: {\"count\": -5, \"label\": 42}.",
            no_arguments(),
        )
        .with_raw_output_schema(
            object(json!({
                "type": "object",
                "properties": {
                    "count": {"type": "integer", "minimum": 0},
                    "label": {"type": "string"},
                },
                "required": ["count", "label"],
            }))
            .into(),
        ),
        tool(
            "get_missing_structured",
            "Get missing structured content",
            "Declares an outputSchema but returns only a text item, without the structuredContent \
             the schema promises.",
            no_arguments(),
        )
        .with_raw_output_schema(
            object(json!({
                "type": "object",
                "properties": {"total": {"type": "integer"}},
                "required": ["total"],
            }))
            .into(),
        ),
        tool(
            "get_legacy_result",
            "Get a legacy result",
            "Returns a result in the early-draft shape: a `toolResult` field and no `content` at all.",
            no_arguments(),
        ),
        tool(
            "get_large_image",
            "Get a large image",
            "Returns an uncompressed BMP image of about the requested size, to test how a client \
             copes with a huge message, plus a text item with its dimensions and byte size.",
            json!({
                "type": "object",
                "properties": {
                    "megabytes": {"type": "number", "minimum": 1, "maximum": 40, "default": 20,
                                  "description": "Size of the image file in MB (1 MB = 1,048,576 bytes)"},
                },
            }),
        ),
        tool(
            "get_hostile_content",
            "Get hostile content",
            "Proves that the client never renders server text as HTML: <img src=x \
             onerror=\"window.__pwned_description=1\"> <b>bold?</b> Returns text with an \
             HTML payload, a link with a javascript: URI and an HTML name, and a safe link.",
            no_arguments(),
        ),
        tool(
            "get_long_text",
            "Get long text",
            "Returns one text item of the requested size: numbered lines of placeholder text.",
            json!({
                "type": "object",
                "properties": {
                    "kilobytes": {"type": "integer", "minimum": 1, "maximum": 8192, "default": 300,
                                  "description": "Size of the text in KB (1 KB = 1,024 bytes)"},
                },
            }),
        ),
        tool(
            "get_markdown",
            "Get Markdown",
            "Returns a text item written in Markdown: a heading, a list, emphasis, inline code, a \
             fenced code block, a link, and raw HTML that must be shown as text.",
            no_arguments(),
        ),
    ]
    .into_iter()
    .map(|tool| tool.with_annotations(harmless()))
    .collect()
}
