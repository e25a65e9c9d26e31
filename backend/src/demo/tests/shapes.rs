//! Wire tests for the result-shape tools: each result must reach the client exactly as
//! built, broken and hostile shapes included, with no rewrite marker left behind.

use base64::{Engine, engine::general_purpose::STANDARD as BASE64};
use serde_json::{Value, json};

use super::client::{Client, Exchange};

/// The rewrite marker must never reach the client.
fn assert_unmarked(exchange: &Exchange) {
    let wire = exchange.response.to_string();
    assert!(!wire.contains("mcp-playground/rewrite"), "marker left in {wire}");
}

async fn listed_tool(client: &mut Client, name: &str) -> Value {
    let list = client.request("tools/list", json!({})).await;
    let tools = list.result()["tools"].as_array().expect("tools array").clone();
    tools.into_iter().find(|tool| tool["name"] == name).unwrap_or_else(|| panic!("{name} is not listed"))
}

#[tokio::test]
async fn annotations_and_unknown_content() {
    let mut client = Client::connect().await;

    let annotated = client.call("get_annotated", json!({})).await;
    let content = &annotated.result()["content"];
    assert_eq!(
        content[0]["annotations"],
        json!({"audience": ["user"], "priority": 0.9, "lastModified": "2025-01-12T15:00:58Z"})
    );
    assert_eq!((&content[1]["type"], &content[1]["mimeType"]), (&json!("image"), &json!("image/png")));
    assert_eq!(content[1]["annotations"], json!({"audience": ["assistant"], "priority": 0.2}));
    assert!(content[1]["data"].as_str().is_some_and(|data| data.len() < 10_000), "a small image");
    assert_eq!(content[2]["type"], "resource_link");
    assert_eq!(content[2]["annotations"]["audience"], json!(["user", "assistant"]), "{}", content[2]);

    let unusual = client.call("get_unusual_content", json!({})).await;
    assert_unmarked(&unusual);
    assert_eq!(unusual.result()["isError"], false);
    let content = unusual.result()["content"].as_array().expect("content array");
    assert_eq!(content.len(), 2, "{content:?}");
    assert_eq!(content[0]["type"], "text");
    assert_eq!(content[1], json!({"type": "hologram", "frames": 3, "note": "a content type from the future"}));

    // The connection still works after a rewritten response.
    assert_eq!(client.call("echo", json!({"message": "after"})).await.text(0), "after");
}

#[tokio::test]
async fn structured_content_against_the_output_schema() {
    let mut client = Client::connect().await;

    let tool = listed_tool(&mut client, "get_invalid_structured").await;
    let schema = &tool["outputSchema"];
    assert_eq!(schema["properties"]["count"], json!({"type": "integer", "minimum": 0}), "{schema}");
    assert_eq!(schema["properties"]["label"], json!({"type": "string"}), "{schema}");
    assert_eq!(schema["required"], json!(["count", "label"]));
    let invalid = client.call("get_invalid_structured", json!({})).await;
    assert_eq!(invalid.result()["structuredContent"], json!({"count": -5, "label": 42}));
    let as_text: Value = serde_json::from_str(invalid.text(0)).expect("text is JSON");
    assert_eq!(as_text, json!({"count": -5, "label": 42}));

    let tool = listed_tool(&mut client, "get_missing_structured").await;
    assert_eq!(tool["outputSchema"]["type"], "object", "{tool}");
    let missing = client.call("get_missing_structured", json!({})).await;
    assert!(missing.result().get("structuredContent").is_none(), "{}", missing.response);
    assert!(missing.text(0).contains("missing"));
}

#[tokio::test]
async fn legacy_result_has_no_content() {
    let mut client = Client::connect().await;
    let legacy = client.call("get_legacy_result", json!({})).await;
    assert_unmarked(&legacy);
    let result = legacy.result();
    assert!(result.get("content").is_none(), "{result}");
    assert_eq!(result, &json!({"toolResult": {"answer": 42, "note": "early-draft result shape"}}));
}

#[tokio::test]
async fn large_image_is_a_bmp_of_the_requested_size() {
    let mut client = Client::connect().await;
    let image = client.call("get_large_image", json!({"megabytes": 2})).await;
    let item = &image.result()["content"][0];
    assert_eq!((&item["type"], &item["mimeType"]), (&json!("image"), &json!("image/bmp")));
    let bytes = BASE64.decode(item["data"].as_str().expect("base64 data")).expect("valid base64");
    assert_eq!(&bytes[..2], b"BM");
    let size_field = u32::from_le_bytes(bytes[2..6].try_into().expect("four bytes"));
    assert_eq!(size_field as usize, bytes.len());
    assert!(bytes.len().abs_diff(2 << 20) < 20_000, "{} bytes", bytes.len());
    let width = u32::from_le_bytes(bytes[18..22].try_into().expect("four bytes"));
    let height = u32::from_le_bytes(bytes[22..26].try_into().expect("four bytes"));
    let text = image.text(1);
    assert!(text.contains(&format!("{width}×{height}")) && text.contains(&bytes.len().to_string()), "{text}");

    for (tool, arguments) in [("get_large_image", json!({"megabytes": 41})), ("get_long_text", json!({"kilobytes": 0}))]
    {
        let bad = client.call(tool, arguments).await;
        assert_eq!(bad.result()["isError"], true, "{}", bad.response);
    }
    // After a multi-megabyte line, the server still answers and still stops cleanly.
    assert_eq!(client.call("echo", json!({"message": "still here"})).await.text(0), "still here");
    client.close().await.expect("the server stops without an error");
}

#[tokio::test]
async fn hostile_content_is_sent_as_plain_data() {
    let mut client = Client::connect().await;
    let tool = listed_tool(&mut client, "get_hostile_content").await;
    let description = tool["description"].as_str().unwrap_or_default();
    assert!(description.contains(r#"<img src=x onerror="window.__pwned_description=1"> <b>bold?</b>"#));

    let hostile = client.call("get_hostile_content", json!({})).await;
    assert_eq!(
        hostile.text(0),
        r#"<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> plain text after"#
    );
    let content = &hostile.result()["content"];
    assert_eq!(
        content[1],
        json!({
            "type": "resource_link",
            "uri": "javascript:window.__pwned_link=1",
            "name": r#"<img src=x onerror="window.__pwned_name=1">"#,
        })
    );
    assert_eq!(content[2], json!({"type": "resource_link", "uri": "https://example.com/docs", "name": "Safe link"}));
}

#[tokio::test]
async fn long_text_and_markdown() {
    let mut client = Client::connect().await;
    let long = client.call("get_long_text", json!({"kilobytes": 5})).await;
    assert_eq!(long.text(0).len(), 5 * 1024);
    assert!(long.text(0).starts_with("000001 Lorem ipsum"), "{}", &long.text(0)[..40]);
    let default = client.call("get_long_text", json!({})).await;
    assert_eq!(default.text(0).len(), 300 * 1024);

    let markdown = client.call("get_markdown", json!({})).await;
    let text = markdown.text(0);
    for part in ["# ", "\n- ", "*emphasis*", "`inline code`", "\n```rust\n", "](https://modelcontextprotocol.io)"] {
        assert!(text.contains(part), "{part:?} missing from {text}");
    }
    assert!(text.contains(r#"<b onclick="x()">raw html</b>"#));
}
