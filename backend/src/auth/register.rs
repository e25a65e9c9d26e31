//! How the relay is known to an authorization server, in the MCP spec's order of
//! preference: a client id the person configured, then a Client ID Metadata Document (when
//! the server accepts them and one is configured), then dynamic client registration
//! (RFC 7591). Registrations are kept per issuer and redirect URI, never used with another
//! issuer.

use serde_json::json;

use super::Hub;
use super::authorizer::Failure;
use super::discovery::ServerMeta;
use super::exchange::Exchanges;
use super::store::Registration;

/// The name the relay registers under.
const CLIENT_NAME: &str = "MCP Playground";

/// The token endpoint authentication a client with (or without) a secret uses at `meta`.
fn method_with_secret(has_secret: bool, meta: &ServerMeta) -> String {
    let supported = &meta.token_endpoint_auth_methods_supported;
    let offers = |m: &str| supported.iter().any(|s| s == m);
    if !has_secret {
        "none"
    } else if supported.is_empty() || offers("client_secret_basic") || !offers("client_secret_post") {
        "client_secret_basic"
    } else {
        "client_secret_post"
    }
    .to_owned()
}

/// The client to sign in as at the server `meta` describes.
pub(super) async fn client(
    hub: &Hub,
    x: &Exchanges,
    server: &str,
    meta: &ServerMeta,
    redirect: &str,
    client_id: Option<&str>,
) -> Result<Registration, Failure> {
    if let Some(id) = client_id {
        let secret = hub.secret_for(server, id);
        let auth_method = method_with_secret(secret.is_some(), meta);
        return Ok(Registration { client_id: id.to_owned(), client_secret: secret, auth_method });
    }
    if let Some(url) = hub.client_metadata_url.as_ref().filter(|_| meta.client_id_metadata_document_supported) {
        return Ok(Registration { client_id: url.clone(), client_secret: None, auth_method: "none".into() });
    }
    if let Some(known) = hub.store.client(&meta.issuer, redirect) {
        return Ok(known);
    }
    let Some(endpoint) = &meta.registration_endpoint else {
        return Err(Failure::new(
            "registration",
            "the authorization server offers no registration: configure a client id (--client-id, or \"oauth\": {\"clientId\": …} in the mcpServers file)",
        ));
    };
    let supported = &meta.token_endpoint_auth_methods_supported;
    let wanted = if supported.is_empty() || supported.iter().any(|m| m == "none") {
        "none".to_owned()
    } else {
        method_with_secret(true, meta)
    };
    let body = json!({
        "client_name": CLIENT_NAME,
        "redirect_uris": [redirect],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": wanted,
        "application_type": "native",
        "software_id": "mcp-playground",
        "software_version": env!("CARGO_PKG_VERSION"),
    });
    let answer = x.post_json("registration", endpoint, &body).await.map_err(|e| Failure::new("registration", e))?;
    if !answer.ok() {
        return Err(Failure::new(
            "registration",
            format!(
                "the authorization server refused to register the playground (HTTP {}){}",
                answer.status,
                said(&answer.body)
            ),
        ));
    }
    let v = answer.json().unwrap_or_default();
    let Some(id) = v["client_id"].as_str().filter(|s| !s.is_empty()) else {
        return Err(Failure::new("registration", "the registration's answer names no client_id"));
    };
    let secret = v["client_secret"].as_str().filter(|s| !s.is_empty()).map(str::to_owned);
    let auth_method = match v["token_endpoint_auth_method"].as_str() {
        Some(m) if m == "none" || secret.is_some() => m.to_owned(),
        _ => method_with_secret(secret.is_some(), meta),
    };
    let registration = Registration { client_id: id.to_owned(), client_secret: secret, auth_method };
    hub.store.put_client(&meta.issuer, redirect, registration.clone());
    Ok(registration)
}

/// An OAuth error answer's words, for a message: `: invalid_client (the client is unknown)`.
pub(super) fn said(body: &str) -> String {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(body) else { return String::new() };
    match (v["error"].as_str(), v["error_description"].as_str()) {
        (Some(e), Some(d)) => format!(": {e} ({d})"),
        (Some(e), None) => format!(": {e}"),
        _ => String::new(),
    }
}
