//! What a server offers beside its tools: resources, resource templates and prompts, and
//! what `prompts/get` gives. Read tolerantly like the rest of [`crate::mcp`]: unknown
//! members stay in `extra`, and an item that cannot be read is left out with a reason.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Content, ResourceContents};

/// An icon a server names for a tool, resource or prompt (2025-11-25).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    pub src: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

impl Icon {
    /// The icon to show at about `px` pixels in a `dark` or light theme: `data:` images
    /// (shown as they are), and with `fetched` `http(s)` ones too (the relay fetches them);
    /// of the theme when one says so, the smallest size at least `px` (else the largest),
    /// `any` counting as fitting every size. At a tie, a `data:` image (nothing to fetch).
    pub fn pick(icons: &[Icon], dark: bool, px: u32, fetched: bool) -> Option<&Icon> {
        let theme = if dark { "dark" } else { "light" };
        let usable = icons.iter().filter(|i| i.is_data() || (fetched && i.is_web()));
        let themed: Vec<&Icon> = usable.filter(|i| i.theme.as_deref().is_none_or(|t| t == theme)).collect();
        // How well a size fits: any size first, then the smallest that is big enough.
        let fit = |i: &Icon| -> (u8, u32) {
            let sizes: Vec<u32> = i.sizes.iter().filter_map(|s| s.split('x').next()?.parse().ok()).collect();
            if i.sizes.iter().any(|s| s == "any") || sizes.is_empty() {
                return (1, 0);
            }
            match sizes.iter().filter(|s| **s >= px).min() {
                Some(s) => (0, *s),
                None => (2, u32::MAX - sizes.iter().max().copied().unwrap_or(0)),
            }
        };
        // A themed icon beats one for either theme.
        themed.into_iter().min_by_key(|i| (i.theme.is_none(), fit(i), !i.is_data()))
    }

    /// An image in the `src` itself.
    pub fn is_data(&self) -> bool {
        self.src.starts_with("data:image/")
    }

    /// An image at an `http(s)` address.
    pub fn is_web(&self) -> bool {
        self.src.starts_with("https://") || self.src.starts_with("http://")
    }

    /// The icons a tool, resource or prompt declares (tolerantly: one that cannot be read
    /// is left out).
    pub fn read_all(value: Option<&Value>) -> Vec<Icon> {
        let Some(Value::Array(items)) = value else { return Vec::new() };
        items.iter().filter_map(|i| serde_json::from_value(i.clone()).ok()).collect()
    }
}

/// `annotations` of a resource or a content item: who it is for, how much it matters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// A short line a person reads: `for user · priority 0.8 · modified 2025-01-12`.
    pub fn summary(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.audience.is_empty() {
            parts.push(format!("for {}", self.audience.join(", ")));
        }
        if let Some(p) = self.priority {
            parts.push(format!("priority {p}"));
        }
        if let Some(m) = &self.last_modified {
            parts.push(format!("modified {m}"));
        }
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// A resource of `resources/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
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
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub annotations: Option<Annotations>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient_list")]
    pub icons: Vec<Icon>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A template of `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    pub uri_template: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub annotations: Option<Annotations>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient_list")]
    pub icons: Vec<Icon>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A prompt of `prompts/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgument>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "lenient_list")]
    pub icons: Vec<Icon>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
}

/// The result of `prompts/get`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub messages: Vec<PromptMessage>,
}

/// One message of a prompt: a role and one content item (any type, embedded resources too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    #[serde(default)]
    pub role: String,
    pub content: Content,
}

/// The result of `resources/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    #[serde(default)]
    pub contents: Vec<ResourceContents>,
}

/// A name a person reads: the title, else the name (else what identifies it).
pub fn display_name<'a>(title: Option<&'a str>, name: &'a str, id: &'a str) -> &'a str {
    title.filter(|t| !t.is_empty()).or(Some(name).filter(|n| !n.is_empty())).unwrap_or(id)
}

/// Whether every word of `filter` is somewhere in `fields`, in any case.
pub fn matches_words(filter: &str, fields: &[Option<&str>]) -> bool {
    let text = fields.iter().flatten().copied().collect::<Vec<_>>().join("\n").to_lowercase();
    filter.split_whitespace().all(|word| text.contains(&word.to_lowercase()))
}

impl Resource {
    pub fn display_name(&self) -> &str {
        display_name(self.title.as_deref(), &self.name, &self.uri)
    }
    pub fn matches(&self, filter: &str) -> bool {
        let fields = [Some(self.uri.as_str()), Some(&self.name), self.title.as_deref(), self.description.as_deref()];
        matches_words(filter, &fields)
    }
}

impl ResourceTemplate {
    pub fn display_name(&self) -> &str {
        display_name(self.title.as_deref(), &self.name, &self.uri_template)
    }
    pub fn matches(&self, filter: &str) -> bool {
        let fields =
            [Some(self.uri_template.as_str()), Some(&self.name), self.title.as_deref(), self.description.as_deref()];
        matches_words(filter, &fields)
    }
}

impl Prompt {
    pub fn display_name(&self) -> &str {
        display_name(self.title.as_deref(), &self.name, &self.name)
    }

    /// The required arguments `values` leaves out or empty.
    pub fn missing(&self, values: &std::collections::BTreeMap<String, String>) -> Vec<String> {
        let filled = |name: &str| values.get(name).is_some_and(|v| !v.is_empty());
        self.arguments.iter().filter(|a| a.required && !filled(&a.name)).map(|a| a.name.clone()).collect()
    }

    /// The arguments in `values` this prompt does not take.
    pub fn unknown<'a>(&self, values: &'a std::collections::BTreeMap<String, String>) -> Vec<&'a str> {
        values.keys().filter(|k| !self.arguments.iter().any(|a| &a.name == *k)).map(String::as_str).collect()
    }
}

/// A member that cannot be read is left out rather than losing the whole item.
fn lenient<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// A list whose unreadable entries are left out.
fn lenient_list<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(d: D) -> Result<Vec<T>, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(value.as_array().into_iter().flatten().filter_map(|v| serde_json::from_value(v.clone()).ok()).collect())
}
