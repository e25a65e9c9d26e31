//! The relay against a server that misbehaves on purpose (`tests/servers/hostile.py`), the
//! way a new user meets one: through the headless command line and through the relay's
//! WebSocket. For every misbehaviour: nothing crashes, the user is told the cause, the
//! session goes on where the server still lives, and no process is left behind.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};
use tests::page;
use tests::procs::{alive, descendants, with_arg};
use tests::relay::{RelayRx, Session};
use tests::{Playground, say};

use tests::command::{Run, run};

/// A word no other server's command line holds, to find this one (and its children) in /proc.
fn tag(mode: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!("hostile-{mode}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

fn script() -> String {
    tests::root().join("tests/servers/hostile.py").to_string_lossy().into_owned()
}

/// Waits (10 s at most) until no process holds `tag` on its command line.
fn none_left(tag: &str) -> Result<()> {
    let started = Instant::now();
    loop {
        let left = with_arg(tag);
        if left.is_empty() {
            return Ok(());
        }
        if started.elapsed() > Duration::from_secs(10) {
            bail!("processes of {tag} are still alive 10 s later: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `mcp-playground ARGS -- python3 hostile.py MODE TAG`; then nothing of the server is left.
fn cli(args: &[&str], mode: &str) -> Result<Run> {
    let tag = tag(mode);
    let script = script();
    let mut all = args.to_vec();
    all.extend(["--", "python3", &script, mode, &tag]);
    let r = run(&all)?;
    none_left(&tag).with_context(|| format!("after {args:?} on {mode}"))?;
    ensure!(!r.stderr.contains("panicked"), "{args:?} on {mode} panicked: {}", brief(&r));
    Ok(r)
}

/// A run, with long output cut (a list of 10,010 tools does not belong in a failure message).
fn brief(r: &Run) -> String {
    let cut = |s: &str| s.chars().take(2000).collect::<String>();
    format!("exit {}\n--- stdout\n{}\n--- stderr\n{}", r.code, cut(&r.stdout), cut(&r.stderr))
}

#[test]
fn ten_thousand_tools_are_all_listed_in_one_answer_or_in_pages() -> Result<()> {
    for mode in ["many-tools", "many-tools-paged"] {
        let started = Instant::now();
        let r = cli(&["tools", "--json"], mode)?;
        say(&format!(
            "hostile: {mode}: 10,010 tools listed by the command line in {:.2} s",
            started.elapsed().as_secs_f64()
        ));
        ensure!(r.code == 0, "{mode}: {}", brief(&r));
        let v: Value = serde_json::from_str(&r.stdout).with_context(|| brief(&r))?;
        let tools = v["tools"].as_array().context("a tools array")?;
        let names: BTreeSet<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        ensure!(tools.len() == 10_010 && names.len() == 10_010, "{mode}: {} tools, {} names", tools.len(), names.len());
        ensure!(names.contains("echo") && names.contains("tool_10009"), "{mode}: first or last missing");
    }
    let r = cli(&["call", "tool_10009", "--arg", "n=7"], "many-tools")?;
    ensure!(r.code == 0 && r.stdout.contains(r#"called tool_10009 with {"n": 7}"#), "{}", brief(&r));
    Ok(())
}

#[test]
fn a_crash_mid_call_fails_the_call_at_once_and_leaves_nothing() -> Result<()> {
    // The call's own timeout is far away: the exit must end it, not the clock. The child of
    // `crash-with-child` ignores SIGTERM and holds stdout open: it must be killed too.
    for mode in ["crash-mid-call", "crash-with-child"] {
        let r = cli(&["call", "trap", "--timeout", "300"], mode)?;
        ensure!(r.code == 2 && !r.stderr.contains("timed out"), "{mode}: {}", brief(&r));
    }
    Ok(())
}

#[test]
fn a_crash_mid_call_is_explained_with_its_exit_code() -> Result<()> {
    let r = cli(&["call", "trap", "--timeout", "300"], "crash-mid-call")?;
    ensure!(r.code == 2 && r.stderr.contains("exited with code 3"), "{}", brief(&r));
    ensure!(r.stderr.contains("hostile: crashing on purpose"), "{}", brief(&r));
    Ok(())
}

#[test]
fn a_call_that_is_never_answered_times_out() -> Result<()> {
    let r = cli(&["call", "trap", "--timeout", "1"], "never-answers")?;
    ensure!(r.code == 2 && r.stderr.contains("timed out"), "{}", brief(&r));
    Ok(())
}

#[test]
fn duplicate_and_stray_ids_leave_the_right_answer_standing() -> Result<()> {
    let r = cli(&["call", "trap"], "duplicate-ids")?;
    ensure!(r.code == 0 && r.stdout.trim() == "first", "the first answer counts: {}", brief(&r));
    let r = cli(&["call", "trap"], "stray-ids")?;
    ensure!(r.code == 0 && r.stdout.trim() == "the real answer", "{}", brief(&r));
    Ok(())
}

#[test]
fn half_a_line_and_noise_are_skipped_and_the_answer_after_them_counts() -> Result<()> {
    let r = cli(&["call", "trap"], "half-line")?;
    ensure!(r.code == 0 && r.stdout.trim() == "after half a line", "{}", brief(&r));
    let r = cli(&["call", "trap"], "noise")?;
    ensure!(r.code == 0 && r.stdout.trim() == "trap did nothing in this mode", "{}", brief(&r));
    Ok(())
}

#[test]
fn requests_from_the_server_mid_call_are_answered_and_the_call_completes() -> Result<()> {
    let r = cli(&["call", "trap", "--timeout", "60"], "request-mid-call")?;
    ensure!(r.code == 0, "{}", brief(&r));
    // roots/list is answered truthfully (none); sampling declined, as no answers were given.
    ensure!(r.stdout.contains(r#"roots: result {"roots": []}; sampling: error -1"#), "{}", brief(&r));
    Ok(())
}

#[test]
fn a_forty_megabyte_answer_fails_its_call_at_once_naming_the_limit() -> Result<()> {
    let started = Instant::now();
    let r = cli(&["call", "trap", "--timeout", "300"], "huge-answer")?;
    say(&format!("hostile: a 40 MiB answer failed its call in {:.2} s", started.elapsed().as_secs_f64()));
    ensure!(r.code == 2, "{}", brief(&r));
    ensure!(r.stderr.contains("over the limit of 33554432 bytes"), "{}", brief(&r));
    ensure!(!r.stderr.contains("timed out"), "{}", brief(&r));
    Ok(())
}

#[test]
fn tools_with_bad_input_schemas_are_listed_and_none_breaks_a_call() -> Result<()> {
    let r = cli(&["tools", "--json"], "bad-schemas")?;
    ensure!(r.code == 0, "{}", brief(&r));
    let v: Value = serde_json::from_str(&r.stdout).with_context(|| brief(&r))?;
    let names: Vec<&str> = v["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
    let bad = ["no_schema", "schema_is_string", "schema_is_null", "schema_is_array", "broken_ref"];
    for name in bad.iter().chain(&["schema_of_a_string", "self_ref_all_of"]) {
        ensure!(names.contains(name), "{name} is not listed: {names:?}");
    }
    // A schema that cannot be read is no reason to refuse: sent as given, with a note (the
    // server is the judge), as the page does.
    for name in bad {
        let r = cli(&["call", name, "--args", "{}"], "bad-schemas")?;
        ensure!(r.code == 0 && r.stdout.contains(&format!("called {name} with {{}}")), "{name}: {}", brief(&r));
        ensure!(r.stderr.contains("cannot be used to check the arguments"), "{name}: {}", brief(&r));
    }
    // A schema that can be read but that no object meets: refused, nothing sent.
    let r = cli(&["call", "schema_of_a_string", "--args", "{}"], "bad-schemas")?;
    ensure!(r.code == 3 && r.stderr.contains("not of type") && r.stderr.contains("nothing was sent"), "{}", brief(&r));
    let r = cli(&["call", "self_ref_all_of", "--arg", "y=1"], "bad-schemas")?;
    ensure!(r.code == 3 && r.stderr.contains("refers to itself"), "{}", brief(&r));
    let r = cli(&["call", "echo", "--arg", "text=still fine"], "bad-schemas")?;
    ensure!(r.code == 0 && r.stdout.trim() == "still fine", "{}", brief(&r));
    Ok(())
}

/// A relay session on `hostile.py MODE`, initialized, and the tag of its server.
async fn connect(pg: &Playground, mode: &str) -> Result<(Session, String)> {
    let tag = tag(mode);
    let target = json!({"transport": "stdio", "command": "python3", "args": [script(), mode, &tag]});
    Ok((Session::start(pg, target).await?, tag))
}

/// Sends `tools/call` of `tool` with request id `id`.
async fn call(s: &mut Session, id: Value, tool: &str, arguments: Value) -> Result<()> {
    let frame =
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    s.tx.frame(&frame.to_string()).await
}

/// The MCP frame a relay message carries from the server, parsed (`None` for anything else
/// or a frame that is not JSON).
fn incoming(msg: &Value) -> Option<Value> {
    (msg["type"] == "message" && msg["direction"] == "in")
        .then(|| msg["frame"].as_str().and_then(|f| serde_json::from_str(f).ok()))
        .flatten()
}

/// The relay event a message carries.
fn event<'a>(msg: &'a Value, kind: &str) -> Option<&'a Value> {
    (msg["type"] == "event" && msg["event"]["kind"] == kind).then_some(&msg["event"])
}

/// Whether `msg` is the server's answer to request `id`.
fn answers(msg: &Value, id: &Value) -> bool {
    incoming(msg).is_some_and(|f| &f["id"] == id && f.get("method").is_none())
}

/// Every relay message up to and including the first that `done` accepts (60 s at most).
async fn until(rx: &mut RelayRx, what: &str, done: impl Fn(&Value) -> bool) -> Result<Vec<Value>> {
    let mut seen = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let msg = rx.next_msg().await?;
            let last = done(&msg);
            seen.push(msg);
            if last {
                return anyhow::Ok(());
            }
        }
    })
    .await
    .with_context(|| format!("no {what} within 60 s"))??;
    Ok(seen)
}

/// The text of the first content item of an answer.
fn text_of(msgs: &[Value], id: &Value) -> Option<String> {
    let frame = msgs.iter().filter(|m| answers(m, id)).find_map(incoming)?;
    frame["result"]["content"][0]["text"].as_str().map(str::to_owned)
}

/// A call of `echo` on the session answers: it still works.
async fn still_works(s: &mut Session, id: u64) -> Result<()> {
    let words = format!("still here {id}");
    call(s, json!(id), "echo", json!({"text": words})).await?;
    let seen = until(&mut s.rx, "the echo's answer", |m| answers(m, &json!(id))).await?;
    ensure!(text_of(&seen, &json!(id)).as_deref() == Some(words.as_str()), "{seen:?}");
    Ok(())
}

/// Closes the session's socket; then neither the server nor anything it started is left.
async fn close(s: Session, pg: &Playground, tag: &str) -> Result<()> {
    drop(s);
    tests::eventually(Duration::from_secs(10), "the server's processes to end", || async {
        Ok((with_arg(tag).is_empty() && descendants(pg.pid()).is_empty()).then_some(()))
    })
    .await?;
    ensure!(alive(pg.pid()), "the relay died");
    Ok(())
}

#[tokio::test]
async fn over_the_socket_a_call_never_answered_blocks_nothing_after_it() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "never-answers").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    still_works(&mut s, 101).await?;
    s.tx.frame(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":100}}"#).await?;
    still_works(&mut s, 102).await?;
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_duplicate_and_stray_answers_are_forwarded_as_written() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "duplicate-ids").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    let first = until(&mut s.rx, "the first answer", |m| answers(m, &json!(100))).await?;
    let second = until(&mut s.rx, "the second answer", |m| answers(m, &json!(100))).await?;
    ensure!(text_of(&first, &json!(100)).as_deref() == Some("first"), "{first:?}");
    ensure!(text_of(&second, &json!(100)).as_deref() == Some("second"), "{second:?}");
    still_works(&mut s, 101).await?;
    close(s, &pg, &tag).await?;

    let (mut s, tag) = connect(&pg, "stray-ids").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    let seen = until(&mut s.rx, "the real answer", |m| answers(m, &json!(100))).await?;
    let ids: Vec<Value> = seen.iter().filter_map(incoming).map(|f| f["id"].clone()).collect();
    ensure!(ids == [json!(424242), json!("never-asked"), Value::Null, json!(100)], "{seen:?}");
    // A response with neither result nor error is no JSON-RPC message: told, not forwarded.
    let invalid = seen.iter().filter_map(|m| event(m, "invalid_frame")).collect::<Vec<_>>();
    ensure!(invalid.len() == 1 && invalid[0]["preview"].as_str().is_some_and(|p| p.contains("434343")), "{seen:?}");
    ensure!(text_of(&seen, &json!(100)).as_deref() == Some("the real answer"));
    still_works(&mut s, 101).await?;
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_half_lines_are_reported_and_the_last_one_with_the_exit() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "half-line").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    let seen = until(&mut s.rx, "the answer after half a line", |m| answers(m, &json!(100))).await?;
    ensure!(seen.iter().any(|m| event(m, "invalid_frame").is_some()), "half a line is reported: {seen:?}");
    ensure!(text_of(&seen, &json!(100)).as_deref() == Some("after half a line"), "{seen:?}");
    still_works(&mut s, 101).await?;

    // Half a line without a newline, then the exit: both are told.
    call(&mut s, json!(102), "trap", json!({})).await?;
    let seen = until(&mut s.rx, "the exit", |m| event(m, "exited").is_some()).await?;
    let exited = seen.last().and_then(|m| event(m, "exited")).context("exited")?;
    ensure!(exited["code"] == 0, "{exited}");
    let invalid = seen.iter().find_map(|m| event(m, "invalid_frame"));
    ensure!(
        invalid.is_some_and(|e| e["preview"].as_str().is_some_and(|p| p.contains(r#""id": 102"#))),
        "the unfinished last line is reported: {seen:?}"
    );
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_noise_is_reported_and_never_forwarded() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "noise").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    let seen = until(&mut s.rx, "the answer after the noise", |m| answers(m, &json!(100))).await?;
    let invalid: Vec<&Value> = seen.iter().filter_map(|m| event(m, "invalid_frame")).collect();
    // Not JSON; not UTF-8; an empty batch (the empty line may be skipped or reported).
    ensure!(invalid.len() >= 3, "{seen:?}");
    ensure!(text_of(&seen, &json!(100)).as_deref() == Some("trap did nothing in this mode"), "{seen:?}");
    still_works(&mut s, 101).await?;
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_server_requests_mid_call_travel_both_ways() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "request-mid-call").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    // The server asks with the very id of the pending call: only the method tells them apart.
    let is_request = |m: &Value, method: &str| incoming(m).is_some_and(|f| f["method"] == method);
    until(&mut s.rx, "roots/list from the server", |m| is_request(m, "roots/list")).await?;
    s.tx.frame(r#"{"jsonrpc":"2.0","id":100,"result":{"roots":[{"uri":"file:///nowhere","name":"nowhere"}]}}"#).await?;
    until(&mut s.rx, "sampling/createMessage from the server", |m| is_request(m, "sampling/createMessage")).await?;
    s.tx.frame(r#"{"jsonrpc":"2.0","id":"srv-sampling","error":{"code":-32601,"message":"no sampling here"}}"#).await?;
    let seen = until(&mut s.rx, "the call's answer", |m| answers(m, &json!(100))).await?;
    let text = text_of(&seen, &json!(100)).context("a text answer")?;
    ensure!(text.contains("roots: result") && text.contains("file:///nowhere"), "{text}");
    ensure!(text.ends_with("sampling: error -32601"), "{text}");
    still_works(&mut s, 101).await?;
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_an_answer_over_the_limit_fails_its_call_and_the_session_lives() -> Result<()> {
    let pg = Playground::start(&[])?;
    let (mut s, tag) = connect(&pg, "huge-answer").await?;
    call(&mut s, json!(100), "trap", json!({})).await?;
    let seen = until(&mut s.rx, "the call's failure", |m| event(m, "request_failed").is_some()).await?;
    let failed = seen.last().and_then(|m| event(m, "request_failed")).context("request_failed")?;
    ensure!(failed["id"] == 100, "{failed}");
    let message = failed["message"].as_str().unwrap_or_default();
    ensure!(message.contains("over the limit of 33554432 bytes"), "{message}");
    ensure!(!seen.iter().any(|m| answers(m, &json!(100))), "the answer itself was forwarded");
    still_works(&mut s, 101).await?;
    close(s, &pg, &tag).await
}

#[tokio::test]
async fn over_the_socket_a_crash_is_told_with_its_code_and_a_new_server_can_start() -> Result<()> {
    let pg = Playground::start(&[])?;
    for mode in ["crash-mid-call", "crash-with-child"] {
        let (mut s, tag) = connect(&pg, mode).await?;
        call(&mut s, json!(100), "trap", json!({})).await?;
        let seen = until(&mut s.rx, "the exit", |m| event(m, "exited").is_some()).await?;
        let exited = seen.last().and_then(|m| event(m, "exited")).context("exited")?;
        ensure!(exited["code"] == 3, "{mode}: {exited}");
        if mode == "crash-mid-call" {
            let said =
                seen.iter().filter_map(|m| event(m, "stderr")).any(|e| e["line"] == "hostile: crashing on purpose");
            ensure!(said, "{mode}: the last stderr line is shown: {seen:?}");
        }
        // What the server started dies with it, socket open or not.
        tests::eventually(Duration::from_secs(10), "the crashed server's group to end", || async {
            Ok(with_arg(&tag).is_empty().then_some(()))
        })
        .await
        .with_context(|| format!("{mode}: left {:?}", with_arg(&tag)))?;
        // The same socket connects again.
        s.tx.command(&json!({"type": "connect", "target": {"transport": "demo"}})).await?;
        until(&mut s.rx, "a new server", |m| event(m, "spawned").is_some()).await?;
        close(s, &pg, &tag).await?;
    }
    Ok(())
}

/// The page builds the form of whichever tool a person picks: no input schema a server
/// sends (missing, not an object, `allOf` back into itself) may break it. A stack overflow
/// in the Wasm would leave the page frozen: the next tool's form would never appear.
#[tokio::test]
async fn in_the_page_every_bad_input_schema_gets_a_form_and_the_page_lives_on() -> Result<()> {
    let tag = tag("bad-schemas-page");
    let script = script();
    let pg = Playground::start(&["python3", &script, "bad-schemas", &tag])?;
    let b = tests::Browser::start().await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    let names = page::tool_names(&b).await?;
    ensure!(names.iter().any(|n| n == "self_ref_all_of") && names.len() > 5, "{names:?}");
    for name in names.iter().chain(std::iter::once(&"echo".to_owned())) {
        b.css(&format!("[data-testid=tool-item][data-tool-name=\"{name}\"]")).await?.click().await?;
        let form = b.id("tool-form").await.with_context(|| format!("no form for {name}"))?;
        let shown = form.text().await?;
        ensure!(!shown.is_empty() || name == "echo", "{name}: an empty form");
    }
    // Still alive and drawing: the last pick (echo) shows its own field.
    b.css("[data-testid=field][data-field-path=\"/text\"]").await.context("echo's field after the bad schemas")?;
    b.close().await?;
    drop(pg);
    none_left(&tag)
}
