//! The one way tests run the command line: `mcp-playground ARGS`, its output read while it
//! runs (a long answer never fills a pipe and stalls it), its exit code, and a minute at most.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::root;

/// The built binary.
pub fn bin() -> std::path::PathBuf {
    std::env::var_os("MCP_PLAYGROUND_BIN").map(Into::into).unwrap_or_else(|| root().join("target/debug/mcp-playground"))
}

/// One run of the command line, with what it printed.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

/// Runs `mcp-playground ARGS` in `cwd` with extra environment, killed after 60 s.
pub fn run_in(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Result<Run> {
    let mut cmd = Command::new(bin());
    cmd.args(args).envs(env.iter().copied()).current_dir(cwd).stdin(Stdio::null());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    #[allow(clippy::disallowed_methods, reason = "tests run the real binary")]
    let mut child = cmd.spawn().context("starting mcp-playground")?;
    // Read while it runs: a long answer must not fill the pipe and stall the program.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            anyhow::bail!("mcp-playground {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (out.join().unwrap_or_default(), err.join().unwrap_or_default());
    Ok(Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    })
}

pub fn run(args: &[&str]) -> Result<Run> {
    run_in(&root(), args, &[])
}
