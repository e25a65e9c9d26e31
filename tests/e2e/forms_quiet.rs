//! Forms that do not scold (issue 23, item 9): no error before a person touched a field or
//! pressed Call; a failed `oneOf` points at the field that decides it; an optional boolean
//! is one control of three states; an array of one enum is a set of checkboxes.

use anyhow::{Result, ensure};
use serde_json::json;
use tests::{Browser, Playground};

use tests::page;

async fn field(b: &Browser, testid: &str, path: &str) -> Result<fantoccini::elements::Element> {
    b.css(&format!("[data-testid=\"{testid}\"][data-field-path=\"{path}\"]")).await
}

async fn count(b: &Browser, css: &str) -> Result<usize> {
    Ok(b.all(css).await?.len())
}

#[tokio::test]
async fn a_form_is_quiet_until_touched_and_then_says_where() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=submit_order]").await?.click().await?;
    b.id("tool-form").await?;
    // Invalid from the start (an empty name, an empty SKU), yet nothing is red.
    ensure!(count(&b, "[data-testid=field-error]").await? == 0, "errors before anything was touched");
    ensure!(count(&b, "[data-testid=args-errors]").await? == 0, "a summary before anything was touched");
    b.screenshot("form-quiet").await?;

    // Touched and left empty: that field, and only it, says so.
    let name = field(&b, "field", "/customer/name").await?;
    b.set_value(&name, "A").await?;
    b.set_value(&name, "").await?;
    field(&b, "field-error", "/customer/name").await?;
    ensure!(count(&b, "[data-testid=field-error]").await? == 1, "an untouched field scolds");
    b.set_value(&name, "Ada").await?;

    // The courier variant without its address: Call shows every problem, the variant's at
    // the field that decides it.
    field(&b, "field-variant", "/delivery").await?.select_by_value("1").await?;
    b.id("call-button").await?.click().await?;
    let summary = b.id("args-errors").await?.text().await?;
    ensure!(summary.contains("/delivery/address") && summary.contains("for Courier"), "{summary}");
    ensure!(!summary.contains("oneOf"), "a raw oneOf message: {summary}");
    let at = field(&b, "field-error", "/delivery/address").await?.text().await?;
    ensure!(at.contains("for Courier"), "{at}");
    ensure!(field(&b, "field-error", "/lines/0/sku").await.is_ok(), "after Call every problem shows");
    b.screenshot("form-after-call").await?;
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn an_optional_boolean_has_three_states_and_an_enum_array_is_checkboxes() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=submit_order]").await?.click().await?;
    field(&b, "field-include", "/lines/0/options").await?.click().await?;
    // One control, no include box beside it.
    ensure!(b.all("[data-testid=field-include][data-field-path=\"/lines/0/options/gift_wrap\"]").await?.is_empty());
    let wrap = field(&b, "field", "/lines/0/options/gift_wrap").await?;
    ensure!(wrap.attr("type").await?.as_deref() == Some("checkbox"));
    let state = || async { Ok::<_, anyhow::Error>(wrap.attr("data-state").await?.unwrap_or_default()) };
    ensure!(state().await? == "omitted" && page::arguments(&b).await?["lines"][0]["options"] == json!({}));
    let wrap = field(&b, "field", "/lines/0/options/gift_wrap").await?;
    wrap.click().await?;
    ensure!(page::arguments(&b).await?["lines"][0]["options"] == json!({"gift_wrap": true}));
    field(&b, "field", "/lines/0/options/gift_wrap").await?.click().await?;
    ensure!(page::arguments(&b).await?["lines"][0]["options"] == json!({"gift_wrap": false}));
    // The keyboard moves it on too: Space, back to left out.
    let wrap = field(&b, "field", "/lines/0/options/gift_wrap").await?;
    wrap.send_keys(" ").await?;
    ensure!(page::arguments(&b).await?["lines"][0]["options"] == json!({}), "Space did not leave it out");
    ensure!(
        field(&b, "field", "/lines/0/options/gift_wrap").await?.attr("aria-checked").await?.as_deref() == Some("mixed")
    );

    // The labels: a checkbox per value, ticked values in the schema's order.
    field(&b, "field-include", "/labels").await?.click().await?;
    let boxes = b.all("[data-testid=field][data-field-path=\"/labels\"]").await?;
    ensure!(boxes.len() == 3, "one checkbox per value: {}", boxes.len());
    b.css("[data-testid=field][data-field-path=\"/labels\"][value='\"urgent\"']").await?.click().await?;
    b.css("[data-testid=field][data-field-path=\"/labels\"][value='\"fragile\"']").await?.click().await?;
    ensure!(page::arguments(&b).await?["labels"] == json!(["fragile", "urgent"]));
    b.css("[data-testid=field][data-field-path=\"/labels\"][value='\"urgent\"']").await?.click().await?;
    ensure!(page::arguments(&b).await?["labels"] == json!(["fragile"]));
    b.screenshot("form-three-states").await?;
    b.close().await?;
    Ok(())
}
