//! `mcp-playground mock FILE`: a recording of `server-everything` served back as an MCP
//! server, over stdio and Streamable HTTP, to the command line and to the page, which must
//! see the same tools and results as from the live server.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, ensure};
use tests::{Playground, server_everything};

use tests::command::{bin, run};
use tests::page;

/// Two recordings of the live server in a fresh folder: `tools.jsonl` (`tools`) and
/// `echo.jsonl` (`call echo --arg message=hi`); and the tool names it listed.
struct Recorded {
    dir: PathBuf,
    tools: PathBuf,
    echo: PathBuf,
    names: Vec<String>,
}

impl Drop for Recorded {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn record(name: &str) -> Result<Recorded> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-mock-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let entry = server_everything()?.to_string_lossy().into_owned();
    let (tools, echo) = (dir.join("tools.jsonl"), dir.join("echo.jsonl"));
    let r = run(&["tools", "--json", "--record", &path(&tools), "node", &entry, "stdio"])?;
    ensure!(r.code == 0, "{r}");
    let names = tool_names(&r.stdout)?;
    let r = run(&["call", "echo", "--arg", "message=hi", "--record", &path(&echo), "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("Echo: hi"), "{r}");
    Ok(Recorded { dir, tools, echo, names })
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The names of `tools --json` output.
fn tool_names(json: &str) -> Result<Vec<String>> {
    let v: serde_json::Value = serde_json::from_str(json).with_context(|| format!("not JSON: {json}"))?;
    let names: Vec<String> =
        v["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect();
    ensure!(names.iter().any(|n| n == "echo"), "no echo in {names:?}");
    Ok(names)
}

/// A child process killed on drop.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn mock_process(args: &[&str]) -> Result<Killed> {
    let mut cmd = Command::new(bin());
    cmd.arg("mock").args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    #[allow(clippy::disallowed_methods, reason = "tests run the real binary")]
    let child = cmd.spawn().context("starting mcp-playground mock")?;
    Ok(Killed(child))
}

#[test]
fn the_command_line_calls_a_mock_over_stdio() -> Result<()> {
    let rec = record("stdio")?;
    let me = path(&bin());
    let r = run(&["call", "echo", "--arg", "message=hi", &me, "mock", &path(&rec.echo)])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Echo: hi", "{r}");
    // Other arguments take the next unused recorded answer of the same tool, in order.
    let r = run(&["call", "echo", "--arg", "message=other", &me, "mock", &path(&rec.echo)])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Echo: hi", "{r}");
    let r = run(&["tools", "--json", &me, "mock", &path(&rec.tools)])?;
    ensure!(r.code == 0 && tool_names(&r.stdout)? == rec.names, "{r}");
    // The recording of `tools` has no call at all: the error names what it holds.
    let r = run(&["call", "echo", "--arg", "message=hi", &me, "mock", &path(&rec.tools)])?;
    ensure!(r.code == 2 && r.stderr.contains("tools/call") && r.stderr.contains("tools/list"), "{r}");

    // A tool the recording never called, asked for directly (the command line would refuse
    // a tool the list lacks before asking).
    let mut child = mock_process(&[&path(&rec.echo)])?;
    let mut stdin = child.0.stdin.take().context("stdin")?;
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{}}}}"#)?;
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"nope","arguments":{{}}}}}}"#)?;
    drop(stdin);
    let out = child.0.stdout.take().context("stdout")?;
    let lines: Vec<String> = BufReader::new(out).lines().collect::<std::io::Result<_>>()?;
    // The server's notifications recorded around `initialize` (server-everything sends its
    // `list_changed` at a time of its own) come too; the answers are what this is about.
    let mut answers = Vec::new();
    for line in &lines {
        let frame: serde_json::Value = serde_json::from_str(line).with_context(|| format!("not JSON: {line}"))?;
        if frame.get("method").is_none() {
            answers.push(frame);
        }
    }
    // JSON-RPC lets answers come in any order (the mock answers `initialize` after what it
    // recorded around it): they are matched by id.
    answers.sort_by_key(|a| a["id"].as_u64());
    ensure!(answers.len() == 2 && answers[0]["id"] == 1 && answers[0].get("result").is_some(), "{lines:?}");
    let error = &answers[1];
    let message = error["error"]["message"].as_str().unwrap_or_default();
    ensure!(error["id"] == 2 && message.contains("nope") && message.contains(r#""message":"hi""#), "{error}");

    let r = run(&["mock", "/no/such/recording.jsonl"])?;
    ensure!(r.code == 2 && r.stderr.contains("/no/such/recording.jsonl"), "{r}");
    Ok(())
}

#[test]
fn the_command_line_lists_a_mock_over_streamable_http() -> Result<()> {
    let rec = record("http")?;
    let mut child = mock_process(&[&path(&rec.echo), "--port", "0"])?;
    let out = tests::lines(child.0.stdout.take().context("stdout")?);
    let line = tests::first_line(&out, Duration::from_secs(30), |l| Some(l.to_owned()))
        .context("the mock printed no URL within 30 s")?;
    let url = line.strip_prefix("MCP mock: ").with_context(|| format!("unexpected line {line:?}"))?;
    ensure!(url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"), "{url}");
    let r = run(&["tools", "--json", url])?;
    ensure!(r.code == 0 && tool_names(&r.stdout)? == rec.names, "{r}");
    let r = run(&["call", "echo", "--arg", "message=hi", url])?;
    ensure!(r.code == 0 && r.stdout.trim() == "Echo: hi", "{r}");
    Ok(())
}

#[tokio::test]
async fn the_page_connects_to_a_mock_and_sees_what_the_live_server_showed() -> Result<()> {
    let rec = record("page")?;
    let me = path(&bin());
    let echo = path(&rec.echo);
    let (_pg, b) = page::connected(Playground::start(&[&me, "mock", &echo])?).await?;
    let names = page::tool_names(&b).await?;
    ensure!(names == rec.names, "the page lists {names:?}, the live server listed {:?}", rec.names);
    let state = page::call_tool(&b, "echo", r#"{"message": "hi"}"#).await?;
    ensure!(state == "ok", "result state {state}");
    let texts = page::result_texts(&b).await?;
    ensure!(texts.iter().any(|t| t == "Echo: hi"), "echo text missing: {texts:?}");
    page::assert_call_pair(&b).await?;
    b.screenshot("mock-echo").await?;
    b.close().await?;
    Ok(())
}
