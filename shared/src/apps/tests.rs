//! The host side of MCP Apps, natively: discovery and visibility, the resource's checks and
//! CSP, and the bridge message by message (order, gating, refusals, teardown).

use serde_json::{Value, json};

use super::*;
use crate::calls::ConfirmPolicy;
use crate::jsonrpc::Id;
use crate::mcp::Tool;

fn tool(v: Value) -> Tool {
    serde_json::from_value(v).expect("a tool")
}

fn view_tool() -> Tool {
    tool(json!({"name": "show", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://t/view"}}}))
}

fn tools() -> Vec<Tool> {
    vec![
        view_tool(),
        // Made for the view, and silent about hints (as server-system-monitor's poller is).
        tool(json!({"name": "poll", "inputSchema": {},
                    "_meta": {"ui": {"resourceUri": "ui://t/view", "visibility": ["app"]}}})),
        tool(json!({"name": "model_only", "inputSchema": {}, "annotations": {"readOnlyHint": true},
                    "_meta": {"ui": {"visibility": ["model"]}}})),
        tool(json!({"name": "wipe", "inputSchema": {}, "annotations": {"destructiveHint": true}})),
    ]
}

fn resource(meta: Value) -> UiResource {
    let contents = [json!({"uri": "ui://t/view", "mimeType": MIME, "text": "<!doctype html><p>hi", "_meta": meta})];
    UiResource::read("ui://t/view", &contents).expect("a view")
}

fn env() -> HostEnv {
    HostEnv {
        theme: Theme::Light,
        locale: "en-GB".into(),
        time_zone: "Europe/Lisbon".into(),
        width: 640,
        max_height: 800,
        version: "1.2.3".into(),
    }
}

fn req(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn note(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

/// The methods (or `id:N` for answers) of the messages to the view among `effects`.
fn to_view(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::ToView(m) => Some(m["method"].as_str().map_or_else(|| format!("id:{}", m["id"]), str::to_owned)),
            _ => None,
        })
        .collect()
}

fn logged(effects: &[Effect]) -> Vec<String> {
    effects.iter().filter_map(|e| if let Effect::Log { text, .. } = e { Some(text.clone()) } else { None }).collect()
}

/// A bridge whose view is initialized.
fn ready() -> ViewBridge {
    let mut b = ViewBridge::new(view_tool(), Some(Id::Number(7)), resource(json!({})), env());
    let ts = tools();
    b.from_view(&note("ui/notifications/sandbox-proxy-ready", json!({})), &ts, ConfirmPolicy::Unsafe);
    b.from_view(&req(1, "ui/initialize", json!({"appCapabilities": {}})), &ts, ConfirmPolicy::Unsafe);
    b.from_view(&note("ui/notifications/initialized", json!({})), &ts, ConfirmPolicy::Unsafe);
    assert!(b.is_ready());
    b
}

#[test]
fn tools_name_their_view_and_who_may_call_them() {
    let t = tools();
    assert_eq!(resource_uri(&t[0]).as_deref(), Some("ui://t/view"));
    assert_eq!(tool_ui(&t[0]).unwrap().visibility, Visibility { model: true, app: true }, "the default");
    assert!(app_only(&t[1]) && !app_only(&t[0]));
    assert!(callable_by_view(&t[1]) && !callable_by_view(&t[2]) && callable_by_view(&t[3]));
    let flat = tool(json!({"name": "old", "inputSchema": {}, "_meta": {"ui/resourceUri": "ui://old"}}));
    assert_eq!(resource_uri(&flat).as_deref(), Some("ui://old"), "the deprecated flat key");
    assert_eq!(tool_ui(&tool(json!({"name": "plain", "inputSchema": {}}))), None);
    assert_eq!(capability(), json!({"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}));
}

#[test]
fn a_view_resource_is_checked_before_it_renders() {
    let read = |uri: &str, item: Value| UiResource::read(uri, &[item]).map(|r| r.html);
    let ok = json!({"uri": "ui://a", "mimeType": "text/html; profile=mcp-app", "text": "<p>x"});
    assert_eq!(read("ui://a", ok), Ok("<p>x".to_owned()), "spacing of the MIME type aside");
    assert!(matches!(read("https://a", json!({})), Err(UiResourceError::NotUi(_))));
    assert!(matches!(read("ui://a", json!({"mimeType": "text/html", "text": "x"})), Err(UiResourceError::Mime { .. })));
    assert!(matches!(read("ui://a", json!({"mimeType": MIME})), Err(UiResourceError::NoContent(_))));
    let blob = json!({"mimeType": MIME, "blob": "PGgxPmhpPC9oMT4="});
    assert_eq!(read("ui://a", blob), Ok("<h1>hi</h1>".to_owned()), "base64 HTML");
    assert!(matches!(read("ui://a", json!({"mimeType": MIME, "blob": "!!"})), Err(UiResourceError::BadBlob(_))));
    let huge = json!({"mimeType": MIME, "text": "x".repeat(MAX_RESOURCE_BYTES + 1)});
    assert!(matches!(read("ui://a", huge), Err(UiResourceError::TooLarge { .. })));
    assert!(matches!(UiResource::read("ui://a", &[]), Err(UiResourceError::Empty(_))));
    let err = read("ui://a", json!({"mimeType": "image/png", "text": "x"})).unwrap_err().to_string();
    assert_eq!(err, "ui://a is \"image/png\", not text/html;profile=mcp-app");
}

#[test]
fn the_csp_is_the_declared_origins_never_more() {
    let default = csp_header(None);
    assert_eq!(
        default,
        "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; \
         object-src 'none'; base-uri 'self'; form-action 'none'"
    );
    let r = resource(json!({"ui": {"csp": {
        "connectDomains": ["https://api.example.com", "wss://live.example.com:8443"],
        "resourceDomains": ["https://*.cdn.example.com", "'unsafe-eval'", "https://x.com; script-src *", "*"],
        "frameDomains": ["https://player.example.com"]
    }, "permissions": {"camera": {}, "clipboardWrite": {}, "teleport": {}}, "prefersBorder": false}}));
    let csp = csp_header(r.csp.as_ref());
    assert!(csp.contains("connect-src https://api.example.com wss://live.example.com:8443;"), "{csp}");
    assert!(csp.contains("script-src 'self' 'unsafe-inline' https://*.cdn.example.com;"), "{csp}");
    assert!(csp.contains("frame-src https://player.example.com;") && csp.contains("object-src 'none'"), "{csp}");
    assert!(!csp.contains("unsafe-eval") && !csp.contains("x.com") && !csp.contains(" *"), "{csp}");
    assert_eq!(r.refused, ["'unsafe-eval'", "https://x.com; script-src *", "*"]);
    assert_eq!(r.permissions, ["camera", "clipboard-write"], "only features it declared, and known ones");
    assert_eq!(permissions_allow(&r.permissions), "camera; clipboard-write");
    assert_eq!(r.prefers_border, Some(false));
}

#[test]
fn nothing_goes_to_the_view_before_it_says_initialized() {
    let ts = tools();
    let p = ConfirmPolicy::Unsafe;
    let mut b = ViewBridge::new(view_tool(), Some(Id::Number(7)), resource(json!({})), env());
    // Before the proxy is ready, the view is not there: refused.
    assert_eq!(logged(&b.from_view(&req(1, "ping", json!({})), &ts, p)).len(), 1);
    let ready = b.from_view(&note("ui/notifications/sandbox-proxy-ready", json!({})), &ts, p);
    let Effect::ToView(loaded) = &ready[0] else { panic!("{ready:?}") };
    assert_eq!(loaded["method"], "ui/notifications/sandbox-resource-ready");
    assert_eq!(loaded["params"]["html"], "<!doctype html><p>hi");
    // Once only, and never from the view.
    assert!(!logged(&b.from_view(&note("ui/notifications/sandbox-proxy-ready", json!({})), &ts, p)).is_empty());
    assert!(
        !logged(&b.from_view(&note("ui/notifications/sandbox-resource-ready", json!({"html": "x"})), &ts, p))
            .is_empty()
    );

    // The call's input and result wait for `initialized`.
    assert!(b.tool_input(Some(Id::Number(7)), json!({"city": "Lisbon"})).is_empty());
    assert!(b.tool_result(json!({"content": []})).is_empty());
    let init = b.from_view(
        &req(1, "ui/initialize", json!({"appCapabilities": {"availableDisplayModes": ["inline", "fullscreen"]}})),
        &ts,
        p,
    );
    let Effect::ToView(answer) = &init[0] else { panic!("{init:?}") };
    let r = &answer["result"];
    assert_eq!(
        (r["protocolVersion"].as_str(), r["hostInfo"]["name"].as_str()),
        (Some("2026-01-26"), Some("mcp-playground"))
    );
    let ctx = &r["hostContext"];
    assert_eq!(ctx["toolInfo"]["id"], 7);
    assert_eq!(ctx["toolInfo"]["tool"]["name"], "show");
    assert_eq!(
        (ctx["theme"].as_str(), ctx["displayMode"].as_str(), ctx["platform"].as_str()),
        (Some("light"), Some("inline"), Some("web"))
    );
    assert_eq!(ctx["containerDimensions"], json!({"width": 640, "maxHeight": 800}));
    assert_eq!((ctx["locale"].as_str(), ctx["timeZone"].as_str()), (Some("en-GB"), Some("Europe/Lisbon")));
    assert!(ctx["styles"]["variables"]["--color-background-primary"].as_str().unwrap().starts_with("light-dark("));
    assert!(r["hostCapabilities"]["serverTools"].is_object() && r["hostCapabilities"]["openLinks"].is_object());
    assert!(!b.is_ready(), "not before it says so");
    let go = b.from_view(&note("ui/notifications/initialized", json!({})), &ts, p);
    assert_eq!(to_view(&go), ["ui/notifications/tool-input", "ui/notifications/tool-result"]);
    let Effect::ToView(input) = &go[0] else { panic!() };
    assert_eq!(input["params"], json!({"arguments": {"city": "Lisbon"}}));
    assert!(b.tool_result(json!({"content": []})).is_empty(), "the same end is told once");
    // A second call of the same tool: the same view gets the new input and result.
    assert_eq!(to_view(&b.tool_input(Some(Id::Number(9)), json!({"city": "Porto"}))), ["ui/notifications/tool-input"]);
    assert_eq!(to_view(&b.tool_cancelled("cancelled by the person")), ["ui/notifications/tool-cancelled"]);
}

#[test]
fn the_view_calls_only_what_it_may_and_through_the_confirmation() {
    let ts = tools();
    let mut b = ready();
    let call = |b: &mut ViewBridge, id: i64, name: &str, p: ConfirmPolicy| {
        b.from_view(&req(id, "tools/call", json!({"name": name, "arguments": {"n": 1}})), &ts, p)
    };
    // An app-only tool: carried to the server, unasked under "unless read-only" (it is the
    // view's own), asked under "always".
    assert!(matches!(&call(&mut b, 2, "poll", ConfirmPolicy::Always)[..], [Effect::Confirm { .. }]));
    let out = call(&mut b, 2, "poll", ConfirmPolicy::Unsafe);
    let want = ViewRequest::CallTool { name: "poll".into(), arguments: json!({"n": 1}) };
    assert_eq!(out, [Effect::Server { view_id: Id::Number(2), request: want }]);
    // A model-only tool, an unknown one: refused with an error, logged.
    let out = call(&mut b, 3, "model_only", ConfirmPolicy::Never);
    assert_eq!(to_view(&out), ["id:3"]);
    assert!(logged(&out)[0].contains("not callable by the view"), "{out:?}");
    let Effect::ToView(e) = &out[1] else { panic!() };
    assert_eq!(e["error"]["code"], -32000);
    assert!(logged(&call(&mut b, 4, "nope", ConfirmPolicy::Never))[0].contains("no tool"));
    // A destructive tool waits for a person, even when the view asks.
    let out = call(&mut b, 5, "wipe", ConfirmPolicy::Unsafe);
    assert!(matches!(&out[..], [Effect::Confirm { view_id: Id::Number(5), .. }]), "{out:?}");
    let no = b.confirmed(Id::Number(5), "wipe", json!({}), false);
    assert_eq!(to_view(&no), ["id:5"]);
    let yes = b.confirmed(Id::Number(5), "wipe", json!({}), true);
    assert!(matches!(&yes[..], [Effect::Server { .. }]));
    // The server's answer goes back under the view's own id.
    let back = b.answer(&Id::Number(2), Ok(json!({"content": []})));
    assert_eq!(back, [Effect::ToView(json!({"jsonrpc": "2.0", "id": 2, "result": {"content": []}}))]);
    let failed = b.answer(&Id::Number(2), Err(json!({"code": -32603, "message": "boom"})));
    let Effect::ToView(f) = &failed[0] else { panic!() };
    assert_eq!(f["error"]["message"], "boom");
}

#[test]
fn the_views_other_requests() {
    let ts = tools();
    let p = ConfirmPolicy::Unsafe;
    let mut b = ready();
    assert_eq!(to_view(&b.from_view(&req(2, "ping", json!({})), &ts, p)), ["id:2"]);
    let read = b.from_view(&req(3, "resources/read", json!({"uri": "ui://t/data"})), &ts, p);
    assert!(matches!(&read[..], [Effect::Server { request: ViewRequest::ReadResource { .. }, .. }]));
    let log = b.from_view(&note("notifications/message", json!({"level": "error", "data": {"x": 1}})), &ts, p);
    assert_eq!(log, [Effect::Log { level: "error".into(), text: "{\"x\":1}".into() }]);
    // Links: only http(s), and only after a person saw them.
    let link = b.from_view(&req(4, "ui/open-link", json!({"url": "https://example.com/a"})), &ts, p);
    assert_eq!(link, [Effect::OpenLink { view_id: Id::Number(4), url: "https://example.com/a".into() }]);
    assert_eq!(to_view(&b.link_answered(&Id::Number(4), true)), ["id:4"]);
    let js = b.from_view(&req(5, "ui/open-link", json!({"url": "javascript:alert(1)"})), &ts, p);
    assert!(logged(&js)[0].contains("Invalid URL"));
    // What it would tell the model is shown, and answered.
    let said =
        b.from_view(&req(6, "ui/message", json!({"role": "user", "content": {"type": "text", "text": "hi"}})), &ts, p);
    assert!(matches!(&said[0], Effect::ForModel { method, .. } if method == "ui/message"));
    assert_eq!(to_view(&said), ["id:6"]);
    // Display modes: granted within what both sides support, answered with the mode in effect.
    let full = b.from_view(&req(7, "ui/request-display-mode", json!({"mode": "fullscreen"})), &ts, p);
    assert!(full.contains(&Effect::Display(DisplayMode::Fullscreen)));
    assert_eq!(to_view(&full), ["id:7", "ui/notifications/host-context-changed"]);
    let Effect::ToView(a) = &full[0] else { panic!() };
    assert_eq!(a["result"]["mode"], "fullscreen");
    let odd = b.from_view(&req(8, "ui/request-display-mode", json!({"mode": "hologram"})), &ts, p);
    let Effect::ToView(a) = &odd[0] else { panic!() };
    assert_eq!(a["result"]["mode"], "fullscreen", "the mode in effect");
    // Sizes within limits; the theme follows the page.
    let size = b.from_view(&note("ui/notifications/size-changed", json!({"width": 300, "height": 1e9})), &ts, p);
    assert_eq!(size, [Effect::Resize { width: Some(300), height: Some(4000) }]);
    assert_eq!(to_view(&b.set_theme(Theme::Dark)), ["ui/notifications/host-context-changed"]);
    assert!(b.set_theme(Theme::Dark).is_empty(), "no change, no news");
    let wider = b.set_width(900);
    let Effect::ToView(w) = &wider[0] else { panic!() };
    assert_eq!(w["params"]["containerDimensions"]["width"], 900);
    assert!(b.set_width(900).is_empty(), "no change, no news");
    // Anything else is refused as not offered; garbage is logged.
    let other = b.from_view(&req(9, "sampling/createMessage", json!({})), &ts, p);
    let Effect::ToView(e) = &other[1] else { panic!() };
    assert_eq!(e["error"]["code"], -32601);
    assert!(!logged(&b.from_view(&json!("hello"), &ts, p)).is_empty());
}

#[test]
fn teardown_asks_first_and_then_nothing_gets_through() {
    let ts = tools();
    let p = ConfirmPolicy::Never;
    let mut b = ready();
    let asked = b.teardown("a new call");
    assert_eq!(to_view(&asked), ["ui/resource-teardown"]);
    let Effect::ToView(t) = &asked[0] else { panic!() };
    assert!(b.teardown("again").is_empty(), "asked once");
    let answer = json!({"jsonrpc": "2.0", "id": t["id"], "result": {}});
    assert_eq!(b.from_view(&answer, &ts, p), [Effect::Gone]);
    assert!(b.is_gone());
    let late = b.from_view(&req(10, "tools/call", json!({"name": "poll"})), &ts, p);
    assert!(logged(&late)[0].starts_with("refused after teardown"), "{late:?}");
    assert!(b.answer(&Id::Number(2), Ok(json!({}))).is_empty(), "no answer reaches a view that is gone");
    // A view never initialized goes at once; the grace ends any other.
    let mut young = ViewBridge::new(view_tool(), None, resource(json!({})), env());
    assert_eq!(young.teardown("disconnected"), [Effect::Gone]);
    let mut slow = ready();
    slow.teardown("x");
    assert_eq!(slow.gone(), [Effect::Gone]);
}
