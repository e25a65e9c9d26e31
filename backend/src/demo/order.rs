//! `submit_order`: a tool with a nested input schema (an object inside an array inside an
//! object, a `oneOf` of delivery methods, optional, nullable and multiple-choice fields) for exercising
//! generated forms. It checks its own input, as a server should, and echoes what it got.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::{Value, json};

use super::tools::ToolOutcome;

pub(super) fn input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "customer": {
                "type": "object",
                "title": "Customer",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "description": "Full name"},
                    "email": {"type": "string", "format": "email"}
                },
                "required": ["name"]
            },
            "lines": {
                "type": "array",
                "title": "Order lines",
                "minItems": 1,
                "maxItems": 20,
                "items": {
                    "type": "object",
                    "properties": {
                        "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{3}$", "description": "Like ABC-123",
                                "examples": ["ABC-123", "XYZ-900"]},
                        "quantity": {"type": "integer", "minimum": 1, "maximum": 99, "default": 1},
                        "options": {
                            "type": "object",
                            "properties": {
                                "gift_wrap": {"type": "boolean"},
                                "engraving": {"type": "string", "maxLength": 20}
                            }
                        }
                    },
                    "required": ["sku", "quantity"]
                }
            },
            "delivery": {
                "title": "Delivery",
                "oneOf": [
                    {
                        "title": "Pickup in store",
                        "type": "object",
                        "properties": {
                            "method": {"const": "pickup"},
                            "store": {"type": "string", "enum": ["Lisbon", "Porto"]}
                        },
                        "required": ["method", "store"]
                    },
                    {
                        "title": "Courier",
                        "type": "object",
                        "properties": {
                            "method": {"const": "courier"},
                            "address": {"type": "string", "minLength": 5},
                            "express": {"type": "boolean", "default": false}
                        },
                        "required": ["method", "address", "express"]
                    }
                ]
            },
            "note": {"type": ["string", "null"], "maxLength": 500, "description": "For the packer"},
            "labels": {
                "type": "array",
                "title": "Labels",
                "description": "Stickers on the parcel",
                "items": {"enum": ["fragile", "gift", "urgent"]},
                "uniqueItems": true
            }
        },
        "required": ["customer", "lines", "delivery"]
    })
}

fn sku_ok(sku: &str) -> bool {
    let b = sku.as_bytes();
    b.len() == 7 && b[..3].iter().all(u8::is_ascii_uppercase) && b[3] == b'-' && b[4..].iter().all(u8::is_ascii_digit)
}

pub(super) fn submit_order(arguments: Option<&JsonObject>) -> ToolOutcome {
    let args = Value::Object(arguments.cloned().unwrap_or_default());
    let name = args["customer"]["name"].as_str().filter(|n| !n.is_empty()).ok_or("customer.name is required")?;
    let lines = args["lines"].as_array().filter(|l| !l.is_empty()).ok_or("at least one order line is required")?;
    let mut items = 0;
    for (i, line) in lines.iter().enumerate() {
        let sku = line["sku"].as_str().unwrap_or_default();
        if !sku_ok(sku) {
            return Err(format!("lines/{i}/sku {sku:?} is not like ABC-123"));
        }
        items += line["quantity"]
            .as_i64()
            .filter(|q| (1..=99).contains(q))
            .ok_or(format!("lines/{i}/quantity must be 1 to 99"))?;
    }
    let method = args["delivery"]["method"].as_str().ok_or("delivery.method is required")?;
    let text = format!("Order for {name}: {} line(s), {items} item(s), {method} delivery", lines.len());
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(json!({"received": args}));
    Ok(result)
}
