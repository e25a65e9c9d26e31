//! Harness for the end-to-end tests: the real `mcp-playground` binary on a free loopback
//! port, Debian's Chromium driven through chromedriver, real MCP servers from npm, and
//! process-tree checks. Everything waits on readiness (a line, a socket, an element),
//! never on a fixed sleep.

pub mod browser;
pub mod command;
pub mod page;
pub mod procs;
pub mod relay;

pub use browser::Browser;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail};

/// The lines of a child's pipe as a channel, read on a thread of its own to the pipe's end
/// (a child never blocks on a full pipe, whether or not anyone still listens).
pub fn lines(pipe: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx
}

/// The first value `pick` finds in a line of `rx` within `within` (lines before it are
/// passed over); `None` when none came in time.
pub fn first_line<T>(
    rx: &std::sync::mpsc::Receiver<String>,
    within: Duration,
    pick: impl Fn(&str) -> Option<T>,
) -> Option<T> {
    let until = std::time::Instant::now() + within;
    loop {
        let line = rx.recv_timeout(until.saturating_duration_since(std::time::Instant::now())).ok()?;
        if let Some(found) = pick(&line) {
            return Some(found);
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// Where screenshots go.
pub fn artifacts() -> PathBuf {
    let dir = root().join("target").join("e2e");
    std::fs::create_dir_all(&dir).expect("target/e2e is writable");
    dir
}

/// The entry point of `@modelcontextprotocol/server-everything`, installed by `cargo xtask test`.
pub fn server_everything() -> Result<PathBuf> {
    let path = root().join("tests/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    if !path.is_file() {
        bail!("{} is missing: run `cargo xtask test`, which installs the test servers", path.display());
    }
    Ok(path)
}

/// A running playground relay; killed on drop.
pub struct Playground {
    child: Child,
    pub url: String,
    pub base: String,
    pub token: String,
}

/// The folder the relays of this test process keep the user's state in (`XDG_STATE_HOME`).
pub fn state_dir() -> PathBuf {
    std::env::temp_dir().join(format!("mcp-playground-e2e-state-{}", std::process::id()))
}

impl Playground {
    /// Starts the binary on port 0 with a fixed token and waits for its URL line.
    pub fn start(server: &[&str]) -> Result<Self> {
        let bin = std::env::var_os("MCP_PLAYGROUND_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target/debug/mcp-playground"));
        Self::start_bin(bin, server)
    }

    /// Starts the binary with extra options (e.g. `--url …`) before the server command.
    pub fn start_with(options: &[&str], server: &[&str]) -> Result<Self> {
        let bin = std::env::var_os("MCP_PLAYGROUND_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target/debug/mcp-playground"));
        Self::launch(bin, options, server)
    }

    /// Starts a subcommand that serves the page (e.g. `["play", FILE]`), with the same
    /// port, token and `--no-open` as every playground here.
    pub fn start_sub(sub: &[&str]) -> Result<Self> {
        let bin = std::env::var_os("MCP_PLAYGROUND_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target/debug/mcp-playground"));
        Self::launch_sub(bin, sub, &[], &[])
    }

    /// Starts the binary on `port` (a relay started again where another one was).
    pub fn start_on(port: u16) -> Result<Self> {
        let bin = std::env::var_os("MCP_PLAYGROUND_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target/debug/mcp-playground"));
        Self::launch_on(bin, port, &[], &[], &[])
    }

    /// Starts a given build of the binary (benchmarks use the release build).
    pub fn start_bin(bin: PathBuf, server: &[&str]) -> Result<Self> {
        Self::launch(bin, &[], server)
    }

    fn launch(bin: PathBuf, options: &[&str], server: &[&str]) -> Result<Self> {
        Self::launch_sub(bin, &[], options, server)
    }

    fn launch_sub(bin: PathBuf, sub: &[&str], options: &[&str], server: &[&str]) -> Result<Self> {
        Self::launch_on(bin, 0, sub, options, server)
    }

    fn launch_on(bin: PathBuf, port: u16, sub: &[&str], options: &[&str], server: &[&str]) -> Result<Self> {
        if !bin.is_file() {
            bail!("{} is missing: run `cargo xtask test`, which builds it", bin.display());
        }
        // At least 16 characters, the relay's minimum; given as its users should, in the
        // environment rather than on the command line.
        let token = format!("e2e-token-{:08}", std::process::id());
        let mut cmd = Command::new(&bin);
        cmd.args(sub)
            .args(["--port", &port.to_string(), "--no-open"])
            .args(options)
            .env("MCP_PLAYGROUND_TOKEN", &token)
            // What a relay keeps for the user (secrets, remembered tokens) stays in the
            // test's own folder, never the machine's.
            .env("XDG_STATE_HOME", state_dir());
        if !server.is_empty() {
            cmd.arg("--").args(server);
        }
        cmd.stdout(Stdio::piped()).stderr(Stdio::inherit()).stdin(Stdio::null());
        #[allow(clippy::disallowed_methods, reason = "tests start the real binary")]
        let mut child = cmd.spawn().with_context(|| format!("starting {}", bin.display()))?;
        let stdout = lines(child.stdout.take().expect("piped"));
        let line = first_line(&stdout, Duration::from_secs(30), |l| Some(l.to_owned()))
            .context("the relay printed no URL line within 30 s")?;
        let url = line
            .strip_prefix("MCP Playground: ")
            .with_context(|| format!("unexpected first line: {line:?}"))?
            .to_owned();
        let base = url.split("/?").next().unwrap_or(&url).to_owned();
        Ok(Self { child, url, base, token })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `host:port` of the relay.
    pub fn authority(&self) -> String {
        self.base.trim_start_matches("http://").to_owned()
    }
}

