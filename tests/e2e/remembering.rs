//! The page remembers (issue 23, item 10): every server connected to is saved with its
//! command and the names of its env, never a value unless "remember secrets" is ticked, and
//! then the relay keeps the values in a file only the user reads; the last server, tool and
//! timeline view come back after a reload; a saved server is renamed and forgotten.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, eventually, server_everything, state_dir};

use tests::page;

/// Everything the page keeps in `localStorage`, as one text.
async fn storage(b: &Browser) -> Result<String> {
    let v = b.client.execute("return JSON.stringify(Object.assign({}, localStorage));", vec![]).await?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

/// The labels of the saved servers offered (the relay's `--config` ones aside).
async fn saved_labels(b: &Browser) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for o in b.all("[data-testid=saved-servers] option").await? {
        let value = o.attr("value").await?.unwrap_or_default();
        if !value.is_empty() && !value.starts_with("config:") {
            out.push(o.prop("textContent").await?.unwrap_or_default());
        }
    }
    Ok(out)
}

/// Fills the form for server-everything over stdio with one secret, and connects.
async fn connect_everything(b: &Browser, entry: &str, remember: bool) -> Result<()> {
    b.id("connect-transport").await?.select_by_value("stdio").await?;
    b.set_value(&b.id("connect-command").await?, &format!("node {entry} stdio")).await?;
    b.set_value(&b.id("connect-env").await?, "API_KEY=s3cret-value").await?;
    let tick = b.id("connect-remember-secrets").await?;
    if tick.is_selected().await? != remember {
        tick.click().await?;
    }
    page::connect(b).await?;
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?;
    Ok(())
}

#[tokio::test]
async fn servers_are_saved_secrets_stay_out_of_the_browser_and_a_reload_comes_back() -> Result<()> {
    let entry = server_everything()?.to_string_lossy().into_owned();
    let secrets = state_dir().join("mcp-playground/secrets.json");
    let (pg, b) = page::open(Playground::start(&[])?).await?;
    // The first screen's own connection saved the demo server.
    ensure!(saved_labels(&b).await? == ["Built-in demo server (demo)"], "{:?}", saved_labels(&b).await?);

    // Without "remember secrets": the names of the env only.
    connect_everything(&b, &entry, false).await?;
    let kept = storage(&b).await?;
    ensure!(kept.contains("API_KEY") && !kept.contains("s3cret-value"), "{kept}");
    let labels = saved_labels(&b).await?;
    ensure!(labels.first().map(String::as_str) == Some("node index.js (stdio)"), "newest first: {labels:?}");
    page::settle(&b).await?;

    // With it: the relay keeps the values, in a file only the user reads; still none here.
    connect_everything(&b, &entry, true).await?;
    ensure!(!storage(&b).await?.contains("s3cret-value"));
    // The page tells the relay as the connection comes up: wait for the file to say so.
    eventually(Duration::from_secs(10), "the relay to keep the secret", || async {
        Ok(std::fs::read_to_string(&secrets).is_ok_and(|f| f.contains("s3cret-value")).then_some(()))
    })
    .await?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        ensure!(std::fs::metadata(&secrets)?.permissions().mode() & 0o777 == 0o600);
    }
    ensure!(saved_labels(&b).await?.len() == 2, "the same server is one entry: {:?}", saved_labels(&b).await?);
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?.click().await?;
    b.id("flow-toggle").await?.click().await?;
    b.id("flow-view").await?;

    // A reload: the same server (its secret back from the relay), tool and view.
    b.client.refresh().await?;
    page::connection_becomes(&b, &["connected"], Duration::from_secs(30)).await?;
    b.css("[data-testid=tool-detail][data-tool-name=echo]").await?;
    b.id("flow-view").await?;
    b.css("[data-testid=tool-item][data-tool-name=get-sum]").await.context("server-everything, not the demo server")?;
    // The form holds the value again (it is shown unfolded).
    b.css(".conn-more button").await?.click().await?;
    let env = b.id("connect-env").await?.prop("value").await?.unwrap_or_default();
    ensure!(env == "API_KEY=s3cret-value", "{env}");

    // Renamed, then forgotten (with its secrets).
    page::settle(&b).await?;
    let name = "node index.js";
    b.id("saved-servers").await?.select_by_value(name).await?;
    b.id("saved-server-rename-toggle").await?.click().await?;
    let field = b.id("saved-server-rename").await?;
    b.set_value(&field, "Everything").await?;
    field.send_keys("\u{E007}").await?;
    eventually(Duration::from_secs(5), "the new name", || async {
        Ok(saved_labels(&b).await?.contains(&"Everything (stdio)".to_owned()).then_some(()))
    })
    .await?;
    b.client.refresh().await?;
    page::settle(&b).await?;
    ensure!(saved_labels(&b).await?.contains(&"Everything (stdio)".to_owned()), "{:?}", saved_labels(&b).await?);
    // A new visit (another tab) starts on the relay's own server, as the README says, with
    // the saved servers at hand.
    let tab = b.client.new_window(true).await?;
    b.client.switch_to_window(tab.handle).await?;
    b.client.goto(&pg.url).await?;
    page::connection_becomes(&b, &["connected"], Duration::from_secs(30)).await?;
    b.css("[data-testid=tool-item][data-tool-name=get_weather]").await.context("the demo server")?;
    ensure!(saved_labels(&b).await?.contains(&"Everything (stdio)".to_owned()));
    page::settle(&b).await?;
    b.id("saved-servers").await?.select_by_value("Everything").await?;
    b.id("saved-server-forget").await?.click().await?;
    ensure!(saved_labels(&b).await? == ["Built-in demo server (demo)"], "{:?}", saved_labels(&b).await?);
    eventually(Duration::from_secs(5), "the relay to forget the secret", || async {
        Ok((!std::fs::read_to_string(&secrets)?.contains("s3cret-value")).then_some(()))
    })
    .await?;
    b.close().await?;
    Ok(())
}
