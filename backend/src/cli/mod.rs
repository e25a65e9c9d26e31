//! The command line: `mcp-playground [OPTIONS] [SERVER...]` (the playground), and the
//! subcommands `tools`, `call` (headless), `play` (the playground with a recording loaded)
//! and `demo-server`. A server is named the same way
//! everywhere ([`ServerArgs`]).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use shared::session::CallLimits;

mod auth;
mod server;

pub use auth::AuthArgs;
pub use server::{Offer, ServerArgError, ServerArgs};

#[derive(Debug, Parser)]
#[command(name = "mcp-playground", version, about = "Explore, demo and test the tools of MCP servers in your browser")]
// Options of the playground and a subcommand never mix: `tools` or `call` must come first,
// and a first word that is no subcommand starts the server's command line.
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Sub>,
    #[command(flatten)]
    pub run: RunArgs,
    /// How much the relay itself logs on stderr (other libraries stay at `warn`); wins over
    /// RUST_LOG, which is used when this is not given.
    #[arg(long, global = true, value_name = "LEVEL")]
    pub log_level: Option<LogLevel>,
}

#[derive(Debug, Subcommand)]
pub enum Sub {
    /// List the tools of a server, without a browser.
    Tools(ToolsArgs),
    /// Call one tool of a server, without a browser.
    Call(CallArgs),
    /// List the tasks a server keeps (`tasks/list`).
    Tasks(ToolsArgs),
    /// Look at, fetch the outcome of, or cancel one task of a server.
    Task(TaskArgs),
    /// List the resources and resource templates of a server (every page).
    Resources(ToolsArgs),
    /// Read one resource of a server (`resources/read`).
    Read(ReadArgs),
    /// List the prompts of a server (every page).
    Prompts(ToolsArgs),
    /// Get one prompt of a server with its arguments (`prompts/get`).
    Prompt(PromptArgs),
    /// Start the playground with a recording loaded, for the page to play back.
    Play(PlayArgs),
    /// Re-send a recording's requests to a live server and compare the answers (for CI):
    /// exit 0 when everything matches, 1 when something differs or breaks, 2 when it could
    /// not run. Only tools annotated read-only are re-sent unless --allow-writes.
    Replay(ReplayArgs),
    /// Write a recording as one web page that plays it anywhere, with no server and no
    /// network (double-click it, or put it on any static host).
    Export(ExportArgs),
    /// Run the built-in demo MCP server on stdin/stdout (the playground starts it itself).
    DemoServer,
    /// Serve a recording as an MCP server: each request gets its recorded answer.
    Mock(MockArgs),
}

/// The playground: serve the page, with a server preselected.
#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub listen: ListenArgs,
    /// Write every session to its own recording file in DIR as it happens (created when
    /// missing): one file per connection, JSON Lines, secrets masked.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Open the page with this tool picked (its link is `#tool=NAME`); nothing is called
    /// before Call is pressed.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// The arguments to fill --tool's form with, as one JSON object.
    #[arg(long, value_name = "JSON", requires = "tool", value_parser = link_args)]
    pub args: Option<serde_json::Value>,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `--args` of the playground: a JSON object.
fn link_args(text: &str) -> Result<serde_json::Value, shared::deep_link::LinkError> {
    shared::deep_link::read_args(text)
}

/// `mcp-playground play FILE [OPTIONS]`
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The recording: a file of `--record`, or one the page saved.
    pub file: PathBuf,
    #[command(flatten)]
    pub listen: ListenArgs,
}

/// `mcp-playground export FILE [-o PAGE.html]`
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The recording: a file of `--record`, or one the page saved.
    pub file: PathBuf,
    /// The page to write (default: the recording's name with `.html`).
    #[arg(short, long, value_name = "PAGE.html")]
    pub output: Option<PathBuf>,
    /// Folder of the built page, which holds the offline player (default: the workspace's dist/).
    #[arg(long, env = "MCP_PLAYGROUND_ASSETS")]
    pub assets: Option<PathBuf>,
}

/// `mcp-playground mock FILE [--port PORT] [--host HOST]`
#[derive(Debug, Args)]
pub struct MockArgs {
    /// The recording to answer from: a file of `--record`, or one the page saved.
    pub file: PathBuf,
    /// Serve Streamable HTTP at `/mcp` on this port (0 picks a free one) instead of stdio.
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on with `--port`; one beyond loopback needs --allow-remote.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Allow a --host beyond loopback: anyone who can reach it gets the recording's answers,
    /// in clear over plain HTTP.
    #[arg(long)]
    pub allow_remote: bool,
}

/// Where and how the playground serves the page (the playground and `play`).
#[derive(Debug, Args)]
pub struct ListenArgs {
    /// Address to listen on. Anything but loopback exposes a process launcher and needs
    /// --allow-remote.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Allow a --host beyond loopback. The relay speaks plain HTTP: its token and session
    /// cookie travel in clear, and whoever holds them can start processes on this machine.
    #[arg(long)]
    pub allow_remote: bool,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 6280)]
    pub port: u16,
    /// Session token, at least 16 characters (default: random per start): the printed URL
    /// trades it for a browser's session cookie; other API clients send it as `?token=` or
    /// `Authorization: Bearer`. Other local users can read a command line: prefer the
    /// environment variable MCP_PLAYGROUND_TOKEN, which this option overrides.
    #[arg(long)]
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
}

