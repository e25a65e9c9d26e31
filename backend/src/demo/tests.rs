//! Speaks raw newline-delimited JSON-RPC to the demo server over an in-memory pipe, the way
//! the relay will, so these tests pin the wire JSON rather than rmcp's typed view of it.

mod client;
mod shapes;

use std::time::Duration;

use serde_json::{Value, json};

use client::Client;

#[tokio::test]
async fn speaks_mcp_over_newline_delimited_json() {
    let mut client = Client::connect().await;

    let list = client.request("tools/list", json!({})).await;
    let summary: Vec<String> = list.result()["tools"]
        .as_array()
        .expect("tools array")
        .iter()
        .map(|tool| format!("{} {}", tool["name"].as_str().unwrap_or("?"), tool["annotations"]))
        .collect();
    expect_test::expect![[r#"
        echo {"readOnlyHint":true,"openWorldHint":false}
        get_image {"readOnlyHint":true,"openWorldHint":false}
        get_audio {"readOnlyHint":true,"openWorldHint":false}
        get_resources {"readOnlyHint":true,"openWorldHint":false}
        get_weather {"readOnlyHint":true,"openWorldHint":false}
        fail {"readOnlyHint":true,"openWorldHint":false}
        delete_everything {"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":false}
        slow_task {"readOnlyHint":true,"openWorldHint":false}
        submit_order {"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}
        toggle_extra_tool {"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}
        get_annotated {"readOnlyHint":true,"openWorldHint":false}
        get_unusual_content {"readOnlyHint":true,"openWorldHint":false}
        get_invalid_structured {"readOnlyHint":true,"openWorldHint":false}
        get_missing_structured {"readOnlyHint":true,"openWorldHint":false}
        get_legacy_result {"readOnlyHint":true,"openWorldHint":false}
        get_large_image {"readOnlyHint":true,"openWorldHint":false}
        get_hostile_content {"readOnlyHint":true,"openWorldHint":false}
        get_long_text {"readOnlyHint":true,"openWorldHint":false}
        get_markdown {"readOnlyHint":true,"openWorldHint":false}
        show_weather_chart {"readOnlyHint":true,"openWorldHint":false}
        refresh_forecast {"readOnlyHint":true,"openWorldHint":false}"#]]
    .assert_eq(&summary.join("\n"));
    for tool in list.result()["tools"].as_array().into_iter().flatten() {
        assert!(tool["title"].is_string() && tool["description"].is_string(), "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        let has_output_schema = tool.get("outputSchema").is_some();
        let declares = ["get_weather", "get_invalid_structured", "get_missing_structured"];
        assert_eq!(has_output_schema, declares.iter().any(|name| tool["name"] == *name), "{tool}");
    }

    let echo = client.call("echo", json!({"message": "hello, wire"})).await;
    assert_eq!(echo.text(0), "hello, wire");
    assert_eq!(echo.result()["isError"], false);

    let weather = client.call("get_weather", json!({"city": "Lisbon"})).await;
    let report = &weather.result()["structuredContent"];
    assert_eq!(report["city"], "Lisbon");
    assert!(report["temperature"].is_number(), "{report}");
    assert!(report["conditions"].is_string(), "{report}");
    assert!(report["humidity"].as_u64().is_some_and(|h| h <= 100), "{report}");
    let as_text: Value = serde_json::from_str(weather.text(0)).expect("text is JSON");
    assert_eq!(&as_text, report);

    let fail = client.call("fail", json!({"reason": "testing"})).await;
    assert_eq!(fail.result()["isError"], true);
    assert!(fail.text(0).contains("testing"), "{}", fail.response);
    let fail = client.call("fail", json!({"reason": "rpc", "as_protocol_error": true})).await;
    assert_eq!(fail.response["error"]["code"], -32603, "{}", fail.response);
    assert_eq!(fail.response["error"]["data"], json!({"reason": "rpc"}));

    let slow = client
        .request(
            "tools/call",
            json!({
                "name": "slow_task",
                "arguments": {"steps": 3, "delay_ms": 10},
                "_meta": {"progressToken": "slow-1"},
            }),
        )
        .await;
    let progress: Vec<String> = slow
        .before
        .iter()
        .filter(|message| message["method"] == "notifications/progress")
        .map(|message| message["params"].to_string())
        .collect();
    expect_test::expect![[r#"
        {"progressToken":"slow-1","progress":1.0,"total":3.0,"message":"step 1 of 3"}
        {"progressToken":"slow-1","progress":2.0,"total":3.0,"message":"step 2 of 3"}
        {"progressToken":"slow-1","progress":3.0,"total":3.0,"message":"step 3 of 3"}"#]]
    .assert_eq(&progress.join("\n"));
    assert_eq!(slow.text(0), "done after 3 steps");
}

#[tokio::test]
async fn errors_toggling_and_cancellation() {
    let mut client = Client::connect().await;

    let unknown = client.call("no_such_tool", json!({})).await.response;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(unknown["error"]["message"].as_str().unwrap_or_default().contains("no_such_tool"));
    let hidden = client.call("extra_tool", json!({})).await.response;
    assert_eq!(hidden["error"]["code"], -32602, "extra_tool is hidden until toggled");

    for (tool, arguments) in [
        ("echo", json!({})),
        ("echo", json!({"message": 42})),
        ("get_image", json!({"width": 4000})),
        ("get_audio", json!({"frequency": "loud"})),
    ] {
        let bad = client.call(tool, arguments.clone()).await;
        assert_eq!(bad.result()["isError"], true, "{tool} {arguments}: {}", bad.response);
        assert!(bad.text(0).starts_with("argument") || bad.text(0).starts_with("missing"));
    }

    let toggle = client.call("toggle_extra_tool", json!({})).await;
    let methods: Vec<&Value> = toggle.before.iter().map(|message| &message["method"]).collect();
    assert_eq!(methods, [&json!("notifications/tools/list_changed")]);
    assert_eq!(client.tool_names().await.last().map(String::as_str), Some("extra_tool"));
    assert_eq!(client.call("extra_tool", json!({})).await.text(0), "extra tool called");
    client.call("toggle_extra_tool", json!({})).await;
    assert_eq!(client.tool_names().await.len(), 21);

    // Cancelled, a slow task stops sending progress; rmcp drops its response, as the spec
    // asks, so progress is the only thing to watch.
    let call = json!({
        "name": "slow_task",
        "arguments": {"steps": 50, "delay_ms": 20},
        "_meta": {"progressToken": "cancel-me"},
    });
    let id = client.start_request("tools/call", call).await;
    let first = client.recv().await;
    assert_eq!(first["params"]["progress"], 1.0, "{first}");
    let cancel = json!({"requestId": id, "reason": "test"});
    client.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})).await;
    // The ping's answer proves the cancellation was read; one step may already be under way.
    let mut late = client.request("ping", json!({})).await.before;
    late.extend(client.drain(Duration::from_millis(300)).await);
    assert!(late.len() <= 1, "still working after cancellation: {late:?}");
    assert!(late.iter().all(|message| message["method"] == "notifications/progress"));
}

#[tokio::test]
async fn media_and_resource_content_items() {
    let mut client = Client::connect().await;
    let image = client.call("get_image", json!({"width": 16, "height": 9})).await;
    let item = &image.result()["content"][0];
    assert_eq!((&item["type"], &item["mimeType"]), (&json!("image"), &json!("image/png")));
    assert!(item["data"].as_str().is_some_and(|data| data.starts_with("iVBORw0KGgo")));

    let audio = client.call("get_audio", json!({"duration_ms": 100})).await;
    let item = &audio.result()["content"][0];
    assert_eq!((&item["type"], &item["mimeType"]), (&json!("audio"), &json!("audio/wav")));
    assert!(item["data"].as_str().is_some_and(|data| data.starts_with("UklGR")));

    let resources = client.call("get_resources", json!({})).await;
    expect_test::expect![[r#"
        [
          {
            "type": "resource_link",
            "uri": "demo://notes/readme.md",
            "name": "readme.md",
            "title": "Demo notes",
            "description": "A short markdown note, returned as a link only",
            "mimeType": "text/markdown",
            "size": 68
          },
          {
            "type": "resource",
            "resource": {
              "uri": "demo://config.json",
              "mimeType": "application/json",
              "text": "{\n  \"theme\": \"dark\",\n  \"retries\": 3,\n  \"features\": [\n    \"images\",\n    \"audio\"\n  ]\n}"
            }
          },
          {
            "type": "resource",
            "resource": {
              "uri": "demo://blob.bin",
              "mimeType": "application/octet-stream",
              "blob": "AAECA96tvu/K/v9/"
            }
          }
        ]"#]].assert_eq(
        &serde_json::to_string_pretty(&resources.result()["content"]).unwrap_or_default(),
    );
}

#[tokio::test]
async fn submit_order_checks_and_echoes_its_nested_input() {
    let mut client = Client::connect().await;
    let order = json!({
        "customer": {"name": "Ada"},
        "lines": [{"sku": "ABC-123", "quantity": 2, "options": {"gift_wrap": true}}],
        "delivery": {"method": "courier", "address": "1 Main Street", "express": false}
    });
    let ok = client.call("submit_order", order.clone()).await;
    assert_eq!(ok.text(0), "Order for Ada: 1 line(s), 2 item(s), courier delivery");
    assert_eq!(ok.result()["structuredContent"]["received"], order);
    let bad = client
        .call("submit_order", json!({"customer": {"name": "Ada"}, "lines": [{"sku": "bad", "quantity": 1}]}))
        .await;
    assert_eq!(bad.result()["isError"], true);
    assert!(bad.text(0).contains("lines/0/sku"), "{}", bad.response);
}
