//! The playground named a server the ways the command line allows: the entries of a
//! `--config` file without `--server` are all offered in the page (a broken one fails only
//! when picked, with its reason), and `-e`/`--cwd` fill the connection form.

use anyhow::{Result, ensure};
use tests::{Browser, Playground, root, server_everything};

use tests::page;

#[tokio::test]
async fn every_entry_of_a_config_file_is_offered_and_a_broken_one_fails_when_picked() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("mcp-playground-offered-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("servers.json");
    let everything = server_everything()?.to_string_lossy().into_owned();
    let doc = serde_json::json!({"mcpServers": {
        "everything": {"command": "node", "args": [everything, "stdio"], "cwd": ".", "disabledTools": []},
        "broken": {"command": "node", "env": {"KEY": "${MCP_PLAYGROUND_SURELY_UNSET}"}}
    }});
    std::fs::write(&config, doc.to_string())?;
    let (_pg, b) = page::open(Playground::start_with(&["--config", &config.to_string_lossy()], &[])?).await?;
    let select = b.id("saved-servers").await?;
    // The demo server stays preselected: nothing starts that the person did not choose.
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("demo"));
    select.clone().select_by_value("config:broken").await?;
    let why = b.id("saved-server-error").await?.text().await?;
    ensure!(why.contains("broken") && why.contains("MCP_PLAYGROUND_SURELY_UNSET"), "{why}");
    select.select_by_value("config:everything").await?;
    ensure!(b.id("connect-transport").await?.prop("value").await?.as_deref() == Some("stdio"));
    let cwd = b.id("connect-cwd").await?.prop("value").await?.unwrap_or_default();
    ensure!(cwd == dir.to_string_lossy(), "a relative cwd is anchored to the file's folder: {cwd:?}");
    page::connect(&b).await?;
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == "get-env"));
    b.close().await?;
    let _ = std::fs::remove_dir_all(dir);
    Ok(())
}

#[tokio::test]
async fn env_and_cwd_on_the_command_line_fill_the_form() -> Result<()> {
    let relative = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
    let servers = root().join("tests/servers");
    let pg = Playground::start_with(
        &["-e", "PROBE=from-the-command-line", "--cwd", &servers.to_string_lossy()],
        &["node", relative, "stdio"],
    )?;
    let b = Browser::start().await?;
    b.client.goto(&pg.url).await?;
    ensure!(b.id("connect-env").await?.prop("value").await?.as_deref() == Some("PROBE=from-the-command-line"));
    ensure!(b.id("connect-cwd").await?.prop("value").await?.as_deref() == Some(&*servers.to_string_lossy()));
    page::connect(&b).await?;
    let state = page::call_tool(&b, "get-env", "{}").await?;
    ensure!(state == "ok", "{state}");
    b.css("[data-testid=timeline-row][data-kind=response][data-method='tools/call']").await?.click().await?;
    let answer = b.id("timeline-detail").await?.text().await?;
    ensure!(answer.contains("from-the-command-line"), "the server saw the variable: {answer}");
    b.close().await?;
    Ok(())
}
