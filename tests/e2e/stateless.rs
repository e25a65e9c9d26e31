//! The 2026-07-28 (stateless) revision against a real server, the official Python SDK's
//! `tests/servers/python/stateless_tools.py`: `auto` finds it through `server/discover`,
//! its resolver's question comes back as an `input_required` result that the CLI and the
//! page answer and retry under a new id, the tool with an invalid `x-mcp-header` mark is
//! left out with the reason, and the same server still speaks 2025-06-18 (initialize, then
//! `elicitation/create` in the middle of the call).

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::{Browser, NodeServer, Playground, root};

use crate::asks_cli::AnswersFile;
use tests::command::{Run, run};
use tests::page;

fn script() -> String {
    root().join("tests/servers/python/stateless_tools.py").to_string_lossy().into_owned()
}

/// Runs `mcp-playground SUB ARGS… SERVER…` (the server last: a command takes every word after it).
fn cli(sub: &[&str], server: &[&str]) -> Result<Run> {
    let argv: Vec<&str> = sub.iter().chain(server).copied().collect();
    run(&argv)
}

/// The JSON-RPC messages of a recording, with their direction (`out` to the server, `in` from it).
fn recorded(file: &std::path::Path) -> Result<Vec<(String, Value)>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let entry: Value = serde_json::from_str(line)?;
        if let (Some(dir), Some(frame)) = (entry["dir"].as_str(), entry["frame"].as_str()) {
            out.push((dir.to_owned(), serde_json::from_str(frame)?));
        }
    }
    Ok(out)
}

/// `greet` answered from a file, recorded; the recording's messages.
fn greet_recorded(name: &str, protocol: &str, answers: &AnswersFile, server: &[&str]) -> Result<Vec<(String, Value)>> {
    let file = std::env::temp_dir().join(format!("mcp-playground-stateless-{name}-{}.jsonl", std::process::id()));
    let file_arg = file.to_string_lossy().into_owned();
    let r =
        cli(&["call", "greet", "--protocol", protocol, "--answers", answers.path(), "--record", &file_arg], server)?;
    ensure!(r.code == 0 && r.stdout.contains("Hello, Ann!"), "{protocol}: {r}");
    let frames = recorded(&file);
    let _ = std::fs::remove_file(&file);
    frames
}

/// The `tools/call` requests sent, in order.
fn calls(frames: &[(String, Value)]) -> Vec<&Value> {
    frames.iter().filter(|(d, f)| d == "out" && f["method"] == "tools/call").map(|(_, f)| f).collect()
}

