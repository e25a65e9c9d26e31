//! `mcp-playground tools` and `mcp-playground call`: connect, list, call, print, and exit
//! with a code a script can branch on. stdout carries only the answer; progress, server
//! log lines, notes and errors go to stderr. `--record FILE` writes the session as it goes.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command line's output")]

use std::process::ExitCode;
use std::time::Duration;

use serde::Deserialize;
use serde_json::value::RawValue;
use shared::client::CallOutcome;
use shared::form::cli as cli_args;
use shared::jsonrpc::Id;
use shared::recording::{Header, Recorder};
use shared::relay::{Limits, Target};
use shared::render::terminal;
use shared::revision::ProtocolChoice;
use shared::session::{CallLimits, CallState, Changed, Session};
use shared::timeline::{Row, RowDirection, RowKind};

use super::drive::{Driver, Stop};
use crate::cli::{CallArgs, Output, ServerArgs, ToolsArgs};
use crate::record::RecordFile;
use crate::upstream::now_ms;
use crate::upstream::process::Inherit;

/// The call succeeded (or the list was printed).
pub(super) const OK: u8 = 0;
/// The tool reported an error (`isError`).
const TOOL_ERROR: u8 = 1;
/// A protocol or transport error, a timeout, or nothing could be run.
pub(super) const FAILED: u8 = 2;
/// The arguments do not fit the tool (or there is no such tool): nothing was sent.
pub(super) const INVALID: u8 = 3;

/// Longest MCP message accepted, as the playground's default.
const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;
/// Longest stderr line kept.
const MAX_STDERR_LINE: usize = 16 * 1024;

/// `mcp-playground tools SERVER…`
pub async fn tools(args: ToolsArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = connected(&args.server, &args.out).await else { return Ok(ExitCode::from(FAILED)) };
    let s = &d.session;
    if args.out.json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({"tools": s.tools()}))?);
    } else {
        print!("{}", terminal::tool_list(s.tools()));
    }
    // What a 2026-07-28 list says beyond its tools, on stderr like the other notes.
    if let Some(facts) = s.list_facts() {
        if let Some(ttl) = facts.ttl_ms {
            let scope = facts.cache_scope.as_deref().map(|c| format!(", {c}")).unwrap_or_default();
            eprintln!("note: the server says the list may be cached for {ttl} ms{scope}");
        }
        for (name, why) in &facts.left_out {
            eprintln!("note: tool {name:?} left out: {why}");
        }
    }
    let code = match s.tools_error() {
        Some(e) => {
            eprintln!("error: {e}");
            FAILED
        }
        None => OK,
    };
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// `mcp-playground call TOOL [--arg KEY=VALUE]… [--args JSON] SERVER…`
pub async fn call(args: CallArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = connected(&args.server, &args.out).await else { return Ok(ExitCode::from(FAILED)) };
    let code = call_on(&mut d, &args).await;
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

async fn call_on(d: &mut Driver, args: &CallArgs) -> u8 {
    let Some(tool) = d.session.tool(&args.tool).cloned() else {
        let left_out = d.session.list_facts().and_then(|f| f.left_out.iter().find(|(n, _)| *n == args.tool));
        if let Some((name, why)) = left_out {
            eprintln!("error: the tool {name:?} was left out of the list: {why}");
            return INVALID;
        }
        let names: Vec<&str> = d.session.tools().iter().map(|t| t.name.as_str()).collect();
        eprintln!("error: the server has no tool named {:?}; it has: {}", args.tool, names.join(", "));
        if let Some(e) = d.session.tools_error() {
            eprintln!("(its tool list is incomplete: {e})");
            return FAILED;
        }
        return INVALID;
    };
    let arguments = match cli_args::arguments(&tool.input_schema, args.args.as_deref(), &args.arg) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return INVALID;
        }
    };
    match cli_args::validate(&tool.input_schema, &arguments) {
        Ok(violations) if !violations.is_empty() => {
            eprint!("{}", cli_args::violations_text(&violations));
            if !args.no_validate {
                eprintln!("nothing was sent");
                return INVALID;
            }
            eprintln!("warning: sending them as given (--no-validate)");
        }
        Ok(_) => {}
        // The page sends in this case too: the server is the judge of a schema we cannot read.
        Err(e) => {
            eprintln!("note: the input schema cannot be used to check the arguments ({e}); sending them as given")
        }
    }
    if let Err(e) = task_choice(d, &tool, args) {
        eprintln!("error: {e}");
        return INVALID;
    }
    let limits = CallLimits { timeout_ms: args.out.timeout_s * 1000.0, ..CallLimits::default() };
    let now = d.now_ms();
    let id = match d.session.call_tool(&tool.name, arguments, limits, now) {
        Ok(id) => id,
        Err(e) => {
            eprintln!("error: {e}");
            return FAILED;
        }
    };
    // The call's own clock ends it (a task's, its time to live); patience only guards the
    // connection. With --no-wait, a task is left running once it exists.
    let no_wait = args.no_wait;
    let ended = move |s: &Session| !s.call().is_pending() || (no_wait && s.task().is_some());
    let finished = tokio::select! {
        r = d.until(ended, Duration::from_secs(3600)) => r,
        _ = tokio::signal::ctrl_c() => {
            d.session.cancel_call();
            match d.session.task() {
                // A task is cancelled by a request: its answer is the call's end.
                Some(_) => d.until(|s| !s.call().is_pending(), CANCEL_PATIENCE).await,
                None => Err(Stop::Connection("cancelled (Ctrl-C); the server was told".into())),
            }
        }
    };
    if let Some(run) = d.session.task().filter(|_| no_wait && d.session.call().is_pending()) {
        println!("{}", run.info.task_id);
        return OK;
    }
    if let Err(stop) = finished
        && d.session.call().is_pending()
    {
        eprintln!("error: {stop}");
        return FAILED;
    }
    outcome(&d.session, &id, args.out.json)
}

