//! The headless command line (`mcp-playground tools` and `call`), end to end: the real
//! binary against the demo server, `server-everything` over stdio and Streamable HTTP, and
//! the Python server, naming each server every way a person can.

use anyhow::{Context, Result, ensure};
use tests::command::{run, run_in};
use tests::{NodeServer, root, server_everything};

fn everything() -> Result<String> {
    Ok(server_everything()?.to_string_lossy().into_owned())
}

#[test]
fn the_demo_server_by_default_with_every_exit_code() -> Result<()> {
    let r = run(&["tools"])?;
    ensure!(r.code == 0 && r.stdout.contains("echo") && r.stdout.contains("slow_task"), "{r}");

    let r = run(&["call", "echo", "--arg", "message=hi there"])?;
    ensure!(r.code == 0 && r.stdout.trim() == "hi there", "{r}");

    let r = run(&["call", "fail", "--arg", "reason=on purpose"])?;
    ensure!(r.code == 1 && r.stdout.contains("on purpose"), "a tool error exits 1: {r}");

    let r = run(&["call", "fail", "--arg", "as_protocol_error=true"])?;
    ensure!(r.code == 2, "a protocol error exits 2: {r}");

    let r = run(&["call", "get_image", "--arg", "width=huge"])?;
    ensure!(r.code == 3 && r.stderr.contains("width"), "arguments of the wrong type exit 3: {r}");
    let r = run(&["call", "get_image", "--arg", "width=4"])?;
    ensure!(r.code == 3 && r.stderr.contains("/width"), "arguments outside the schema exit 3: {r}");
    let r = run(&["call", "echo"])?;
    ensure!(r.code == 3 && r.stderr.contains("message"), "a missing required argument exits 3: {r}");
    let r = run(&["call", "no_such_tool"])?;
    ensure!(r.code == 3 && r.stderr.contains("no_such_tool") && r.stderr.contains("echo"), "{r}");

    let r = run(&["call", "slow_task", "--arg", "steps=3", "--arg", "delay_ms=50"])?;
    ensure!(r.code == 0, "{r}");
    ensure!(r.stderr.matches("progress").count() >= 2, "progress goes to stderr: {r}");

    let r = run(&["call", "slow_task", "--arg", "steps=5", "--arg", "delay_ms=2000", "--timeout", "0.5"])?;
    ensure!(r.code == 2 && r.stderr.contains("timed out"), "a timeout exits 2: {r}");

    let r = run(&["call", "get_weather", "--args", r#"{"city": "Lisbon"}"#, "--json"])?;
    ensure!(r.code == 0, "{r}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).with_context(|| format!("--json prints JSON: {r}"))?;
    ensure!(v["structuredContent"]["city"] == "Lisbon", "{v}");
    Ok(())
}

#[test]
fn server_everything_over_stdio_named_as_a_positional_command() -> Result<()> {
    let entry = everything()?;
    let r = run(&["call", "echo", "--arg", "message=hi", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("Echo: hi"), "{r}");
    let r = run(&["call", "get-sum", "--arg", "a=2", "--arg", "b=40", "--json", "--", "node", &entry, "stdio"])?;
    ensure!(r.code == 0, "{r}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout)?;
    ensure!(v["content"][0]["text"].as_str().is_some_and(|t| t.contains("42")), "{v}");
    // `-e` reaches the server's environment.
    let r = run(&["call", "get-env", "-e", "PLAYGROUND_PROBE=xyzzy-42", "node", &entry, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("xyzzy-42"), "{r}");
    let r = run(&["tools", "--json", "node", &entry, "stdio"])?;
    let v: serde_json::Value = serde_json::from_str(&r.stdout).with_context(|| r.to_string())?;
    let names: Vec<&str> = v["tools"].as_array().into_iter().flatten().filter_map(|t| t["name"].as_str()).collect();
    ensure!(names.contains(&"echo") && names.contains(&"get-env"), "{names:?}");
    Ok(())
}

#[test]
fn cwd_makes_a_relative_server_path_work() -> Result<()> {
    let relative = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    let r = run(&["tools", "--cwd", "tests/servers", "node", relative, "stdio"])?;
    ensure!(r.code == 0 && r.stdout.contains("get-env"), "{r}");
    let r = run(&["tools", "node", relative, "stdio"])?;
    ensure!(r.code == 2, "without --cwd the path does not resolve: {r}");
    let r = run(&["tools", "--cwd", "no/such/dir", "node", relative, "stdio"])?;
    ensure!(r.code == 2 && r.stderr.contains("no/such/dir"), "{r}");
    Ok(())
}

#[test]
fn server_everything_over_streamable_http_as_a_positional_url() -> Result<()> {
    let server = NodeServer::everything("streamableHttp")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let r = run(&["call", "echo", "--arg", "message=over http", &url])?;
    ensure!(r.code == 0 && r.stdout.contains("Echo: over http"), "{r}");
    let r = run(&["tools", "--url", &url, "--transport", "http"])?;
    ensure!(r.code == 0 && r.stdout.contains("get-sum"), "{r}");
    let r = run(&["tools", "http://127.0.0.1:9/mcp"])?;
    ensure!(r.code == 2, "nothing listens there: {r}");
    Ok(())
}

#[test]
fn the_python_server_with_a_header_and_over_stdio() -> Result<()> {
    let server = NodeServer::python_with_bearer("cli-s3cret")?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let args = ["--arg", "value=100", "--arg", "from_unit=celsius", "--arg", "to_unit=fahrenheit"];
    let mut call = vec!["call", "convert_temperature"];
    call.extend(args);
    call.extend(["--header", "Authorization: Bearer cli-s3cret", &url]);
    let r = run(&call)?;
    ensure!(r.code == 0 && r.stdout.contains("212"), "{r}");
    let r = run(&["tools", &url])?;
    ensure!(r.code == 2 && r.stderr.contains("401"), "without the header: refused, and said why: {r}");
    let script = root().join("tests/servers/python/pydantic_tools.py");
    let r = run(&["tools", "python3", &script.to_string_lossy()])?;
    ensure!(r.code == 0 && r.stdout.contains("convert_temperature"), "{r}");
    Ok(())
}

#[test]
fn config_files_with_unknown_keys_and_variables() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("mcp.json");
    let doc = serde_json::json!({"mcpServers": {
        "everything": {
            "command": "node", "args": [everything()?, "stdio"],
            "env": {"PLAYGROUND_PROBE": "${PROBE_SOURCE}", "SECOND": "${env:PROBE_SOURCE}-2"},
            "alwaysAllow": ["echo"], "autoApprove": true
        },
        "broken": {"command": 7}
    }});
    std::fs::write(&config, doc.to_string())?;
    let c = config.to_string_lossy().into_owned();
    let r = run_in(
        &root(),
        &["call", "get-env", "--config", &c, "--server", "everything"],
        &[("PROBE_SOURCE", "from-env-77")],
    )?;
    ensure!(r.code == 0 && r.stdout.contains("from-env-77") && r.stdout.contains("from-env-77-2"), "{r}");
    ensure!(r.stderr.contains("alwaysAllow"), "unknown keys are named in a warning: {r}");
    let r = run_in(&root(), &["tools", "--config", &c, "--server", "everything"], &[])?;
    ensure!(r.code != 0 && r.stderr.contains("PROBE_SOURCE"), "an unset variable is an error of its entry: {r}");
    let r = run_in(&root(), &["tools", "--config", &c, "--server", "broken"], &[("PROBE_SOURCE", "x")])?;
    ensure!(r.code != 0 && r.stderr.contains("broken") && r.stderr.contains("command"), "{r}");
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
