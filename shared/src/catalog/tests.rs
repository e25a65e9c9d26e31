//! The catalog natively: subscriptions as their answers come, lists read tolerantly, levels.

use serde_json::json;

use super::*;

#[test]
fn a_subscription_follows_its_answers_and_a_refusal_leaves_it_as_it_was() {
    let mut c = Catalog::default();
    let uri = "demo://resource/static/document/architecture.md";
    c.subscribing(uri, true);
    assert_eq!(c.subscription(uri), Some(Subscription::Subscribing));
    c.subscribed(uri, true, None);
    assert_eq!(c.subscription(uri), Some(Subscription::Subscribed));
    assert_eq!(c.subscriptions().collect::<Vec<_>>(), [uri]);

    c.on_updated(uri);
    assert!(c.is_updated(uri));
    c.read(uri);
    assert!(!c.is_updated(uri), "reading clears the mark");
    c.on_updated(uri);

    // An unsubscribe the server refuses keeps the subscription, and says why.
    c.subscribing(uri, false);
    assert_eq!(c.subscription(uri), Some(Subscription::Unsubscribing));
    c.subscribed(uri, false, Some("Method not found (-32601)".into()));
    assert_eq!(c.subscription(uri), Some(Subscription::Subscribed));
    assert!(c.subscription_error.as_deref().unwrap().contains("-32601"));

    c.subscribing(uri, false);
    c.subscribed(uri, false, None);
    assert_eq!(c.subscription(uri), None);
    assert!(!c.is_updated(uri), "an unsubscribed resource is no longer marked");
    assert!(c.subscription_error.is_none());

    // A refused subscribe leaves it unsubscribed.
    c.subscribing("demo://x", true);
    c.subscribed("demo://x", true, Some("no".into()));
    assert_eq!(c.subscription("demo://x"), None);
}

#[test]
fn a_listing_keeps_what_it_can_read_and_says_what_it_could_not() {
    let mut c = Catalog::default();
    c.listing(ListKind::Resources);
    assert!(c.is_loading(ListKind::Resources) && !c.loaded(ListKind::Resources));
    let items = vec![
        json!({"uri": "demo://a", "name": "a", "mimeType": "text/plain", "size": 12, "annotations": {"audience": ["user"], "priority": 0.5}}),
        json!({"name": "no uri"}),
        json!({"uri": "demo://b", "name": "b", "icons": [{"src": "data:image/png;base64,AA=="}, {"bad": 1}]}),
    ];
    c.listed(ListKind::Resources, items, None);
    assert!(c.loaded(ListKind::Resources) && !c.is_loading(ListKind::Resources));
    assert_eq!(c.resources.items.len(), 2);
    assert_eq!(c.resources.error.as_deref(), Some("1 resource could not be read"));
    assert_eq!(
        c.resources.items[0].annotations.as_ref().and_then(|a| a.summary()).as_deref(),
        Some("for user · priority 0.5")
    );
    assert_eq!(c.resources.items[1].icons.len(), 1, "an unreadable icon is left out, not the resource");

    c.listed(
        ListKind::Prompts,
        vec![json!({"name": "p", "arguments": [{"name": "x", "required": true}]})],
        Some("prompts/list page 2 failed: boom".into()),
    );
    assert_eq!(c.prompts.items[0].arguments[0].name, "x");
    assert!(c.prompts.error.as_deref().unwrap().contains("page 2"));
}

#[test]
fn levels_are_ordered_by_severity() {
    assert!(severity("debug") < severity("warning") && severity("warning") < severity("emergency"));
    assert_eq!(severity("nonsense"), severity("info"));
}

#[test]
fn an_icon_is_picked_for_the_theme_and_size_and_only_from_data() {
    use crate::mcp::catalog::Icon;
    let icon = |src: &str, sizes: &[&str], theme: Option<&str>| Icon {
        src: src.into(),
        mime_type: None,
        sizes: sizes.iter().map(|s| s.to_string()).collect(),
        theme: theme.map(str::to_owned),
    };
    let icons = [
        icon("https://example.com/i.png", &["16x16"], None),
        icon("data:image/png;base64,big", &["64x64"], None),
        icon("data:image/png;base64,small", &["16x16"], None),
        icon("data:image/png;base64,dark", &["32x32"], Some("dark")),
    ];
    assert_eq!(Icon::pick(&icons, false, 16, false).map(|i| i.src.as_str()), Some("data:image/png;base64,small"));
    assert_eq!(
        Icon::pick(&icons, true, 16, false).map(|i| i.src.as_str()),
        Some("data:image/png;base64,dark"),
        "the theme's own first"
    );
    assert_eq!(
        Icon::pick(&icons[..2], false, 128, false).map(|i| i.src.as_str()),
        Some("data:image/png;base64,big"),
        "the largest when none is big enough"
    );
    assert_eq!(Icon::pick(&icons[..1], false, 16, false), None, "an http icon is not fetched here");
    assert_eq!(
        Icon::pick(&icons[..1], false, 16, true).map(|i| i.src.as_str()),
        Some("https://example.com/i.png"),
        "unless the relay fetches it"
    );
    assert_eq!(
        Icon::pick(&[icons[0].clone(), icons[2].clone()], false, 16, true).map(|i| i.src.as_str()),
        Some("data:image/png;base64,small"),
        "at a tie, nothing to fetch"
    );
}
