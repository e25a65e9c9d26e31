//! `mcp-playground`: the relay that serves the page, the headless commands, or the
//! built-in demo server.

use std::process::ExitCode;

use clap::Parser;

use backend::cli::{self, Cli, Sub};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Logs go to stderr: stdout is the URL line, a command's output, or the demo server's
    // JSON-RPC channel. Only the playground (and `play`) says what it is doing by default.
    let serves = matches!(cli.command, None | Some(Sub::Play(_)));
    let default = if serves { "info,tower_http=warn" } else { "warn" };
    let rust_log = std::env::var("RUST_LOG").ok();
    let filter = cli::log_filter(cli.log_level, rust_log.as_deref(), default);
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_new(filter)
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default)),
        )
        .init();
    // One TLS crypto backend for every HTTPS client in the process (remote servers).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => return failed(&e.into()),
    };
    let result = match cli.command {
        Some(Sub::DemoServer) => runtime.block_on(backend::demo::run_stdio()).map(|()| ExitCode::SUCCESS),
        Some(Sub::Tools(args)) => runtime.block_on(backend::headless::tools(args)),
        Some(Sub::Call(args)) => runtime.block_on(backend::headless::call(args)),
        Some(Sub::Tasks(args)) => runtime.block_on(backend::headless::tasks(args)),
        Some(Sub::Task(args)) => runtime.block_on(backend::headless::task(args)),
        Some(Sub::Resources(args)) => runtime.block_on(backend::headless::resources(args)),
        Some(Sub::Read(args)) => runtime.block_on(backend::headless::read(args)),
        Some(Sub::Prompts(args)) => runtime.block_on(backend::headless::prompts(args)),
        Some(Sub::Prompt(args)) => runtime.block_on(backend::headless::prompt(args)),
        Some(Sub::Replay(args)) => runtime.block_on(backend::headless::replay(args)),
        Some(Sub::Export(args)) => export(args),
        Some(Sub::Mock(args)) => runtime.block_on(backend::mock::run(args)),
        Some(Sub::Play(args)) => runtime.block_on(backend::launch::play(args, announce)).map(|()| ExitCode::SUCCESS),
        None => runtime.block_on(backend::launch::run(cli.run, announce)).map(|()| ExitCode::SUCCESS),
    };
    result.unwrap_or_else(|e| failed(&e))
}

/// Says why the program stops, and stops it with exit code 1.
#[allow(clippy::print_stderr, reason = "a command line's last word")]
fn failed(e: &backend::error::Error) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::FAILURE
}

/// `export`: writes the page and says where, and how big.
#[allow(clippy::print_stdout, reason = "what the command made")]
fn export(args: backend::cli::ExportArgs) -> backend::error::Result<ExitCode> {
    let assets = args.assets.unwrap_or_else(backend::launch::default_assets);
    let w = backend::export::run(&args.file, args.output, &assets)?;
    println!(
        "wrote {} ({} KB: the recording {} KB before packing, the player the rest)",
        w.file.display(),
        w.bytes.div_ceil(1024),
        w.recording_bytes.div_ceil(1024)
    );
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::print_stdout, reason = "the one line of stdout that tests and people read")]
fn announce(url: &str) {
    println!("MCP Playground: {url}");
}