/// Prints how the call ended; its exit code.
fn outcome(s: &Session, id: &Id, json: bool) -> u8 {
    match s.call() {
        CallState::Done { outcome, .. } => {
            // A task's outcome is the answer to `tasks/result`, not to the call.
            // (At 2026-07-28 it came with the task's last status: its raw answer is the outcome's.)
            let raw = match s.task() {
                Some(_) => last_answer_text(s, "tasks/result").or_else(|| serde_json::to_string(outcome.raw()).ok()),
                None => response_text(s, id),
            };
            print_outcome(outcome, raw, json)
        }
        CallState::TransportError { message, .. } => {
            eprintln!("error: {message}");
            FAILED
        }
        CallState::Timeout { after_ms, .. } => {
            eprintln!("error: timed out after {:.1} s", after_ms / 1000.0);
            FAILED
        }
        CallState::Cancelled { reason, .. } => {
            eprintln!("error: {reason}");
            FAILED
        }
        CallState::TaskLost { message, .. } => {
            eprintln!("error: {message}");
            FAILED
        }
        // The command line waits, or leaves with --no-wait before this.
        CallState::Unwatched { task_id, .. } => {
            println!("{task_id}");
            OK
        }
        CallState::Idle | CallState::Pending { .. } => FAILED,
    }
}

/// Prints a call's outcome (`raw`: the frame that gave it, exactly as sent); its exit code.
pub(super) fn print_outcome(outcome: &CallOutcome, raw: Option<String>, json: bool) -> u8 {
    match outcome {
        CallOutcome::Result { result, .. } => {
            if json {
                println!("{}", raw.and_then(|r| member(&r, "result")).unwrap_or_default());
            } else {
                print!("{}", terminal::call_result(result));
            }
            if result.is_error == Some(true) { TOOL_ERROR } else { OK }
        }
        CallOutcome::ProtocolError { error, .. } => {
            if json {
                // A result that is no object gets an error made up by the client: no
                // `error` member to copy, so the made-up one is written.
                let error_json = raw.and_then(|r| member(&r, "error")).or_else(|| serde_json::to_string(error).ok());
                println!("{{\"error\":{}}}", error_json.unwrap_or_default());
            }
            eprintln!("error: {}", terminal::protocol_error(error));
            FAILED
        }
        CallOutcome::Unreadable { raw: value, error } => {
            println!("{}", value.get("result").map(|v| v.to_string()).unwrap_or_default());
            eprintln!("error: the result is not a valid CallToolResult: {error}");
            FAILED
        }
    }
}

