//! MCP Apps in the page, against the reference App servers from npm: the view renders in
//! the sandbox (another origin), gets its input and result, calls the server from inside,
//! goes fullscreen and back, and is torn down politely.

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use fantoccini::Locator;
use tests::{Browser, Playground, eventually, page, root};

/// The entry point of a reference App server installed by the test command.
fn app_server(name: &str) -> String {
    root()
        .join("tests/servers/node_modules/@modelcontextprotocol")
        .join(name)
        .join("dist/index.js")
        .to_string_lossy()
        .into_owned()
}

/// Waits for the view to be `state`.
async fn view_becomes(b: &Browser, state: &str) -> Result<()> {
    let css = format!("[data-testid=app-view][data-state={state}]");
    eventually(Duration::from_secs(30), &format!("the view to be {state}"), || async {
        Ok((!b.all(&css).await?.is_empty()).then_some(()))
    })
    .await
}

/// Runs `inside` in the view's own document (the frame in the sandbox's frame), then
/// comes back to the page.
async fn in_view<T>(b: &Browser, inside: impl AsyncFnOnce(&Browser) -> Result<T>) -> Result<T> {
    let outer = b.client.find(Locator::Css("[data-testid=app-frame]")).await?;
    outer.enter_frame().await?;
    let inner = eventually(Duration::from_secs(20), "the view's frame", || async {
        Ok(b.client.find_all(Locator::Css("iframe")).await?.into_iter().next())
    })
    .await?;
    inner.enter_frame().await?;
    let out = inside(b).await;
    b.client.enter_parent_frame().await?;
    b.client.enter_parent_frame().await?;
    out
}

/// The App lane's rows: (direction, kind, method).
async fn app_lane(b: &Browser) -> Result<Vec<(String, String, String)>> {
    let mut out = Vec::new();
    for r in b.all("[data-testid=timeline-row][data-lane=app]").await? {
        let attr = async |name: &str| Ok::<_, anyhow::Error>(r.attr(name).await?.unwrap_or_default());
        out.push((attr("data-direction").await?, attr("data-kind").await?, attr("data-method").await?));
    }
    Ok(out)
}

/// The demo chart's title, once the view has drawn its forecast (run inside the view).
async fn chart_title(b: &Browser) -> Result<String> {
    eventually(Duration::from_secs(15), "the chart's title", || async {
        let t = b.client.find(Locator::Id("title")).await?.text().await?;
        Ok((t != "Weather chart").then_some(t))
    })
    .await
}

/// Clicks the demo chart's refresh button and waits for what it says (run inside the view).
async fn refresh_note(b: &Browser) -> Result<String> {
    let before = b.client.find(Locator::Id("note")).await?.text().await?;
    b.client.find(Locator::Id("refresh")).await?.click().await?;
    eventually(Duration::from_secs(15), "the refreshed forecast", || async {
        let n = b.client.find(Locator::Id("note")).await?.text().await?;
        Ok((n != before && (n.starts_with("forecast #") || n.starts_with("refused"))).then_some(n))
    })
    .await
}

async fn calls_of(b: &Browser, tool: &str) -> Result<usize> {
    // The server's lane: the requests that went to the server (the view's own are in the App lane).
    let rows =
        b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]:not([data-lane=app])").await?;
    let mut n = 0;
    for r in rows {
        // The label may be cut on screen; its text is whole.
        if r.prop("textContent").await?.unwrap_or_default().contains(tool) {
            n += 1;
        }
    }
    Ok(n)
}

