//! The demo server's tool definitions: names, titles, raw JSON schemas and annotations.

mod shapes;

use rmcp::model::{Tool, ToolAnnotations, object};
use serde_json::{Value, json};

/// The tool that `toggle_extra_tool` adds to and removes from the list.
pub(super) const EXTRA_TOOL: &str = "extra_tool";

/// Every tool currently listed, in a stable order; `extra_tool` last when enabled.
pub(super) fn tools(extra_enabled: bool) -> Vec<Tool> {
    let mut tools = vec![
        tool(
            "echo",
            "Echo",
            "Returns the message you send, unchanged, as one text item.",
            json!({
                "type": "object",
                "properties": {"message": {"type": "string", "description": "Text to send back"}},
                "required": ["message"],
            }),
        )
        .with_annotations(harmless()),
        tool(
            "get_image",
            "Get an image",
            "Returns a generated colourful PNG image of the requested size.",
            json!({
                "type": "object",
                "properties": {
                    "width": {"type": "integer", "minimum": 8, "maximum": 512, "default": 96},
                    "height": {"type": "integer", "minimum": 8, "maximum": 512, "default": 96},
                },
            }),
        )
        .with_annotations(harmless()),
        tool(
            "get_audio",
            "Get a sound",
            "Returns a short sine tone as a 16-bit mono WAV file.",
            json!({
                "type": "object",
                "properties": {
                    "frequency": {"type": "number", "minimum": 50, "maximum": 4000, "default": 440,
                                  "description": "Pitch in hertz"},
                    "duration_ms": {"type": "integer", "minimum": 100, "maximum": 5000, "default": 800},
                },
            }),
        )
        .with_annotations(harmless()),
        tool(
            "get_resources",
            "Get resources",
            "Returns a resource link, an embedded text resource and an embedded binary resource.",
            no_arguments(),
        )
        .with_annotations(harmless()),
        tool(
            "get_weather",
            "Get the weather",
            "Returns made-up but repeatable weather for a city as structured content.",
            json!({
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City name, e.g. Lisbon"}},
                "required": ["city"],
            }),
        )
        .with_raw_output_schema(object(weather_schema()).into())
        .with_annotations(harmless()),
        tool(
            "fail",
            "Fail on purpose",
            "Always fails: by default with a tool error result (isError), or with a JSON-RPC error \
             when as_protocol_error is true, so you can see both kinds of failure.",
            json!({
                "type": "object",
                "properties": {
                    "reason": {"type": "string", "description": "Why it should fail"},
                    "as_protocol_error": {
                        "type": "boolean",
                        "default": false,
                        "description": "Fail with a JSON-RPC error response instead of a tool error result"
                    },
                },
            }),
        )
        .with_annotations(harmless()),
        tool(
            "delete_everything",
            "Delete everything",
            "Pretends to delete everything (it deletes nothing) to show a destructive tool's hints.",
            json!({
                "type": "object",
                "properties": {
                    "confirm_phrase": {"type": "string", "description": "Type anything to confirm"},
                },
                "required": ["confirm_phrase"],
            }),
        )
        .with_annotations(
            ToolAnnotations::new().read_only(false).destructive(true).idempotent(false).open_world(false),
        ),
        tool(
            "slow_task",
            "Slow task",
            "Works through several timed steps, reporting progress after each and honouring cancellation.",
            json!({
                "type": "object",
                "properties": {
                    "steps": {"type": "integer", "minimum": 1, "maximum": 50, "default": 5},
                    "delay_ms": {"type": "integer", "minimum": 0, "maximum": 5000, "default": 500,
                                 "description": "Pause before each step"},
                },
            }),
        )
        .with_annotations(harmless()),
        tool(
            "submit_order",
            "Submit an order",
            "Places a pretend order: customer, order lines with options, and a delivery method. \
             Its nested input schema shows off generated forms; nothing is ordered.",
            super::order::input_schema(),
        )
        .with_annotations(
            ToolAnnotations::new().read_only(false).destructive(false).idempotent(false).open_world(false),
        ),
        tool(
            "toggle_extra_tool",
            "Toggle the extra tool",
            "Adds or removes `extra_tool` and notifies the client that the tool list changed.",
            no_arguments(),
        )
        .with_annotations(
            ToolAnnotations::new().read_only(false).destructive(false).idempotent(false).open_world(false),
        ),
    ];
    tools.extend(shapes::tools());
    if extra_enabled {
        tools.push(
            tool(
                EXTRA_TOOL,
                "Extra tool",
                "Appears only after `toggle_extra_tool`; returns a fixed text.",
                no_arguments(),
            )
            .with_annotations(harmless()),
        );
    }
    tools
}

/// The `outputSchema` of `get_weather`; the tool's structured content must match it.
fn weather_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "temperature": {"type": "number", "description": "Degrees Celsius"},
            "conditions": {"type": "string"},
            "humidity": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Percent"},
        },
        "required": ["temperature", "conditions", "humidity", "city"],
    })
}

fn tool(name: &'static str, title: &str, description: &'static str, input: Value) -> Tool {
    Tool::new(name, description, object(input)).with_title(title)
}

fn no_arguments() -> Value {
    json!({"type": "object", "properties": {}})
}

/// Reads nothing but its arguments and touches nothing outside the server.
fn harmless() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).open_world(false)
}
