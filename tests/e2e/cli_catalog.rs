//! `mcp-playground resources`, `read`, `prompts` and `prompt`, end to end: the real binary
//! against `server-everything` over stdio, the Python catalog server (paged lists), and
//! the demo server (no prompts), with `--json`, the exit codes, and `--record` replayed.

use anyhow::{Context, Result, ensure};
use serde_json::Value;
use tests::command::run;
use tests::{root, server_everything};

fn json(r: &tests::command::Run) -> Result<Value> {
    serde_json::from_str(&r.stdout).with_context(|| format!("--json prints JSON: {r}"))
}

#[test]
fn resources_read_prompts_and_prompt_against_server_everything() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let server = ["node", entry.as_str(), "stdio"];
    let with = |args: &[&str]| -> Result<tests::command::Run> { run(&[args, &server[..]].concat()) };

    let r = with(&["resources"])?;
    ensure!(r.code == 0 && r.stdout.contains("demo://resource/static/document/architecture.md"), "{r}");
    ensure!(r.stdout.contains("templates:") && r.stdout.contains("demo://resource/dynamic/text/{resourceId}"), "{r}");
    let v = json(&with(&["resources", "--json"])?)?;
    ensure!(
        v["resources"].as_array().map(Vec::len) == Some(7)
            && v["resourceTemplates"].as_array().map(Vec::len) == Some(2),
        "{v}"
    );

    let r = with(&["read", "demo://resource/dynamic/text/5"])?;
    ensure!(r.code == 0 && r.stdout.contains("Resource 5: This is a plaintext resource"), "{r}");
    let v = json(&with(&["read", "demo://resource/dynamic/blob/5", "--json"])?)?;
    ensure!(v["contents"][0]["blob"].is_string(), "the server's answer as it was: {v}");
    let r = with(&["read", "demo://resource/nowhere"])?;
    ensure!(r.code == 2 && r.stderr.contains("resources/read failed"), "an unknown resource exits 2: {r}");

    let r = with(&["prompts"])?;
    ensure!(r.code == 0 && r.stdout.contains("args-prompt") && r.stdout.contains("city (required)"), "{r}");
    let r = with(&["prompt", "args-prompt", "--arg", "city=Paris"])?;
    ensure!(r.code == 0 && r.stdout.contains("[user]") && r.stdout.contains("Paris"), "{r}");
    let v = json(&with(&["prompt", "args-prompt", "--arg", "city=Oslo", "--json"])?)?;
    ensure!(v["messages"][0]["role"] == "user", "{v}");
    let r = with(&["prompt", "args-prompt"])?;
    ensure!(
        r.code == 3 && r.stderr.contains("missing required argument: city") && r.stderr.contains("nothing was sent"),
        "{r}"
    );
    let r = with(&["prompt", "args-prompt", "--arg", "city=Rome", "--arg", "planet=Mars"])?;
    ensure!(r.code == 3 && r.stderr.contains("planet"), "an argument the prompt does not take exits 3: {r}");
    let r = with(&["prompt", "no-such-prompt"])?;
    ensure!(r.code == 3 && r.stderr.contains("args-prompt"), "an unknown prompt names the others: {r}");
    let r = with(&["prompt", "args-prompt", "--arg", "city"])?;
    ensure!(r.code == 3 && r.stderr.contains("KEY=VALUE"), "{r}");

    // Recorded, then replayed: the prompt compared, none skipped.
    let file = std::env::temp_dir().join(format!("mcp-playground-prompt-{}.jsonl", std::process::id()));
    let file = file.to_string_lossy().into_owned();
    let r = with(&["prompt", "args-prompt", "--arg", "city=Lima", "--record", &file])?;
    ensure!(r.code == 0, "{r}");
    let r = with(&["replay", &file, "--json"])?;
    ensure!(r.code == 0, "{r}");
    let v = json(&r)?;
    let rows: Vec<String> =
        v["rows"].as_array().into_iter().flatten().map(|r| format!("{} {}", r["method"], r["state"])).collect();
    ensure!(
        rows.contains(&r#""prompts/get" "same""#.to_owned()) && rows.contains(&r#""prompts/list" "same""#.to_owned()),
        "{rows:?}"
    );
    ensure!(v["counts"]["skipped"] == 0, "{rows:?}");
    let _ = std::fs::remove_file(file);
    Ok(())
}

#[test]
fn paged_lists_of_the_python_catalog_and_a_server_without_prompts() -> Result<()> {
    let script = root().join("tests/servers/python/catalog_server.py").to_string_lossy().into_owned();
    let v = json(&run(&["resources", "--json", "python3", &script])?)?;
    ensure!(v["resources"].as_array().map(Vec::len) == Some(27), "every page of resources/list: {v}");
    let v = json(&run(&["prompts", "--json", "python3", &script])?)?;
    ensure!(v["prompts"].as_array().map(Vec::len) == Some(12), "every page of prompts/list: {v}");
    let r = run(&["read", "catalog://image/dot.png", "python3", &script])?;
    ensure!(r.code == 0 && r.stdout.contains("blob image/png"), "{r}");

    // The demo server offers resources (its App's view) and no prompts.
    let r = run(&["prompts"])?;
    ensure!(r.code == 2 && r.stderr.contains("offers no prompts"), "{r}");
    let r = run(&["resources"])?;
    ensure!(r.code == 0 && r.stdout.contains("ui://demo/weather-chart"), "{r}");
    Ok(())
}
