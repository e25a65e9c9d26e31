//! Finding the authorization server: the protected resource metadata (RFC 9728) and the
//! authorization server metadata (RFC 8414, or OpenID discovery), at the well-known URLs in
//! the order the MCP spec gives. Identifiers are kept as the server wrote them: a `resource`
//! or an `issuer` is compared and sent back as a string, never re-serialized (a URL parser
//! would add a `/` to `http://host:1`, and the comparison would fail).

use serde_json::Value;

/// What the MCP server says of itself as a protected resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceMeta {
    /// The resource identifier, exactly as published.
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Vec<String>,
}

/// What an authorization server says of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMeta {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Vec<String>,
    pub token_endpoint_auth_methods_supported: Vec<String>,
    /// None when the metadata does not say (then PKCE support is unknown).
    pub code_challenge_methods_supported: Option<Vec<String>>,
    /// RFC 9207: the authorization response carries `iss`.
    pub iss_parameter_supported: bool,
    /// Client ID Metadata Documents are accepted as client ids.
    pub client_id_metadata_document_supported: bool,
}

/// Why a metadata document cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetaError {
    #[error("it is not JSON ({0})")]
    NotJson(String),
    #[error("it names no `{0}`")]
    Missing(&'static str),
}

/// Why a URL of the sign-in cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    #[error("{url:?} is not a URL ({reason})")]
    NotUrl { url: String, reason: String },
    #[error("{0:?} is not an http(s) URL")]
    NotHttp(String),
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

impl ResourceMeta {
    /// Reads a protected resource metadata document.
    pub fn read(text: &str) -> Result<Self, MetaError> {
        let v: Value = serde_json::from_str(text).map_err(|e| MetaError::NotJson(e.to_string()))?;
        let resource = v["resource"].as_str().ok_or(MetaError::Missing("resource"))?.to_owned();
        Ok(Self {
            resource,
            authorization_servers: strings(&v["authorization_servers"]),
            scopes_supported: strings(&v["scopes_supported"]),
        })
    }
}

impl ServerMeta {
    /// Reads an authorization server metadata document.
    pub fn read(text: &str) -> Result<Self, MetaError> {
        let v: Value = serde_json::from_str(text).map_err(|e| MetaError::NotJson(e.to_string()))?;
        let need = |key: &'static str| v[key].as_str().map(str::to_owned).ok_or(MetaError::Missing(key));
        Ok(Self {
            issuer: need("issuer")?,
            authorization_endpoint: need("authorization_endpoint")?,
            token_endpoint: need("token_endpoint")?,
            registration_endpoint: v["registration_endpoint"].as_str().map(str::to_owned),
            scopes_supported: strings(&v["scopes_supported"]),
            token_endpoint_auth_methods_supported: strings(&v["token_endpoint_auth_methods_supported"]),
            code_challenge_methods_supported: v
                .get("code_challenge_methods_supported")
                .filter(|m| !m.is_null())
                .map(strings),
            iss_parameter_supported: v["authorization_response_iss_parameter_supported"] == Value::Bool(true),
            client_id_metadata_document_supported: v["client_id_metadata_document_supported"] == Value::Bool(true),
        })
    }
}

/// `scheme://host[:port]` and the path without its trailing `/`.
fn split(url: &str) -> Result<(String, String), UrlError> {
    let parsed = url::Url::parse(url).map_err(|e| UrlError::NotUrl { url: url.to_owned(), reason: e.to_string() })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(UrlError::NotHttp(url.to_owned()));
    }
    Ok((parsed.origin().ascii_serialization(), parsed.path().trim_end_matches('/').to_owned()))
}

/// Where the protected resource metadata of the MCP server at `server` may be, in order:
/// the path-based location first, then the root.
pub fn resource_meta_urls(server: &str) -> Result<Vec<String>, UrlError> {
    let (origin, path) = split(server)?;
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    Ok(if path.is_empty() { vec![root] } else { vec![format!("{root}{path}"), root] })
}

/// Where the metadata of the authorization server `issuer` may be, in the MCP spec's order:
/// RFC 8414 then OpenID Connect, path inserted after the well-known prefix, then (OpenID
/// only) appended to the issuer.
pub fn server_meta_urls(issuer: &str) -> Result<Vec<String>, UrlError> {
    let (origin, path) = split(issuer)?;
    Ok(if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    })
}

/// Whether the resource identifier `resource` names the MCP server at `server` (RFC 9728
/// §3.3): the same origin, and the server's path at or under the resource's.
pub fn resource_covers(resource: &str, server: &str) -> bool {
    let (Ok((r_origin, r_path)), Ok((s_origin, s_path))) = (split(resource), split(server)) else { return false };
    r_origin == s_origin && (r_path.is_empty() || s_path == r_path || s_path.starts_with(&format!("{r_path}/")))
}

/// The origin of a URL, for the 2025-03-26 fall back.
pub fn origin(url: &str) -> Result<String, UrlError> {
    split(url).map(|(o, _)| o)
}
