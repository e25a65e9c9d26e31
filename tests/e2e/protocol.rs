//! Choosing the protocol revision: the headless command line pinned to each revision that
//! opens with `initialize`, and on `auto`, against `server-everything` over stdio,
//! Streamable HTTP and legacy SSE; the revision it prints and the recording's header.

use anyhow::{Result, ensure};
use tests::NodeServer;

use crate::cli::run;

fn everything() -> Result<String> {
    Ok(tests::server_everything()?.to_string_lossy().into_owned())
}

#[test]
fn cli_pins_a_revision_or_takes_the_newest_over_stdio() -> Result<()> {
    let entry = everything()?;
    let r = run(&["tools", "--protocol", "2024-11-05", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2024-11-05 (pinned)"), "{r}");
    ensure!(r.stdout.contains("echo") && r.stdout.contains("get-sum"), "the tools are listed: {r}");

    let r = run(&["tools", "--protocol", "auto", "node", &entry, "stdio"])?;
    ensure!(
        r.code == 0 && r.stderr.contains("protocol 2025-11-25 (offered 2025-11-25, the server accepted it)"),
        "{r}"
    );
    ensure!(r.stdout.contains("echo"), "{r}");

    // Without --protocol: auto.
    let r = run(&["call", "echo", "--arg", "message=hi", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("Echo: hi") && r.stderr.contains("protocol 2025-11-25"), "{r}");

    let r = run(&["tools", "--protocol", "2026-07-28", "node", &entry, "stdio"])?;
    ensure!(r.code == 2 && r.stderr.contains("2026-07-28 is not spoken by MCP Playground yet"), "{r}");
    Ok(())
}

#[test]
fn cli_records_and_replays_the_revision_it_asked_for() -> Result<()> {
    let entry = everything()?;
    let dir = std::env::temp_dir().join(format!("mcp-playground-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("pinned.jsonl");
    let file_arg = file.to_string_lossy().into_owned();
    let r = run(&[
        "call",
        "echo",
        "--arg",
        "message=hi",
        "--protocol",
        "2025-03-26",
        "--record",
        &file_arg,
        "node",
        &entry,
        "stdio",
    ])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2025-03-26 (pinned)"), "{r}");
    let header = std::fs::read_to_string(&file)?.lines().next().unwrap_or_default().to_owned();
    ensure!(header.contains(r#""protocol":"2025-03-26""#), "the revision asked for: {header}");
    ensure!(header.contains(r#""protocol_version":"2025-03-26""#), "the revision negotiated: {header}");

    // The replay asks for what the recording asked for, unless told otherwise.
    let r = run(&["replay", &file_arg, "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2025-03-26 (pinned)"), "{r}");
    let r = run(&["replay", &file_arg, "--protocol", "auto", "node", &entry, "stdio"])?;
    let _ = std::fs::remove_dir_all(&dir);
    ensure!(r.code == 1 && r.stderr.contains("protocol 2025-11-25 (offered 2025-11-25"), "{r}");
    ensure!(
        r.stdout.contains(r#"/result/protocolVersion: "2025-03-26" → "2025-11-25""#),
        "the difference is shown: {r}"
    );
    Ok(())
}

#[test]
fn cli_speaks_each_revision_over_http_and_2024_over_legacy_sse() -> Result<()> {
    let http = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", http.port);
    for revision in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        // The relay sends MCP-Protocol-Version with the revision agreed; a server that checks
        // it refuses a revision it does not know, so each call succeeding shows it is one.
        let r = run(&[
            "call",
            "echo",
            "--arg",
            "message=over http",
            "--protocol",
            revision,
            "--transport",
            "http",
            "--url",
            &url,
        ])?;
        ensure!(r.code == 0 && r.stdout.contains("Echo: over http"), "{revision}: {r}");
        ensure!(r.stderr.contains(&format!("protocol {revision} (pinned)")), "{revision}: {r}");
    }
    let sse = NodeServer::everything("sse")?;
    let url = format!("http://127.0.0.1:{}/sse", sse.port);
    let r = run(&[
        "call",
        "echo",
        "--arg",
        "message=over sse",
        "--protocol",
        "2024-11-05",
        "--transport",
        "sse",
        "--url",
        &url,
    ])?;
    ensure!(
        r.code == 0 && r.stdout.contains("Echo: over sse") && r.stderr.contains("protocol 2024-11-05 (pinned)"),
        "{r}"
    );
    Ok(())
}