/// `mcp-playground tools [OPTIONS] SERVER...`
#[derive(Debug, Args)]
pub struct ToolsArgs {
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `mcp-playground task get|result|cancel ID [OPTIONS] SERVER...`
#[derive(Debug, Args)]
pub struct TaskArgs {
    /// `get` its status, wait for its `result`, or `cancel` it.
    pub action: TaskAction,
    /// The task's id, as `call --no-wait` or `tasks` printed it.
    pub id: String,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `mcp-playground read URI [OPTIONS] SERVER...`
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The resource's URI (a template's, filled in).
    pub uri: String,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `mcp-playground prompt NAME [--arg KEY=VALUE]... [OPTIONS] SERVER...`
#[derive(Debug, Args)]
pub struct PromptArgs {
    /// The prompt's name.
    pub name: String,
    /// One argument, KEY=VALUE (repeatable); prompt arguments are strings.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// What `task` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TaskAction {
    Get,
    Result,
    Cancel,
}

/// `mcp-playground call TOOL [--arg KEY=VALUE]... [--args JSON] [OPTIONS] SERVER...`
#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool to call.
    pub tool: String,
    /// One argument, KEY=VALUE (repeatable); the value is read as the tool's schema types it.
    #[arg(long = "arg", value_name = "KEY=VALUE")]
    pub arg: Vec<String>,
    /// All arguments as one JSON object.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// Send the arguments even when they break the tool's input schema (to see what the
    /// server does with them); the violations are still printed, as warnings.
    #[arg(long)]
    pub no_validate: bool,
    /// Run the call as a task where the tool lets the caller choose (`taskSupport:
    /// optional`); a tool that requires it always runs as one.
    #[arg(long)]
    pub task: bool,
    /// The time to live a task is asked for, in seconds.
    #[arg(long = "ttl", value_name = "SECONDS", default_value_t = shared::tasks::DEFAULT_TTL_MS / 1000.0, value_parser = seconds)]
    pub ttl_s: f64,
    /// Print the task's id once the server made one, and exit 0 without waiting for its end.
    #[arg(long)]
    pub no_wait: bool,
    #[command(flatten)]
    pub out: Output,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `mcp-playground replay FILE [--ignore POINTER]... [--json] [--fail-on breaking|any] SERVER...`
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The recording: a file of `--record`, or one the page saved.
    pub file: PathBuf,
    /// A JSON Pointer left out of the comparison (repeatable), `*` for any key or index,
    /// e.g. `/result/content/*/text/timestamp`; the recording's own ignores apply too.
    #[arg(long, value_name = "POINTER")]
    pub ignore: Vec<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// What fails the replay: `breaking` (breaking tool drift, errors, missing answers) or
    /// `any` difference.
    #[arg(long, value_enum, default_value_t = FailOnArg::Any)]
    pub fail_on: FailOnArg,
    /// Also re-send calls of tools not annotated read-only (by default they are skipped and
    /// reported as skipped): they may change, delete or order things.
    #[arg(long)]
    pub allow_writes: bool,
    /// Seconds of silence allowed from the server for each request before it counts as missing.
    #[arg(long = "timeout", value_name = "SECONDS", default_value_t = CallLimits::TIMEOUT_S, value_parser = seconds)]
    pub timeout_s: f64,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// `--fail-on`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    Breaking,
    Any,
}

/// What `tools` and `call` both take: how to print, how long to wait, where to record.
#[derive(Debug, Args)]
pub struct Output {
    /// Print JSON instead of readable text: a call's result exactly as the server sent it,
    /// or every page of the tool list as one `{"tools": [...]}`.
    #[arg(long)]
    pub json: bool,
    /// Seconds of silence allowed from the server (progress resets the clock) before giving up.
    #[arg(long = "timeout", value_name = "SECONDS", default_value_t = CallLimits::TIMEOUT_S, value_parser = seconds)]
    pub timeout_s: f64,
    /// Write the session to FILE as a recording (replaced when it exists), line by line as
    /// it happens; `mcp-playground play FILE` shows it.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Answer the server's elicitation and sampling requests, in order, from FILE (JSON:
    /// `{"elicitation": [{"action": "accept", "content": {…}}], "sampling": ["reply"],
    /// "roots": ["file:///…"]}`); without it they are declined.
    #[arg(long, value_name = "FILE")]
    pub answers: Option<PathBuf>,
}

/// `--log-level`: the levels of `tracing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    fn as_str(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

/// The `tracing` filter directives: `--log-level` when given (the relay's own crates at that
/// level, other libraries at `warn` or quieter), else `RUST_LOG` when set, else `default`.
pub fn log_filter(level: Option<LogLevel>, rust_log: Option<&str>, default: &str) -> String {
    match level {
        Some(level) => {
            let others = level.min(LogLevel::Warn).as_str();
            let ours = level.as_str();
            format!("{others},backend={ours},mcp_playground={ours}")
        }
        None => rust_log.map(str::trim).filter(|s| !s.is_empty()).unwrap_or(default).to_owned(),
    }
}

/// A `--host` beyond loopback given without `--allow-remote`.
#[derive(Debug, thiserror::Error)]
#[error(
    "--host {0} is not a loopback address: other machines could reach this port over plain HTTP; \
     pass --allow-remote as well to listen there anyway"
)]
pub struct RemoteRefused(String);

/// Checks a `--host` before anything listens: loopback (`127.0.0.0/8`, `::1`, `localhost`)
/// always passes; anything else only with `--allow-remote`. `Ok(true)`: listening beyond
/// loopback, which deserves a warning.
pub fn check_host(host: &str, allow_remote: bool) -> Result<bool, RemoteRefused> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    let loopback = match bare.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => bare.eq_ignore_ascii_case("localhost"),
    };
    match (loopback, allow_remote) {
        (true, _) => Ok(false),
        (false, true) => Ok(true),
        (false, false) => Err(RemoteRefused(host.to_owned())),
    }
}

/// A positive number of seconds.
fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

#[cfg(test)]
mod tests;
