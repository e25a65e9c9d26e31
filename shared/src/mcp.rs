//! The MCP types the page reads: server identity, tools and call results.
//!
//! Readers are tolerant: unknown members are kept in `extra`, unknown content types become
//! [`Content::Unknown`] with their JSON intact, and a round trip gives back what came in.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

pub mod catalog;

/// `Implementation`: a client's or server's name and version.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    #[serde(default)]
    pub protocol_version: String,
    #[serde(default)]
    pub capabilities: Map<String, Value>,
    #[serde(default)]
    pub server_info: Implementation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Behaviour hints a server gives about a tool. Untrusted: a hint, never a guarantee.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A badge derived from a tool's annotations, with the spec's defaults applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Badge {
    ReadOnly,
    Destructive,
    Idempotent,
    OpenWorld,
}

impl Badge {
    pub fn label(self) -> &'static str {
        match self {
            Badge::ReadOnly => "read-only",
            Badge::Destructive => "destructive",
            Badge::Idempotent => "idempotent",
            Badge::OpenWorld => "open-world",
        }
    }
}

impl ToolAnnotations {
    /// Badges a person should see. Only hints the server states are shown; defaults
    /// (destructive, open-world) are not claimed for tools that say nothing.
    pub fn stated_badges(&self) -> Vec<Badge> {
        let mut out = Vec::new();
        if self.read_only_hint == Some(true) {
            out.push(Badge::ReadOnly);
        }
        // destructiveHint only means something when the tool is not read-only.
        if self.read_only_hint != Some(true) && self.destructive_hint == Some(true) {
            out.push(Badge::Destructive);
        }
        if self.idempotent_hint == Some(true) {
            out.push(Badge::Idempotent);
        }
        if self.open_world_hint == Some(true) {
            out.push(Badge::OpenWorld);
        }
        out
    }
}

/// A tool definition from `tools/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub input_schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Tool {
    /// The name a person reads: `title`, then `annotations.title`, then `name`.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }

    /// The icons it declares (2025-11-25).
    pub fn icons(&self) -> Vec<catalog::Icon> {
        catalog::Icon::read_all(self.extra.get("icons"))
    }

    /// Whether the tool matches a filter typed by a person: every word of it, in any order,
    /// somewhere in the name, the title or the description (`slack arch` finds
    /// `slack_archive_channel`), in any case.
    pub fn matches(&self, filter: &str) -> bool {
        catalog::matches_words(filter, &[Some(self.name.as_str()), self.title.as_deref(), self.description.as_deref()])
    }
}

/// The result of `tools/list`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    #[serde(default)]
    pub tools: Vec<Tool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `tools/call`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    #[serde(default)]
    pub content: Vec<Content>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// The early-draft result field (see the 2024 drafts): rendered with a "legacy" label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_result: Option<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One content item: a typed view for the known types, the JSON itself for the rest.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    Text(TextContent),
    Image(MediaContent),
    Audio(MediaContent),
    ResourceLink(ResourceLink),
    Resource(EmbeddedResource),
    /// A type this version does not know, or a known type whose members are malformed.
    Unknown(Value),
}

impl Content {
    /// The value of `data-content-type` for this item.
    pub fn type_name(&self) -> &'static str {
        match self {
            Content::Text(_) => "text",
            Content::Image(_) => "image",
            Content::Audio(_) => "audio",
            Content::ResourceLink(_) => "resource_link",
            Content::Resource(_) => "resource",
            Content::Unknown(_) => "unknown",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    pub text: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Image or audio: base64 data and a mime type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaContent {
    pub data: String,
    #[serde(default)]
    pub mime_type: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    pub uri: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    pub resource: ResourceContents,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Text or blob contents of a resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceContents {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Content::from_value(Value::deserialize(d)?))
    }
}

impl Content {
    /// Reads a content item; anything unexpected becomes [`Content::Unknown`], never an error.
    pub fn from_value(value: Value) -> Content {
        fn typed<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
            let mut v = v.clone();
            v.as_object_mut()?.remove("type");
            serde_json::from_value(v).ok()
        }
        let parsed = match value.get("type").and_then(Value::as_str) {
            Some("text") => typed(&value).map(Content::Text),
            Some("image") => typed(&value).map(Content::Image),
            Some("audio") => typed(&value).map(Content::Audio),
            Some("resource_link") => typed(&value).map(Content::ResourceLink),
            Some("resource") => typed(&value).map(Content::Resource),
            _ => None,
        };
        parsed.unwrap_or(Content::Unknown(value))
    }

    /// The JSON of this item, with its `type` tag first.
    pub fn to_value(&self) -> Value {
        fn tagged<T: Serialize>(tag: &str, t: &T) -> Value {
            let mut obj = Map::new();
            obj.insert("type".into(), Value::String(tag.into()));
            if let Ok(Value::Object(rest)) = serde_json::to_value(t) {
                obj.extend(rest);
            }
            Value::Object(obj)
        }
        match self {
            Content::Text(t) => tagged("text", t),
            Content::Image(m) => tagged("image", m),
            Content::Audio(m) => tagged("audio", m),
            Content::ResourceLink(r) => tagged("resource_link", r),
            Content::Resource(r) => tagged("resource", r),
            Content::Unknown(v) => v.clone(),
        }
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(s)
    }
}

#[cfg(test)]
mod tests;
