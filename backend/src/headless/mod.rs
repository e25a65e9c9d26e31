//! The headless commands, `tools` and `call`: the page's client core driven without a
//! browser. Not written yet: both say so and exit with 2.

use std::process::ExitCode;

use crate::cli::{CallArgs, ToolsArgs};

/// `mcp-playground tools SERVER…`
pub async fn tools(args: ToolsArgs) -> anyhow::Result<ExitCode> {
    not_yet("tools", args.server.target()?)
}

/// `mcp-playground call TOOL [--arg K=V]… [--args JSON] SERVER…`
pub async fn call(args: CallArgs) -> anyhow::Result<ExitCode> {
    not_yet("call", args.server.target()?)
}

fn not_yet(command: &str, target: Option<shared::relay::Target>) -> anyhow::Result<ExitCode> {
    if target.is_none() {
        anyhow::bail!("name a server: a URL, a command, --url URL or --config FILE [--server NAME]");
    }
    #[allow(clippy::print_stderr, reason = "what a person at a terminal reads")]
    {
        eprintln!("mcp-playground {command}: not implemented yet");
    }
    Ok(ExitCode::from(2))
}
