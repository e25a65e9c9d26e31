//! How long checking one message against its revision's schema takes, natively:
//! `cargo run --release -p mcp-playground-shared --example check_timing`.

use std::time::Instant;

use serde_json::json;
use shared::jsonrpc::Kind;
use shared::relay::Direction;
use shared::revision::Revision;
use shared::spec_check::{Message, check};

#[allow(clippy::print_stdout, reason = "the figures are the example's output")]
fn main() {
    let r = Revision::V2025_06_18;
    let started = Instant::now();
    let list = json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]}});
    let message = Message { direction: Direction::In, kind: Kind::Response, method: Some("tools/list") };
    check(r, message, &list).expect("bundled");
    let first = started.elapsed();
    let n = 100_000;
    let started = Instant::now();
    for _ in 0..n {
        check(r, message, &list).expect("bundled");
    }
    let each = started.elapsed() / n;
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}});
    let out = Message { direction: Direction::Out, kind: Kind::Request, method: Some("tools/call") };
    let started = Instant::now();
    for _ in 0..n {
        check(r, out, &call).expect("bundled");
    }
    let each_call = started.elapsed() / n;
    let text = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}"#;
    let started = Instant::now();
    for _ in 0..n {
        let v: serde_json::Value = serde_json::from_str(text).expect("json");
        check(r, message, &v).expect("bundled");
    }
    let each_parsed = started.elapsed() / n;
    println!("first check (parse + compile {r}): {first:?}");
    println!(
        "tools/list answer: {each:?} per check; tools/call request: {each_call:?}; parse + check: {each_parsed:?}"
    );
}
