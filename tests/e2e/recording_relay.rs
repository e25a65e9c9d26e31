//! Recording without the page: the relay's `--record DIR` writes each session as the page
//! saw it (secrets masked), `call --record FILE` writes the headless session, and `play FILE`
//! serves a recording back to the page.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, Result, bail, ensure};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tests::relay::{self, RelayRx};
use tests::{NodeServer, Playground};
use tokio_tungstenite::tungstenite::Message;

use tests::command::{bin, run};

/// A fresh, empty folder of its own.
fn scratch(name: &str) -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The `hello` of a relay socket at `url` (which carries the token).
async fn hello(url: &str) -> Result<Value> {
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true).await?;
    let first = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.context("no hello within 10 s")?;
    match first {
        Some(Ok(Message::Text(t))) => Ok(serde_json::from_str(&t)?),
        other => bail!("the relay's first message is not text: {other:?}"),
    }
}

/// Reads relay messages into `seen` until one matches.
async fn read_until(rx: &mut RelayRx, seen: &mut Vec<Value>, done: impl Fn(&Value) -> bool) -> Result<()> {
    loop {
        let msg =
            tokio::time::timeout(Duration::from_secs(30), rx.next_msg()).await.context("the relay went quiet")??;
        let stop = done(&msg);
        seen.push(msg);
        if stop {
            return Ok(());
        }
    }
}

fn answers(id: u64) -> impl Fn(&Value) -> bool {
    move |m| {
        m["direction"] == "in"
            && m["frame"]
                .as_str()
                .and_then(|f| serde_json::from_str::<Value>(f).ok())
                .is_some_and(|f| f["id"] == id && f.get("method").is_none())
    }
}

/// One session as the page has it with the relay's preset server: connect, initialize,
/// list the tools, call one, disconnect. Every relay message it read, in order.
async fn one_session(pg: &Playground, tool: &str, arguments: Value) -> Result<Vec<Value>> {
    let welcome = hello(&format!("ws://{}/api/ws?token={}", pg.authority(), pg.token)).await?;
    ensure!(welcome["recording"] == true, "the hello says the relay records: {welcome}");
    let (mut tx, mut rx) = relay::open(pg).await?;
    let mut seen = Vec::new();
    tx.command(&json!({"type": "connect", "target": welcome["preset"]})).await?;
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "recording-e2e", "version": "1"}
    }});
    // The frames sent, in order: the relay stamps each (`sent`, its number) and does not
    // echo it.
    let call =
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
    let frames = [
        init.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#.to_owned(),
        call.to_string(),
    ];
    tx.frame(&frames[0]).await?;
    read_until(&mut rx, &mut seen, answers(1)).await?;
    tx.frame(&frames[1]).await?;
    tx.frame(&frames[2]).await?;
    read_until(&mut rx, &mut seen, answers(2)).await?;
    tx.frame(&frames[3]).await?;
    read_until(&mut rx, &mut seen, answers(3)).await?;
    tx.command(&json!({"type": "disconnect"})).await?;
    read_until(&mut rx, &mut seen, |m| m["type"] == "event" && m["event"]["kind"] == "closed").await?;
    ensure!(!seen.iter().any(|m| m["direction"] == "out"), "a frame of ours came back whole");
    // What the page makes of the stamps: its own frames, at the relay's time.
    let mut stamped = 0;
    for m in &mut seen {
        if m["type"] == "sent" {
            let frame =
                m["n"].as_u64().and_then(|n| frames.get(usize::try_from(n).ok()?)).context("a stamp of no send")?;
            ensure!(m["size"] == frame.len(), "{m}");
            *m = json!({"type": "message", "direction": "out", "at_ms": m["at_ms"], "size": m["size"], "frame": frame});
            stamped += 1;
        }
    }
    ensure!(stamped == frames.len(), "{stamped} of {} sends stamped", frames.len());
    Ok(seen)
}

/// The one file of `dir`, and its lines as JSON.
fn the_only_recording(dir: &Path) -> Result<(String, Vec<Value>)> {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    ensure!(files.len() == 1, "one session, one file: {files:?}");
    let text = std::fs::read_to_string(&files[0])?;
    let lines =
        text.lines().map(serde_json::from_str).collect::<Result<Vec<Value>, _>>().context("every line is JSON")?;
    ensure!(text.ends_with('\n'), "the last line is complete");
    Ok((text, lines))
}