/// What the command line does with the server at `server` (a command or `--url URL`): both
/// revisions, the greeting answered, declined and unanswered.
fn cli_rounds(tag: &str, server: &[&str]) -> Result<()> {
    let r = cli(&["tools"], server)?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2026-07-28 (the server answered server/discover)"), "{r}");
    ensure!(r.stdout.contains("greet") && r.stdout.contains("regional_time"), "{r}");
    ensure!(!r.stdout.contains("bad_header_mark"), "the tool with a number marked as a header is left out: {r}");
    ensure!(
        r.stderr.contains(r#"note: tool "bad_header_mark" left out: "#)
            && r.stderr.contains(r#"on "amount" of type number"#),
        "{r}"
    );
    ensure!(r.stderr.contains("the list may be cached for 300000 ms, public"), "{r}");
    let r = cli(&["call", "bad_header_mark", "--arg", "amount=1.5"], server)?;
    ensure!(r.code == 3 && r.stderr.contains(r#"the tool "bad_header_mark" was left out of the list"#), "{r}");

    let accept = AnswersFile::new(
        &format!("{tag}-accept"),
        r#"{"elicitation": [{"action": "accept", "content": {"name": "Ann"}}]}"#,
    )?;
    let decline = AnswersFile::new(&format!("{tag}-decline"), r#"{"elicitation": [{"action": "decline"}]}"#)?;

    // 2026-07-28: the question comes back as a result; the call goes again under a new id
    // with the answer and the server's state, and no request ever comes from the server.
    let frames = greet_recorded(&format!("{tag}-2026"), "auto", &accept, server)?;
    let sent = calls(&frames);
    ensure!(sent.len() == 2 && sent[0]["id"] != sent[1]["id"], "two tools/call under different ids: {sent:#?}");
    let retry = &sent[1]["params"];
    ensure!(retry["inputResponses"].as_object().is_some_and(|r| r.len() == 1), "{retry}");
    ensure!(retry["requestState"].is_string(), "the server's state goes back: {retry}");
    let first = frames.iter().find(|(d, f)| d == "in" && f["id"] == sent[0]["id"]).context("no first answer")?;
    ensure!(first.1["result"]["resultType"] == "input_required", "{}", first.1);
    ensure!(!frames.iter().any(|(d, f)| d == "in" && f["method"] == "elicitation/create"), "no server request");

    let r = cli(&["call", "greet", "--answers", decline.path()], server)?;
    ensure!(r.code == 1 && r.stdout.contains("elicitation was decline"), "a declined form is a tool error: {r}");
    ensure!(r.stderr.contains("declined from"), "{r}");
    let r = cli(&["call", "greet"], server)?;
    ensure!(r.code == 1 && r.stderr.contains("declined: run with --answers FILE"), "{r}");

    // 2025-06-18 with the same server: initialize, and the question asked mid-call.
    let r = cli(&["tools", "--protocol", "2025-06-18"], server)?;
    ensure!(r.code == 0 && r.stderr.contains("protocol 2025-06-18 (pinned)"), "{r}");
    ensure!(r.stdout.contains("bad_header_mark"), "no x-mcp-header rules before 2026-07-28: {r}");
    let frames = greet_recorded(&format!("{tag}-2025"), "2025-06-18", &accept, server)?;
    ensure!(calls(&frames).len() == 1, "one call: {frames:#?}");
    ensure!(frames.iter().any(|(d, f)| d == "out" && f["method"] == "initialize"), "initialize");
    ensure!(frames.iter().any(|(d, f)| d == "in" && f["method"] == "elicitation/create"), "asked mid-call");
    let r = cli(&["call", "greet", "--protocol", "2025-06-18", "--answers", decline.path()], server)?;
    ensure!(r.code == 1 && r.stdout.contains("elicitation was decline"), "{r}");
    Ok(())
}

#[test]
fn cli_over_stdio_speaks_2026_and_still_2025() -> Result<()> {
    let script = script();
    cli_rounds("stdio", &["python3", &script])?;
    let r = cli(&["call", "regional_time", "--arg", "region=eu-west"], &["python3", &script])?;
    ensure!(r.code == 0 && r.stdout.contains("region eu-west; no HTTP headers (stdio)"), "{r}");
    Ok(())
}

#[test]
fn cli_over_streamable_http_speaks_2026_and_still_2025() -> Result<()> {
    let server = NodeServer::python("stateless_tools.py")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    cli_rounds("http", &["--url", &url])?;
    // The marked argument travels as Mcp-Param-Region at 2026-07-28 only.
    let call = |protocol: &str| {
        cli(&["call", "regional_time", "--arg", "region=eu-west", "--protocol", protocol], &["--url", &url])
    };
    let r = call("auto")?;
    ensure!(r.code == 0 && r.stdout.contains("region eu-west; Mcp-Param-Region header matches"), "{r}");
    let r = call("2025-06-18")?;
    ensure!(r.code == 0 && r.stdout.contains("region eu-west; no Mcp-Param-Region header"), "{r}");
    Ok(())
}

/// The ids of the `tools/call` requests in the timeline, in order.
async fn call_ids(b: &Browser) -> Result<Vec<String>> {
    let rows = page::timeline(b).await?;
    Ok(rows
        .into_iter()
        .filter(|r| r.method == "tools/call" && r.kind == "request" && r.direction == "out")
        .filter_map(|r| r.id)
        .collect())
}

/// Scrolls `el` into the middle of its scrolling panel.
async fn into_view(b: &Browser, el: &fantoccini::elements::Element) -> Result<()> {
    let script = "arguments[0].scrollIntoView({block: 'center'})";
    b.client.execute(script, vec![serde_json::to_value(el)?]).await?;
    Ok(())
}

/// Selects `greet` (it takes no arguments: no form, no JSON editor) and calls it.
async fn call_greet(b: &Browser) -> Result<()> {
    let item = b.css("[data-testid=tool-item][data-tool-name=greet]").await?;
    into_view(b, &item).await?;
    item.click().await.context("selecting greet")?;
    b.css("[data-testid=tool-detail][data-tool-name=greet]").await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(b).await
}

#[tokio::test]
async fn page_answers_an_input_required_round_and_shows_the_list_facts() -> Result<()> {
    let script = script();
    let (_pg, b) = page::open(Playground::start(&["python3", &script])?).await?;
    ensure!(b.id("connect-protocol").await?.prop("value").await?.as_deref() == Some("auto"));
    page::connect(&b).await?;

    let info = b.id("server-info").await?;
    ensure!(info.attr("data-protocol-version").await?.as_deref() == Some("2026-07-28"));
    // Folded, the summary says how the revision was chosen in its tooltip.
    let shown = format!("{} {}", info.text().await?, info.attr("title").await?.unwrap_or_default());
    ensure!(shown.contains("the server answered server/discover"), "{shown}");

    // The list: two tools, the one with a number marked as a header left out with the reason.
    let names = page::tool_names(&b).await?;
    ensure!(names.contains(&"greet".to_owned()) && names.contains(&"regional_time".to_owned()), "{names:?}");
    ensure!(!names.contains(&"bad_header_mark".to_owned()), "{names:?}");
    let cache = b.id("tool-list-cache").await?.text().await?;
    ensure!(cache.contains("cache 5 min") && cache.contains("public"), "{cache}");
    let left_out = b.id("tools-left-out").await?;
    left_out.find(fantoccini::Locator::Css("summary")).await?.click().await.context("opening tools-left-out")?;
    let item = b.css("[data-testid=tool-left-out][data-tool-name=bad_header_mark]").await?;
    let why = item.text().await?;
    ensure!(why.contains("amount") && why.contains("number"), "the reason: {why}");
    ensure!(b.all("[data-testid=tool-left-out]").await?.len() == 1, "only one left out");
    into_view(&b, &item).await?;
    b.screenshot("stateless-tools-panel").await?;
    // Open, the list of left-out tools must not squeeze the tool list: its tools stay
    // on screen to be clicked.
    let height = "return arguments[0].getBoundingClientRect().height";
    let list = b.id("tool-list").await?;
    let open = b.client.execute(height, vec![serde_json::to_value(&list)?]).await?.as_f64().unwrap_or(0.0);
    ensure!(open >= 100.0, "the tool list keeps its room beside the tools left out: {open} px");
    left_out.find(fantoccini::Locator::Css("summary")).await?.click().await?;

    // The question comes back as a result and opens the same dialog as a server's request.
    call_greet(&b).await?;
    let dialog = b.id("elicitation-dialog").await?;
    ensure!(dialog.text().await?.contains("What is your name?"), "{}", dialog.text().await?);
    let first = call_ids(&b).await?.last().cloned().context("no tools/call in the timeline")?;
    let asked = dialog.attr("data-request-id").await?.unwrap_or_default();
    ensure!(asked.starts_with(&format!("\"{first}/")), "the ask is named after the call {first}: {asked}");
    let name = b.css("[data-testid=elicitation-dialog] [data-testid=field][data-field-path=\"/name\"]").await?;
    b.set_value(&name, "Ada Lovelace").await?;
    b.screenshot("stateless-elicitation-dialog").await?;
    b.id("elicitation-accept").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "ok" && text.contains("Hello, Ada Lovelace!"), "{state}: {text}");
    ensure!(b.all("[data-testid=elicitation-dialog]").await?.is_empty(), "the dialog closed");

    // Two tools/call requests under different ids, and no request from the server.
    let ids = call_ids(&b).await?;
    ensure!(ids.len() == 2 && ids[0] == first && ids[0] != ids[1], "the call and its retry: {ids:?}");
    let rows = page::timeline(&b).await?;
    ensure!(!rows.iter().any(|r| r.method == "elicitation/create" && r.kind == "request"), "{rows:#?}");

    // Declined: the server ends the call with a tool error.
    call_greet(&b).await?;
    b.id("elicitation-decline").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "tool-error" && text.contains("elicitation was decline"), "{state}: {text}");
    b.close().await?;
    Ok(())
}
