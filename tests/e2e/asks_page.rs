//! What the server asks of the person, in the page, against `server-everything`: its
//! elicitation tool opens a form dialog (accepted with typed content and its defaults,
//! then declined), its sampling tool a dialog where the person types the assistant's
//! reply (then declines), and its roots tool lists the roots typed in the editor.

use anyhow::{Context, Result, ensure};
use tests::{Browser, Playground, server_everything};

use tests::page;

/// Starts a call of `tool` with raw JSON arguments and waits for the dialog `dialog`.
async fn call_until_asked(b: &Browser, tool: &str, args: &str, dialog: &str) -> Result<()> {
    page::select_with_args(b, tool, args).await?;
    b.id("call-button").await?.click().await?;
    page::accept_if_asked(b).await?;
    b.id(dialog).await?;
    Ok(())
}

/// The server's request of `method` and our answer, paired by id in the timeline.
async fn assert_answered_in_timeline(b: &Browser, method: &str) -> Result<()> {
    let rows = page::timeline(b).await?;
    let asked = rows
        .iter()
        .rev()
        .find(|r| r.method == method && r.kind == "request" && r.direction == "in")
        .with_context(|| format!("no {method} request in the timeline: {rows:#?}"))?;
    let answered = rows.iter().any(|r| r.direction == "out" && r.id == asked.id && r.method == method);
    ensure!(answered, "no answer to {method} {:?} in the timeline: {rows:#?}", asked.id);
    Ok(())
}

#[tokio::test]
async fn an_elicitation_is_answered_in_a_form_dialog_then_declined() -> Result<()> {
    let entry = server_everything()?;
    let (_pg, b) = page::connected(Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?).await?;

    call_until_asked(&b, "trigger-elicitation-request", "{}", "elicitation-dialog").await?;
    // The form is the tool form's: defaults filled in, the first field focused.
    let integer = b.css("[data-testid=elicitation-dialog] [data-testid=field][data-field-path=\"/integer\"]").await?;
    ensure!(integer.prop("value").await?.as_deref() == Some("42"), "the default is not shown");
    let name = b.css("[data-testid=elicitation-dialog] [data-testid=field][data-field-path=\"/name\"]").await?;
    let focused: bool = b
        .client
        .execute("return document.activeElement === arguments[0]", vec![serde_json::to_value(&name)?])
        .await?
        .as_bool()
        .unwrap_or(false);
    ensure!(focused, "the first field has the focus");
    // Tab goes round the dialog (its fields and buttons), never out to the page behind it.
    for _ in 0..12 {
        b.client.active_element().await?.send_keys("\u{e004}").await?;
        let inside = b
            .client
            .execute(
                "return document.querySelector('[data-testid=elicitation-dialog]').contains(document.activeElement)",
                vec![],
            )
            .await?;
        ensure!(inside.as_bool() == Some(true), "Tab left the elicitation dialog");
    }
    b.set_value(&name, "Ann Example").await?;
    b.screenshot("elicitation-dialog").await?;
    b.id("elicitation-accept").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "ok", "{state}: {text}");
    ensure!(text.contains("- Name: Ann Example") && text.contains("- Favorite Integer: 42"), "{text}");
    ensure!(b.all("[data-testid=elicitation-dialog]").await?.is_empty(), "the dialog closed");
    assert_answered_in_timeline(&b, "elicitation/create").await?;

    call_until_asked(&b, "trigger-elicitation-request", "{}", "elicitation-dialog").await?;
    b.id("elicitation-decline").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "ok" && text.contains("User declined"), "{state}: {text}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn a_sampling_request_gets_the_typed_reply_or_a_refusal_and_roots_are_offered() -> Result<()> {
    let entry = server_everything()?;
    let pg = Playground::start(&["node", &entry.to_string_lossy(), "stdio"])?;
    let b = Browser::start().await?;
    b.prefer_dark().await?;
    b.client.goto(&pg.url).await?;
    page::settle(&b).await?;
    let roots = b.id("roots-editor").await?;
    ensure!(roots.prop("value").await?.as_deref() == Some(""), "no roots by default");
    b.set_value(&roots, "home/me").await?;
    b.css("[role=alert]").await.context("a relative path is refused")?;
    b.set_value(&roots, "file:///srv/page-root").await?;
    page::connect(&b).await?;

    call_until_asked(
        &b,
        "trigger-sampling-request",
        r#"{"prompt": "Say hi to the page", "maxTokens": 20}"#,
        "sampling-dialog",
    )
    .await?;
    let shown = b.id("sampling-dialog").await?.text().await?;
    ensure!(shown.contains("Say hi to the page") && shown.contains("up to 20 tokens"), "{shown}");
    b.set_value(&b.id("sampling-reply").await?, "Hi from the page").await?;
    b.screenshot("sampling-dialog-dark").await?;
    b.id("sampling-send").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "ok" && text.contains("Hi from the page") && text.contains("mcp-playground-user"), "{text}");
    assert_answered_in_timeline(&b, "sampling/createMessage").await?;

    call_until_asked(&b, "trigger-sampling-request", r#"{"prompt": "again"}"#, "sampling-dialog").await?;
    b.id("sampling-decline").await?.click().await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "tool-error" && text.contains("User rejected sampling request"), "{state}: {text}");

    let state = page::call_tool(&b, "get-roots-list", "{}").await?;
    let text = page::result_texts(&b).await?.join("\n");
    ensure!(state == "ok" && text.contains("file:///srv/page-root"), "{state}: {text}");
    b.close().await?;
    Ok(())
}

