//! The layout gives room to the work, and lists a keyboard can drive (issue 23, items 5
//! and 6): once connected the form folds into a summary and the tools take the column in
//! 40 px rows under a filter that stays put; the tool list is a listbox (↑/↓, Home/End,
//! type-ahead, Enter), one Tab goes from a picked tool to its first field; a call's result
//! is brought into view; at 1024 px nothing overlaps.

use anyhow::{Context, Result, ensure};
use fantoccini::key::Key;
use serde_json::Value;
use tests::{Browser, Playground, page, root};

/// A server of 300 tools (`tool_00000` … `tool_00299`, titled "Tool number N").
fn three_hundred_tools() -> Result<Playground> {
    let flood = root().join("tests/servers/flood.py");
    Playground::start(&["python3", &flood.to_string_lossy(), "0", "--tools", "300"])
}

/// The test id (and tool name, for a tool) of the focused element.
async fn focused(b: &Browser) -> Result<String> {
    let v = b
        .client
        .execute(
            "const a = document.activeElement; return a ? (a.getAttribute('data-testid') || a.tagName) + ':' + \
             (a.getAttribute('data-tool-name') || a.getAttribute('data-field-path') || '') : '';",
            vec![],
        )
        .await?;
    Ok(v.as_str().unwrap_or_default().to_owned())
}

async fn press(b: &Browser, key: &str) -> Result<()> {
    b.client.active_element().await?.send_keys(key).await?;
    Ok(())
}

async fn rect(b: &Browser, css: &str) -> Result<Value> {
    let script = "const r = document.querySelector(arguments[0]).getBoundingClientRect(); \
                  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height};";
    Ok(b.client.execute(script, vec![Value::from(css)]).await?)
}

