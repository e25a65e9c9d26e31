//! The `http(s)` icons the page shows (2025-11-25 `icons`): fetched by the relay, since the
//! page's CSP lets it load no image from elsewhere. Only icons the connected server declared
//! in what it sent (tools, resources, prompts, its own info), `https` or `http` on this
//! machine, an image type, [`MAX_BYTES`] at most, within [`TIMEOUT`]; each answer kept for
//! the connection. The page gets a `data:` URL and shows it in an `<img>` only, SVG too.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use base64::Engine;
use serde_json::Value;
use shared::relay::{Direction, ServerMsg};
use tokio::task::JoinSet;

/// The largest icon fetched.
pub const MAX_BYTES: usize = 256 * 1024;
/// How long one fetch may take, connecting included.
pub const TIMEOUT: Duration = Duration::from_secs(5);
/// Icons remembered as declared per connection (a server cannot make the relay hold more).
const MAX_DECLARED: usize = 4096;
/// The image types shown; anything else is refused.
const IMAGE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/avif",
    "image/bmp",
    "image/svg+xml",
    "image/x-icon",
    "image/vnd.microsoft.icon",
];

/// What one fetch came to: the `data:` URL, or why not.
type Outcome = Result<String, String>;

/// One socket's icons.
pub struct Icons {
    client: reqwest::Client,
    declared: HashSet<String>,
    done: HashMap<String, Outcome>,
    running: JoinSet<(String, Outcome)>,
    fetching: HashSet<String>,
}

impl Default for Icons {
    fn default() -> Self {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::limited(3))
            .no_proxy()
            .build()
            .unwrap_or_default();
        Self {
            client,
            declared: HashSet::new(),
            done: HashMap::new(),
            running: JoinSet::new(),
            fetching: HashSet::new(),
        }
    }
}

impl Icons {
    /// A new connection: what the last one declared and fetched is forgotten.
    pub fn forget(&mut self) {
        self.declared.clear();
        self.done.clear();
        self.fetching.clear();
        self.running.abort_all();
    }

    /// Notes the icons a message from the server declares.
    pub fn learn(&mut self, msg: &ServerMsg) {
        let ServerMsg::Message { direction: Direction::In, frame, .. } = msg else { return };
        if !frame.contains("\"icons\"") {
            return;
        }
        let Ok(value) = serde_json::from_str::<Value>(frame) else { return };
        let mut found = Vec::new();
        collect(&value, &mut found, 0);
        for src in found {
            if self.declared.len() < MAX_DECLARED {
                self.declared.insert(src);
            }
        }
    }

    /// The page asks for `src`: the answer now (known, or refused), or `None` while it is
    /// fetched.
    pub fn ask(&mut self, src: String) -> Option<ServerMsg> {
        if let Some(outcome) = self.done.get(&src) {
            return Some(answer(src.clone(), outcome.clone()));
        }
        if !self.declared.contains(&src) {
            return Some(answer(src, Err("the server declared no such icon".into())));
        }
        if let Err(why) = allowed(&src) {
            return Some(answer(src, Err(why)));
        }
        if self.fetching.insert(src.clone()) {
            let client = self.client.clone();
            self.running.spawn(async move {
                let outcome = fetch(&client, &src).await;
                (src, outcome)
            });
        }
        None
    }

    /// The next fetch to end, as the page's answer; pends while none runs.
    pub async fn next(&mut self) -> ServerMsg {
        loop {
            match self.running.join_next().await {
                Some(Ok((src, outcome))) => {
                    self.fetching.remove(&src);
                    self.done.insert(src.clone(), outcome.clone());
                    return answer(src, outcome);
                }
                // Aborted by a new connection: nothing to say.
                Some(Err(_)) => {}
                None => std::future::pending::<()>().await,
            }
        }
    }
}

fn answer(src: String, outcome: Outcome) -> ServerMsg {
    match outcome {
        Ok(data) => ServerMsg::Icon { src, data: Some(data), error: None },
        Err(e) => ServerMsg::Icon { src, data: None, error: Some(e) },
    }
}

