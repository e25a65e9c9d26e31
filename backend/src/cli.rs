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
    /// A remote server to preselect (http or https).
    #[arg(long, conflicts_with_all = ["config", "server"])]
    pub url: Option<String>,
    /// The remote transport for --url: `http` (Streamable HTTP) or `sse` (legacy); found
    /// out when not given.
    #[arg(long, requires = "url", value_parser = ["http", "sse"])]
    pub transport: Option<String>,
    /// An `mcpServers` JSON file (Claude Desktop, Cursor, the official inspector) ...
    #[arg(long, requires = "server_name")]
    pub config: Option<PathBuf>,
    /// ... and the name of the server in it to preselect.
    #[arg(long = "server", id = "server_name", requires = "config")]
    pub server_name: Option<String>,
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
        let cli =
            Cli::try_parse_from(["mcp-playground", "--url", "http://127.0.0.1:1/mcp", "--transport", "sse"]).unwrap();
        assert_eq!(
            (cli.run.url.as_deref(), cli.run.transport.as_deref()),
            (Some("http://127.0.0.1:1/mcp"), Some("sse"))
        );
        let cli = Cli::try_parse_from(["mcp-playground", "--config", "c.json", "--server", "files"]).unwrap();
        assert_eq!(cli.run.server_name.as_deref(), Some("files"));
        assert!(Cli::try_parse_from(["mcp-playground", "--config", "c.json"]).is_err(), "--config needs --server");
        assert!(Cli::try_parse_from(["mcp-playground", "--transport", "sse"]).is_err(), "--transport needs --url");
        assert!(Cli::try_parse_from(["mcp-playground", "--url", "x", "--transport", "ws"]).is_err());
    }
}