#[tokio::test]
async fn connected_the_form_folds_and_the_tools_take_the_column() -> Result<()> {
    let (_pg, b) = page::connected(three_hundred_tools()?).await?;
    ensure!(page::tool_names(&b).await?.len() == 300);
    // The form is folded away, its values kept; the summary names the server and disconnects.
    ensure!(!b.id("connect-transport").await?.is_displayed().await?, "the form is still shown");
    ensure!(b.id("connect-command").await?.prop("value").await?.unwrap_or_default().contains("flood.py"));
    ensure!(b.id("connect-button").await?.text().await? == "Disconnect");
    ensure!(b.id("server-info").await?.text().await?.contains("flood"), "{}", b.id("server-info").await?.text().await?);
    // Rows of about 40 px, and in a 1440×900 window ten or more are in view at once (four before).
    let row = rect(&b, "[data-testid=tool-item]").await?;
    let height = row["height"].as_f64().context("a height")?;
    ensure!((36.0..=44.0).contains(&height), "a tool row is {height} px tall");
    let list = rect(&b, "[data-testid=tool-list]").await?;
    let in_view = (list["bottom"].as_f64().unwrap_or(0.0) - list["top"].as_f64().unwrap_or(0.0)) / height;
    ensure!(in_view >= 10.0, "only {in_view:.1} tools fit in the list");
    // The filter stays put while the list scrolls.
    let before = rect(&b, "[data-testid=tool-filter]").await?;
    b.client
        .execute("const l = document.querySelector('[data-testid=tool-list]'); l.scrollTop = l.scrollHeight;", vec![])
        .await?;
    let after = rect(&b, "[data-testid=tool-filter]").await?;
    ensure!(before == after, "the filter moved: {before} then {after}");
    b.screenshot("layout-connected-light").await?;
    b.prefer_dark().await?;
    b.screenshot("layout-connected-dark").await?;
    // Details unfold the form (read-only while connected) and fold it again.
    b.css(".conn-more button").await?.click().await?;
    ensure!(b.id("connect-transport").await?.is_displayed().await?);
    ensure!(b.id("connect-button").await?.text().await? == "Disconnect");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn the_tool_list_is_a_listbox_the_keyboard_drives() -> Result<()> {
    let (_pg, b) = page::connected(three_hundred_tools()?).await?;
    page::tool_names(&b).await?;
    // One Tab stop for the whole list: no item but the first is in the Tab order.
    let stops = b.all("[data-testid=tool-item][tabindex='0']").await?.len();
    ensure!(stops == 1, "{stops} tool items in the Tab order");
    b.id("tool-filter").await?.click().await?;
    press(&b, &Key::Down.to_string()).await?;
    ensure!(focused(&b).await? == "tool-item:tool_00000", "{}", focused(&b).await?);
    press(&b, &format!("{}{}", Key::Down, Key::Down)).await?;
    ensure!(focused(&b).await? == "tool-item:tool_00002", "{}", focused(&b).await?);
    press(&b, &Key::End.to_string()).await?;
    ensure!(focused(&b).await? == "tool-item:tool_00299", "{}", focused(&b).await?);
    press(&b, &Key::Up.to_string()).await?;
    ensure!(focused(&b).await? == "tool-item:tool_00298", "{}", focused(&b).await?);
    press(&b, &Key::Home.to_string()).await?;
    ensure!(focused(&b).await? == "tool-item:tool_00000", "{}", focused(&b).await?);
    // Type-ahead by the title shown: "Tool number 42".
    press(&b, "tool number 42").await?;
    ensure!(focused(&b).await? == "tool-item:tool_00042", "{}", focused(&b).await?);
    // Enter opens it; one Tab reaches its first field.
    press(&b, &Key::Enter.to_string()).await?;
    b.css("[data-testid=tool-detail][data-tool-name=tool_00042]").await?;
    press(&b, &Key::Tab.to_string()).await?;
    ensure!(focused(&b).await? == "field:/query", "one Tab went to {}", focused(&b).await?);
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_result_below_the_fold_is_brought_into_view() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.client.set_window_size(1024, 520).await?;
    page::select_with_args(&b, "get_image", r#"{"width": 32, "height": 32}"#).await?;
    b.id("call-button").await?.click().await?;
    page::finished(&b).await?;
    let pane = rect(&b, "[data-testid=result-pane]").await?;
    let height = b.client.execute("return window.innerHeight", vec![]).await?.as_f64().unwrap_or(0.0);
    let top = pane["top"].as_f64().unwrap_or(f64::MAX);
    ensure!(top >= 0.0 && top < height - 60.0, "the result starts at {top} px of a {height} px window");
    b.close().await?;
    Ok(())
}

/// Pairs of sibling boxes that overlap, among the top bar's items and the layout's columns
/// (and, inside the columns, their panels), as the page draws them.
const OVERLAPS: &str = r#"
const groups = [...document.querySelectorAll('.topbar, .topbar > *, .layout, .sidebar, .workspace, .timeline-column, .conn-line')];
const out = [];
for (const parent of groups) {
  const kids = [...parent.children].filter(k => { const r = k.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
  for (let i = 0; i < kids.length; i++) for (let j = i + 1; j < kids.length; j++) {
    const a = kids[i].getBoundingClientRect(), b = kids[j].getBoundingClientRect();
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      out.push(kids[i].className + ' / ' + kids[j].className);
  }
}
// Nothing wider than the window either.
if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page scrolls sideways');
return out;
"#;

#[tokio::test]
async fn at_1024_px_wide_nothing_overlaps() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.client.set_window_size(1024, 768).await?;
    ensure!(page::call_tool(&b, "get_weather", r#"{"city": "Lisbon"}"#).await? == "ok");
    let overlaps = b.client.execute(OVERLAPS, vec![]).await?;
    ensure!(overlaps == serde_json::json!([]), "{overlaps}");
    b.screenshot("layout-1024").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_list_of_five_thousand_tools_is_windowed_and_scrolls_to_its_end() -> Result<()> {
    let flood = root().join("tests/servers/flood.py");
    let pg = Playground::start(&["python3", &flood.to_string_lossy(), "0", "--tools", "5000"])?;
    let (_pg, b) = page::connected(pg).await?;
    let count = || async { anyhow::Ok(b.id("tool-count").await?.text().await?.to_lowercase()) };
    tests::eventually(std::time::Duration::from_secs(60), "5000 tools listed", || async {
        Ok((count().await? == "5000").then_some(()))
    })
    .await?;
    // Only those in view (and a margin) are drawn, yet the list scrolls as if all were there.
    let drawn = b.all("[data-testid=tool-item]").await?.len();
    ensure!((10..=120).contains(&drawn), "{drawn} of 5000 items drawn");
    let height: f64 = b
        .client
        .execute("return document.querySelector('[data-testid=tool-list]').scrollHeight", vec![])
        .await?
        .as_f64()
        .context("a height")?;
    ensure!(height >= 5000.0 * 40.0, "the list is {height} px tall");
    b.client
        .execute("const l = document.querySelector('[data-testid=tool-list]'); l.scrollTop = l.scrollHeight;", vec![])
        .await?;
    b.css("[data-testid=tool-item][data-tool-name=tool_04999]").await?;
    ensure!(b.all("[data-testid=tool-item][data-tool-name=tool_00000]").await?.is_empty(), "the top stayed drawn");
    // The list keeps its one Tab stop among the items drawn.
    let stops = b.all("[data-testid=tool-item][tabindex='0']").await?.len();
    ensure!(stops == 1, "{stops} Tab stops among the items drawn");
    // A filter narrows it, and clearing it shows the first ones again.
    b.set_value(&b.id("tool-filter").await?, "tool_02500").await?;
    b.css("[data-testid=tool-item][data-tool-name=tool_02500]").await?;
    let c = count().await?;
    ensure!(c == "1 of 5000", "the count says {c}");
    b.set_value(&b.id("tool-filter").await?, "").await?;
    tests::eventually(std::time::Duration::from_secs(10), "the list back", || async {
        Ok((count().await? == "5000").then_some(()))
    })
    .await?;
    ensure!(b.all("[data-testid=tool-item]").await?.len() <= 120, "clearing drew them all");
    b.close().await?;
    Ok(())
}