impl Drop for Playground {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls `check` every 100 ms until it yields a value or `within` runs out.
pub async fn eventually<T, F, Fut>(within: Duration, what: &str, mut check: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Option<T>>>,
{
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match check().await {
            Ok(Some(v)) => return Ok(v),
            Ok(None) | Err(_) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Ok(None) => bail!("timed out after {within:?} waiting for {what}"),
            Err(e) => return Err(e.context(format!("waiting for {what}"))),
        }
    }
}

/// The real binary started from a prepared command (a token, a PATH, a DISPLAY of the
/// test's own), its first printed line read, killed when dropped.
pub struct Launched {
    child: Child,
    pub first_line: String,
}

impl Launched {
    /// `cmd` gets piped stdout and no stdin or stderr; returns once it printed a line.
    pub fn start(mut cmd: Command) -> Result<Self> {
        cmd.stdout(Stdio::piped()).stderr(Stdio::null()).stdin(Stdio::null());
        #[allow(clippy::disallowed_methods, reason = "tests start the real binary")]
        let mut child = cmd.spawn()?;
        let stdout = child.stdout.take().context("piped stdout")?;
        let mut launched = Self { child, first_line: String::new() };
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut launched.first_line)?;
        Ok(launched)
    }
}

impl Drop for Launched {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A figure a test measured, printed with the test output (never asserted on).
#[allow(clippy::print_stderr, reason = "figures for people reading the test log")]
pub fn say(line: &str) {
    eprintln!("figure: {line}");
}

/// A test MCP server (Node or Python) on a free loopback port (its `listen` is forced to 127.0.0.1 by
/// `tests/servers/loopback.cjs`); killed with its process group on drop.
pub struct NodeServer {
    child: Child,
    pub port: u16,
}

impl NodeServer {
    /// `server-everything` in `streamableHttp` or `sse` mode.
    pub fn everything(mode: &str) -> Result<Self> {
        let entry = server_everything()?;
        let mut cmd = Command::new("node");
        cmd.arg("-r")
            .arg(root().join("tests/servers/loopback.cjs"))
            .arg(entry)
            .arg(mode)
            .env("PORT", "0")
            .stderr(Stdio::null())
            .stdin(Stdio::null());
        Self::spawn(cmd, &format!("server-everything ({mode})"))
    }
}

impl NodeServer {
    /// The Python test server (official `mcp` package) over Streamable HTTP, refusing
    /// requests without `Authorization: Bearer TOKEN`.
    pub fn python_with_bearer(token: &str) -> Result<Self> {
        let mut cmd = Command::new("python3");
        cmd.arg(root().join("tests/servers/python/pydantic_tools.py"))
            .args(["streamable-http", "--port", "0", "--require-bearer", token])
            .stderr(Stdio::null())
            .stdin(Stdio::null());
        Self::spawn(cmd, "the Python server")
    }