/// The last answer to a request of `method`, exactly as the server sent it.
pub(super) fn last_answer_text(s: &Session, method: &str) -> Option<String> {
    answer_text(s, |r| r.method.as_deref() == Some(method))
}

/// The frame that answered request `id`, exactly as the server sent it.
fn response_text(s: &Session, id: &Id) -> Option<String> {
    answer_text(s, |r| r.id.as_ref() == Some(id))
}

/// The last answer from the server that `which` picks, as its frame crossed the wire.
fn answer_text(s: &Session, which: impl Fn(&Row) -> bool) -> Option<String> {
    let rows = s.timeline().rows();
    let answer = rows.iter().rev().find(|r| {
        r.direction == RowDirection::In && matches!(r.kind, RowKind::Response | RowKind::Error) && which(r)
    })?;
    Some(answer.raw.clone())
}

/// One member of a JSON object as its original text (numbers keep their digits).
pub(super) fn member(frame: &str, key: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Members<'a> {
        #[serde(borrow)]
        result: Option<&'a RawValue>,
        #[serde(borrow)]
        error: Option<&'a RawValue>,
    }
    let m: Members<'_> = serde_json::from_str(frame).ok()?;
    let raw = if key == "result" { m.result } else { m.error };
    raw.map(|r| r.get().to_owned())
}

/// A driver connected to the named server (the demo server when none is named), with its
/// tool list in, recording when asked to; `None` after saying why not.
pub(super) async fn connected(server: &ServerArgs, out: &Output) -> Option<Driver> {
    let (target, protocol) = target_of(server)?;
    let protocol = protocol.unwrap_or_default();
    let mut d = driver(server.inherit())?;
    match signing(server) {
        Ok(s) => d.sign_in_with(s),
        Err(e) => {
            eprintln!("error: {e:#}");
            return None;
        }
    }
    if let Some(path) = &out.record {
        let mut header = Header::new(Recorder::Cli, env!("CARGO_PKG_VERSION"), &target, now_ms());
        header.protocol = protocol;
        match RecordFile::create(path, header) {
            Ok(file) => d.record(file),
            Err(e) => {
                eprintln!("error: cannot write the recording {}: {e}", path.display());
                return None;
            }
        }
    }
    if let Some(path) = &out.answers {
        match super::Answers::load(path) {
            Ok(answers) => d.answer_with(answers),
            Err(e) => {
                eprintln!("error: {e}");
                return None;
            }
        }
    }
    let mut reporter = Reporter::default();
    d.on_change(move |s, changed| reporter.report(s, changed));
    let patience = Duration::from_secs_f64(out.timeout_s.max(0.001));
    match d.connect(target, protocol, patience).await {
        Ok(()) => {
            if let Some(n) = d.session.negotiated() {
                eprintln!("protocol {n}");
            }
            Some(d)
        }
        Err(stop) => {
            eprintln!("error: {}", connect_failure(&d.session, &stop));
            d.disconnect().await;
            None
        }
    }
}

/// The server named on the command line, the demo server when none is, with the revision
/// asked for it; `None` after saying what is wrong with how it was named.
pub(super) fn target_of(server: &ServerArgs) -> Option<(Target, Option<ProtocolChoice>)> {
    match server.target_and_protocol() {
        Ok((t, protocol)) => Some((t.unwrap_or(Target::Demo), protocol)),
        Err(e) => {
            eprintln!("error: {e:#}");
            None
        }
    }
}

