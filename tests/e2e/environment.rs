//! What a stdio server sees of the environment it is started from, through the real binary:
//! the minimal set by default, the variables set for it, everything with `--inherit-env`,
//! never the relay's token. The server here prints the names of its environment on one
//! stderr line and exits; the headless command line shows that last line in its error.

use anyhow::{Result, ensure};
use tests::root;

use tests::command::run_in;

/// The names a server started by `mcp-playground tools EXTRA -- sh -c ...` sees.
fn names_seen(extra: &[&str]) -> Result<Vec<String>> {
    let mut args = vec!["tools"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--", "sh", "-c", "echo NAMES $(env | cut -d= -f1 | tr '\\n' ' ') >&2; exit 3"]);
    let secrets =
        [("PLAYGROUND_TEST_API_KEY", "sk-not-for-servers"), ("MCP_PLAYGROUND_TOKEN", "0123456789abcdef-token")];
    let run = run_in(&root(), &args, &secrets)?;
    ensure!(run.code == 2, "a server that exits at once is a transport error: {run}");
    let (_, names) = run.stderr.split_once("NAMES ").ok_or_else(|| anyhow::anyhow!("no names shown: {run}"))?;
    Ok(names.lines().next().unwrap_or_default().split_whitespace().map(str::to_owned).collect())
}

#[tokio::test]
async fn a_server_gets_no_secret_of_the_relay_unless_told() -> Result<()> {
    let minimal = names_seen(&["-e", "GIVEN_TO_IT=1"])?;
    ensure!(minimal.iter().any(|n| n == "PATH") && minimal.iter().any(|n| n == "GIVEN_TO_IT"), "{minimal:?}");
    for secret in ["PLAYGROUND_TEST_API_KEY", "MCP_PLAYGROUND_TOKEN"] {
        ensure!(!minimal.iter().any(|n| n == secret), "{secret} reached the server: {minimal:?}");
    }
    let all = names_seen(&["--inherit-env"])?;
    ensure!(all.iter().any(|n| n == "PLAYGROUND_TEST_API_KEY"), "--inherit-env passes everything: {all:?}");
    ensure!(!all.iter().any(|n| n == "MCP_PLAYGROUND_TOKEN"), "never the token: {all:?}");
    Ok(())
}
