//! How long the session takes to take in a flood of messages, natively: 100,000
//! `notifications/message` lines after a connection, fed as the page feeds them (in batches,
//! drained after each). `cargo run --release -p mcp-playground-shared --example ingest_timing`.

use std::time::Instant;

use shared::recording::{Player, parse};

#[allow(clippy::print_stdout, reason = "the figures are the example's output")]
fn main() {
    let n = 100_000;
    let mut text = String::from(
        r#"{"format":"mcp-playground-recording","version":1,"started_at_ms":0,"recorded_by":"relay","relay_version":"bench","target":{"transport":"demo"},"protocol_version":"2025-06-18","server_info":{"name":"bench","version":"1"}}"#,
    );
    text.push('\n');
    let line = |t: usize, dir: &str, frame: &str| {
        format!("{{\"t\":{t},\"dir\":\"{dir}\",\"frame\":{}}}\n", serde_json::to_string(frame).expect("a string"))
    };
    text += &line(1, "out", r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
    text += &line(
        2,
        "in",
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"bench","version":"1"}}}"#,
    );
    for i in 0..n {
        let frame = format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","logger":"flood","data":"message {i}"}}}}"#
        );
        text += &line(3 + i, "in", &frame);
    }
    let recording = parse(&text).expect("a recording");
    let mut player = Player::new("flood".into(), recording.header, recording.entries, text);
    let mut session = player.fresh_session();
    let started = Instant::now();
    let mut batches = 0;
    for batch in [1usize, 10, 100, 1000] {
        let at = Instant::now();
        let mut fed = 0;
        while fed < n / 4 && player.step(&mut session) {
            fed += 1;
            if fed % batch == 0 {
                session.drain();
                batches += 1;
            }
        }
        session.drain();
        println!("batches of {batch}: {:.1} µs a message", at.elapsed().as_secs_f64() * 1e6 / fed as f64);
    }
    println!("{n} messages in {:.0} ms, {batches} drains", started.elapsed().as_secs_f64() * 1000.0);
}
