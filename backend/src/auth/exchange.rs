//! The HTTP requests of the OAuth flow, each told to the timeline as an [`AuthExchange`]
//! with its secrets masked: tokens, codes, the PKCE verifier, client secrets and
//! `Authorization` values never leave the relay.

use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::Value;
use shared::relay::{AuthExchange, RelayEvent};

use crate::upstream::{EventSender, UpstreamEvent, now_ms};

/// Keys whose values are secrets, in forms, JSON bodies and URL queries.
const SECRETS: &[&str] = &[
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "code",
    "code_verifier",
    "registration_access_token",
    "state",
    "assertion",
    "password",
];
/// How much of a response body is read (metadata and token answers are small).
const MAX_BODY: usize = 256 * 1024;
/// How much of a body the timeline shows.
const SHOWN: usize = 4096;
/// The longest one exchange may take.
const TIMEOUT: Duration = Duration::from_secs(30);
pub const MASK: &str = "••••";

/// An HTTP response of the flow: its status and body text.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }
}

/// Client authentication at the token endpoint with HTTP Basic (`client_secret_basic`).
#[derive(Debug, PartialEq, Eq)]
pub struct Basic<'a> {
    pub id: &'a str,
    pub secret: &'a str,
}

/// Why an exchange got no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExchangeError {
    #[error("could not reach it: {0}")]
    Unreachable(String),
    #[error("the answer broke off: {0}")]
    BrokeOff(String),
    #[error("the answer is over {} KB", MAX_BODY / 1024)]
    TooLarge,
}

/// An exchange that failed, with its request named (query values masked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{method} {url}: {error}")]
pub struct Failed {
    pub method: String,
    pub url: String,
    pub error: ExchangeError,
}

/// Runs the flow's requests and reports each.
#[derive(Clone)]
pub struct Exchanges {
    pub client: reqwest::Client,
    pub events: EventSender,
}

impl Exchanges {
    pub async fn get(&self, step: &str, url: &str) -> Result<Answer, Failed> {
        let req = self.client.get(url).header("accept", "application/json");
        self.run(step, "GET", url, req, String::new()).await
    }

    pub async fn post_json(&self, step: &str, url: &str, body: &Value) -> Result<Answer, Failed> {
        let text = body.to_string();
        let shown = mask_json(&text);
        let req = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json")
            .body(text);
        self.run(step, "POST", url, req, shown).await
    }

    pub async fn post_form(
        &self,
        step: &str,
        url: &str,
        fields: &[(&str, &str)],
        basic: Option<Basic<'_>>,
    ) -> Result<Answer, Failed> {
        let body = form(fields);
        let mut shown =
            form(&fields.iter().map(|(k, v)| (*k, if is_secret(k) { MASK } else { v })).collect::<Vec<_>>());
        let mut req = self
            .client
            .post(url)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(body);
        if let Some(b) = basic {
            // RFC 6749 §2.3.1: both parts form-encoded before Base64.
            let pair = format!("{}:{}", form_part(b.id), form_part(b.secret));
            let value = base64::engine::general_purpose::STANDARD.encode(pair);
            req = req.header("authorization", format!("Basic {value}"));
            shown = format!("Authorization: Basic {MASK}\n{shown}");
        }
        self.run(step, "POST", url, req, shown).await
    }

    async fn run(
        &self,
        step: &str,
        method: &str,
        url: &str,
        req: reqwest::RequestBuilder,
        request: String,
    ) -> Result<Answer, Failed> {
        let started = Instant::now();
        let result = read(req.timeout(TIMEOUT)).await;
        let (status, response) = match &result {
            Ok(a) => (Some(a.status), cut(&mask_json(&a.body))),
            Err(e) => (None, e.to_string()),
        };
        let exchange = AuthExchange {
            step: step.to_owned(),
            method: method.to_owned(),
            url: mask_url_query(url),
            status,
            request,
            response,
            ms: started.elapsed().as_millis() as u64,
        };
        self.tell(RelayEvent::AuthExchange { exchange }).await;
        result.map_err(|error| Failed { method: method.to_owned(), url: mask_url_query(url), error })
    }

    pub async fn tell(&self, event: RelayEvent) {
        let _ = self.events.send(UpstreamEvent::Relay { at_ms: now_ms(), event }).await;
    }
}

async fn read(req: reqwest::RequestBuilder) -> Result<Answer, ExchangeError> {
    let mut resp = req.send().await.map_err(|e| ExchangeError::Unreachable(e.without_url().to_string()))?;
    let status = resp.status().as_u16();
    let mut bytes = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(|e| ExchangeError::BrokeOff(e.without_url().to_string()))? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_BODY {
            return Err(ExchangeError::TooLarge);
        }
    }
    Ok(Answer { status, body: String::from_utf8_lossy(&bytes).into_owned() })
}

fn is_secret(key: &str) -> bool {
    SECRETS.contains(&key)
}

fn form(fields: &[(&str, &str)]) -> String {
    let mut s = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in fields {
        s.append_pair(k, v);
    }
    s.finish()
}

fn form_part(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// A JSON body with every secret value masked (at any depth); text that is not JSON is
/// shown as it is, since nothing was found in it to mask by name.
pub fn mask_json(text: &str) -> String {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if is_secret(k) && !v.is_null() {
                        *v = Value::String(MASK.into());
                    } else {
                        walk(v);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    match serde_json::from_str::<Value>(text) {
        Ok(mut v) => {
            walk(&mut v);
            v.to_string()
        }
        Err(_) => text.to_owned(),
    }
}

/// A URL with the values of its secret query parameters masked.
pub fn mask_url_query(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else { return url.to_owned() };
    if parsed.query().is_none() {
        return url.to_owned();
    }
    let pairs: Vec<(String, String)> = parsed
        .query_pairs()
        .map(|(k, v)| {
            let v = if is_secret(&k) { MASK.to_owned() } else { v.into_owned() };
            (k.into_owned(), v)
        })
        .collect();
    parsed.query_pairs_mut().clear().extend_pairs(pairs);
    parsed.to_string()
}

fn cut(s: &str) -> String {
    if s.len() <= SHOWN {
        return s.to_owned();
    }
    let mut end = SHOWN;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &s[..end], s.len())
}
