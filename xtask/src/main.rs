//! `cargo xtask`: the project's automation. `run` builds the page and starts the
//! playground; `test` installs what the tests need and runs every check.

use anyhow::{Result, bail};

mod bench;
mod page;
mod tools;
mod util;

#[cfg(test)]
mod tidy;

const USAGE: &str = "usage: cargo xtask <run [-- PLAYGROUND ARGS] | test | bench | page>
  run    build the page and run the playground (the built-in demo server by default)
  test   install what the tests need, then fmt, clippy and every test (browser included)
  bench  print figures measured in real Chromium (timeline of 100,000 messages)
  page   build the page only (dist/)";

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let cmd = args.next();
    let rest: Vec<String> = args.collect();
    match cmd.as_deref() {
        Some("run") => run(&rest),
        Some("test") => test(),
        Some("bench") => {
            tools::ensure_page_tools()?;
            tools::ensure_browser()?;
            page::build()?;
            util::cargo(&["build", "--release", "-p", "mcp-playground"])?;
            bench::run()
        }
        Some("page") => {
            tools::ensure_page_tools()?;
            page::build()
        }
        _ => {
            util::say(USAGE);
            bail!("unknown or missing command")
        }
    }
}

fn run(args: &[String]) -> Result<()> {
    tools::ensure_page_tools()?;
    page::build()?;
    let passthrough: Vec<&str> = args.iter().map(String::as_str).skip_while(|a| *a == "--").collect();
    let mut cmd = vec!["run", "--release", "--quiet", "-p", "mcp-playground", "--"];
    // `cargo xtask run -- npx server` means a server command: the binary wants it after `--`.
    if passthrough.first().is_some_and(|a| !a.starts_with('-')) {
        cmd.push("--");
    }
    cmd.extend(passthrough);
    util::cargo(&cmd)
}

fn test() -> Result<()> {
    tools::ensure_page_tools()?;
    tools::ensure_browser()?;
    tools::ensure_test_servers()?;
    page::build()?;
    util::cargo(&["fmt", "--all", "--check"])?;
    util::cargo(&["clippy", "--all-targets", "--", "-D", "warnings"])?;
    util::cargo(&["clippy", "-p", "frontend", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])?;
    // The end-to-end tests start the real binary.
    util::cargo(&["build", "-p", "mcp-playground"])?;
    let (passed, failed) = util::cargo_test(&[])?;
    util::total(passed, failed);
    if failed > 0 {
        bail!("{failed} tests failed");
    }
    Ok(())
}
