//! Dialogs own the keyboard (issue 23, item 1): the confirmation takes the focus (on Cancel
//! for a destructive tool), Tab and Shift+Tab stay inside it, Esc cancels, no key reaches
//! the field behind it, and the focus goes back where it was.

use std::time::Duration;

use anyhow::{Result, ensure};
use tests::{Browser, Playground, eventually, page};

const TAB: &str = "\u{e004}";
const SHIFT_TAB: &str = "\u{e008}\u{e004}\u{e000}";
const ENTER: &str = "\u{e007}";
const ESCAPE: &str = "\u{e00c}";
const CTRL_ENTER: &str = "\u{e009}\u{e007}\u{e000}";

/// The `data-testid` of the focused element, and whether it is inside the open dialog.
async fn focus(b: &Browser) -> Result<(String, bool)> {
    let v = b
        .client
        .execute(
            "const a = document.activeElement; const d = document.querySelector('[data-testid=confirm-dialog]');\
             return [a ? (a.getAttribute('data-testid') || a.tagName) : '', !!(d && d.contains(a))];",
            vec![],
        )
        .await?;
    Ok((v[0].as_str().unwrap_or_default().to_owned(), v[1].as_bool().unwrap_or(false)))
}

async fn keys(b: &Browser, keys: &str) -> Result<()> {
    b.client.active_element().await?.send_keys(keys).await?;
    Ok(())
}

async fn focus_becomes(b: &Browser, testid: &str) -> Result<()> {
    eventually(Duration::from_secs(5), &format!("the focus on {testid}"), || async {
        Ok((focus(b).await?.0 == testid).then_some(()))
    })
    .await
}

async fn closed(b: &Browser) -> Result<()> {
    eventually(Duration::from_secs(5), "the dialog to close", || async {
        Ok(b.all("[data-testid=confirm-dialog]").await?.is_empty().then_some(()))
    })
    .await
}

async fn calls_sent(b: &Browser) -> Result<usize> {
    Ok(b.all("[data-testid=timeline-row][data-method=\"tools/call\"][data-kind=request]").await?.len())
}

#[tokio::test]
async fn the_confirmation_owns_the_keyboard_and_an_enter_meant_for_it_types_nothing_behind_it() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    let typed = r#"{"confirm_phrase": "yes"}"#;
    page::select_with_args(&b, "delete_everything", typed).await?;
    let editor = b.id("raw-args-editor").await?;
    editor.click().await?;
    let before = calls_sent(&b).await?;

    // Ctrl+Enter in the raw editor asks first; the dialog takes the focus, on Cancel: the
    // tool is destructive.
    keys(&b, CTRL_ENTER).await?;
    b.id("confirm-dialog").await?;
    focus_becomes(&b, "confirm-cancel").await?;
    b.screenshot("confirm-destructive-focus").await?;
    b.prefer_dark().await?;
    b.screenshot("confirm-destructive-focus-dark").await?;
    // Tab and Shift+Tab go round inside the dialog.
    for _ in 0..5 {
        keys(&b, TAB).await?;
        ensure!(focus(&b).await?.1, "Tab left the dialog: {:?}", focus(&b).await?);
    }
    for _ in 0..5 {
        keys(&b, SHIFT_TAB).await?;
        ensure!(focus(&b).await?.1, "Shift+Tab left the dialog: {:?}", focus(&b).await?);
    }
    // An Enter now is the dialog's: on Cancel it sends nothing and types nothing behind.
    focus_becomes(&b, "confirm-cancel").await?;
    keys(&b, ENTER).await?;
    closed(&b).await?;
    ensure!(editor.prop("value").await?.as_deref() == Some(typed), "the editor changed behind the dialog");
    ensure!(calls_sent(&b).await? == before, "a call was sent");
    focus_becomes(&b, "raw-args-editor").await?;

    // Esc cancels too, and the focus goes back to the button that opened the dialog.
    b.id("call-button").await?.click().await?;
    b.id("confirm-dialog").await?;
    focus_becomes(&b, "confirm-cancel").await?;
    keys(&b, ESCAPE).await?;
    closed(&b).await?;
    ensure!(calls_sent(&b).await? == before, "Esc sent the call");
    focus_becomes(&b, "call-button").await?;

    // The arguments shown are the ones sent, byte for byte.
    b.id("call-button").await?.click().await?;
    let shown = b.id("confirm-arguments").await?.text().await?;
    let shown: serde_json::Value = serde_json::from_str(&shown)?;
    b.id("confirm-accept").await?.click().await?;
    closed(&b).await?;
    eventually(Duration::from_secs(10), "the call", || async { Ok((calls_sent(&b).await? > before).then_some(())) })
        .await?;
    let rows = page::timeline(&b).await?;
    ensure!(rows.iter().any(|r| r.method == "tools/call"), "no call row");
    ensure!(shown == serde_json::json!({"confirm_phrase": "yes"}), "shown {shown}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_tool_that_only_writes_starts_on_its_call_button() -> Result<()> {
    let (_pg, b) = page::connected(Playground::start(&[])?).await?;
    // `toggle_extra_tool` writes (it changes the tool list) without destroying anything: the
    // dialog starts on its own button.
    let tool = "toggle_extra_tool";
    ensure!(page::tool_names(&b).await?.iter().any(|n| n == tool), "the demo server lists {tool}");
    b.css(&format!("[data-testid=tool-item][data-tool-name=\"{tool}\"]")).await?.click().await?;
    b.id("call-button").await?.click().await?;
    b.id("confirm-dialog").await?;
    focus_becomes(&b, "confirm-accept").await?;
    keys(&b, ESCAPE).await?;
    closed(&b).await?;
    b.close().await?;
    Ok(())
}
