//! The Resources and Prompts views, logging and ping, against npm's
//! `@modelcontextprotocol/server-everything` over stdio: every resource, template and
//! prompt it offers reached from the page.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::browser::Browser;
use tests::{Playground, eventually, page, server_everything};

async fn everything() -> Result<(Playground, Browser)> {
    let entry = server_everything()?;
    let entry = entry.to_string_lossy();
    let (pg, b) = page::open(Playground::start(&["node", &entry, "stdio"])?).await?;
    page::connect(&b).await?;
    Ok((pg, b))
}

async fn open_view(b: &Browser, view: &str) -> Result<()> {
    let tab = b.css(&format!("[data-testid=view-tab][data-view={view}]")).await?;
    tab.click().await?;
    ensure!(tab.attr("aria-selected").await?.as_deref() == Some("true"), "the {view} tab is not selected");
    Ok(())
}

/// The text of the contents shown, once they are in.
async fn contents(b: &Browser, want: &str) -> Result<String> {
    eventually(Duration::from_secs(15), "the resource's contents", || async {
        let Ok(c) = b.id("resource-contents").await else { return Ok(None) };
        let text = c.text().await?;
        Ok(text.contains(want).then_some(text))
    })
    .await
}

/// Types `value` in the field at `path` and takes the suggestion `pick`.
async fn complete(b: &Browser, path: &str, value: &str, pick: &str) -> Result<()> {
    let field = b.css(&format!("[data-testid=field][data-field-path=\"{path}\"]")).await?;
    b.set_value(&field, value).await?;
    let option = eventually(Duration::from_secs(10), "a completion to pick", || async {
        for o in b.all("[data-testid=completion-option]").await? {
            if o.attr("data-value").await?.as_deref() == Some(pick) {
                return Ok(Some(o));
            }
        }
        Ok(None)
    })
    .await?;
    option.click().await?;
    let field = b.css(&format!("[data-testid=field][data-field-path=\"{path}\"]")).await?;
    ensure!(field.prop("value").await?.as_deref() == Some(pick), "the suggestion did not fill {path}");
    ensure!(b.all("[data-testid=completion-option]").await?.is_empty(), "the suggestions stayed open");
    Ok(())
}