#[tokio::test]
async fn the_basic_reference_app_renders_sandboxed_and_talks_to_its_server() -> Result<()> {
    let (pg, b) =
        page::connected(Playground::start(&["node", &app_server("server-basic-vanillajs"), "--stdio"])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=get-time] [data-testid=app-badge]").await?;
    ensure!(page::call_tool(&b, "get-time", "{}").await? == "ok");
    view_becomes(&b, "ready").await?;
    let view = b.id("app-view").await?;
    ensure!(view.attr("data-resource-uri").await?.as_deref() == Some("ui://get-time/mcp-app.html"));
    // The view lives on another origin than the page's.
    let src = b.id("app-frame").await?.attr("src").await?.unwrap_or_default();
    ensure!(src.starts_with("http://127.0.0.1:") && !src.starts_with(&pg.base), "{src} vs {}", pg.base);
    // It got the call's result: the time it shows is the server's.
    let shown = in_view(&b, async |b| {
        eventually(Duration::from_secs(15), "the time in the view", || async {
            let t = b.client.find(Locator::Id("server-time")).await?.text().await?;
            Ok((t.contains('T') || t.contains(':')).then_some(t))
        })
        .await
    })
    .await?;
    b.screenshot("app-basic").await?;
    // The bridge's traffic is the timeline's App lane, both ways, paired.
    let lane = app_lane(&b).await?;
    let has = |d: &str, k: &str, m: &str| lane.iter().any(|(a, b, c)| a == d && b == k && c == m);
    ensure!(has("from-view", "request", "ui/initialize") && has("to-view", "response", "ui/initialize"), "{lane:?}");
    ensure!(has("from-view", "notification", "ui/notifications/initialized"), "{lane:?}");
    ensure!(has("to-view", "notification", "ui/notifications/tool-result"), "{lane:?}");
    // A click inside the view makes a tools/call through the page, in the timeline.
    let before = calls_of(&b, "get-time").await?;
    in_view(&b, async |b| {
        b.client.find(Locator::Id("get-time-btn")).await?.click().await?;
        Ok(())
    })
    .await?;
    // The view's call is confirmed first where the policy asks; its dialog opens once the
    // view's message has come through, so it is looked for until the call went.
    eventually(Duration::from_secs(15), "the view's own call", || async {
        page::accept_if_asked(&b).await?;
        Ok((calls_of(&b, "get-time").await? > before).then_some(()))
    })
    .await
    .with_context(|| format!("the view showed {shown:?}"))?;
    // Fullscreen, over the page, and back (Esc or the button).
    b.css("[data-testid=app-view] button[data-label=Fullscreen]").await?.click().await?;
    b.css("[data-testid=app-view][data-display-mode=fullscreen]").await?;
    b.screenshot("app-basic-fullscreen").await?;
    b.id("app-exit-fullscreen").await?.click().await?;
    b.css("[data-testid=app-view][data-display-mode=inline]").await?;
    // Disconnecting tears the view down: it is asked first, it answers, then it is removed.
    b.id("connect-button").await?.click().await?;
    eventually(Duration::from_secs(10), "the view to go", || async {
        Ok(b.all("[data-testid=app-view]").await?.is_empty().then_some(()))
    })
    .await?;
    let lane = app_lane(&b).await?;
    let teardown = |d: &str, k: &str| lane.iter().any(|(a, b, c)| a == d && b == k && c == "ui/resource-teardown");
    ensure!(teardown("to-view", "request") && teardown("from-view", "response"), "{lane:?}");
    b.close().await?;
    Ok(())
}

/// The view's log, as text (its lines, whether or not the log is unfolded).
async fn view_log(b: &Browser) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for line in b.all("[data-testid=app-log] .app-line").await? {
        out.push(line.prop("textContent").await?.unwrap_or_default());
    }
    Ok(out)
}

