//! What each part of a tool result becomes on the page: a render model that is plain data,
//! tested natively, so the page only draws it. Nothing here is HTML: text stays text, and
//! only links with safe schemes are offered as links.

pub mod download;
pub mod markdown;
pub mod media;
pub mod output;
pub mod terminal;

use serde_json::Value;

use crate::mcp::{Content, ResourceContents};
use media::{MediaInfo, MediaKind, inspect};

/// Text longer than this is previewed, with "show all" and a download.
pub const LONG_TEXT_BYTES: usize = 100 * 1024;

/// Small labels from a content item's `annotations`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Badges {
    pub audience: Vec<String>,
    pub priority: Option<f64>,
    pub last_modified: Option<String>,
}

impl Badges {
    pub fn read(annotations: Option<&Value>) -> Self {
        let Some(a) = annotations else { return Self::default() };
        Self {
            audience: a["audience"]
                .as_array()
                .map(|v| v.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
            priority: a["priority"].as_f64(),
            last_modified: a["lastModified"].as_str().map(str::to_owned),
        }
    }

    /// The labels, in a fixed order.
    pub fn labels(&self) -> Vec<String> {
        let mut out: Vec<String> = self.audience.iter().map(|a| format!("for {a}")).collect();
        if let Some(p) = self.priority {
            out.push(format!("priority {p}"));
        }
        if let Some(m) = &self.last_modified {
            out.push(format!("modified {m}"));
        }
        out
    }
}

/// How a text is best shown.
#[derive(Debug, Clone, PartialEq)]
pub struct TextView {
    pub text: String,
    /// The text parsed, when it is a JSON object or array (shown pretty and foldable).
    pub json: Option<Value>,
    /// Whether the text is over [`LONG_TEXT_BYTES`] (a preview is shown first).
    pub long: bool,
    /// Whether it looks like Markdown (offered as a view, never forced).
    pub looks_like_markdown: bool,
}

impl TextView {
    pub fn new(text: String) -> Self {
        let trimmed = text.trim_start();
        let json = if trimmed.starts_with('{') || trimmed.starts_with('[') {
            serde_json::from_str::<Value>(&text).ok().filter(|v| v.is_object() || v.is_array())
        } else {
            None
        };
        let looks_like_markdown = json.is_none()
            && text.lines().take(200).any(|l| {
                let l = l.trim_start();
                l.starts_with("# ")
                    || l.starts_with("## ")
                    || l.starts_with("```")
                    || l.starts_with("- ")
                    || l.starts_with("* ")
            });
        let long = text.len() > LONG_TEXT_BYTES;
        Self { text, json, long, looks_like_markdown }
    }

    /// The first [`LONG_TEXT_BYTES`] at a character boundary.
    pub fn preview(&self) -> &str {
        if !self.long {
            return &self.text;
        }
        let mut end = LONG_TEXT_BYTES;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        &self.text[..end]
    }
}

/// A link a person may follow: only `http`, `https` and `mailto`.
pub fn safe_href(uri: &str) -> Option<String> {
    let lower = uri.trim().to_ascii_lowercase();
    ["http://", "https://", "mailto:"].iter().any(|s| lower.starts_with(s)).then(|| uri.trim().to_owned())
}

/// The contents of a resource, embedded or read.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    Text(TextView),
    /// Base64 contents that can be shown as an image or played as audio.
    Media {
        kind: MediaKind,
        info: MediaInfo,
        data: String,
    },
    /// Other binary contents: offered as a download.
    Download {
        info: MediaInfo,
        data: String,
    },
    Empty,
}

impl Body {
    pub fn of(contents: &ResourceContents) -> Body {
        let mime = contents.mime_type.clone().unwrap_or_default();
        match (&contents.text, &contents.blob) {
            (Some(text), _) => Body::Text(TextView::new(text.clone())),
            (None, Some(blob)) => {
                let kind = if mime.starts_with("image/") {
                    Some(MediaKind::Image)
                } else if mime.starts_with("audio/") {
                    Some(MediaKind::Audio)
                } else {
                    None
                };
                let textual = mime.starts_with("text/") || mime.ends_with("json") || mime.ends_with("+xml");
                let decoded_text = || {
                    use base64::Engine;
                    let bytes = base64::engine::general_purpose::STANDARD.decode(blob.trim()).ok()?;
                    String::from_utf8(bytes).ok()
                };
                match kind {
                    Some(kind) => Body::Media { kind, info: inspect(kind, &mime, blob), data: blob.clone() },
                    // A text blob is text: show it, when it decodes as UTF-8.
                    None if textual && let Some(text) = decoded_text() => Body::Text(TextView::new(text)),
                    None => {
                        let bytes = media::decoded_len(blob);
                        let info = MediaInfo {
                            mime: mime.clone(),
                            bytes: bytes.unwrap_or(0),
                            notice: bytes.is_none().then(|| "the blob is not valid base64".to_owned()),
                            playable: false,
                        };
                        Body::Download { info, data: blob.clone() }
                    }
                }
            }
            (None, None) => Body::Empty,
        }
    }
}

/// One content item, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemView {
    Text(TextView),
    Media { kind: MediaKind, info: MediaInfo, data: String },
    Link(LinkView),
    Resource { uri: String, mime: Option<String>, body: Body },
    Unknown(Value),
}

/// A resource link card.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkView {
    pub uri: String,
    /// Only for safe schemes: otherwise the URI is shown as text.
    pub href: Option<String>,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime: Option<String>,
    pub size: Option<u64>,
}

/// A content item with its `data-content-type` and badges.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub content_type: &'static str,
    pub badges: Badges,
    pub view: ItemView,
}

impl Item {
    pub fn of(content: &Content) -> Item {
        let annotations = |extra: &serde_json::Map<String, Value>| Badges::read(extra.get("annotations"));
        let (badges, view) = match content {
            Content::Text(t) => (annotations(&t.extra), ItemView::Text(TextView::new(t.text.clone()))),
            Content::Image(m) => (
                annotations(&m.extra),
                ItemView::Media {
                    kind: MediaKind::Image,
                    info: inspect(MediaKind::Image, &m.mime_type, &m.data),
                    data: m.data.clone(),
                },
            ),
            Content::Audio(m) => (
                annotations(&m.extra),
                ItemView::Media {
                    kind: MediaKind::Audio,
                    info: inspect(MediaKind::Audio, &m.mime_type, &m.data),
                    data: m.data.clone(),
                },
            ),
            Content::ResourceLink(r) => (
                annotations(&r.extra),
                ItemView::Link(LinkView {
                    uri: r.uri.clone(),
                    href: safe_href(&r.uri),
                    name: r.name.clone(),
                    title: r.title.clone(),
                    description: r.description.clone(),
                    mime: r.mime_type.clone(),
                    size: r.size,
                }),
            ),
            Content::Resource(r) => (
                annotations(&r.extra),
                ItemView::Resource {
                    uri: r.resource.uri.clone(),
                    mime: r.resource.mime_type.clone(),
                    body: Body::of(&r.resource),
                },
            ),
            Content::Unknown(v) => (Badges::read(v.get("annotations")), ItemView::Unknown(v.clone())),
        };
        Item { content_type: content.type_name(), badges, view }
    }
}

#[cfg(test)]
mod tests;
