//! A view's resource as `resources/read` gives it, checked before anything renders it (the
//! `ui://` scheme, the MIME type, `text` or `blob`, a size limit), and the Content Security
//! Policy it runs under: built from what it declares, never looser, with the
//! specification's restrictive default when it declares nothing.

use base64::Engine as _;
use serde_json::{Value, json};

use super::MIME;

/// The largest view accepted, in bytes of HTML.
pub const MAX_RESOURCE_BYTES: usize = 4 * 1024 * 1024;

/// The origins a view declares it needs (`_meta.ui.csp`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Csp {
    pub connect: Vec<String>,
    pub resource: Vec<String>,
    pub frame: Vec<String>,
    pub base_uri: Vec<String>,
}

impl Csp {
    /// Reads a declared `csp` (`connectDomains`, `resourceDomains`, …): its origins, and
    /// what it lists that is no origin (left out).
    pub fn read(declared: &Value) -> (Csp, Vec<String>) {
        let mut refused = Vec::new();
        let mut list = |key: &str| origins(&declared[key], &mut refused);
        let csp = Csp {
            connect: list("connectDomains"),
            resource: list("resourceDomains"),
            frame: list("frameDomains"),
            base_uri: list("baseUriDomains"),
        };
        (csp, refused)
    }

    /// As the page passes it to the sandbox: the declared lists, in JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "connectDomains": self.connect, "resourceDomains": self.resource,
            "frameDomains": self.frame, "baseUriDomains": self.base_uri,
        })
    }
}

/// A view, ready to render.
#[derive(Debug, Clone, PartialEq)]
pub struct UiResource {
    pub uri: String,
    pub html: String,
    /// `None`: it declared no CSP (the restrictive default applies).
    pub csp: Option<Csp>,
    /// The browser features it asks for, by permission-policy name (`camera`, …).
    pub permissions: Vec<&'static str>,
    pub prefers_border: Option<bool>,
    /// Declared origins refused because they are not origins (kept out of the CSP).
    pub refused: Vec<String>,
}

/// Why a view cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UiResourceError {
    #[error("{0:?} is not a ui:// resource")]
    NotUi(String),
    #[error("the server sent no contents for {0}")]
    Empty(String),
    #[error("{uri} is {found:?}, not {MIME}")]
    Mime { uri: String, found: String },
    #[error("{0} has neither text nor blob")]
    NoContent(String),
    #[error("{0}'s blob is not base64 of UTF-8 HTML")]
    BadBlob(String),
    #[error("{uri} is {size} bytes, over the {MAX_RESOURCE_BYTES}-byte limit")]
    TooLarge { uri: String, size: usize },
}

impl UiResource {
    /// Reads the contents of `resources/read` for `uri` (the item of that URI, else the
    /// first).
    pub fn read(uri: &str, contents: &[Value]) -> Result<UiResource, UiResourceError> {
        if !uri.starts_with("ui://") {
            return Err(UiResourceError::NotUi(uri.to_owned()));
        }
        let item = contents
            .iter()
            .find(|c| c["uri"].as_str() == Some(uri))
            .or_else(|| contents.first())
            .ok_or_else(|| UiResourceError::Empty(uri.to_owned()))?;
        let mime = item["mimeType"].as_str().unwrap_or_default();
        if !is_view_mime(mime) {
            return Err(UiResourceError::Mime { uri: uri.to_owned(), found: mime.to_owned() });
        }
        let html = match (item["text"].as_str(), item["blob"].as_str()) {
            (Some(text), _) => text.to_owned(),
            (None, Some(blob)) => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(blob.trim())
                    .map_err(|_| UiResourceError::BadBlob(uri.to_owned()))?;
                String::from_utf8(bytes).map_err(|_| UiResourceError::BadBlob(uri.to_owned()))?
            }
            (None, None) => return Err(UiResourceError::NoContent(uri.to_owned())),
        };
        if html.len() > MAX_RESOURCE_BYTES {
            return Err(UiResourceError::TooLarge { uri: uri.to_owned(), size: html.len() });
        }
        let ui = &item["_meta"]["ui"];
        let mut refused = Vec::new();
        let csp = ui.get("csp").filter(|c| c.is_object()).map(|c| {
            let (csp, not_origins) = Csp::read(c);
            refused = not_origins;
            csp
        });
        let permissions = ["camera", "microphone", "geolocation", "clipboardWrite"]
            .into_iter()
            .filter(|p| ui["permissions"].get(*p).is_some_and(Value::is_object))
            .map(|p| if p == "clipboardWrite" { "clipboard-write" } else { p })
            .collect();
        Ok(UiResource {
            uri: uri.to_owned(),
            html,
            csp,
            permissions,
            prefers_border: ui["prefersBorder"].as_bool(),
            refused,
        })
    }

    /// What the sandbox proxy is sent with the HTML: the CSP and permissions it declared.
    pub fn sandbox_params(&self) -> Value {
        let mut params = json!({"html": self.html});
        if let Some(c) = &self.csp {
            params["csp"] = c.to_json();
        }
        let perms: serde_json::Map<String, Value> = self
            .permissions
            .iter()
            .map(|p| (if *p == "clipboard-write" { "clipboardWrite" } else { p }.to_owned(), json!({})))
            .collect();
        if !perms.is_empty() {
            params["permissions"] = Value::Object(perms);
        }
        params
    }
}

