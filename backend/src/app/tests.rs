//! The router over real HTTP on a loopback port: the front door (token and one-time code
//! for the session cookie), what `/api` accepts, the recording, cacheable assets.

use super::*;

/// A relay on a free loopback port serving `recording`; its base URL.
async fn relay(recording: Option<&'static str>) -> String {
    serve_relay(recording, PathBuf::from("/nonexistent")).await.0
}

/// A relay serving the page in `assets`: its base URL and its guard.
async fn serve_relay(recording: Option<&'static str>, assets: PathBuf) -> (String, Arc<Guard>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (_, shutdown) = watch::channel(false);
    let guard = Arc::new(Guard::new("T".into(), "127.0.0.1", port));
    let state = AppState {
        guard: guard.clone(),
        session: Arc::new(SessionConfig {
            preset_oauth: Default::default(),
            auth: Arc::new(crate::auth::Hub::for_relay(
                "http://127.0.0.1:1/oauth/callback".into(),
                crate::auth::store::Store::in_memory(),
            )),
            preset: shared::relay::Target::Demo,
            preset_protocol: Default::default(),
            servers: Vec::new(),
            config: None,
            limits: shared::relay::Limits { max_message_bytes: 1024, max_stderr_line_bytes: 64 },
            demo_command: ("true".into(), Vec::new()),
            record_dir: None,
            playback: recording.is_some(),
            inherit_env: Default::default(),
            secrets: Arc::new(crate::secrets::SecretStore::at(None)),
            sandbox: None,
        }),
        assets,
        sessions: Arc::new(Semaphore::new(1)),
        shutdown,
        recording: recording.map(|t| Loaded { name: "démo 1.jsonl".into(), text: Bytes::from_static(t.as_bytes()) }),
        sandbox: Some("http://127.0.0.1:41234".into()),
    };
    tokio::spawn(async move { axum::serve(listener, router(state)).await });
    (format!("http://127.0.0.1:{port}"), guard)
}