/// How a headless command signs in: the OAuth options over the named entry's, its own
/// callback port.
pub(super) fn signing(server: &ServerArgs) -> crate::error::Result<crate::auth::Signing> {
    let offer = server.command_offer()?;
    let hub = server.auth.hub(None, offer.secrets)?;
    Ok(crate::auth::Signing { hub: std::sync::Arc::new(hub), settings: offer.oauth })
}

/// A driver with the relay's limits, this program standing in as the demo server, its
/// servers seeing `inherit` of this program's environment.
pub(super) fn driver(inherit: Inherit) -> Option<Driver> {
    let exe = match std::env::current_exe() {
        Ok(p) => p.to_string_lossy().into_owned(),
        Err(e) => {
            eprintln!("error: cannot find this program's own path for the demo server: {e}");
            return None;
        }
    };
    let limits = Limits { max_message_bytes: MAX_MESSAGE_BYTES, max_stderr_line_bytes: MAX_STDERR_LINE };
    Some(Driver::new(limits, (exe, vec!["demo-server".into()]), inherit))
}

fn connect_failure(s: &Session, stop: &Stop) -> String {
    match stop {
        Stop::TimedOut(_) if s.server().is_some() => format!("the tool list did not arrive: {stop}"),
        Stop::TimedOut(_) => format!("the server did not answer initialize: {stop}"),
        Stop::Connection(why) => why.clone(),
    }
}

/// How long a cancelled task may take to say so.
const CANCEL_PATIENCE: Duration = Duration::from_secs(10);

/// `--task` and `--ttl` for a call of `tool`: refused where a task cannot be.
fn task_choice(d: &mut Driver, tool: &shared::mcp::Tool, args: &CallArgs) -> Result<(), String> {
    use shared::tasks::TaskSupport;
    d.session.set_task_ttl_ms(args.ttl_s * 1000.0);
    if !args.task && !args.no_wait {
        return Ok(());
    }
    let server_runs = d.session.server().is_some_and(|s| s.tool_tasks);
    // 2026-07-28: the server alone decides; a call may come back as a task, or not.
    if d.session.server().is_some_and(|s| s.task_extension) {
        return Ok(());
    }
    match TaskSupport::of(tool) {
        _ if !server_runs => Err("the server takes no tasks (no tasks.requests.tools.call capability)".into()),
        TaskSupport::Forbidden => {
            Err(format!("the tool {:?} does not run as a task (taskSupport: forbidden)", tool.name))
        }
        _ => {
            d.session.set_run_as_task(&tool.name, true);
            Ok(())
        }
    }
}

/// Progress, server log lines, a task's statuses and notes, on stderr as they happen, each once.
#[derive(Default)]
struct Reporter {
    next_log: usize,
    notices: usize,
    /// Statuses of the current task printed.
    task_seen: usize,
}

impl Reporter {
    fn report(&mut self, s: &Session, changed: Changed) {
        if changed.call
            && let Some(run) = s.task()
        {
            self.task_seen = self.task_seen.min(run.history.len());
            for c in &run.history[self.task_seen..] {
                let message = c.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
                eprintln!("task {} {}{message}", run.info.task_id, c.status.as_str());
            }
            self.task_seen = run.history.len();
        }
        if changed.call
            && s.call().is_pending()
            && let Some(p) = s.progress()
        {
            let of = p.total.map(|t| format!("/{t}")).unwrap_or_default();
            let message = p.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default();
            eprintln!("progress {}{of}{message}", p.progress);
        }
        if changed.logs {
            let from = self.next_log;
            for line in s.logs().iter().filter(|l| l.seq >= from) {
                let logger = line.logger.as_deref().map(|l| format!(" {l}")).unwrap_or_default();
                eprintln!("[server {}{logger}] {}", line.level, line.text);
                self.next_log = line.seq + 1;
            }
        }
        if changed.notices {
            // A new connection starts the list again.
            self.notices = self.notices.min(s.notices().len());
            for n in &s.notices()[self.notices..] {
                eprintln!("note: {n}");
            }
            self.notices = s.notices().len();
        }
    }
}
