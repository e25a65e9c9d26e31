//! `cargo xtask`: the project's automation. `run` builds the page and starts the
//! playground; `test` installs what the tests need and runs every check; `bench` runs the
//! benchmark driver that lives beside the tests (so xtask itself compiles in seconds).

use std::time::Instant;

use anyhow::{Context, Result, bail};

mod budget;
mod page;
mod player;
mod split;
mod tools;
mod util;

#[cfg(test)]
mod tidy;

use util::{Job, root, say};

const USAGE: &str = "usage: cargo xtask <run [-- PLAYGROUND ARGS] | test | bench | page>
  run    build the page and run the playground (the built-in demo server by default)
  test   install what the tests need, then fmt, clippy and every test (browser included)
  bench  print performance figures: relay latency and throughput beside a direct client
         and the official inspector, page weight and start, 10,000 tools, 100,000 messages,
         a 100 MB recording (--quick, --calls-only, --pages-only, --recording-only,
         --timeline-only, --filter-only)
  page   build the page only (dist/)
  size   the page's first load (brotli, against its budget) and the crates of its main wasm
  tools  install only what the tests need (servers, browser, the JSON-Schema-Test-Suite)";

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let cmd = args.next();
    let rest: Vec<String> = args.collect();
    match cmd.as_deref() {
        Some("run") => run(&rest),
        Some("test") => test(),
        Some("bench") => bench(&rest),
        Some("tools") => tools::ensure_test_tools(),
        Some("size") => size(),
        Some("page") => {
            tools::ensure_page_tools()?;
            build_page_and(None)
        }
        _ => {
            say(USAGE);
            bail!("unknown or missing command")
        }
    }
}

/// Builds the page (when its sources changed) while `other` builds beside it: on two cores
/// the page's single-threaded link and the other build's crates overlap.
fn build_page_and(other: Option<Job>) -> Result<()> {
    let mut results = Vec::new();
    if page::up_to_date() {
        say("the page in dist/ is newer than its sources; not rebuilt");
    } else {
        let mut jobs = Vec::new();
        match tools::wasm_bindgen_job() {
            Ok(Some(job)) => jobs.push(Ok(job)),
            Ok(None) => {}
            Err(e) => jobs.push(Err(e)),
        }
        jobs.push(page::compile());
        results.extend(jobs.into_iter().map(|j| j.and_then(Job::wait)));
        if results.iter().all(Result::is_ok) {
            results.push(page::bundle());
        }
    }
    if let Some(other) = other {
        results.push(other.wait());
    }
    results.into_iter().collect()
}

fn run(args: &[String]) -> Result<()> {
    let started = Instant::now();
    tools::ensure_page_tools()?;
    let relay = Job::start("relay", &util::cargo_bin(), &["build", "--release", "-p", "mcp-playground"], &[])?;
    build_page_and(Some(relay))?;
    say(&format!("built in {:.1} s; starting the playground", started.elapsed().as_secs_f64()));
    let mut passthrough: Vec<&str> = args.iter().map(String::as_str).skip_while(|a| *a == "--").collect();
    // `cargo xtask run -- npx server` means a server command: the binary wants it after `--`.
    if passthrough.first().is_some_and(|a| !a.starts_with('-')) {
        passthrough.insert(0, "--");
    }
    let bin = root().join("target/release/mcp-playground");
    #[allow(clippy::disallowed_methods, reason = "xtask runs the program it built")]
    let status = std::process::Command::new(&bin).args(&passthrough).status().context("starting the playground")?;
    if !status.success() {
        bail!("the playground ended with {status}");
    }
    Ok(())
}

fn test() -> Result<()> {
    tools::ensure_test_tools()?;
    // The end-to-end tests start the real binary.
    let relay = Job::start("relay", &util::cargo_bin(), &["build", "-p", "mcp-playground"], &[])?;
    build_page_and(Some(relay))?;
    // A size is deterministic: the first load's budget is a test like any other.
    let first = budget::check(&root().join("dist"), &page::split_main())?;
    say(&format!("the first load is {} KB of brotli (budget {} KB)", first / 1024, budget::BUDGET / 1024));
    util::cargo(&["fmt", "--all", "--check"])?;
    util::cargo(&["clippy", "--all-targets", "--", "-D", "warnings"])?;
    util::cargo(&["clippy", "-p", "frontend", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])?;
    // Every test binary runs, so one failure does not hide the rest.
    let (mut passed, mut failed) = util::cargo_test(&["--no-fail-fast"], &[])?;
    // The validator's patterns as the page judges them: by the browser's own RegExp.
    let in_browser =
        ["-p", "mcp-playground-shared", "--target", "wasm32-unknown-unknown", "--test", "pattern_in_browser"];
    let (p, f) = util::cargo_test(&in_browser, &[("CHROMEDRIVER", "/usr/bin/chromedriver")])?;
    (passed, failed) = (passed + p, failed + f);
    util::total(passed, failed);
    if failed > 0 {
        bail!("{failed} tests failed");
    }
    Ok(())
}

/// Where the first load's bytes go: its files, and the crates of the main wasm's code.
fn size() -> Result<()> {
    tools::ensure_page_tools()?;
    build_page_and(None)?;
    let parts = budget::first_load(&root().join("dist"))?;
    let total: usize = parts.iter().map(|p| p.brotli).sum();
    say(&format!("first load: {} KB of brotli (budget {} KB)", total / 1024, budget::BUDGET / 1024));
    for p in &parts {
        say(&format!("  {:>9} B  {}", p.brotli, p.name));
    }
    say("the main wasm's code by crate (function bodies, before wasm-opt):");
    for (name, share) in budget::code_by_crate(&page::split_main())?.iter().take(15) {
        say(&format!("  {share:5.1}%  {name}"));
    }
    Ok(())
}

fn bench(args: &[String]) -> Result<()> {
    tools::ensure_page_tools()?;
    tools::ensure_browser()?;
    tools::ensure_test_servers()?;
    if let Err(e) = tools::ensure_inspector() {
        say(&format!("the official inspector is not available, so its rows are left out: {e:#}"));
    }
    let relay = Job::start("relay", &util::cargo_bin(), &["build", "--release", "-p", "mcp-playground"], &[])?;
    build_page_and(Some(relay))?;
    let mut cmd = vec!["run", "--release", "-p", "tests", "--bin", "bench", "--"];
    cmd.extend(args.iter().map(String::as_str));
    util::cargo(&cmd)
}
