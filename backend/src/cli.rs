//! The command line: `mcp-playground [OPTIONS] [-- COMMAND ARGS...]` and `demo-server`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "mcp-playground", version, about = "Explore, demo and test the tools of MCP servers in your browser")]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Sub>,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Subcommand)]
pub enum Sub {
    /// Run the built-in demo MCP server on stdin/stdout (the playground starts it itself).
    DemoServer,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Address to listen on. Anything but loopback exposes a process launcher: think twice.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 6280)]
    pub port: u16,
    /// Session token every API request must carry (default: random per start).
    #[arg(long, env = "MCP_PLAYGROUND_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Do not open a browser.
    #[arg(long)]
    pub no_open: bool,
    /// Folder of the built page (default: the workspace's dist/).
    #[arg(long, env = "MCP_PLAYGROUND_ASSETS")]
    pub assets: Option<PathBuf>,
    /// Largest MCP message accepted either way, in bytes.
    #[arg(long, default_value_t = 32 * 1024 * 1024)]
    pub max_message_bytes: usize,
    /// A stdio server to preselect: program and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    pub server: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_forms() {
        let cli = Cli::try_parse_from(["mcp-playground", "--port", "0", "--no-open", "--", "node", "s.js", "--flag"])
            .unwrap();
        assert_eq!(cli.run.port, 0);
        assert!(cli.run.no_open);
        assert_eq!(cli.run.server, ["node", "s.js", "--flag"]);
        assert!(cli.command.is_none());
        let cli = Cli::try_parse_from(["mcp-playground", "demo-server"]).unwrap();
        assert!(matches!(cli.command, Some(Sub::DemoServer)));
        let cli = Cli::try_parse_from(["mcp-playground"]).unwrap();
        assert_eq!((cli.run.host.as_str(), cli.run.port), ("127.0.0.1", 6280));
        assert!(Cli::try_parse_from(["mcp-playground", "--prot", "1"]).is_err());
    }
}