#[tokio::test]
async fn requests_wait_in_order_a_url_is_never_opened_by_itself_and_esc_cancels() -> Result<()> {
    let server = tests::root().join("tests/servers/asks.py");
    let (_pg, b) = page::connected(Playground::start(&["python3", &server.to_string_lossy()])?).await?;
    // Taken once the tool is picked: the page's own URL says it (`#tool=ask_twice`).
    page::select_with_args(&b, "ask_twice", "{}").await?;
    let history = b.history().await?;

    call_until_asked(&b, "ask_twice", "{}", "elicitation-dialog").await?;
    // The older request first: the URL, shown as text, one more waiting behind it.
    let dialog = b.css("[data-testid=elicitation-dialog][data-mode=url]").await?;
    ensure!(dialog.attr("data-request-id").await?.as_deref() == Some("\"url-1\""), "the oldest first");
    ensure!(dialog.text().await?.contains("1 more waiting"), "{}", dialog.text().await?);
    let url = b.id("elicitation-url").await?.text().await?;
    ensure!(url == "https://example.com/verify?code=abc", "{url}");
    let open = b.id("elicitation-open").await?;
    ensure!(open.attr("target").await?.as_deref() == Some("_blank"), "opens only in a new tab, on a click");
    b.screenshot("elicitation-url").await?;
    ensure!(b.history().await? == history, "nothing was opened by itself");
    b.id("elicitation-accept").await?.click().await?;

    // Then the form, with the 2025-11-25 enum shapes and its defaults; Esc cancels it.
    let dialog = b.css("[data-testid=elicitation-dialog][data-mode=form]").await?;
    ensure!(dialog.attr("data-request-id").await?.as_deref() == Some("\"form-2\""));
    // A multi-select (an array of one enum) is a checkbox per value, the default ticked.
    let tuna = b.css("[data-testid=field][data-field-path=\"/fish\"][value='\"tuna\"']").await?;
    ensure!(tuna.is_selected().await?, "the default is shown");
    let fish = b.all("[data-testid=field][data-field-path=\"/fish\"]").await?;
    ensure!(fish.len() > 1, "one checkbox per value: {}", fish.len());
    let hero = b.css("[data-testid=field][data-field-path=\"/hero\"]").await?;
    ensure!(hero.text().await?.contains("Wonder Woman"), "titled choices: {}", hero.text().await?);
    hero.send_keys("\u{e00c}").await?;
    let (state, text) = page::finished(&b).await?;
    ensure!(state == "ok", "{state}: {text}");
    ensure!(text == r#"url: {"action":"accept"}; form: {"action":"cancel"}"#, "{text}");
    ensure!(b.all("[data-testid=elicitation-dialog]").await?.is_empty(), "no dialog left");
    b.close().await?;
    Ok(())
}
