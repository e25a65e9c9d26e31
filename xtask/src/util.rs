//! Running commands from xtask, loudly.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

#[allow(clippy::print_stderr, reason = "xtask talks to the person running it")]
pub fn say(line: &str) {
    eprintln!("xtask: {line}");
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
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(&cargo, args, &[], None)
}

/// The first line a command prints, or `None` when it cannot run.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    #[allow(clippy::disallowed_methods, reason = "xtask asks tools for their version")]
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").trim().to_owned())
}

/// Runs `cargo test ARGS`, echoing its output, and returns the passed and failed counts
/// summed over every test binary (so the run ends with one honest total).
pub fn cargo_test(args: &[&str]) -> Result<(usize, usize)> {
    use std::io::{BufRead, BufReader};

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    say(&format!("$ cargo test {}", args.join(" ")));
    let mut cmd = Command::new(&cargo);
    cmd.arg("test").args(args).current_dir(root()).stdout(std::process::Stdio::piped());
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