#[tokio::test]
async fn resources_templates_completions_and_subscriptions() -> Result<()> {
    let (_pg, b) = everything().await?;
    let views: Vec<String> = {
        let mut v = Vec::new();
        for t in b.all("[data-testid=view-tab]").await? {
            v.push(t.attr("data-view").await?.unwrap_or_default());
        }
        v
    };
    ensure!(views == ["tools", "resources", "prompts"], "tabs: {views:?}");
    open_view(&b, "resources").await?;

    // The whole list, then filtered.
    let items = eventually(Duration::from_secs(15), "the resource list", || async {
        let items = b.all("[data-testid=resource-item]").await?;
        Ok((items.len() >= 7).then_some(items.len()))
    })
    .await?;
    // The templates come by a request of their own.
    eventually(Duration::from_secs(15), "the two templates", || async {
        Ok((b.all("[data-testid=resource-template-item]").await?.len() == 2).then_some(()))
    })
    .await?;
    b.set_value(&b.id("resource-filter").await?, "architecture").await?;
    let filtered = b.all("[data-testid=resource-item]").await?;
    ensure!(filtered.len() == 1, "the filter left {} of {items}", filtered.len());
    b.set_value(&b.id("resource-filter").await?, "").await?;

    // A text resource, read when picked.
    let uri = "demo://resource/static/document/architecture.md";
    b.css(&format!("[data-testid=resource-item][data-uri=\"{uri}\"]")).await?.click().await?;
    contents(&b, "Architecture").await?;
    b.screenshot("resources-light").await?;

    // A template filled with a completion, then read; and the blob template.
    let text_template = "demo://resource/dynamic/text/{resourceId}";
    b.css(&format!("[data-testid=resource-template-item][data-uri-template=\"{text_template}\"]"))
        .await?
        .click()
        .await?;
    complete(&b, "/resourceId", "3", "3").await?;
    let shown_uri = b.id("template-uri").await?.text().await?;
    ensure!(shown_uri == "demo://resource/dynamic/text/3", "template gave {shown_uri}");
    b.id("resource-read").await?.click().await?;
    contents(&b, "Resource 3: This is a plaintext resource").await?;
    let completions =
        page::timeline(&b).await?.iter().filter(|r| r.method == "completion/complete" && r.kind == "response").count();
    ensure!(completions >= 1, "no completion/complete answered");

    let blob_template = "demo://resource/dynamic/blob/{resourceId}";
    let item = b.css(&format!("[data-testid=resource-template-item][data-uri-template=\"{blob_template}\"]")).await?;
    item.click().await?;
    let field = b.css("[data-testid=field][data-field-path=\"/resourceId\"]").await?;
    b.set_value(&field, "2").await?;
    b.id("resource-read").await?.click().await?;
    contents(&b, "Resource 2").await?;
    let kind =
        b.css("[data-testid=resource-contents] [data-testid=result-content]").await?.attr("data-resource-kind").await?;
    ensure!(kind.as_deref() == Some("blob"), "the blob read shows as {kind:?}");

    // Subscribe; the server's updates (started by a tool of its own) mark the resource.
    b.css(&format!("[data-testid=resource-item][data-uri=\"{uri}\"]")).await?.click().await?;
    let subscribe = b.id("resource-subscribe").await?;
    ensure!(subscribe.attr("data-state").await?.as_deref() == Some("unsubscribed"));
    subscribe.click().await?;
    eventually(Duration::from_secs(10), "the subscription", || async {
        Ok((b.id("resource-subscribe").await?.attr("data-state").await?.as_deref() == Some("subscribed")).then_some(()))
    })
    .await?;
    open_view(&b, "tools").await?;
    ensure!(page::call_tool(&b, "toggle-subscriber-updates", "{}").await? == "ok");
    open_view(&b, "resources").await?;
    let marked = format!("[data-testid=resource-item][data-uri=\"{uri}\"] [data-testid=resource-updated]");
    eventually(Duration::from_secs(15), "the update mark", || async { Ok(b.all(&marked).await?.first().cloned()) })
        .await?;
    b.screenshot("resources-updated").await?;
    // Reading it again clears the mark.
    b.id("resource-read").await?.click().await?;
    eventually(Duration::from_secs(10), "the mark to clear", || async {
        Ok(b.all(&marked).await?.is_empty().then_some(()))
    })
    .await?;
    b.id("resource-subscribe").await?.click().await?;
    eventually(Duration::from_secs(10), "the unsubscription", || async {
        Ok((b.id("resource-subscribe").await?.attr("data-state").await?.as_deref() == Some("unsubscribed"))
            .then_some(()))
    })
    .await?;
    let rows = page::timeline(&b).await?;
    for method in
        ["resources/list", "resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe"]
    {
        ensure!(rows.iter().any(|r| r.method == method && r.kind == "response"), "no answered {method}");
    }
    b.prefer_dark().await?;
    b.css(&format!("[data-testid=resource-item][data-uri=\"{uri}\"]")).await?.click().await?;
    contents(&b, "Architecture").await?;
    b.screenshot("resources-dark").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn prompts_with_arguments_completions_and_an_embedded_resource() -> Result<()> {
    let (_pg, b) = everything().await?;
    open_view(&b, "prompts").await?;
    let names = eventually(Duration::from_secs(15), "the prompt list", || async {
        let mut names = Vec::new();
        for p in b.all("[data-testid=prompt-item]").await? {
            names.push(p.attr("data-prompt-name").await?.unwrap_or_default());
        }
        Ok((names.len() >= 4).then_some(names))
    })
    .await?;
    ensure!(names.iter().any(|n| n == "args-prompt") && names.iter().any(|n| n == "resource-prompt"), "{names:?}");

    // Required arguments hold Get back until they are filled.
    b.css("[data-testid=prompt-item][data-prompt-name=args-prompt]").await?.click().await?;
    let form = b.id("prompt-form").await?;
    ensure!(
        form.find_all(fantoccini::Locator::Css("[data-testid=field]")).await?.len() == 2,
        "args-prompt has two fields"
    );
    ensure!(
        b.id("prompt-get").await?.prop("disabled").await?.as_deref() == Some("true"),
        "Get is enabled without city"
    );
    b.set_value(&b.css("[data-testid=field][data-field-path=\"/city\"]").await?, "Paris").await?;
    b.id("prompt-get").await?.click().await?;
    let messages = eventually(Duration::from_secs(10), "the prompt's messages", || async {
        let Ok(m) = b.id("prompt-messages").await else { return Ok(None) };
        let text = m.text().await?;
        Ok(text.contains("Paris").then_some(text))
    })
    .await?;
    ensure!(messages.contains("weather"), "{messages}");
    let role = b.css("[data-testid=prompt-message]").await?.attr("data-role").await?;
    ensure!(role.as_deref() == Some("user"), "role {role:?}");

    // Completions narrowed by the other argument (context.arguments).
    b.css("[data-testid=prompt-item][data-prompt-name=completable-prompt]").await?.click().await?;
    complete(&b, "/department", "Eng", "Engineering").await?;
    complete(&b, "/name", "", "Alice").await?;
    b.id("prompt-get").await?.click().await?;
    eventually(Duration::from_secs(10), "the team prompt", || async {
        let Ok(m) = b.id("prompt-messages").await else { return Ok(None) };
        Ok(m.text().await?.contains("Alice").then_some(()))
    })
    .await?;

    // A prompt that embeds a resource renders it as a result's content.
    b.css("[data-testid=prompt-item][data-prompt-name=resource-prompt]").await?.click().await?;
    complete(&b, "/resourceType", "T", "Text").await?;
    b.set_value(&b.css("[data-testid=field][data-field-path=\"/resourceId\"]").await?, "4").await?;
    b.id("prompt-get").await?.click().await?;
    let types = eventually(Duration::from_secs(10), "the embedded resource", || async {
        let mut types = Vec::new();
        for c in b.all("[data-testid=prompt-messages] [data-testid=result-content]").await? {
            types.push(c.attr("data-content-type").await?.unwrap_or_default());
        }
        Ok(types.iter().any(|t| t == "resource").then_some(types))
    })
    .await?;
    ensure!(types.contains(&"text".to_owned()), "{types:?}");
    ensure!(b.id("prompt-messages").await?.text().await?.contains("Resource 4"));
    b.screenshot("prompts-light").await?;
    b.prefer_dark().await?;
    b.screenshot("prompts-dark").await?;

    // The session, saved and replayed: against the live server and against the recording
    // served as a mock, every request is re-sent and compared, none skipped.
    b.id("ping-button").await?.click().await?;
    eventually(Duration::from_secs(10), "the ping answered", || async {
        Ok(page::timeline(&b).await?.iter().any(|r| r.method == "ping" && r.kind == "response").then_some(()))
    })
    .await?;
    let downloads = b.allow_downloads().await?;
    b.id("recording-export").await?.click().await?;
    // The browser's downloads go with it: the file is kept apart.
    let kept = std::env::temp_dir().join(format!("mcp-playground-catalog-{}.jsonl", std::process::id()));
    std::fs::copy(b.downloaded(".jsonl").await?, &kept)?;
    let file = kept.to_string_lossy().into_owned();
    b.close().await?;
    let entry = server_everything()?.to_string_lossy().into_owned();
    let mock = tests::command::bin().to_string_lossy().into_owned();
    let (live, mocked) = tokio::task::spawn_blocking(move || -> Result<_> {
        let live = tests::command::run(&["replay", &file, "--json", "node", &entry, "stdio"])?;
        let mocked = tests::command::run(&["replay", &file, "--json", &mock, "mock", &file])?;
        Ok((live, mocked))
    })
    .await??;
    for (r, all_same) in [(live, false), (mocked, true)] {
        let report: serde_json::Value = serde_json::from_str(&r.stdout).map_err(|e| anyhow::anyhow!("{e}: {r}"))?;
        let rows = report["rows"].as_array().cloned().unwrap_or_default();
        let shown: Vec<String> = rows.iter().map(|r| format!("{} {}", r["method"], r["state"])).collect();
        for m in ["prompts/list", "prompts/get", "completion/complete", "ping"] {
            ensure!(rows.iter().any(|r| r["method"] == m), "{m} not replayed: {shown:?}");
        }
        // Live, the embedded resource's text carries the time it was made: it differs.
        let allowed: &[&str] = if all_same { &["same"] } else { &["same", "different"] };
        ensure!(rows.iter().all(|r| r["state"].as_str().is_some_and(|s| allowed.contains(&s))), "{shown:?}");
        ensure!(rows.iter().any(|r| r["method"] == "ping" && r["state"] == "same"), "{shown:?}");
        ensure!(report["counts"]["skipped"] == 0, "{shown:?}");
    }
    let _ = std::fs::remove_dir_all(downloads);
    let _ = std::fs::remove_file(kept);
    Ok(())
}

#[tokio::test]
async fn log_lines_filtered_by_level_the_log_level_and_ping() -> Result<()> {
    let (_pg, b) = everything().await?;
    // The server's simulated log: a line at once, then one every 5 s, at random levels.
    ensure!(page::call_tool(&b, "toggle-simulated-logging", "{}").await? == "ok");
    let levels = || async {
        let mut levels = Vec::new();
        for l in b.all("[data-testid=log-line]").await? {
            levels.push(l.attr("data-level").await?.unwrap_or_default());
        }
        anyhow::Ok(levels)
    };
    eventually(Duration::from_secs(30), "a line under emergency", || async {
        Ok(levels().await?.iter().any(|l| l != "emergency").then_some(()))
    })
    .await?;
    // Shown from emergency up: every other line is hidden, and kept.
    b.set_value(&b.id("log-filter").await?, "7").await?;
    let shown = levels().await?;
    ensure!(shown.iter().all(|l| l == "emergency"), "the filter let through {shown:?}");
    b.set_value(&b.id("log-filter").await?, "0").await?;
    ensure!(levels().await?.iter().any(|l| l != "emergency"), "the filtered lines were lost");

    b.set_value(&b.id("log-level").await?, "error").await?;
    eventually(Duration::from_secs(10), "logging/setLevel answered", || async {
        let rows = page::timeline(&b).await?;
        Ok(rows.iter().any(|r| r.method == "logging/setLevel" && r.kind == "response").then_some(()))
    })
    .await?;
    ensure!(b.id("log-level").await?.prop("value").await?.as_deref() == Some("error"));

    b.id("ping-button").await?.click().await?;
    let rtt = eventually(Duration::from_secs(10), "the ping's round trip", || async {
        let Ok(r) = b.id("ping-result").await else { return Ok(None) };
        let text = r.text().await?;
        Ok(text.ends_with(" ms").then_some(text))
    })
    .await?;
    let ms: f64 = rtt.trim_end_matches(" ms").parse()?;
    ensure!(ms >= 0.0, "{rtt}");
    let rows = page::timeline(&b).await?;
    ensure!(rows.iter().any(|r| r.method == "ping" && r.direction == "out"), "no ping sent");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_views_by_keyboard_and_the_view_and_pick_back_after_a_reload() -> Result<()> {
    let (_pg, b) = everything().await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "three views"}"#).await? == "ok");
    b.screenshot("tools-light").await?;
    b.prefer_dark().await?;
    b.screenshot("tools-dark").await?;
    // The tabs follow the arrow keys, the list ↓ and Enter.
    let tools = b.css("[data-testid=view-tab][data-view=tools]").await?;
    tools.send_keys(&fantoccini::key::Key::Right.to_string()).await?;
    b.css("[data-testid=view-tab][data-view=resources][aria-selected=true]").await?;
    let focused = b.client.active_element().await?.attr("data-view").await?;
    ensure!(focused.as_deref() == Some("resources"), "the focus stays on the selected tab: {focused:?}");
    let first = b.css("[data-testid=resource-item]").await?;
    first.send_keys(&fantoccini::key::Key::Down.to_string()).await?;
    let second = b.client.active_element().await?;
    let uri = second.attr("data-uri").await?.unwrap_or_default();
    ensure!(uri.starts_with("demo://resource/static/document/"), "↓ moved to {uri:?}");
    second.send_keys(&fantoccini::key::Key::Enter.to_string()).await?;
    let picked = format!("[data-testid=resource-item][data-uri=\"{uri}\"][aria-selected=true]");
    b.css(&picked).await?;
    b.css("[data-testid=resource-contents][data-state=ok]").await?;

    // A reload comes back to the same server, view and pick.
    b.client.refresh().await?;
    page::connection_becomes(&b, &["connected"], Duration::from_secs(30)).await?;
    b.css("[data-testid=view-tab][data-view=resources][aria-selected=true]").await?;
    b.css(&picked).await?;
    b.close().await?;
    Ok(())
}
