//! `mcp-playground replay`, end to end: recordings made with `call --record` and
//! `tools --record` replayed against the demo server, `server-everything` and the Python
//! server over stdio (all the same, exit 0), against a changed server (exit 1, breaking
//! drift), with an ignore that hides a difference, as JSON, and from an unreadable file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::{root, server_everything};

use tests::command::{Run, run};

/// A scratch folder of this test process.
fn scratch(name: &str) -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-replay-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// `replay FILE ARGS… --json`'s report.
fn report(r: &Run) -> Result<Value> {
    serde_json::from_str(&r.stdout).with_context(|| format!("--json prints JSON: {r}"))
}

fn states(v: &Value) -> Vec<String> {
    v["rows"].as_array().into_iter().flatten().map(|r| format!("{} {}", r["method"], r["state"])).collect()
}

#[test]
fn replay_cli_demo_recordings_replay_the_same() -> Result<()> {
    let dir = scratch("demo")?;
    let file = path(&dir.join("weather.jsonl"));
    let r = run(&["call", "get_weather", "--args", r#"{"city": "Lisbon"}"#, "--record", &file])?;
    ensure!(r.code == 0, "{r}");
    let r = run(&["replay", &file])?;
    ensure!(r.code == 0, "the demo server is the default, and repeatable: {r}");
    ensure!(r.stdout.contains("✓ same") && r.stdout.contains("tools/call get_weather"), "{r}");
    ensure!(r.stdout.contains("4 same, 0 different"), "server/discover, initialize, tools/list and the call: {r}");

    let r = run(&["replay", &file, "--json"])?;
    ensure!(r.code == 0, "{r}");
    let v = report(&r)?;
    let want =
        [r#""server/discover" "same""#, r#""initialize" "same""#, r#""tools/list" "same""#, r#""tools/call" "same""#];
    ensure!(states(&v) == want, "{v}");
    ensure!(v["rows"][3]["tool"] == "get_weather" && v["counts"]["same"] == 4, "{v}");

    let tools = path(&dir.join("tools.jsonl"));
    let r = run(&["tools", "--record", &tools])?;
    ensure!(r.code == 0, "{r}");
    let r = run(&["replay", &tools, "--fail-on", "any"])?;
    ensure!(r.code == 0 && r.stdout.contains("3 same"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn replay_cli_server_everything_and_python_over_stdio() -> Result<()> {
    let dir = scratch("stdio")?;
    let entry = path(&server_everything()?);
    let file = path(&dir.join("everything.jsonl"));
    let r = run(&["call", "get-sum", "--arg", "a=2", "--arg", "b=40", "--record", &file, "node", &entry, "stdio"])?;
    ensure!(r.code == 0, "{r}");
    let r = run(&["replay", &file, "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("tools/call get-sum"), "{r}");
    ensure!(!r.stdout.contains("different") || r.stdout.contains("0 different"), "{r}");

    let script = path(&root().join("tests/servers/python/pydantic_tools.py"));
    let file = path(&dir.join("python.jsonl"));
    let args = ["--arg", "value=100", "--arg", "from_unit=celsius", "--arg", "to_unit=fahrenheit"];
    let mut call = vec!["call", "convert_temperature"];
    call.extend(args);
    call.extend(["--record", &file, "python3", &script]);
    let r = run(&call)?;
    ensure!(r.code == 0, "{r}");
    // Its tool says nothing of being read-only: skipped unless --allow-writes.
    let r = run(&["replay", &file, "python3", &script])?;
    ensure!(r.code == 0 && r.stdout.contains("skipped") && r.stdout.contains("--allow-writes"), "{r}");
    let r = run(&["replay", &file, "--allow-writes", "--json", "--", "python3", &script])?;
    ensure!(r.code == 0, "{r}");
    let v = report(&r)?;
    // 2026-07-28: server/discover, tools/list and the call (the listen subscription is the
    // client's own, not replayed).
    ensure!(v["counts"]["same"] == 3 && v["counts"]["skipped"] == 0, "{v}");
    ensure!(v["rows"][0]["method"] == "server/discover", "{v}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn replay_cli_offers_the_roots_the_recording_offered() -> Result<()> {
    let dir = scratch("roots")?;
    let entry = path(&server_everything()?);
    let answers = dir.join("answers.json");
    std::fs::write(&answers, r#"{"roots": ["file:///srv/project-one", "file:///srv/project-two"]}"#)?;
    let file = path(&dir.join("roots.jsonl"));
    let r = run(&["call", "get-roots-list", "--answers", &path(&answers), "--record", &file, "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("project-two"), "the server lists the roots it was offered: {r}");
    // No answers file now: the replay offers what the recording offered, and the server's
    // answer, which names them, compares equal.
    let r = run(&["replay", &file, "--json", "--", "node", &entry, "stdio"])?;
    ensure!(r.code == 0, "{r}");
    let v = report(&r)?;
    let call = v["rows"].as_array().into_iter().flatten().find(|row| row["tool"] == "get-roots-list");
    ensure!(call.is_some_and(|c| c["state"] == "same"), "{v}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn replay_cli_a_changed_server_fails_with_breaking_drift() -> Result<()> {
    let dir = scratch("changed")?;
    let file = path(&dir.join("weather.jsonl"));
    let r = run(&["call", "get_weather", "--args", r#"{"city": "Lisbon"}"#, "--record", &file])?;
    ensure!(r.code == 0, "{r}");
    let entry = path(&server_everything()?);
    let r = run(&["replay", &file, "node", &entry, "stdio"])?;
    ensure!(r.code == 1, "another server's tools: {r}");
    ensure!(r.stdout.contains("drift breaking") && r.stdout.contains("get_weather: tool removed"), "{r}");
    let r = run(&["replay", &file, "--fail-on", "breaking", "--json", "node", &entry, "stdio"])?;
    ensure!(r.code == 1, "tools removed are breaking: {r}");
    let v = report(&r)?;
    let removed = v["drift"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|d| d["tool"] == "get_weather" && d["class"] == "breaking" && d["what"] == "tool removed");
    ensure!(removed && v["counts"]["breaking"].as_u64() > Some(0), "{v}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn replay_cli_an_ignore_hides_a_difference() -> Result<()> {
    let dir = scratch("ignore")?;
    let file = dir.join("weather.jsonl");
    let r = run(&["call", "get_weather", "--args", r#"{"city": "Lisbon"}"#, "--record", &path(&file)])?;
    ensure!(r.code == 0, "{r}");
    // The recorded answer said another temperature (as a server that changed since would).
    let text = std::fs::read_to_string(&file)?;
    let mut edited = String::new();
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line)?;
        let frame: Value = v["frame"].as_str().and_then(|f| serde_json::from_str(f).ok()).unwrap_or_default();
        if frame["result"].get("structuredContent").is_some() {
            let mut f = frame;
            f["result"]["structuredContent"]["temperature"] = Value::from(-40.5);
            let mut inner: Value = serde_json::from_str(f["result"]["content"][0]["text"].as_str().unwrap_or("{}"))?;
            inner["temperature"] = Value::from(-40.5);
            f["result"]["content"][0]["text"] = Value::String(inner.to_string());
            v["frame"] = Value::String(f.to_string());
        }
        edited.push_str(&v.to_string());
        edited.push('\n');
    }
    std::fs::write(&file, edited)?;
    let file = path(&file);
    let r = run(&["replay", &file])?;
    ensure!(r.code == 1 && r.stdout.contains("✗ different"), "{r}");
    // The text holds JSON: compared as JSON, its pointer goes on inside it.
    ensure!(r.stdout.contains("/result/content/0/text/temperature: -40.5 →"), "{r}");
    ensure!(r.stdout.contains("/result/structuredContent/temperature"), "{r}");
    let r = run(&["replay", &file, "--fail-on", "breaking"])?;
    ensure!(r.code == 0, "a difference is no breaking change: {r}");
    let ignores =
        ["--ignore", "/result/content/*/text/temperature", "--ignore", "/result/structuredContent/temperature"];
    let mut args = vec!["replay", file.as_str()];
    args.extend(ignores);
    let r = run(&args)?;
    ensure!(r.code == 0 && r.stdout.contains("4 same"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[test]
fn replay_cli_an_unreadable_recording_exits_2() -> Result<()> {
    let dir = scratch("unreadable")?;
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, "this is not a recording\n")?;
    let r = run(&["replay", &path(&file)])?;
    ensure!(r.code == 2 && r.stderr.contains("line 1") && r.stderr.contains("not a recording"), "{r}");
    let r = run(&["replay", &path(&dir.join("missing.jsonl"))])?;
    ensure!(r.code == 2 && r.stderr.contains("cannot read"), "{r}");
    let r = run(&["replay", &path(&file), "--ignore", "no-slash"])?;
    ensure!(r.code == 2 && r.stderr.contains("not a JSON Pointer"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
