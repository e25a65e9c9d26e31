//! `mcp-playground resources`, `read URI`, `prompts` and `prompt NAME [--arg K=V]…`: what
//! a server offers beside its tools, from the command line, as `tools` and `call` do it:
//! stdout carries the answer (`--json`: as the server sent it), the exit codes are theirs,
//! and `--record` writes the session.

#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a command line's output")]

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};
use shared::catalog::{Got, ListKind};
use shared::render::terminal;
use shared::session::{ReadState, Session};

use super::commands::{FAILED, INVALID, OK, connected, last_answer_text, member};
use super::drive::Driver;
use crate::cli::{Output, PromptArgs, ReadArgs, ToolsArgs};

/// `mcp-playground resources SERVER…`
pub async fn resources(args: ToolsArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = offering(&args.server, &args.out, "resources").await else { return Ok(ExitCode::from(FAILED)) };
    let code = list_resources(&mut d, &args.out).await;
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// `mcp-playground prompts SERVER…`
pub async fn prompts(args: ToolsArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = offering(&args.server, &args.out, "prompts").await else { return Ok(ExitCode::from(FAILED)) };
    let code = list_prompts(&mut d, &args.out).await;
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// `mcp-playground read URI SERVER…`
pub async fn read(args: ReadArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = offering(&args.server, &args.out, "resources").await else { return Ok(ExitCode::from(FAILED)) };
    let code = read_on(&mut d, &args).await;
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// `mcp-playground prompt NAME [--arg K=V]… SERVER…`
pub async fn prompt(args: PromptArgs) -> crate::error::Result<ExitCode> {
    let Some(mut d) = offering(&args.server, &args.out, "prompts").await else { return Ok(ExitCode::from(FAILED)) };
    let code = prompt_on(&mut d, &args).await;
    d.disconnect().await;
    Ok(ExitCode::from(code))
}

/// A driver connected to a server that offers `capability`; `None` after saying why not.
async fn offering(server: &crate::cli::ServerArgs, out: &Output, capability: &str) -> Option<Driver> {
    let mut d = connected(server, out).await?;
    if d.session.server().is_some_and(|s| s.has(capability)) {
        return Some(d);
    }
    eprintln!("error: the server offers no {capability} (no {capability} capability)");
    d.disconnect().await;
    None
}

fn patience(out: &Output) -> Duration {
    Duration::from_secs_f64(out.timeout_s.max(0.001))
}

/// Lists `kinds` to their last page; the first failure, said.
async fn list(d: &mut Driver, kinds: &[ListKind], out: &Output) -> Result<(), String> {
    for kind in kinds {
        d.session.list(*kind);
        let kind = *kind;
        d.until(move |s| !s.catalog().is_loading(kind), patience(out)).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

async fn list_resources(d: &mut Driver, out: &Output) -> u8 {
    if let Err(e) = list(d, &[ListKind::Resources, ListKind::Templates], out).await {
        eprintln!("error: {e}");
        return FAILED;
    }
    let c = d.session.catalog();
    if out.json {
        let all = json!({"resources": c.resources.items, "resourceTemplates": c.templates.items});
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
    } else {
        print!("{}", terminal::resource_list(&c.resources.items, &c.templates.items));
    }
    // A server without templates refuses their listing: the resources still stand.
    if let Some(e) = &c.templates.error {
        eprintln!("note: {e}");
    }
    listed(c.resources.error.as_ref())
}

async fn list_prompts(d: &mut Driver, out: &Output) -> u8 {
    if let Err(e) = list(d, &[ListKind::Prompts], out).await {
        eprintln!("error: {e}");
        return FAILED;
    }
    let c = d.session.catalog();
    if out.json {
        println!("{}", serde_json::to_string_pretty(&json!({"prompts": c.prompts.items})).unwrap_or_default());
    } else {
        print!("{}", terminal::prompt_list(&c.prompts.items));
    }
    listed(c.prompts.error.as_ref())
}

async fn read_on(d: &mut Driver, args: &ReadArgs) -> u8 {
    let uri = args.uri.clone();
    d.session.read_resource(&uri);
    let done = {
        let uri = uri.clone();
        move |s: &Session| !matches!(s.reads().get(&uri), Some(ReadState::Loading))
    };
    if let Err(e) = d.until(done, patience(&args.out)).await {
        eprintln!("error: {e}");
        return FAILED;
    }
    match d.session.reads().get(&uri) {
        Some(ReadState::Done(contents)) => {
            if args.out.json {
                println!("{}", answer_member(&d.session, "resources/read").unwrap_or_default());
            } else {
                print!("{}", terminal::contents(contents));
            }
            OK
        }
        Some(ReadState::Failed(e)) => {
            eprintln!("error: {e}");
            FAILED
        }
        _ => FAILED,
    }
}

async fn prompt_on(d: &mut Driver, args: &PromptArgs) -> u8 {
    let mut values = std::collections::BTreeMap::new();
    for pair in &args.arg {
        let Some((k, v)) = pair.split_once('=') else {
            eprintln!("error: --arg {pair:?} is not KEY=VALUE");
            return INVALID;
        };
        values.insert(k.to_owned(), v.to_owned());
    }
    // The prompt's arguments are checked against its definition, as the page's form does.
    if let Err(e) = list(d, &[ListKind::Prompts], &args.out).await {
        eprintln!("error: {e}");
        return FAILED;
    }
    let c = d.session.catalog();
    let Some(p) = c.prompts.items.iter().find(|p| p.name == args.name) else {
        // A list that failed does not say the prompt is not there.
        if let Some(e) = &c.prompts.error {
            eprintln!("error: {e}");
            return FAILED;
        }
        let names: Vec<&str> = c.prompts.items.iter().map(|p| p.name.as_str()).collect();
        eprintln!("error: the server has no prompt named {:?}; it has: {}", args.name, names.join(", "));
        return INVALID;
    };
    let (missing, unknown) = (p.missing(&values), p.unknown(&values));
    if !missing.is_empty() || !unknown.is_empty() {
        if !missing.is_empty() {
            eprintln!("error: missing required argument{}: {}", plural(missing.len()), missing.join(", "));
        }
        if !unknown.is_empty() {
            eprintln!("error: the prompt takes no argument{} {}", plural(unknown.len()), unknown.join(", "));
        }
        eprintln!("nothing was sent");
        return INVALID;
    }
    let arguments: Map<String, Value> = values.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
    let now = d.now_ms();
    if let Err(e) = d.session.get_prompt(&args.name, arguments, now) {
        eprintln!("error: {e}");
        return FAILED;
    }
    let name = args.name.clone();
    let done = move |s: &Session| !matches!(s.catalog().prompts_got.get(&name), Some(Got::Loading));
    if let Err(e) = d.until(done, patience(&args.out)).await {
        eprintln!("error: {e}");
        return FAILED;
    }
    match d.session.catalog().prompts_got.get(&args.name) {
        Some(Got::Done(got)) => {
            if args.out.json {
                println!("{}", answer_member(&d.session, "prompts/get").unwrap_or_default());
            } else {
                print!("{}", terminal::prompt_messages(got));
            }
            OK
        }
        Some(Got::Failed(e)) => {
            eprintln!("error: prompts/get failed: {e}");
            FAILED
        }
        _ => FAILED,
    }
}

/// The `result` of the last answer to `method`, exactly as the server wrote it.
fn answer_member(s: &Session, method: &str) -> Option<String> {
    member(&last_answer_text(s, method)?, "result")
}

/// The exit code of a list that was printed: failed when it stopped early, said why.
fn listed(error: Option<&String>) -> u8 {
    match error {
        Some(e) => {
            eprintln!("error: {e}");
            FAILED
        }
        None => OK,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