/// The file holds exactly what the page was told, in order, every frame byte for byte; the
/// header names what `initialize` negotiated; no secret is anywhere in it.
fn check_recording(text: &str, lines: &[Value], seen: &[Value], secrets: &[&str]) -> Result<()> {
    let header = &lines[0];
    ensure!(header["format"] == "mcp-playground-recording" && header["version"] == 3, "{header}");
    ensure!(header["recorded_by"] == "relay", "{header}");
    let init = seen.iter().find(|m| answers(1)(m)).context("initialize was answered")?;
    let result: Value = serde_json::from_str(init["frame"].as_str().unwrap_or_default())?;
    ensure!(header["protocol_version"] == result["result"]["protocolVersion"], "{header}");
    ensure!(header["server_info"] == result["result"]["serverInfo"] && header["server_info"]["name"].is_string());
    let expected: Vec<Value> = seen
        .iter()
        .map(|m| match m["type"].as_str() {
            Some("message") => json!({"t": m["at_ms"], "dir": m["direction"], "frame": m["frame"]}),
            _ => json!({"t": m["at_ms"], "event": m["event"]}),
        })
        .collect();
    ensure!(lines[1..] == expected[..], "the file is not what the page saw:\n{text}\n--- seen\n{expected:#?}");
    for frame in seen.iter().filter_map(|m| m["frame"].as_str()) {
        ensure!(text.contains(&serde_json::to_string(frame)?), "{frame} is not in the file as it was sent");
    }
    for secret in secrets {
        ensure!(!text.contains(secret), "{secret:?} is in the recording:\n{text}");
    }
    Ok(())
}

