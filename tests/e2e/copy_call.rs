//! Copying a call: copied in Chromium from the result pane and from the timeline, then run
//! in a shell as it was copied (the demo server, `server-everything` over stdio, the Python
//! server over HTTP with a bearer header), giving the result the page showed. The header's
//! value is never in the copied text: the shell fills its `${VAR}` in.

use std::process::{Command, Stdio};

use anyhow::{Context, Result, ensure};
use serde_json::json;
use tests::{Browser, NodeServer, Playground, command, page, server_everything};

/// Lets the page write and the test read the clipboard (DevTools `Browser.grantPermissions`).
async fn allow_clipboard(b: &Browser) -> Result<()> {
    b.cdp("Browser.grantPermissions", json!({"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]}))
        .await?;
    Ok(())
}

/// Clicks `button` (a CSS selector) and returns what it put on the clipboard.
async fn copy(b: &Browser, button: &str) -> Result<String> {
    b.client.execute("return navigator.clipboard.writeText('')", vec![]).await?;
    b.css(button).await?.click().await?;
    let read = "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('ERROR ' + e))";
    let text = b.client.execute_async(read, vec![]).await?;
    let text = text.as_str().context("the clipboard holds no text")?.to_owned();
    ensure!(!text.is_empty() && !text.starts_with("ERROR"), "the clipboard: {text}");
    Ok(text)
}

/// Runs copied text in `sh` with `env`, `mcp-playground` on its PATH being the binary built
/// here.
fn run_copied(text: &str, env: &[(&str, &str)]) -> Result<command::Run> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-copy-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let link = dir.join("mcp-playground");
    if !link.exists() {
        std::os::unix::fs::symlink(command::bin(), &link)?;
    }
    let path = format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(text).env("PATH", path).envs(env.iter().copied()).stdin(Stdio::null());
    #[allow(clippy::disallowed_methods, reason = "the test runs what a person would paste")]
    let out = cmd.output().context("running sh")?;
    Ok(command::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// Calls `tool` in the page, copies the call as a command from the result pane and from
/// the call's row in the timeline (the same text), runs it with `env`: its output holds
/// `expected`, as the page's result does.
async fn copied_call_runs(b: &Browser, tool: &str, args: &str, expected: &str, env: &[(&str, &str)]) -> Result<String> {
    allow_clipboard(b).await?;
    ensure!(page::call_tool(b, tool, args).await? == "ok");
    let shown = page::result_texts(b).await?.join("\n");
    ensure!(shown.contains(expected), "the page shows {shown}");
    let from_pane = copy(b, "[data-testid=result-pane] [data-testid=copy-command]").await?;
    ensure!(from_pane.starts_with(&format!("mcp-playground call {tool} --args ")), "{from_pane}");
    let row = "[data-testid=timeline-row][data-method='tools/call'][data-kind=request] [data-testid=copy-command]";
    let from_row = copy(b, row).await?;
    ensure!(from_row == from_pane, "the row copies the same call:\n{from_row}\n{from_pane}");
    let run = run_copied(&from_pane, env)?;
    ensure!(run.code == 0 && run.stdout.contains(expected), "{from_pane}\n{run}");
    let request: serde_json::Value =
        serde_json::from_str(&copy(b, "[data-testid=result-pane] [data-testid=copy-jsonrpc]").await?)?;
    ensure!(request["method"] == "tools/call" && request["params"]["name"] == tool, "{request}");
    Ok(from_pane)
}

#[tokio::test]
async fn a_call_of_the_demo_server_copied_as_a_command_runs_the_same() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let text = copied_call_runs(&b, "get_weather", r#"{"city": "Lisbon"}"#, "Lisbon", &[]).await?;
    ensure!(!text.contains(" -- ") && !text.contains("--url"), "the demo is named by nothing: {text}");
    ensure!(b.all("[data-testid=copy-curl]").await?.is_empty(), "no curl for a server over stdio");
    b.screenshot("copy-call").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_call_of_server_everything_over_stdio_copied_as_a_command_runs_the_same() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let (_pg, b) = page::connected(Playground::start(&["node", &entry, "stdio"])?).await?;
    let text = copied_call_runs(&b, "echo", r#"{"message": "it's copied"}"#, "it's copied", &[]).await?;
    ensure!(text.ends_with(&format!(" -- node {entry} stdio")), "the server as it was named: {text}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_call_over_http_with_a_bearer_header_is_copied_without_it_and_runs_with_it() -> Result<()> {
    let secret = format!("copy-s3cret-{}", std::process::id());
    let server = NodeServer::python_with_bearer(&secret)?;
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let header = format!("Authorization: Bearer {secret}");
    let (_pg, b) = page::connected(Playground::start_with(&["--header", &header], &[&url])?).await?;
    let bearer = format!("Bearer {secret}");
    let env = [("AUTHORIZATION", bearer.as_str())];
    let args = r#"{"value": 100, "from_unit": "celsius", "to_unit": "fahrenheit"}"#;
    let text = copied_call_runs(&b, "convert_temperature", args, "212", &env).await?;
    ensure!(!text.contains(&secret), "the header's value is not copied: {text}");
    ensure!(text.contains(r#"--header "Authorization: ${AUTHORIZATION}""#), "{text}");
    // Without the variable, the server refuses: the placeholder is what carried it.
    let run = run_copied(&text, &[])?;
    ensure!(run.code != 0, "{run}");
    // curl, with the headers the transport needs, makes the call too.
    let curl = copy(&b, "[data-testid=result-pane] [data-testid=copy-curl]").await?;
    ensure!(!curl.contains(&secret), "{curl}");
    let run = run_copied(&curl, &env)?;
    ensure!(run.code == 0 && run.stdout.contains("212"), "{curl}\n{run}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_call_of_a_server_from_a_config_file_is_copied_by_its_name_there() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-copy-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("my servers.json");
    let entry = server_everything()?.to_string_lossy().into_owned();
    let doc = json!({"mcpServers": {"everything": {"command": "node", "args": [entry, "stdio"]}}});
    std::fs::write(&config, doc.to_string())?;
    let file = config.to_string_lossy().into_owned();
    let (_pg, b) =
        page::connected(Playground::start_with(&["--config", &file, "--server", "everything"], &[])?).await?;
    let text = copied_call_runs(&b, "echo", r#"{"message": "from the file"}"#, "from the file", &[]).await?;
    ensure!(text.ends_with(&format!(" --config '{file}' --server everything")), "{text}");
    b.close().await?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}
