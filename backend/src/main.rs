//! `mcp-playground`: the relay that serves the page, or the built-in demo server.

use clap::Parser;

use backend::cli::{Cli, Sub};

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let demo = matches!(cli.command, Some(Sub::DemoServer));
    // Logs go to stderr: stdout is the URL line, or the demo server's JSON-RPC channel.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| if demo { "warn".into() } else { "info,tower_http=warn".into() }),
        )
        .init();
    // One TLS crypto backend for every HTTPS client in the process (remote servers).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    match cli.command {
        Some(Sub::DemoServer) => runtime.block_on(backend::demo::run_stdio()),
        None => runtime.block_on(backend::launch::run(cli.run, announce)),
    }
}

#[allow(clippy::print_stdout, reason = "the one line of stdout that tests and people read")]
fn announce(url: &str) {
    println!("MCP Playground: {url}");
}