#[tokio::test]
async fn a_hostile_view_reaches_nothing_and_the_page_lives_on() -> Result<()> {
    let script = root().join("tests/servers/python/hostile_app.py").to_string_lossy().into_owned();
    let (pg, b) = page::connected(Playground::start(&["python3", &script])?).await?;
    let args = serde_json::json!({"relay": pg.base}).to_string();
    // The page's own URL says the tool picked (`#tool=attack`): taken once it does.
    page::select_with_args(&b, "attack", &args).await?;
    let history = b.history().await?;
    ensure!(history.last().is_some_and(|u| u.ends_with("#tool=attack")), "{history:?}");
    ensure!(page::call_tool(&b, "attack", &args).await? == "ok");
    view_becomes(&b, "ready").await?;
    let log = eventually(Duration::from_secs(40), "the attacks to end", || async {
        let log = view_log(&b).await?;
        Ok(log.iter().any(|l| l == "ATTACK done").then_some(log))
    })
    .await?;
    let attacks: Vec<&String> = log.iter().filter(|l| l.starts_with("ATTACK ") && *l != "ATTACK done").collect();
    for name in [
        "fetch-api",
        "fetch-api-no-cookie",
        "fetch-relative",
        "websocket",
        "parent-document",
        "top-location",
        "window-open",
        "cookie",
        "storage",
        "script",
        "image",
        "sandbox-messages",
        "model-only-tool",
        "form-post",
    ] {
        let line = attacks.iter().find(|l| l.starts_with(&format!("ATTACK {name}:")));
        ensure!(line.is_some_and(|l| l.ends_with(": blocked")), "{name}: {line:?} in {log:?}");
    }
    // A call it may make is answered by the server, through the page.
    ensure!(log.iter().any(|l| l.starts_with("ANSWER still_here:") && l.contains("still here")), "{log:?}");
    // The host said why it refused the call of a tool the view may not call.
    ensure!(log.iter().any(|l| l.contains("model_only is not callable by the view")), "{log:?}");
    b.screenshot("app-hostile").await?;
    // The page is where it was, its view is still the one it loaded, and it still works.
    ensure!(b.history().await? == history, "the view navigated the page");
    let status = in_view(&b, async |b| Ok(b.client.find(Locator::Id("status")).await?.text().await?)).await?;
    ensure!(status == "done", "the view was replaced: {status}");
    ensure!(page::call_tool(&b, "still_here", "{}").await? == "ok");
    ensure!(page::result_texts(&b).await?.iter().any(|t| t.contains("still here")));
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_system_monitor_app_polls_its_server_from_the_view() -> Result<()> {
    let (_pg, b) =
        page::connected(Playground::start(&["node", &app_server("server-system-monitor"), "--stdio"])?).await?;
    // The tool made for the view alone is listed apart, and still a tool a person can pick.
    b.css("[data-testid=app-only-tools] [data-testid=tool-item][data-tool-name=poll-system-stats]").await?;
    ensure!(b.all("[data-testid=tool-list] [data-tool-name=poll-system-stats]").await?.is_empty());
    ensure!(page::call_tool(&b, "get-system-info", "{}").await? == "ok");
    view_becomes(&b, "ready").await?;
    // With the result in, the view polls its app-only tool every 2 s through the page,
    // unasked (the tool is the view's own).
    let polled = eventually(Duration::from_secs(20), "the view's polls", || async {
        Ok((calls_of(&b, "poll-system-stats").await? >= 3).then_some(()))
    })
    .await;
    if polled.is_err() {
        b.screenshot("app-system-monitor-failed").await?;
    }
    let log = view_log(&b).await?;
    polled.with_context(|| format!("the view's log: {log:?}"))?;
    // Its Stop button stops it: the view shows what the answers gave it.
    let status = in_view(&b, async |b| {
        let status = b.client.find(Locator::Id("status-text")).await?.text().await?;
        b.client.find(Locator::Id("poll-toggle-btn")).await?.click().await?;
        let stopped = b.client.find(Locator::Id("status-text")).await?.text().await?;
        anyhow::Ok((status, stopped))
    })
    .await?;
    ensure!(status.0.contains(':') && status.1 == "Stopped", "{status:?}");
    ensure!(b.all("[data-testid=confirm-dialog]").await?.is_empty(), "a poll of the view's own tool asked");
    b.screenshot("app-system-monitor").await?;
    b.prefer_dark().await?;
    b.screenshot("app-system-monitor-dark").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_budget_allocator_app_renders_and_goes_picture_in_picture() -> Result<()> {
    let (_pg, b) =
        page::connected(Playground::start(&["node", &app_server("server-budget-allocator"), "--stdio"])?).await?;
    ensure!(page::call_tool(&b, "get-budget-data", "{}").await? == "ok");
    view_becomes(&b, "ready").await?;
    let drawn = in_view(&b, async |b| {
        eventually(Duration::from_secs(15), "the allocation sliders", || async {
            let sliders = b.client.find_all(Locator::Css("#sliders-container input")).await?;
            Ok((!sliders.is_empty()).then_some(sliders.len()))
        })
        .await
    })
    .await?;
    ensure!(drawn > 1, "{drawn} sliders");
    b.screenshot("app-budget-allocator").await?;
    b.css("[data-testid=app-view] button[data-label=\"Picture in picture\"]").await?.click().await?;
    b.css("[data-testid=app-view][data-display-mode=pip]").await?;
    b.screenshot("app-budget-allocator-pip").await?;
    b.id("app-exit-fullscreen").await?.click().await?;
    b.css("[data-testid=app-view][data-display-mode=inline]").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_demo_server_has_an_app_a_newcomer_sees_first() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=show_weather_chart] [data-testid=app-badge]").await?;
    b.css("[data-testid=app-only-tools] [data-tool-name=refresh_forecast]").await?;
    ensure!(page::call_tool(&b, "show_weather_chart", r#"{"city": "Porto"}"#).await? == "ok");
    view_becomes(&b, "ready").await?;
    let title = in_view(&b, chart_title).await?;
    ensure!(title == "Weather in Porto", "{title}");
    // Its button calls the server's app-only tool, through the page, and redraws.
    let before = calls_of(&b, "refresh_forecast").await?;
    let note = in_view(&b, refresh_note).await?;
    ensure!(note == "forecast #1", "{note}");
    ensure!(calls_of(&b, "refresh_forecast").await? == before + 1);
    let log = view_log(&b).await?;
    ensure!(log.iter().any(|l| l == "refreshed the forecast for Porto"), "{log:?}");
    b.screenshot("app-demo-light").await?;
    // Another tool picked shows its own result, never this view; picked again, it is back.
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?.click().await?;
    ensure!(!b.id("app-view").await?.is_displayed().await?, "the view shows under another tool");
    b.css("[data-testid=tool-item][data-tool-name=show_weather_chart]").await?.click().await?;
    ensure!(b.id("app-view").await?.is_displayed().await?, "the view did not come back");
    b.id("theme-toggle").await?.click().await?;
    b.screenshot("app-demo-dark").await?;
    // A narrower window: the view is told its new width, once the resizing settles.
    let context_changes = async || -> Result<usize> {
        let lane = app_lane(&b).await?;
        Ok(lane.iter().filter(|(d, _, m)| d == "to-view" && m == "ui/notifications/host-context-changed").count())
    };
    let before = context_changes().await?;
    b.client.set_window_size(1100, 900).await?;
    eventually(Duration::from_secs(10), "the view told its width", || async {
        Ok((context_changes().await? > before).then_some(()))
    })
    .await?;
    b.client.set_window_size(1440, 900).await?;
    // The flow view gives the view a lifeline of its own, left of the page's.
    b.id("flow-toggle").await?.click().await?;
    b.css("[data-testid=flow-view] [data-lifeline=view]").await?;
    let from_view = b.all("[data-testid=flow-view] .flow-mark[data-direction=from-view] line").await?;
    let to_view = b.all("[data-testid=flow-view] .flow-mark[data-direction=to-view] line").await?;
    ensure!(!from_view.is_empty() && !to_view.is_empty(), "{} and {} arrows", from_view.len(), to_view.len());
    let x = async |e: &fantoccini::elements::Element, a: &str| -> Result<f64> {
        Ok(e.attr(a).await?.unwrap_or_default().parse()?)
    };
    let out = b.css("[data-testid=flow-view] .flow-mark[data-direction=out] line").await?;
    ensure!(x(&from_view[0], "x1").await? < x(&out, "x1").await?, "the view's lifeline is left of the page's");
    ensure!(x(&from_view[0], "x1").await? == x(&to_view[0], "x2").await? - 6.0);
    b.screenshot("app-demo-flow").await?;
    b.close().await?;
    Ok(())
}

/// The wasm files the page has fetched.
async fn fetched_wasm(b: &Browser) -> Result<Vec<String>> {
    let names = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.wasm'))";
    Ok(serde_json::from_value(b.client.execute(names, vec![]).await?)?)
}

/// The App host is a chunk of its own (issue 27): a server without App tools never
/// fetches it (nor the view's panel), the demo's App tool listed fetches it before anyone
/// calls, and when it cannot be fetched the call's result still shows and a notice says why.
#[tokio::test]
async fn the_app_host_comes_with_the_first_app_tool_and_its_absence_is_said() -> Result<()> {
    let host = |names: &[String]| names.iter().any(|n| n.contains("/split_app_host"));
    let everything = tests::server_everything()?;
    let pg = Playground::start(&["node", &everything.to_string_lossy(), "stdio"])?;
    let (_pg, b) = page::connected(pg).await?;
    ensure!(page::call_tool(&b, "echo", r#"{"message": "no app here"}"#).await? == "ok");
    let names = fetched_wasm(&b).await?;
    ensure!(!host(&names), "a server without App tools fetched the App host: {names:?}");
    let panel = names.iter().any(|n| n.contains("/split_app_view_panel"));
    ensure!(!panel, "the App view's panel was fetched with no view to show: {names:?}");
    b.close().await?;

    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    eventually(Duration::from_secs(10), "the App host fetched once an App tool is listed", || async {
        Ok(host(&fetched_wasm(&b).await?).then_some(()))
    })
    .await?;
    b.close().await?;

    let pg = Playground::start(&[])?;
    let b = Browser::start().await?;
    b.block_urls(&["*split_app_host*"]).await?;
    b.client.goto(&pg.url).await?;
    page::connect(&b).await?;
    ensure!(page::call_tool(&b, "show_weather_chart", r#"{"city": "Porto"}"#).await? == "ok");
    ensure!(page::result_texts(&b).await?.iter().any(|t| t.contains("Porto")), "the result did not show");
    let said = b.id("notices").await?.text().await?;
    ensure!(said.contains("App views could not be loaded"), "{said}");
    ensure!(b.all("[data-testid=app-frame]").await?.is_empty(), "a frame with no host");
    ensure!(page::call_tool(&b, "echo", r#"{"message": "still here"}"#).await? == "ok");
    b.close().await?;
    Ok(())
}

/// The demo App recorded live in the page: its chart called for Porto and refreshed once.
/// The file, and what the refresh said.
async fn record_demo_app(name: &str) -> Result<(std::path::PathBuf, String)> {
    let (pg, b) = page::connected(Playground::start(&[])?).await?;
    let downloads = b.allow_downloads().await?;
    ensure!(page::call_tool(&b, "show_weather_chart", r#"{"city": "Porto"}"#).await? == "ok");
    view_becomes(&b, "ready").await?;
    let recorded_note = in_view(&b, refresh_note).await?;
    b.id("recording-export").await?.click().await?;
    let text = std::fs::read_to_string(b.downloaded(".jsonl").await?)?;
    // The file keeps the bridge traffic, a lane of its own, beside the view's resource.
    let lane = text.lines().filter(|l| l.contains(r#""lane":"app""#)).count();
    ensure!(lane >= 6, "{lane} App-lane lines");
    ensure!(text.contains("ui://") && text.lines().next().unwrap_or_default().contains(r#""version":3"#));
    let file = std::env::temp_dir().join(format!("mcp-playground-app-{name}-{}.jsonl", std::process::id()));
    std::fs::write(&file, text)?;
    let _ = std::fs::remove_dir_all(downloads);
    b.close().await?;
    drop(pg);
    Ok((file, recorded_note))
}

#[tokio::test]
async fn a_recorded_app_session_shows_its_view_again_with_no_server() -> Result<()> {
    let (file, recorded_note) = record_demo_app("playback").await?;
    // Played back in a fresh page whose server is gone.
    let (_pg, b) = page::open(Playground::start(&[])?).await?;
    b.id("recording-import").await?.send_keys(&file.to_string_lossy()).await?;
    b.css("[data-testid=replay-mode][data-state=playback]").await?;
    b.id("replay-speed").await?.select_by_value("max").await?;
    b.id("replay-play").await?.click().await?;
    eventually(Duration::from_secs(20), "the end of playback", || async {
        let p = b.id("replay-position").await?;
        let (i, t) = (p.attr("data-index").await?, p.attr("data-total").await?);
        Ok((i.is_some() && i == t).then_some(()))
    })
    .await?;
    if let Err(e) = view_becomes(&b, "ready").await {
        b.screenshot("app-demo-playback-failed").await?;
        let states: Vec<String> = match b.all("[data-testid=app-view]").await?.into_iter().next() {
            Some(v) => vec![v.attr("data-state").await?.unwrap_or_default(), v.text().await?],
            None => vec!["no view".into()],
        };
        return Err(e.context(format!("{states:?}")));
    }
    // The recorded lane shows, as it was.
    let lane = app_lane(&b).await?;
    ensure!(lane.iter().any(|(d, _, m)| d == "from-view" && m == "ui/initialize"), "{lane:?}");
    ensure!(lane.iter().any(|(d, _, m)| d == "to-view" && m == "ui/notifications/tool-result"), "{lane:?}");
    let (title, note) = in_view(&b, async |b| anyhow::Ok((chart_title(b).await?, refresh_note(b).await?))).await?;
    ensure!(title == "Weather in Porto", "{title}");
    // The view's own call is answered from the recording, with no server.
    ensure!(note == recorded_note, "{note} (recorded: {recorded_note})");
    b.screenshot("app-demo-playback").await?;
    let _ = std::fs::remove_file(file);
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_recorded_app_is_served_by_mock_and_its_changed_view_is_drift() -> Result<()> {
    let (file, recorded_note) = record_demo_app("mock").await?;
    let file_arg = file.to_string_lossy().into_owned();
    // `mock` serves the view's resource and its calls: the page shows the App from it.
    let me = tests::command::bin().to_string_lossy().into_owned();
    let (pg, b) = page::connected(Playground::start(&[&me, "mock", &file_arg])?).await?;
    ensure!(page::call_tool(&b, "show_weather_chart", r#"{"city": "Porto"}"#).await? == "ok");
    view_becomes(&b, "ready").await?;
    let (title, note) = in_view(&b, async |b| anyhow::Ok((chart_title(b).await?, refresh_note(b).await?))).await?;
    ensure!(title == "Weather in Porto" && note == recorded_note, "{title}; {note} (recorded: {recorded_note})");
    b.screenshot("app-demo-mock").await?;
    b.close().await?;
    drop(pg);
    // The same file replays the same against the demo server; with the view's HTML edited,
    // the replay says the App view's resource changed.
    let r = tests::command::run(&["replay", &file_arg, "--json"])?;
    ensure!(!r.stdout.contains("App view"), "{r}");
    let text = std::fs::read_to_string(&file)?;
    ensure!(text.contains("Seven days"), "the view's HTML is in the recording");
    std::fs::write(&file, text.replace("Seven days", "Six days"))?;
    let r = tests::command::run(&["replay", &file_arg])?;
    ensure!(r.code == 1, "{r}");
    ensure!(r.stdout.contains("show_weather_chart: its App view's resource changed (ui://demo/weather-chart)"), "{r}");
    let r = tests::command::run(&["replay", &file_arg, "--fail-on", "breaking"])?;
    ensure!(r.code == 0, "new HTML is no breaking change: {r}");
    let _ = std::fs::remove_file(file);
    Ok(())
}