/// `text/html;profile=mcp-app`, however spaced or cased.
fn is_view_mime(mime: &str) -> bool {
    let canon: String = mime.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    canon == MIME
}

/// The declared origins that are origins: `https://host[:port]`, `wss://…`, a wildcard
/// subdomain `https://*.host`; anything else (a keyword, a `;`, a path) is refused.
fn origins(list: &Value, refused: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for item in list.as_array().into_iter().flatten() {
        let Some(s) = item.as_str() else { continue };
        if is_origin(s) {
            out.push(s.to_owned());
        } else {
            refused.push(s.to_owned());
        }
    }
    out
}

fn is_origin(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once("://") else { return false };
    if !matches!(scheme, "https" | "http" | "wss" | "ws") {
        return false;
    }
    let host = rest.strip_prefix("*.").unwrap_or(rest);
    let (host, port) = match host.rsplit_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (host, None),
    };
    let host_ok = !host.is_empty()
        && host.len() <= 253
        && host.split('.').all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    host_ok && port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.chars().all(|c| c.is_ascii_digit()))
}

/// The Content Security Policy a view runs under: the restrictive default of the
/// specification for a view that declares nothing; else its declared origins and nothing
/// more. Never looser: `object-src 'none'` always, no form posts, and `'self'` (the
/// sandbox's own origin, which serves nothing but the proxy) adds no reach.
pub fn csp_header(csp: Option<&Csp>) -> String {
    let join = |list: &[String]| list.join(" ");
    let with = |base: &str, extra: &[String]| {
        if extra.is_empty() { base.to_owned() } else { format!("{base} {}", join(extra)) }
    };
    let c = csp.cloned().unwrap_or_default();
    let connect = if csp.is_none() || c.connect.is_empty() { "'none'".to_owned() } else { join(&c.connect) };
    let frame = if c.frame.is_empty() { "'none'".to_owned() } else { join(&c.frame) };
    let base = if c.base_uri.is_empty() { "'self'".to_owned() } else { join(&c.base_uri) };
    [
        "default-src 'none'".to_owned(),
        format!("script-src {}", with("'self' 'unsafe-inline'", &c.resource)),
        format!("style-src {}", with("'self' 'unsafe-inline'", &c.resource)),
        format!("img-src {}", with("'self' data:", &c.resource)),
        format!("font-src {}", with("'self'", &c.resource)),
        format!("media-src {}", with("'self' data:", &c.resource)),
        format!("connect-src {connect}"),
        format!("frame-src {frame}"),
        "object-src 'none'".to_owned(),
        format!("base-uri {base}"),
        "form-action 'none'".to_owned(),
    ]
    .join("; ")
}

/// The inner frame's `allow` attribute: only what the view declared.
pub fn permissions_allow(permissions: &[&str]) -> String {
    permissions.join("; ")
}
