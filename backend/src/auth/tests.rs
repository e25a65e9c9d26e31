//! The pieces of the flow that need no server: challenges, well-known URLs, resource and
//! issuer rules, masking, PKCE.

use super::authorizer::{client_auth, s256};
use super::challenge::{Challenge, parse};
use super::discovery::{resource_covers, resource_meta_urls, server_meta_urls};
use super::exchange::{Basic, mask_json, mask_url_query};
use super::store::Registration;

#[test]
fn a_bearer_challenge_is_read_in_any_order_with_quotes_and_escapes() {
    let c = parse(r#"Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://h:1/.well-known/oauth-protected-resource/mcp", error_description="say \"hi\", please""#).unwrap();
    assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
    assert!(c.insufficient_scope());
    assert_eq!(c.scopes(), ["mcp:basic", "mcp:write"]);
    assert_eq!(c.resource_metadata.as_deref(), Some("http://h:1/.well-known/oauth-protected-resource/mcp"));
    assert_eq!(c.error_description.as_deref(), Some(r#"say "hi", please"#));
    let plain = parse(r#"bearer scope="a", resource_metadata="http://x/y""#).unwrap();
    assert_eq!(plain.error, None);
    assert_eq!(plain.scopes(), ["a"]);
}

#[test]
fn only_the_bearer_challenge_of_several_counts() {
    let c = parse(r#"Basic realm="x", scope="basic-scope", Bearer realm = "mcp" , scope=tokenish, DPoP algs="ES256""#)
        .unwrap();
    assert_eq!(c.scope.as_deref(), Some("tokenish"));
    assert_eq!(parse(r#"Basic realm="x""#), None);
    assert_eq!(parse("Bearer"), Some(Challenge::default()));
    assert_eq!(parse(""), None);
}

#[test]
fn resource_metadata_is_looked_for_path_first_then_at_the_root() {
    assert_eq!(
        resource_meta_urls("http://localhost:9/mcp").unwrap(),
        [
            "http://localhost:9/.well-known/oauth-protected-resource/mcp",
            "http://localhost:9/.well-known/oauth-protected-resource"
        ]
    );
    assert_eq!(resource_meta_urls("https://h/").unwrap(), ["https://h/.well-known/oauth-protected-resource"]);
}

#[test]
fn server_metadata_is_looked_for_in_the_spec_order_and_never_at_the_root_for_a_path_issuer() {
    assert_eq!(
        server_meta_urls("http://localhost:7").unwrap(),
        [
            "http://localhost:7/.well-known/oauth-authorization-server",
            "http://localhost:7/.well-known/openid-configuration"
        ]
    );
    assert_eq!(
        server_meta_urls("http://localhost:7/tenant1").unwrap(),
        [
            "http://localhost:7/.well-known/oauth-authorization-server/tenant1",
            "http://localhost:7/.well-known/openid-configuration/tenant1",
            "http://localhost:7/tenant1/.well-known/openid-configuration",
        ]
    );
}

#[test]
fn a_resource_covers_its_own_url_and_paths_below_it_on_the_same_origin() {
    assert!(resource_covers("http://localhost:9/mcp", "http://localhost:9/mcp"));
    assert!(resource_covers("http://localhost:9", "http://localhost:9/mcp"));
    assert!(resource_covers("http://localhost:9/", "http://localhost:9/mcp"));
    assert!(!resource_covers("https://evil.example.com/mcp", "http://localhost:9/mcp"));
    assert!(!resource_covers("http://localhost:9/mc", "http://localhost:9/mcp"));
    assert!(!resource_covers("http://localhost:10/mcp", "http://localhost:9/mcp"));
    assert!(!resource_covers("not a url", "http://localhost:9/mcp"));
}

#[test]
fn secrets_are_masked_in_bodies_and_urls() {
    let body = r#"{"access_token":"at-1","token_type":"Bearer","refresh_token":"rt-1","nested":{"client_secret":"s"},"scope":"a"}"#;
    let masked = mask_json(body);
    for secret in ["at-1", "rt-1", "\"s\""] {
        assert!(!masked.contains(secret), "{masked}");
    }
    assert!(masked.contains(r#""scope":"a""#) && masked.contains("Bearer"), "{masked}");
    let url = mask_url_query("http://127.0.0.1:5/callback?code=abc123&state=st&iss=http%3A%2F%2Fas");
    assert!(!url.contains("abc123") && !url.contains("=st&"), "{url}");
    assert!(url.contains("iss=http"), "{url}");
}

#[test]
fn the_pkce_challenge_is_rfc_7636s_example() {
    // RFC 7636, appendix B.
    assert_eq!(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

#[tokio::test]
async fn the_commands_callback_hands_the_code_to_the_sign_in_waiting_under_its_state_once() {
    let pending = std::sync::Arc::new(super::callback::Pending::default());
    let redirect = super::callback::listen(pending.clone()).await.unwrap();
    assert!(redirect.starts_with("http://127.0.0.1:") && redirect.ends_with("/callback"), "{redirect}");
    let waiting = pending.wait("s1");
    let http = reqwest::Client::new();
    let first = http.get(format!("{redirect}?code=the-code&state=s1&iss=http%3A%2F%2Fas")).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let got = waiting.await.unwrap();
    assert_eq!(got.code.as_deref(), Some("the-code"));
    assert_eq!(got.iss.as_deref(), Some("http://as"));
    let again = http.get(format!("{redirect}?code=the-code&state=s1")).send().await.unwrap();
    assert_eq!(again.status(), 400, "a state works once");
}

#[test]
fn remembered_tokens_are_in_a_file_only_the_user_may_read_and_sign_out_forgets_them() {
    use super::store::{Registration, SignIn, Store, Tokens};
    let dir = std::env::temp_dir().join(format!("mcp-playground-tokens-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("state").join("tokens.json");
    let store = Store::remembered(file.clone()).unwrap();
    let saved = SignIn {
        issuer: "http://as".into(),
        resource: "http://h:1/mcp".into(),
        client: Registration { client_id: "c".into(), client_secret: None, auth_method: "none".into() },
        tokens: Tokens { access_token: "at-1".into(), refresh_token: None, expires_at_ms: None, scopes: vec![] },
    };
    store.put(saved.clone());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(file.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    }
    let again = Store::remembered(file.clone()).unwrap();
    assert_eq!(again.find("http://h:1/mcp"), Some(saved), "read back by the next run");
    assert_eq!(again.find("http://h:1/other"), None);
    assert!(again.forget("http://h:1/mcp"));
    assert!(!std::fs::read_to_string(&file).unwrap().contains("at-1"), "forgotten on disk too");
    assert!(Store::in_memory().file().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_token_request_names_the_client_in_its_body_with_every_method_and_its_secret_once() {
    let with = |auth_method: &str, secret: Option<&str>| Registration {
        client_id: "c-1".into(),
        client_secret: secret.map(str::to_owned),
        auth_method: auth_method.into(),
    };
    let grant = [("grant_type", "authorization_code")];
    // Basic: the secret in the header only, the client id in the body too (the Python
    // SDK's authorization server refuses a token request without it: "Missing client_id").
    let basic = with("client_secret_basic", Some("s-1"));
    let (fields, header) = client_auth(&basic, &grant);
    assert_eq!(fields, [("grant_type", "authorization_code"), ("client_id", "c-1")]);
    assert_eq!(header, Some(Basic { id: "c-1", secret: "s-1" }));
    let post = with("client_secret_post", Some("s-2"));
    let (fields, header) = client_auth(&post, &grant);
    assert_eq!(fields, [("grant_type", "authorization_code"), ("client_id", "c-1"), ("client_secret", "s-2")]);
    assert_eq!(header, None);
    let public = with("none", None);
    let (fields, header) = client_auth(&public, &grant);
    assert_eq!(fields, [("grant_type", "authorization_code"), ("client_id", "c-1")]);
    assert_eq!(header, None);
}