    /// A Python test server of `tests/servers/python/` (official `mcp` package) over
    /// Streamable HTTP, e.g. `stateless_tools.py`.
    pub fn python(script: &str) -> Result<Self> {
        let mut cmd = Command::new("python3");
        cmd.arg(root().join("tests/servers/python").join(script))
            .args(["streamable-http", "--port", "0"])
            .stderr(Stdio::null())
            .stdin(Stdio::null());
        Self::spawn(cmd, script)
    }

    /// The same, with `extra` options after the transport's (e.g. `--v2026`).
    pub fn python_with(script: &str, extra: &[&str]) -> Result<Self> {
        let mut cmd = Command::new("python3");
        cmd.arg(root().join("tests/servers/python").join(script))
            .args(["streamable-http", "--port", "0"])
            .args(extra)
            .stderr(Stdio::null())
            .stdin(Stdio::null());
        Self::spawn(cmd, script)
    }

    /// `tests/servers/python/html_site.py`: a web site, which answers every URL with a page.
    pub fn html_site() -> Result<Self> {
        let mut cmd = Command::new("python3");
        cmd.arg(root().join("tests/servers/python/html_site.py")).stderr(Stdio::null()).stdin(Stdio::null());
        Self::spawn(cmd, "html_site.py")
    }

    /// `tests/servers/python/oauth_server.py`: the Python SDK's own authorization server and
    /// resource server on one port (MCP at `/mcp`), its access tokens living `token_ttl`
    /// seconds; its `oauth: …` lines (each OAuth endpoint hit, each refused `/mcp` request)
    /// go to the file `log`.
    pub fn python_oauth(token_ttl: u32, log: &std::path::Path) -> Result<Self> {
        let log = std::fs::File::create(log).with_context(|| format!("creating {}", log.display()))?;
        let mut cmd = Command::new("python3");
        cmd.arg(root().join("tests/servers/python/oauth_server.py"))
            .args(["--port", "0", "--token-ttl", &token_ttl.to_string()])
            .stderr(log)
            .stdin(Stdio::null());
        Self::spawn(cmd, "oauth_server.py")
    }

    /// Starts a server asked to listen on port 0, and reads the port it got from its
    /// `loopback: listening on 127.0.0.1:PORT` line (`tests/servers/loopback.cjs` and
    /// `python/loopback.py` say it once the socket listens): no free port is guessed.
    fn spawn(mut cmd: Command, what: &str) -> Result<Self> {
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.stdout(Stdio::piped());
        #[allow(clippy::disallowed_methods, reason = "tests start real servers")]
        let mut child = cmd.spawn().with_context(|| format!("starting {what}"))?;
        let stdout = lines(child.stdout.take().expect("piped"));
        let port = first_line(&stdout, Duration::from_secs(30), |l| {
            l.strip_prefix("loopback: listening on 127.0.0.1:")?.trim().parse::<u16>().ok()
        });
        let Some(port) = port else {
            let _ = child.kill();
            bail!("{what} did not say which port it listens on within 30 s");
        };
        Ok(Self { child, port })
    }
}

impl Drop for NodeServer {
    fn drop(&mut self) {
        let pgid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.wait();
    }
}
