//! The render model of content items: what each becomes, pinned by snapshots.

use expect_test::expect;
use serde_json::json;

use super::*;

fn describe(item: &Item) -> String {
    let view = match &item.view {
        ItemView::Text(t) => {
            format!("text json={} long={} markdown={}", t.json.is_some(), t.long, t.looks_like_markdown)
        }
        ItemView::Media { kind, info, .. } => {
            format!("{kind:?} {} {} bytes notice={:?}", info.mime, info.bytes, info.notice)
        }
        ItemView::Link(l) => format!("link {:?} {} href={:?}", l.name, l.uri, l.href),
        ItemView::Resource { uri, body, .. } => format!(
            "resource {uri} {}",
            match body {
                Body::Text(t) => format!("text json={}", t.json.is_some()),
                Body::Media { kind, info, .. } => format!("{kind:?} {}", info.mime),
                Body::Download { info, .. } => format!("download {} {} bytes", info.mime, info.bytes),
                Body::Empty => "empty".into(),
            }
        ),
        ItemView::Unknown(v) => format!("unknown {v}"),
    };
    format!("{} [{}] {view}", item.content_type, item.badges.labels().join(", "))
}

#[test]
fn every_content_type_becomes_what_it_should() {
    let content: Vec<Content> = serde_json::from_value(json!([
        {"type": "text", "text": "plain words"},
        {"type": "text", "text": "{\"a\": [1, 2]}", "annotations": {"audience": ["user"], "priority": 0.9}},
        {"type": "text", "text": "# Title\n\n- item"},
        {"type": "text", "text": "<img src=x onerror=alert(1)>"},
        {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "mimeType": "image/png",
         "annotations": {"audience": ["assistant"], "lastModified": "2025-01-12T15:00:58Z"}},
        {"type": "image", "data": "%%%", "mimeType": "image/png"},
        {"type": "audio", "data": "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "https://example.com/a", "name": "A"},
        {"type": "resource_link", "uri": "javascript:alert(1)", "name": "<b>evil</b>"},
        {"type": "resource_link", "uri": "file:///etc/hosts", "name": "hosts"},
        {"type": "resource", "resource": {"uri": "mem://c.json", "mimeType": "application/json", "text": "{\"k\": true}"}},
        {"type": "resource", "resource": {"uri": "mem://p.png", "mimeType": "image/png", "blob": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}},
        {"type": "resource", "resource": {"uri": "mem://z.gz", "mimeType": "application/gzip", "blob": "H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA=="}},
        {"type": "resource", "resource": {"uri": "mem://t.txt", "mimeType": "text/plain", "blob": "aGVsbG8="}},
        {"type": "hologram", "frames": 3}
    ]))
    .unwrap();
    let out: Vec<String> = content.iter().map(|c| describe(&Item::of(c))).collect();
    expect![[r#"
        text [] text json=false long=false markdown=false
        text [for user, priority 0.9] text json=true long=false markdown=false
        text [] text json=false long=false markdown=true
        text [] text json=false long=false markdown=false
        image [for assistant, modified 2025-01-12T15:00:58Z] Image image/png 70 bytes notice=None
        image [] Image image/png 0 bytes notice=Some("the data is not valid base64, so it cannot be shown")
        audio [] Audio audio/wav 44 bytes notice=None
        resource_link [] link "A" https://example.com/a href=Some("https://example.com/a")
        resource_link [] link "<b>evil</b>" javascript:alert(1) href=None
        resource_link [] link "hosts" file:///etc/hosts href=None
        resource [] resource mem://c.json text json=true
        resource [] resource mem://p.png Image image/png
        resource [] resource mem://z.gz download application/gzip 25 bytes
        resource [] resource mem://t.txt text json=false
        unknown [] unknown {"type":"hologram","frames":3}"#]]
    .assert_eq(&out.join("\n"));
}

#[test]
fn long_text_is_previewed_at_a_char_boundary() {
    let text = "é".repeat(LONG_TEXT_BYTES);
    let v = TextView::new(text);
    assert!(v.long);
    assert!(v.preview().len() <= LONG_TEXT_BYTES && v.preview().len() >= LONG_TEXT_BYTES - 1);
    assert!(!TextView::new("short".into()).long);
}