/// Every `icons[].src` under `value` that names an `http(s)` URL.
fn collect(value: &Value, found: &mut Vec<String>, depth: usize) {
    if depth > 16 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "icons"
                    && let Value::Array(icons) = v
                {
                    let srcs = icons.iter().filter_map(|i| i.get("src")?.as_str());
                    found.extend(
                        srcs.filter(|s| s.starts_with("https://") || s.starts_with("http://")).map(str::to_owned),
                    );
                } else {
                    collect(v, found, depth + 1);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, found, depth + 1)),
        _ => {}
    }
}

/// `https` anywhere; `http` only on this machine (nothing else to trust on the way).
fn allowed(src: &str) -> Result<(), String> {
    let url = url::Url::parse(src).map_err(|e| format!("the icon's address cannot be read: {e}"))?;
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match url.scheme() {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err("only https icons, or http ones on this machine, are fetched".into()),
    }
}

/// Fetches one icon within the limits.
async fn fetch(client: &reqwest::Client, src: &str) -> Outcome {
    let mut response = client.get(src).send().await.map_err(|e| format!("the icon could not be fetched: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("the icon's server answered HTTP {}", response.status().as_u16()));
    }
    let mime = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase())
        .unwrap_or_default();
    let Some(mime) = IMAGE_TYPES.iter().find(|t| **t == mime) else {
        return Err(format!("the icon is {}, not an image", if mime.is_empty() { "of no type" } else { &mime }));
    };
    if response.content_length().is_some_and(|n| n > MAX_BYTES as u64) {
        return Err(format!("the icon is over {} KB", MAX_BYTES / 1024));
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| format!("the icon was cut short: {e}"))? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > MAX_BYTES {
            return Err(format!("the icon is over {} KB", MAX_BYTES / 1024));
        }
    }
    Ok(format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn from_server(frame: Value) -> ServerMsg {
        ServerMsg::Message { direction: Direction::In, at_ms: 0.0, size: 0, frame: frame.to_string() }
    }

    #[tokio::test]
    async fn only_icons_the_server_declared_and_may_be_fetched_are_asked_for() {
        let mut icons = Icons::default();
        icons.learn(&from_server(json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "a", "icons": [{"src": "https://example.com/a.png"}, {"src": "data:image/png;base64,AA=="}]},
            {"name": "b", "icons": [{"src": "http://example.com/b.png"}]},
        ]}})));
        // The page's own frames declare nothing.
        let out =
            json!({"jsonrpc": "2.0", "method": "x", "params": {"icons": [{"src": "https://evil.example/x.png"}]}});
        icons.learn(&ServerMsg::Message { direction: Direction::Out, at_ms: 0.0, size: 0, frame: out.to_string() });
        let refused = |m: Option<ServerMsg>| match m {
            Some(ServerMsg::Icon { error: Some(e), data: None, .. }) => e,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(icons.ask("https://evil.example/x.png".into())), "the server declared no such icon");
        assert!(refused(icons.ask("http://example.com/b.png".into())).starts_with("only https icons"));
        assert!(icons.ask("https://example.com/a.png".into()).is_none(), "fetched");
        icons.forget();
        assert_eq!(refused(icons.ask("https://example.com/a.png".into())), "the server declared no such icon");
    }

    #[test]
    fn loopback_http_is_allowed_and_other_schemes_are_not() {
        assert!(allowed("http://127.0.0.1:8000/i.png").is_ok());
        assert!(allowed("http://localhost/i.png").is_ok());
        assert!(allowed("http://[::1]/i.png").is_ok());
        assert!(allowed("https://example.com/i.png").is_ok());
        assert!(allowed("http://10.0.0.1/i.png").is_err());
        assert!(allowed("file:///etc/passwd").is_err());
        assert!(allowed("not a url").is_err());
    }
}