#[tokio::test]
async fn the_relay_records_a_stdio_session_without_its_environment() -> Result<()> {
    let dir = scratch("record-stdio")?;
    let secret = format!("stdio-s3cret-{}", std::process::id());
    let bin = bin().to_string_lossy().into_owned();
    let dir_arg = dir.join("not-yet-made").to_string_lossy().into_owned();
    let env = format!("PLAYGROUND_SECRET={secret}");
    let pg = Playground::start_with(&["--record", &dir_arg, "-e", &env], &[&bin, "demo-server"])?;
    let seen = one_session(&pg, "echo", json!({"message": "recorded"})).await?;
    let (text, lines) = the_only_recording(&dir.join("not-yet-made"))?;
    check_recording(&text, &lines, &seen, &[&secret, &pg.token])?;
    ensure!(lines[0]["target"]["env"]["PLAYGROUND_SECRET"] == "••••", "{}", lines[0]);
    ensure!(text.contains("recorded"), "the call's answer is in the file");
    drop(pg);
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn the_relay_records_a_remote_session_without_its_header() -> Result<()> {
    let dir = scratch("record-remote")?;
    let secret = format!("remote-s3cret-{}", std::process::id());
    let server = NodeServer::python_with_bearer(&secret)?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let header = format!("Authorization: Bearer {secret}");
    let dir_arg = dir.to_string_lossy().into_owned();
    let pg = Playground::start_with(&["--record", &dir_arg, "--header", &header], &[&url])?;
    let arguments = json!({"value": 100, "from_unit": "celsius", "to_unit": "fahrenheit"});
    let seen = one_session(&pg, "convert_temperature", arguments).await?;
    let (text, lines) = the_only_recording(&dir)?;
    check_recording(&text, &lines, &seen, &[&secret, &pg.token])?;
    ensure!(lines[0]["target"]["headers"]["Authorization"] == "Bearer ••••", "{}", lines[0]);
    ensure!(text.contains("212"), "the call's answer is in the file");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn the_relay_refuses_a_record_dir_it_cannot_write() -> Result<()> {
    let dir = scratch("record-refused")?;
    let file = dir.join("a-file");
    std::fs::write(&file, "")?;
    let r = run(&["--record", &file.to_string_lossy(), "--port", "0", "--no-open"])?;
    ensure!(
        r.code != 0 && r.stderr.contains("cannot record to") && r.stdout.is_empty(),
        "refused before listening: {r}"
    );
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

/// `mcp-playground play …`, killed on drop: its URL, and its stderr lines as they come.
struct Player {
    child: Child,
    base: String,
    stderr: std::sync::mpsc::Receiver<String>,
}

impl Player {
    fn start(args: &[&str]) -> Result<Self> {
        let mut cmd = Command::new(bin());
        cmd.args(args).env("NO_COLOR", "1").env_remove("RUST_LOG").stdin(Stdio::null());
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        #[allow(clippy::disallowed_methods, reason = "tests start the real binary")]
        let mut child = cmd.spawn().context("starting mcp-playground play")?;
        let stdout = tests::lines(child.stdout.take().expect("piped"));
        let stderr = tests::lines(child.stderr.take().expect("piped"));
        let line = tests::first_line(&stdout, Duration::from_secs(30), |l| Some(l.to_owned()))
            .context("play printed no URL line within 30 s")?;
        let url = line.strip_prefix("MCP Playground: ").with_context(|| format!("unexpected line {line:?}"))?;
        let base = url.split("/?").next().unwrap_or(url).to_owned();
        Ok(Self { child, base, stderr })
    }

    /// The first stderr line containing `what`.
    fn logged(&self, what: &str) -> Result<String> {
        loop {
            let line =
                self.stderr.recv_timeout(Duration::from_secs(10)).with_context(|| format!("no {what:?} logged"))?;
            if line.contains(what) {
                return Ok(line);
            }
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn the_command_line_records_and_play_serves_the_file_as_written() -> Result<()> {
    let dir = scratch("record-cli")?;
    let file = dir.join("echo.jsonl");
    let file_arg = file.to_string_lossy().into_owned();
    let r = run(&["call", "echo", "--arg", "message=hi", "--record", &file_arg])?;
    ensure!(r.code == 0 && r.stdout.trim() == "hi", "{r}");
    let text = std::fs::read_to_string(&file)?;
    let lines = text.lines().map(serde_json::from_str).collect::<Result<Vec<Value>, _>>().context("JSON Lines")?;
    let header = &lines[0];
    ensure!(header["recorded_by"] == "cli" && header["target"] == json!({"transport": "demo"}), "{header}");
    ensure!(header["server_info"]["name"] == "mcp-playground-demo", "{header}");
    for entry in &lines[1..] {
        let shape = (entry.get("dir").is_some() && entry["frame"].is_string()) ^ entry["event"].is_object();
        ensure!(entry["t"].is_f64() && shape, "not an entry: {entry}");
    }
    let echoed = lines[1..].iter().filter(|e| e["dir"] == "in").any(|e| {
        serde_json::from_str::<Value>(e["frame"].as_str().unwrap_or_default())
            .is_ok_and(|f| f["result"]["content"][0]["text"] == "hi")
    });
    ensure!(echoed, "the echo answer is recorded:\n{text}");
    ensure!(lines.last().is_some_and(|e| e["event"]["kind"] == "closed"), "the close is the last line:\n{text}");

    // `play` reads it with the format's own reader (which logs every problem it finds) and
    // serves its exact text to whoever holds the token.
    let token = "play-token-0123456789";
    let player = Player::start(&["play", &file_arg, "--port", "0", "--no-open", "--token", token])?;
    let loaded = player.logged("recording loaded")?;
    ensure!(loaded.contains("problems=0") && loaded.contains(&format!("entries={}", lines.len() - 1)), "{loaded}");
    let client = reqwest::Client::new();
    let answer = client.get(format!("{}/api/recording?token={token}", player.base)).send().await?;
    ensure!(answer.status() == 200, "{}", answer.status());
    ensure!(answer.headers()["content-type"] == "application/x-ndjson", "{:?}", answer.headers());
    ensure!(answer.text().await? == text, "served as written");
    let refused = client.get(format!("{}/api/recording", player.base)).send().await?;
    ensure!(refused.status() == 401, "without the token: {}", refused.status());
    let welcome = hello(&format!("{}/api/ws?token={token}", player.base.replacen("http://", "ws://", 1))).await?;
    ensure!(welcome["playback"] == true && welcome.get("recording").is_none(), "{welcome}");
    drop(player);

    // What is not a recording is refused before anything listens, naming the line.
    let echo_text = dir.join("not-a-recording.txt");
    std::fs::write(&echo_text, "hi\n")?;
    let r = run(&["play", &echo_text.to_string_lossy(), "--port", "0", "--no-open"])?;
    ensure!(r.code != 0 && r.stderr.contains("line 1: not a recording") && r.stdout.is_empty(), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
