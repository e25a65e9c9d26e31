//! JSON-RPC 2.0 framing: what kind of message a raw frame is, and builders for the frames
//! the page sends. Classification is tolerant: it reads only what it needs and never fails
//! on unknown members, so a frame that breaks the spec is still shown.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// A JSON-RPC request id. Servers may use numbers or strings; both are kept as sent.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(untagged)]
pub enum Id {
    Number(i64),
    String(String),
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Number(n) => write!(f, "{n}"),
            Id::String(s) => write!(f, "\"{s}\""),
        }
    }
}

impl Id {
    fn from_value(v: &Value) -> Option<Id> {
        match v {
            Value::Number(n) => n.as_i64().map(Id::Number),
            Value::String(s) => Some(Id::String(s.clone())),
            _ => None,
        }
    }
}

/// The four shapes of a JSON-RPC message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Request,
    Notification,
    Response,
    Error,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Request => "request",
            Kind::Notification => "notification",
            Kind::Response => "response",
            Kind::Error => "error",
        }
    }
}

/// What a frame is, read off its members.
#[derive(Debug, Clone, PartialEq)]
pub struct Classified {
    pub kind: Kind,
    pub id: Option<Id>,
    pub method: Option<String>,
}

/// Why a frame is not a JSON-RPC message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("a JSON-RPC batch (array); batches are not supported")]
    Batch,
    #[error("not a JSON object")]
    NotObject,
    #[error("neither a request, a notification nor a response")]
    Unrecognised,
}

/// Parses and classifies a raw frame.
pub fn parse(raw: &str) -> Result<(Value, Classified), FrameError> {
    let value: Value = serde_json::from_str(raw).map_err(|e| FrameError::NotJson(e.to_string()))?;
    let classified = classify(&value)?;
    Ok((value, classified))
}

/// Classifies a parsed message by its members (`method`, `id`, `result`, `error`).
pub fn classify(value: &Value) -> Result<Classified, FrameError> {
    let obj = match value {
        Value::Object(o) => o,
        Value::Array(_) => return Err(FrameError::Batch),
        _ => return Err(FrameError::NotObject),
    };
    let id = obj.get("id").and_then(Id::from_value);
    if let Some(method) = obj.get("method").and_then(Value::as_str) {
        let kind = if obj.contains_key("id") { Kind::Request } else { Kind::Notification };
        return Ok(Classified { kind, id, method: Some(method.to_owned()) });
    }
    if obj.contains_key("error") {
        return Ok(Classified { kind: Kind::Error, id, method: None });
    }
    if obj.contains_key("result") {
        return Ok(Classified { kind: Kind::Response, id, method: None });
    }
    Err(FrameError::Unrecognised)
}

/// A JSON-RPC error object, tolerant of extra members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    pub code: i64,
    #[serde(default)]
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl ErrorObject {
    /// The meaning of a standard or MCP-defined code, for people reading the error.
    pub fn code_meaning(code: i64) -> Option<&'static str> {
        Some(match code {
            -32700 => "Parse error: the server could not parse the JSON it received",
            -32600 => "Invalid Request: the JSON sent is not a valid request object",
            -32601 => "Method not found: the server does not offer this method",
            -32602 => "Invalid params: the arguments or parameters were rejected",
            -32603 => "Internal error: the server failed while handling the request",
            -32002 => "Resource not found",
            -32042 => "URL elicitation required",
            // 2026-07-28.
            -32020 => "Header mismatch: the HTTP headers do not match the request body",
            -32021 => "Missing required client capability: the server needs one the request did not declare",
            -32022 => "Unsupported protocol version",
            -32099..=-32000 => "Server error (implementation-defined)",
            _ => return None,
        })
    }
}

fn with_params(mut obj: Map<String, Value>, params: Option<Value>) -> String {
    if let Some(p) = params {
        obj.insert("params".into(), p);
    }
    Value::Object(obj).to_string()
}

/// What a JSON value is, with its article, for messages: `null`, `a boolean`, `a number`,
/// `a string`, `an array`, `an object`.
pub fn value_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A request frame, compact (never contains a newline, as stdio framing requires).
pub fn request(id: &Id, method: &str, params: Option<Value>) -> String {
    let Value::Object(obj) = json!({"jsonrpc": "2.0", "id": id, "method": method}) else {
        unreachable!("json! object literal")
    };
    with_params(obj, params)
}

/// A notification frame.
pub fn notification(method: &str, params: Option<Value>) -> String {
    let Value::Object(obj) = json!({"jsonrpc": "2.0", "method": method}) else { unreachable!("json! object literal") };
    with_params(obj, params)
}

/// A successful response frame.
pub fn response(id: &Id, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// An error response frame.
pub fn error_response(id: &Id, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn kind_of(raw: &str) -> String {
        match parse(raw) {
            Ok((_, c)) => format!("{:?} id={:?} method={:?}", c.kind, c.id, c.method),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn classifies_every_shape() {
        let cases = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#,
            r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"nope"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"a"}]"#,
            r#""just a string""#,
            r#"{"jsonrpc":"2.0","id":3}"#,
            "not json",
        ];
        let out: Vec<String> = cases.iter().map(|c| kind_of(c)).collect();
        expect![[r#"
            Request id=Some(Number(1)) method=Some("tools/list")
            Request id=Some(String("a")) method=Some("ping")
            Notification id=None method=Some("notifications/progress")
            Response id=Some(Number(7)) method=None
            Error id=Some(Number(7)) method=None
            Error id=None method=None
            error: a JSON-RPC batch (array); batches are not supported
            error: not a JSON object
            error: neither a request, a notification nor a response
            error: not JSON: expected ident at line 1 column 2"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn builders_are_compact_and_single_line() {
        let r = request(&Id::Number(1), "tools/call", Some(json!({"name": "echo", "arguments": {"m": "a\nb"}})));
        expect![[
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"m":"a\nb"}}}"#
        ]]
        .assert_eq(&r);
        assert!(!r.contains('\n'));
        expect![[r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]]
            .assert_eq(&notification("notifications/initialized", None));
        expect![[r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no"}}"#]].assert_eq(&error_response(
            &Id::String("x".into()),
            -32601,
            "no",
        ));
    }
}
