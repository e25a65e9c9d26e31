//! Running commands from xtask, loudly: every step says what it runs, and long builds that
//! run side by side prefix each line of their output with the step's name.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::Instant;

use anyhow::{Context, Result, bail};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

#[allow(clippy::print_stderr, reason = "xtask talks to the person running it")]
pub fn say(line: &str) {
    eprintln!("xtask: {line}");
}

/// The cargo that runs xtask, so toolchains match.
pub fn cargo_bin() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Runs a command in the workspace root and fails on a non-zero exit.
pub fn run(program: &str, args: &[&str], envs: &[(&str, &str)], dir: Option<&Path>) -> Result<()> {
    say(&format!("$ {program} {}", args.join(" ")));
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir.map(Path::to_path_buf).unwrap_or_else(root));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    #[allow(clippy::disallowed_methods, reason = "xtask runs build tools")]
    let status = cmd.status().with_context(|| format!("could not run {program}"))?;
    if !status.success() {
        bail!("{program} {} failed ({status})", args.join(" "));
    }
    Ok(())
}

pub fn cargo(args: &[&str]) -> Result<()> {
    run(&cargo_bin(), args, &[], None)
}

/// The first line a command prints, or `None` when it cannot run.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    #[allow(clippy::disallowed_methods, reason = "xtask asks tools for their version")]
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_owned())
}

/// A long step running in the background (a build, an install), its output prefixed.
pub struct Job {
    name: &'static str,
    child: Child,
    started: Instant,
    echo: Vec<JoinHandle<()>>,
}

impl Job {
    /// Starts `program args` in the workspace root.
    pub fn start(name: &'static str, program: &str, args: &[&str], envs: &[(&str, &str)]) -> Result<Self> {
        say(&format!("[{name}] $ {program} {}", args.join(" ")));
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(root()).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        for (k, v) in envs {
            cmd.env(k, v);
        }
        #[allow(clippy::disallowed_methods, reason = "xtask runs build tools")]
        let mut child = cmd.spawn().with_context(|| format!("could not run {program}"))?;
        let echo =
            vec![prefix(name, child.stdout.take().expect("piped")), prefix(name, child.stderr.take().expect("piped"))];
        Ok(Self { name, child, started: Instant::now(), echo })
    }

    /// Waits for the step and fails when it failed.
    pub fn wait(mut self) -> Result<()> {
        let status = self.child.wait()?;
        for h in self.echo.drain(..) {
            let _ = h.join();
        }
        let secs = self.started.elapsed().as_secs_f64();
        if !status.success() {
            bail!("{} failed after {secs:.0} s ({status})", self.name);
        }
        say(&format!("[{}] done in {secs:.1} s", self.name));
        Ok(())
    }
}

fn prefix(name: &'static str, from: impl Read + Send + 'static) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines().map_while(Result::ok) {
            let line = line.trim();
            // Cargo's own chatter about locks and finishing is noise here.
            if !line.is_empty() {
                say(&format!("[{name}] {line}"));
            }
        }
    })
}

/// Runs `cargo test ARGS`, echoing its output, and returns the passed and failed counts
/// summed over every test binary (so the run ends with one honest total).
pub fn cargo_test(args: &[&str], envs: &[(&str, &str)]) -> Result<(usize, usize)> {
    say(&format!("$ cargo test {}", args.join(" ")));
    let mut cmd = Command::new(cargo_bin());
    cmd.arg("test").args(args).envs(envs.iter().copied()).current_dir(root()).stdout(Stdio::piped());
    #[allow(clippy::disallowed_methods, reason = "xtask runs the tests")]
    let mut child = cmd.spawn().context("could not run cargo test")?;
    let (mut passed, mut failed) = (0, 0);
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line?;
        echo(&line);
        if let Some(rest) = line.strip_prefix("test result: ") {
            let count = |word: &str| {
                rest.split(';')
                    .find_map(|part| part.trim().strip_suffix(word).map(|n| n.trim().rsplit(' ').next().unwrap_or("")))
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or(0)
            };
            passed += count(" passed");
            failed += count(" failed");
        }
    }
    let status = child.wait()?;
    if !status.success() && failed == 0 {
        bail!("cargo test failed ({status})");
    }
    Ok((passed, failed))
}

#[allow(clippy::print_stdout, reason = "the test output is passed through")]
fn echo(line: &str) {
    println!("{line}");
}

#[allow(clippy::print_stdout, reason = "the closing total that CI reads")]
pub fn total(passed: usize, failed: usize) {
    println!("tests: {passed} passed, {failed} failed");
}
