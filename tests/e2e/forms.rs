//! Generated forms: fill a nested form (an object inside an array inside an object, a
//! `oneOf` variant, an optional field left out), check the exact arguments sent, and see
//! that invalid arguments are held back until "send anyway".

use std::time::Duration;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use tests::{Browser, Playground, eventually};

use tests::page;

async fn field(b: &Browser, testid: &str, path: &str) -> Result<fantoccini::elements::Element> {
    b.css(&format!("[data-testid=\"{testid}\"][data-field-path=\"{path}\"]")).await
}

async fn type_into(b: &Browser, path: &str, text: &str) -> Result<()> {
    let el = field(b, "field", path).await?;
    b.set_value(&el, text).await
}

/// The `arguments` of the last `tools/call` request, read from the timeline's detail view.
async fn last_call_arguments(b: &Browser) -> Result<Value> {
    let rows = b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?;
    rows.last().context("no tools/call request in the timeline")?.click().await?;
    let detail = b.id("timeline-detail").await?.text().await?;
    let message: Value = serde_json::from_str(&detail).with_context(|| format!("detail is not JSON: {detail}"))?;
    Ok(message["params"]["arguments"].clone())
}

async fn call_rows(b: &Browser) -> Result<usize> {
    Ok(b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?.len())
}

#[tokio::test]
async fn nested_form_sends_exactly_what_was_filled() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=submit_order]").await?.click().await?;
    b.id("tool-form").await?;

    // Required fields start filled from the schema: one line with quantity 1.
    type_into(&b, "/customer/name", "Ada Lovelace").await?;
    ensure!(
        b.all("[data-testid=field][data-field-path=\"/customer/email\"]").await?.is_empty(),
        "optional email shown before it is included"
    );
    type_into(&b, "/lines/0/sku", "ABC-123").await?;
    type_into(&b, "/lines/0/quantity", "2").await?;
    // An object inside an array inside an object: include the optional options, tick gift
    // wrap (an optional boolean: one press makes it true).
    field(&b, "field-include", "/lines/0/options").await?.click().await?;
    field(&b, "field", "/lines/0/options/gift_wrap").await?.click().await?;
    // A second line, then removed again: arrays add and remove.
    field(&b, "field-add-item", "/lines").await?.click().await?;
    field(&b, "field-remove-item", "/lines/1").await?.click().await?;
    // The oneOf: pick the courier variant and fill it.
    field(&b, "field-variant", "/delivery").await?.select_by_value("1").await?;
    type_into(&b, "/delivery/address", "1 Main Street").await?;
    // The nullable note stays out (its include box unticked).

    eventually(Duration::from_secs(5), "the form to be valid", || async {
        Ok(b.all("[data-testid=args-errors] li").await?.is_empty().then_some(()))
    })
    .await?;
    b.screenshot("form-nested").await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(&b).await?;
    let pane = b.id("result-pane").await?;
    eventually(Duration::from_secs(15), "the call result", || async {
        Ok((pane.attr("data-state").await?.as_deref() == Some("ok")).then_some(()))
    })
    .await?;
    let sent = last_call_arguments(&b).await?;
    let expected = json!({
        "customer": {"name": "Ada Lovelace"},
        "lines": [{"sku": "ABC-123", "quantity": 2, "options": {"gift_wrap": true}}],
        "delivery": {"method": "courier", "address": "1 Main Street", "express": false}
    });
    ensure!(sent == expected, "sent {sent}\nexpected {expected}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn invalid_arguments_are_held_back_until_send_anyway() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    b.css("[data-testid=tool-item][data-tool-name=submit_order]").await?.click().await?;
    type_into(&b, "/customer/name", "Ada").await?;
    type_into(&b, "/lines/0/sku", "not-a-sku").await?;
    field(&b, "field-variant", "/delivery").await?.select_by_value("0").await?;
    field(&b, "field", "/delivery/store").await?.select_by_value("\"Porto\"").await?;

    let error = field(&b, "field-error", "/lines/0/sku").await?.text().await?;
    ensure!(error.contains("does not match"), "unexpected field error: {error}");
    ensure!(b.id("args-errors").await?.text().await?.contains("/lines/0/sku"));
    let before = call_rows(&b).await?;
    b.id("call-button").await?.click().await?;
    // Nothing is sent: give a send every chance to show up, then look.
    let sent = eventually(Duration::from_secs(2), "a tools/call row", || async {
        Ok((call_rows(&b).await? > before).then_some(()))
    })
    .await;
    ensure!(sent.is_err(), "an invalid call was sent");

    b.id("send-anyway").await?.click().await?;
    page::accept_if_asked(&b).await?;
    eventually(Duration::from_secs(10), "the call to be sent anyway", || async {
        Ok((call_rows(&b).await? > before).then_some(()))
    })
    .await?;
    let sent = last_call_arguments(&b).await?;
    ensure!(
        sent["lines"][0]["sku"] == "not-a-sku" && sent["delivery"] == json!({"method": "pickup", "store": "Porto"}),
        "sent {sent}"
    );
    let pane = b.id("result-pane").await?;
    eventually(Duration::from_secs(10), "the server's verdict", || async {
        Ok((pane.attr("data-state").await?.as_deref() == Some("tool-error")).then_some(()))
    })
    .await?;

    // The raw editor keeps values both ways, and keeps text that is not JSON.
    b.id("raw-args-toggle").await?.click().await?;
    let raw = b.id("raw-args-editor").await?;
    let text = raw.prop("value").await?.unwrap_or_default();
    let parsed: Value = serde_json::from_str(&text)?;
    ensure!(parsed["customer"]["name"] == "Ada", "raw editor lost values: {text}");
    b.set_value(&raw, "{\"customer\": {\"name\": \"Grace\"}, oops").await?;
    b.id("raw-args-toggle").await?.click().await?;
    let still = b.id("raw-args-editor").await?.prop("value").await?.unwrap_or_default();
    ensure!(still.contains("oops"), "broken JSON was lost");
    b.set_value(
        &raw,
        r#"{"customer": {"name": "Grace"}, "lines": [], "delivery": {"method": "pickup", "store": "Lisbon"}}"#,
    )
    .await?;
    b.id("raw-args-toggle").await?.click().await?;
    let name = field(&b, "field", "/customer/name").await?.prop("value").await?;
    ensure!(name.as_deref() == Some("Grace"), "form did not take the raw value: {name:?}");
    ensure!(field(&b, "field-error", "/lines").await.is_ok(), "empty lines not flagged");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn last_arguments_come_back_and_reset_restores_defaults() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let state = page::call_tool(&b, "echo", r#"{"message": "remember me"}"#).await?;
    ensure!(state == "ok");
    b.css("[data-testid=tool-item][data-tool-name=get_image]").await?.click().await?;
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?.click().await?;
    let value = field(&b, "field", "/message").await?.prop("value").await?;
    ensure!(value.as_deref() == Some("remember me"), "arguments not remembered: {value:?}");
    // A reload keeps them too: they live in browser storage.
    b.client.refresh().await?;
    page::connect(&b).await?;
    b.css("[data-testid=tool-item][data-tool-name=echo]").await?.click().await?;
    let value = field(&b, "field", "/message").await?.prop("value").await?;
    ensure!(value.as_deref() == Some("remember me"), "arguments not remembered across reloads: {value:?}");
    b.id("args-reset").await?.click().await?;
    let value = field(&b, "field", "/message").await?.prop("value").await?;
    ensure!(value.as_deref() == Some(""), "reset did not restore defaults: {value:?}");
    b.close().await?;
    Ok(())
}
