//! Filters that find things (issue 23, item 7): the tool filter takes words in any order
//! across name, title and description, counts "N of M" and says what found nothing; the
//! timeline's filter finds a call by its tool, and the row names the tool.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Playground, eventually, page};

#[tokio::test]
async fn the_tool_filter_takes_words_in_any_order_and_says_what_it_found() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let total = page::tool_names(&b).await?.len();
    // `/` anywhere but in a field puts the focus in the filter (item 6).
    let focused = b
        .client
        .execute(
            "document.activeElement.blur(); \
             document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '/', bubbles: true})); \
             return document.activeElement && document.activeElement.getAttribute('data-testid');",
            vec![],
        )
        .await?;
    ensure!(focused.as_str() == Some("tool-filter"), "/ did not reach the filter: {focused}");
    let filter = b.id("tool-filter").await?;
    // `get_weather`, titled "Get the weather": the words in another order still find it.
    b.set_value(&filter, "weather get").await?;
    let names = eventually(Duration::from_secs(5), "the filtered list", || async {
        let names = page::tool_names(&b).await?;
        Ok((names.len() < total).then_some(names))
    })
    .await?;
    ensure!(names == ["get_weather"], "{names:?}");
    // (The panel title is set in capitals: compare the words.)
    let count = b.id("tool-count").await?.text().await?.to_lowercase();
    ensure!(count == format!("1 of {total}"), "{count}");
    b.set_value(&filter, "weather zebra").await?;
    let empty = b.id("tool-filter-empty").await?.text().await?;
    b.screenshot("tool-filter-empty").await?;
    ensure!(empty.contains("“weather zebra”"), "the empty list says what was searched: {empty}");
    ensure!(b.id("tool-count").await?.text().await?.to_lowercase() == format!("0 of {total}"));
    b.set_value(&filter, "").await?;
    ensure!(b.id("tool-count").await?.text().await? == total.to_string());

    // The timeline finds a call by its tool's name, and its rows say which tool.
    ensure!(page::call_tool(&b, "echo", r#"{"message": "hi"}"#).await? == "ok");
    b.set_value(&b.id("timeline-filter").await?, "echo").await?;
    let rows = eventually(Duration::from_secs(5), "the filtered timeline", || async {
        let rows = b.all("[data-testid=timeline-row]").await?;
        let mut labels = Vec::new();
        for r in rows {
            labels.push(r.find(fantoccini::Locator::Css(".t-method")).await?.text().await?);
        }
        Ok((!labels.is_empty() && labels.iter().all(|l| l == "tools/call · echo")).then_some(labels))
    })
    .await?;
    ensure!(rows.len() == 2, "the call and its answer: {rows:?}");
    b.screenshot("timeline-filter-by-tool").await?;
    b.close().await?;
    Ok(())
}