/// A relay serving a stand-in page (`index.html` and an asset), in a folder of its own.
async fn relay_with_page(name: &str) -> (String, Arc<Guard>) {
    let dir = std::env::temp_dir().join(format!("mcp-playground-door-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "the page").unwrap();
    std::fs::write(dir.join("favicon.svg"), "<svg/>").unwrap();
    serve_relay(None, dir).await
}

/// A client that shows redirects instead of following them.
fn client() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// The `name=value` part of an answer's `Set-Cookie`, if any.
fn cookie_of(answer: &reqwest::Response) -> Option<String> {
    let set = answer.headers().get("set-cookie")?.to_str().unwrap();
    Some(set.split(';').next().unwrap().to_owned())
}

#[tokio::test]
async fn the_token_is_exchanged_for_a_session_cookie_and_a_clean_url() {
    let (base, guard) = relay_with_page("exchange").await;
    let client = client();
    for path in ["/?token=T", "/index.html?token=T", "/?x=1&token=T"] {
        let answer = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(answer.status(), 303, "{path}");
        assert_eq!(answer.headers()["location"], "/", "{path}");
        assert_eq!(answer.headers()["cache-control"], "no-store");
        let set = answer.headers()["set-cookie"].to_str().unwrap();
        assert_eq!(set, guard.set_cookie());
        let port = base.rsplit(':').next().unwrap();
        assert!(set.starts_with(&format!("mcp_playground_{port}=")), "{set}");
        assert!(set.ends_with("; HttpOnly; SameSite=Strict; Path=/"), "{set}");
        assert!(!set.contains("Max-Age") && !set.contains("Expires") && !set.contains("=T;"), "{set}");
    }
    let cookie = cookie_of(&client.get(format!("{base}/?token=T")).send().await.unwrap()).unwrap();
    let page = client.get(format!("{base}/")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.text().await.unwrap(), "the page");
    let api = client.get(format!("{base}/api/health")).header("cookie", &cookie).send().await.unwrap();
    assert_eq!(api.status(), 200, "the cookie opens /api");
}

#[tokio::test]
async fn a_wrong_token_or_code_gets_401_and_no_cookie() {
    let (base, guard) = relay_with_page("wrong").await;
    let client = client();
    for path in ["/?token=t", "/?token=", "/?code=T", "/?code=", "/index.html?token=TT"] {
        let answer = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(answer.status(), 401, "{path}");
        assert!(answer.headers().get("set-cookie").is_none(), "{path}");
        let html = answer.text().await.unwrap();
        assert!(html.contains("This link does not open the playground") && !html.contains("the page"), "{path}");
    }
    assert!(!guard.redeem_code("T"));
}

#[tokio::test]
async fn without_the_cookie_the_page_says_which_url_to_open() {
    let (base, _) = relay_with_page("notice").await;
    let client = client();
    for path in ["/", "/index.html"] {
        let answer = client.get(format!("{base}{path}")).send().await.unwrap();
        assert_eq!(answer.status(), 200, "{path}");
        assert!(answer.headers()["content-security-policy"].to_str().unwrap().contains("default-src 'none'"));
        assert!(answer.headers().get("set-cookie").is_none());
        let html = answer.text().await.unwrap();
        assert!(html.contains("Open the URL the relay printed"), "{html}");
        assert!(!html.contains("<script") && !html.contains("the page"), "{html}");
    }
    // The page's assets hold no secret: guarded by Host and Origin only, as before.
    assert_eq!(client.get(format!("{base}/favicon.svg")).send().await.unwrap().status(), 200);
    let foreign = client.get(format!("{base}/favicon.svg")).header("host", "evil.example").send().await.unwrap();
    assert_eq!(foreign.status(), 403);
}

#[tokio::test]
async fn a_one_time_code_opens_the_page_once() {
    let (base, guard) = relay_with_page("code").await;
    let client = client();
    let code = guard.issue_code();
    let answer = client.get(format!("{base}/?code={code}")).send().await.unwrap();
    assert_eq!(answer.status(), 303);
    assert_eq!(answer.headers()["location"], "/");
    assert_eq!(answer.headers()["set-cookie"].to_str().unwrap(), guard.set_cookie());
    let again = client.get(format!("{base}/?code={code}")).send().await.unwrap();
    assert_eq!(again.status(), 401, "a code works once");
    assert!(again.headers().get("set-cookie").is_none());
    assert_eq!(
        client.get(format!("{base}/api/health?code={}", guard.issue_code())).send().await.unwrap().status(),
        401,
        "a code is no token"
    );
}

#[tokio::test]
async fn api_takes_this_relays_cookie_or_the_token() {
    let (base, _) = relay_with_page("api-a").await;
    let (other, _) = relay_with_page("api-b").await;
    let client = client();
    let ours = cookie_of(&client.get(format!("{base}/?token=T")).send().await.unwrap()).unwrap();
    let theirs = cookie_of(&client.get(format!("{other}/?token=T")).send().await.unwrap()).unwrap();
    assert_ne!(ours, theirs);
    let (_, their_value) = theirs.split_once('=').unwrap();
    let (our_name, _) = ours.split_once('=').unwrap();
    let health = |cookie: Option<String>| {
        let mut request = client.get(format!("{base}/api/health"));
        if let Some(c) = cookie {
            request = request.header("cookie", c);
        }
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(health(Some(ours.clone())).await, 200);
    assert_eq!(health(Some(theirs.clone())).await, 401, "the cookie of the relay on another port");
    assert_eq!(health(Some(format!("{our_name}={their_value}"))).await, 401, "another relay's secret");
    assert_eq!(health(Some(format!("{our_name}=T"))).await, 401, "the token is not the cookie");
    assert_eq!(health(None).await, 401);
    // Clients other than browsers keep the token.
    assert_eq!(client.get(format!("{base}/api/health?token=T")).send().await.unwrap().status(), 200);
    assert_eq!(client.get(format!("{base}/api/health")).bearer_auth("T").send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn the_loaded_recording_is_served_as_read_with_the_token_only() {
    // Bytes a re-encoding would change: spacing, an escape, a line without its end.
    let text = "{\"format\":\"mcp-playground-recording\", \"version\":1}\n{\"t\":1.50,\"event\":{\"kind\":\"note\",\"message\":\"\\u00e9\"}}\n{\"t\":2";
    let base = relay(Some(text)).await;
    let client = reqwest::Client::new();
    let answer = client.get(format!("{base}/api/recording?token=T")).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["content-type"], "application/x-ndjson");
    assert_eq!(
        answer.headers()[RECORDING_NAME],
        "d%C3%A9mo%201.jsonl",
        "the file's name, as decodeURIComponent reads it"
    );
    assert_eq!(answer.text().await.unwrap(), text);
    let answer = client.get(format!("{base}/api/recording")).bearer_auth("T").send().await.unwrap();
    assert_eq!(answer.status(), 200);
    for refused in ["/api/recording", "/api/recording?token=t"] {
        let answer = client.get(format!("{base}{refused}")).send().await.unwrap();
        assert_eq!(answer.status(), 401, "{refused}");
        assert!(!answer.text().await.unwrap().contains("format"));
    }
}

#[test]
fn only_content_hashed_assets_are_cacheable() {
    assert!(is_hashed_asset("/frontend_bg-0fc9a7db48112ac0.wasm"));
    assert!(is_hashed_asset("/boot-b1bbf114cc791d2a.js"));
    for path in ["/", "/index.html", "/favicon.svg", "/api/health", "/api/x-0fc9a7db48112ac0.js", "/a-0fc9a7db4811.js"]
    {
        assert!(!is_hashed_asset(path), "{path}");
    }
}

#[tokio::test]
async fn without_a_recording_there_is_nothing_to_fetch() {
    let base = relay(None).await;
    let client = reqwest::Client::new();
    let answer = client.get(format!("{base}/api/recording?token=T")).send().await.unwrap();
    assert_eq!(answer.status(), 404);
    assert_eq!(client.get(format!("{base}/api/recording")).send().await.unwrap().status(), 401);
}

#[tokio::test]
async fn the_oauth_callback_needs_no_cookie_but_a_known_state_and_this_relays_host() {
    let (base, _) = relay_with_page("oauth-callback").await;
    let answer = client().get(format!("{base}/oauth/callback?code=c&state=unknown")).send().await.unwrap();
    assert_eq!(answer.status(), 400, "a state no sign-in waits for is refused");
    let page = answer.text().await.unwrap();
    assert!(page.contains("not expected") && !page.contains("unknown"), "nothing of the request is repeated: {page}");
    let foreign = client()
        .get(format!("{base}/oauth/callback?code=c&state=unknown"))
        .header("host", "evil.example:80")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403, "a foreign Host is refused as on every route");
}

#[tokio::test]
async fn the_page_may_frame_the_app_sandbox_and_nothing_else() {
    let base = relay(None).await;
    let answer = reqwest::Client::new().get(format!("{base}/")).send().await.unwrap();
    let csp = answer.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.ends_with("; frame-src http://127.0.0.1:41234"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(
        content_security_policy(Some("http://x; script-src *")),
        format!("{CONTENT_SECURITY_POLICY}; frame-src 'none'")
    );
}

/// The sandbox origin on a free port, for the page on `page_port`; its base URL.
async fn sandbox(page_port: u16) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let s = Arc::new(sandbox::Sandbox::new(page_port, port));
    tokio::spawn(async move { axum::serve(listener, sandbox::router(s)).await });
    format!("http://127.0.0.1:{port}")
}

#[tokio::test]
async fn the_sandbox_serves_the_proxy_under_the_views_csp_and_nothing_else() {
    let base = sandbox(6280).await;
    let client = reqwest::Client::new();
    let page = "http%3A%2F%2F127.0.0.1%3A6280";
    let csp = serde_json::json!({"connectDomains": ["https://api.example.com", "'unsafe-eval'"], "resourceDomains": ["https://cdn.example.com"]});
    let q = url::form_urlencoded::Serializer::new(String::new()).append_pair("csp", &csp.to_string()).finish();
    let answer = client.get(format!("{base}/sandbox?host={page}&{q}")).send().await.unwrap();
    assert_eq!(answer.status(), 200);
    let policy = answer.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.contains("connect-src https://api.example.com;"), "{policy}");
    assert!(!policy.contains("unsafe-eval"), "not an origin, left out: {policy}");
    assert!(
        policy.contains("object-src 'none'") && policy.ends_with("frame-ancestors http://127.0.0.1:6280"),
        "{policy}"
    );
    assert!(answer.headers().get("set-cookie").is_none());
    assert!(answer.text().await.unwrap().contains("<script src=\"/sandbox.js\">"));
    // No declared CSP: the specification's restrictive default.
    let plain = client.get(format!("{base}/sandbox?host={page}")).send().await.unwrap();
    let policy = plain.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(policy.starts_with(&shared::apps::csp_header(None)), "{policy}");
    // Framed only by the relay's page; nothing else here: no API, no page, no cookie.
    let foreign = client.get(format!("{base}/sandbox?host=http%3A%2F%2Fevil.example")).send().await.unwrap();
    assert_eq!(foreign.status(), 400);
    for path in ["/api/health", "/api/ws", "/", "/index.html", "/api/recording?token=T"] {
        assert_eq!(client.get(format!("{base}{path}")).send().await.unwrap().status(), 404, "{path}");
    }
    let script = client.get(format!("{base}/sandbox.js")).send().await.unwrap();
    assert_eq!(script.status(), 200);
    assert!(script.text().await.unwrap().contains("ui/notifications/sandbox-"));
    // A rebinding name is refused.
    let rebound = client.get(format!("{base}/sandbox.js")).header("host", "evil.example").send().await.unwrap();
    assert_eq!(rebound.status(), 403);
}
