//! `mcp-playground replay FILE SERVER…`: a recording's requests re-sent to a live server
//! through the page's own session core (`shared::replay` on a [`Driver`]), each answer
//! compared with the recorded one, the tool lists compared for drift; a readable report (or
//! JSON) on stdout and an exit code for CI: 0 all matched, 1 something differs or breaks,
//! 2 the replay could not run.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command line's output")]

use std::process::ExitCode;
use std::time::Duration;

use serde_json::Value;
use shared::calls::ConfirmPolicy;
use shared::recording::Recording;
use shared::replay::{
    ChangeKind, DriftClass, FailOn, Replay, Report, ResendPolicy, RowState, Want, drift, recorded_roots,
    recorded_tools, view_drift,
};
use shared::session::CallLimits;

use super::drive::{Driver, Stop};
use crate::cli::{FailOnArg, ReplayArgs};

/// Everything matched (under `--fail-on`).
const OK: u8 = 0;
/// Something differs, broke, or did not answer.
const DIFFERS: u8 = 1;
/// The replay could not run: an unreadable recording, a server that cannot be reached.
const FAILED: u8 = 2;

/// A value shown in a change line is cut after this many characters.
const SHOWN_CHARS: usize = 120;

/// `mcp-playground replay FILE [--ignore POINTER]… [--json] [--fail-on breaking|any] SERVER…`
pub async fn replay(args: ReplayArgs) -> crate::error::Result<ExitCode> {
    if let Some(bad) = args.ignore.iter().find(|p| shared::pointer::parse(p).is_none()) {
        eprintln!("error: --ignore {bad:?} is not a JSON Pointer (it starts with /, e.g. /result/content/*/text)");
        return Ok(ExitCode::from(FAILED));
    }
    // Lines that cannot be read are logged, as `play` and `mock` log them.
    let Some(rec) = read(&args) else { return Ok(ExitCode::from(FAILED)) };
    let Some(mut d) = connected(&args, &rec).await else { return Ok(ExitCode::from(FAILED)) };
    let limits = CallLimits { timeout_ms: args.timeout_s * 1000.0, ..CallLimits::default() };
    let mut replay = Replay::new(&rec, &args.ignore, limits);
    let recorded = recorded_tools(replay.requests());
    // `--allow-writes` is the command line's yes to the question the page asks in a dialog.
    let mut allow =
        ResendPolicy::new(ConfirmPolicy::Unsafe, d.session.tools(), recorded.as_deref().unwrap_or_default())
            .how_to_allow("--allow-writes re-sends it");
    allow.allow_writes(args.allow_writes);
    let patience = Duration::from_secs_f64(args.timeout_s);
    loop {
        let now = d.now_ms();
        if replay.advance(&mut d.session, &allow, now) == Want::Done {
            break;
        }
        if let Err(stop) = d.until(|s| replay.answered(s), patience).await {
            replay.give_up(&d.session, &stop.to_string());
            if let Stop::Connection(why) = stop {
                eprintln!("error: {why}");
            }
        }
    }
    let live_tools = d.session.tools().to_vec();
    d.disconnect().await;
    let mut drift = match &recorded {
        Some(recorded) => drift(recorded, &live_tools),
        None => Vec::new(),
    };
    drift.extend(view_drift(recorded.as_deref().unwrap_or_default(), replay.rows()));
    let ignore = replay.ignore().to_vec();
    let report = Report::new(replay.into_rows(), drift, ignore);
    let fail_on = match args.fail_on {
        FailOnArg::Breaking => FailOn::Breaking,
        FailOnArg::Any => FailOn::Any,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", text(&report, fail_on));
    }
    Ok(ExitCode::from(if report.failed(fail_on) { DIFFERS } else { OK }))
}

/// The recording, or `None` after saying why it cannot be read.
fn read(args: &ReplayArgs) -> Option<Recording> {
    match crate::record::open(&args.file) {
        Ok((_, rec)) => Some(rec),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// A driver connected to the named server, with its tool list in; `None` after saying why not.
/// It speaks the revision the recording asked for, unless `--protocol` says otherwise, and
/// offers the roots the recording offered.
async fn connected(args: &ReplayArgs, rec: &Recording) -> Option<Driver> {
    let (target, protocol) = super::commands::target_of(&args.server)?;
    let mut d = super::commands::driver(args.server.inherit())?;
    if let Some(roots) = recorded_roots(rec) {
        d.session.set_roots(roots);
    }
    match super::commands::signing(&args.server) {
        Ok(s) => d.sign_in_with(s),
        Err(e) => {
            eprintln!("error: {e:#}");
            return None;
        }
    }
    let protocol = protocol.unwrap_or(rec.header.protocol);
    match d.connect(target, protocol, Duration::from_secs_f64(args.timeout_s)).await {
        Ok(()) => {
            if let Some(n) = d.session.negotiated() {
                eprintln!("protocol {n}");
            }
            Some(d)
        }
        Err(stop) => {
            eprintln!("error: cannot connect: {stop}");
            d.disconnect().await;
            None
        }
    }
}

/// The readable report: a line per row (changes under it), drift (breaking first), a summary.
pub fn text(report: &Report, fail_on: FailOn) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for row in &report.rows {
        let mark = match row.state {
            RowState::Same => "✓",
            RowState::Skipped => "-",
            _ => "✗",
        };
        let what = match &row.tool {
            Some(tool) => format!("{} {tool}", row.method),
            None => row.method.clone(),
        };
        let note = row.note.as_deref().map(|n| format!(": {n}")).unwrap_or_default();
        let _ = writeln!(out, "{mark} {:<9} {what} (line {}){note}", row.state.as_str(), row.line);
        for c in &row.changes {
            let (r, l) = match c.kind {
                ChangeKind::Added => ("(absent)".to_owned(), shown(c.live.as_ref())),
                ChangeKind::Removed => (shown(c.recorded.as_ref()), "(absent)".to_owned()),
                ChangeKind::Changed => (shown(c.recorded.as_ref()), shown(c.live.as_ref())),
            };
            let pointer = if c.pointer.is_empty() { "(the whole answer)" } else { &c.pointer };
            let _ = writeln!(out, "    {pointer}: {r} → {l}");
        }
        if row.truncated {
            let _ = writeln!(out, "    … more changes not shown (the first {} are)", row.changes.len());
        }
    }
    for d in &report.drift {
        let class = match d.class {
            DriftClass::Breaking => "breaking",
            DriftClass::Compatible => "compatible",
        };
        let _ = writeln!(out, "drift {class:<10} {}: {}", d.tool, d.what);
    }
    let c = &report.counts;
    let verdict = if report.failed(fail_on) { "FAILED" } else { "ok" };
    let on = match fail_on {
        FailOn::Breaking => "breaking",
        FailOn::Any => "any",
    };
    let _ = writeln!(
        out,
        "{} requests: {} same, {} different, {} missing, {} error, {} skipped; drift: {} breaking, {} compatible; {verdict} (--fail-on {on})",
        report.rows.len(),
        c.same,
        c.different,
        c.missing,
        c.error,
        c.skipped,
        c.breaking,
        c.compatible
    );
    out
}

/// A value on one line, cut when long.
fn shown(v: Option<&Value>) -> String {
    let Some(v) = v else { return "(absent)".into() };
    let text = v.to_string();
    if text.chars().count() <= SHOWN_CHARS {
        return text;
    }
    let cut: String = text.chars().take(SHOWN_CHARS).collect();
    format!("{cut}…")
}
