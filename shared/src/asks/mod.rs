//! What a server asks of its client: `elicitation/create` (a form or a URL for the user),
//! `sampling/createMessage` (a model's reply, typed here by a person) and `roots/list`.
//! Plain data read tolerantly from the request, and the exact answers the spec asks for;
//! the session queues them, the page and the command line answer them.

mod roots;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value, json};

use crate::jsonrpc::{self, Id};
use crate::revision::Revision;

pub use roots::{parse_roots, roots_result};

/// The JSON-RPC error code of a sampling request the user turned down, as the SDKs send it.
pub const USER_REJECTED: i64 = -1;

/// The model name a reply typed by a person carries.
pub const HUMAN_MODEL: &str = "mcp-playground-user";

/// The client capabilities declared in `initialize` for a revision: elicitation exists
/// from 2025-06-18, and its form and url modes are named from 2025-11-25 (an empty object
/// there means form only, so both are spelled out); MCP Apps in every revision, as its
/// specification declares it. An unknown revision gets the newest.
pub fn capabilities(revision: Option<Revision>) -> Value {
    let mut caps = json!({"roots": {"listChanged": true}, "sampling": {}, "extensions": crate::apps::capability()});
    match revision {
        // Stateless: nothing is sent unasked, so roots have no `listChanged` to promise.
        Some(Revision::V2026_07_28) => {
            caps["roots"] = json!({});
            caps["elicitation"] = json!({"form": {}, "url": {}});
            // Tasks are an extension at this revision: a call may be answered with one.
            caps["extensions"][crate::tasks::EXTENSION] = json!({});
        }
        Some(r) if r < Revision::V2025_06_18 => {}
        Some(Revision::V2025_06_18) => caps["elicitation"] = json!({}),
        _ => caps["elicitation"] = json!({"form": {}, "url": {}}),
    }
    caps
}

/// One request of the server waiting for a person's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerAsk {
    /// The request's own id: the answer carries it back.
    pub id: Id,
    pub kind: AskKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AskKind {
    Elicit(Elicitation),
    Sample(SamplingRequest),
}

/// `elicitation/create`: a form to fill in, or a URL to visit (2025-11-25).
#[derive(Debug, Clone, PartialEq)]
pub enum Elicitation {
    Form { message: String, schema: Value },
    Url { message: String, url: String, elicitation_id: Option<String> },
}

/// `sampling/createMessage`, as much as a person needs to see to answer it.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    pub messages: Vec<SamplingMessage>,
    pub system_prompt: Option<String>,
    pub model_preferences: Option<Value>,
    /// Tools offered to the model (2025-11-25), as the server wrote them.
    pub tools: Vec<Value>,
    pub max_tokens: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SamplingMessage {
    pub role: String,
    /// Text content as text; anything else (images, tool uses) as its JSON.
    pub text: String,
}

impl SamplingRequest {
    /// The names of the tools offered to the model, in order ("(unnamed)" for one without).
    pub fn tool_names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t["name"].as_str().unwrap_or("(unnamed)").to_owned()).collect()
    }
}

/// A person's answer to an elicitation.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitAnswer {
    /// Form mode: the content (defaults are filled in); URL mode: `Value::Null`.
    Accept(Value),
    Decline,
    Cancel,
}

/// A person's answer to a sampling request.
#[derive(Debug, Clone, PartialEq)]
pub enum SampleAnswer {
    Reply(String),
    Decline,
}

impl ServerAsk {
    /// Reads a server request of a method this module answers; `None` for other methods.
    pub fn read(id: &Id, method: &str, params: &Value) -> Option<ServerAsk> {
        let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
        let kind = match method {
            "elicitation/create" => AskKind::Elicit(match params["mode"].as_str() {
                Some("url") => Elicitation::Url {
                    message: text("message"),
                    url: text("url"),
                    elicitation_id: params["elicitationId"].as_str().map(str::to_owned),
                },
                _ => Elicitation::Form { message: text("message"), schema: params["requestedSchema"].clone() },
            }),
            "sampling/createMessage" => AskKind::Sample(SamplingRequest {
                messages: params["messages"].as_array().map(|m| m.iter().map(message).collect()).unwrap_or_default(),
                system_prompt: params["systemPrompt"].as_str().map(str::to_owned),
                model_preferences: Some(params["modelPreferences"].clone()).filter(|v| !v.is_null()),
                tools: params["tools"].as_array().cloned().unwrap_or_default(),
                max_tokens: params["maxTokens"].as_u64(),
            }),
            _ => return None,
        };
        Some(ServerAsk { id: id.clone(), kind })
    }

    /// What the command line and notices call it.
    pub fn what(&self) -> &'static str {
        match &self.kind {
            AskKind::Elicit(Elicitation::Form { .. }) => "information (elicitation/create)",
            AskKind::Elicit(Elicitation::Url { .. }) => "a visit to a URL (elicitation/create)",
            AskKind::Sample(_) => "a model's reply (sampling/createMessage)",
        }
    }
}

fn message(m: &Value) -> SamplingMessage {
    let role = m["role"].as_str().unwrap_or("?").to_owned();
    // 2025-11-25 allows an array of content blocks.
    let blocks = match &m["content"] {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let text = blocks
        .iter()
        .map(|b| match (b["type"].as_str(), b["text"].as_str()) {
            (Some("text"), Some(t)) => t.to_owned(),
            _ => b.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    SamplingMessage { role, text }
}

/// The content a form starts with: each property's `default` (SEP-1034, 2025-11-25).
pub fn initial_content(schema: &Value) -> Value {
    with_defaults(schema, &Value::Object(Map::new()))
}

/// `content` with every property it leaves out that has a `default` in the schema filled
/// in (SEP-1034): an accepted form carries the values it showed, even untouched ones.
pub fn with_defaults(schema: &Value, content: &Value) -> Value {
    let mut out = content.as_object().cloned().unwrap_or_default();
    if let Some(props) = schema["properties"].as_object() {
        for (name, prop) in props {
            if let Some(d) = prop.get("default")
                && !out.contains_key(name)
            {
                out.insert(name.clone(), d.clone());
            }
        }
    }
    Value::Object(out)
}

/// The response frame to an elicitation.
pub fn elicit_response(id: &Id, answer: &ElicitAnswer) -> String {
    let result = match answer {
        ElicitAnswer::Accept(Value::Null) => json!({"action": "accept"}),
        ElicitAnswer::Accept(content) => json!({"action": "accept", "content": content}),
        ElicitAnswer::Decline => json!({"action": "decline"}),
        ElicitAnswer::Cancel => json!({"action": "cancel"}),
    };
    jsonrpc::response(id, result)
}

/// The response frame to a sampling request: the typed reply, or the error a turned-down
/// request gets.
pub fn sample_response(id: &Id, answer: &SampleAnswer) -> String {
    match answer {
        SampleAnswer::Reply(text) => jsonrpc::response(
            id,
            json!({
                "role": "assistant",
                "content": {"type": "text", "text": text},
                "model": HUMAN_MODEL,
                "stopReason": "endTurn",
            }),
        ),
        SampleAnswer::Decline => jsonrpc::error_response(id, USER_REJECTED, "User rejected sampling request"),
    }
}
