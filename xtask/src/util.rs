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
