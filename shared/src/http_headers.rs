//! The HTTP headers of a 2026-07-28 request (SEP-2243): `Mcp-Method` and `Mcp-Name` from
//! the body, and `Mcp-Param-*` mirroring the arguments a tool marks with `x-mcp-header`.
//! A tool whose marks break the rules is left out of the list, with the reason shown.

use std::collections::HashMap;

use base64::Engine;
use serde_json::Value;

use crate::mcp::Tool;

pub const METHOD: &str = "mcp-method";
pub const NAME: &str = "mcp-name";
/// The prefix of a mirrored parameter's header.
pub const PARAM_PREFIX: &str = "Mcp-Param-";

/// What a tool's `x-mcp-header` marks break, if anything: an empty name, a name that is
/// no HTTP token, a type other than string, integer or boolean, or a name used twice
/// (letter case aside).
pub fn problem(tool: &Tool) -> Option<String> {
    let properties = tool.input_schema.get("properties")?.as_object()?;
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (property, schema) in properties {
        let Some(mark) = schema.get("x-mcp-header") else { continue };
        let Some(name) = mark.as_str() else {
            return Some(format!("x-mcp-header of {property:?} is not a string"));
        };
        if name.is_empty() {
            return Some(format!("x-mcp-header of {property:?} is empty"));
        }
        if !name.bytes().all(is_token_byte) {
            return Some(format!("x-mcp-header {name:?} of {property:?} is not a valid header name"));
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            other => {
                let ty = other.map_or_else(|| "no single type".to_owned(), |t| format!("type {t}"));
                return Some(format!(
                    "x-mcp-header {name:?} is on {property:?} of {ty}; only string, integer and boolean may be mirrored"
                ));
            }
        }
        if let Some(first) = seen.insert(name.to_ascii_lowercase(), property) {
            return Some(format!("x-mcp-header {name:?} names both {first:?} and {property:?}"));
        }
    }
    None
}

/// RFC 9110 `tchar`: what a header name may hold.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The `(property, header name)` pairs a valid tool mirrors.
pub fn marks(tool: &Tool) -> Vec<(String, String)> {
    let Some(properties) = tool.input_schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    properties
        .iter()
        .filter_map(|(p, s)| s.get("x-mcp-header").and_then(Value::as_str).map(|h| (p.clone(), h.to_owned())))
        .collect()
}

/// The `Mcp-Param-*` headers of a call: each marked argument that is present and not
/// null, its value as the header carries it.
pub fn params(marks: &[(String, String)], arguments: &Value) -> Vec<(String, String)> {
    marks
        .iter()
        .filter_map(|(property, header)| {
            let value = arguments.get(property)?;
            let text = match value {
                Value::String(s) => encode(s),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                _ => return None,
            };
            Some((format!("{PARAM_PREFIX}{header}"), text))
        })
        .collect()
}

/// A string as a header value: as it is when it is visible ASCII with no space at either
/// end, `=?base64?…?=` of its UTF-8 bytes otherwise.
pub fn encode(s: &str) -> String {
    let plain = s.bytes().all(|b| (0x20..0x7f).contains(&b)) && s.trim() == s;
    if plain { s.to_owned() } else { format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(s)) }
}

/// `Mcp-Method` and, for a call, a prompt, a read or a task, `Mcp-Name` of a request body.
pub fn standard(body: &Value) -> Vec<(&'static str, String)> {
    let Some(method) = body.get("method").and_then(Value::as_str) else { return Vec::new() };
    let mut out = vec![(METHOD, method.to_owned())];
    let name = match method {
        "tools/call" | "prompts/get" => body["params"]["name"].as_str(),
        "resources/read" => body["params"]["uri"].as_str(),
        // The tasks extension names its task.
        "tasks/get" | "tasks/update" | "tasks/cancel" => body["params"]["taskId"].as_str(),
        _ => None,
    };
    if let Some(name) = name.filter(|n| n.bytes().all(|b| (0x20..0x7f).contains(&b))) {
        out.push((NAME, name.to_owned()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(properties: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}}))
            .unwrap()
    }

    #[test]
    fn bad_marks_are_named() {
        let cases = [
            (json!({"v": {"type": "string", "x-mcp-header": ""}}), "is empty"),
            (json!({"v": {"type": "object", "x-mcp-header": "V"}}), "type object"),
            (json!({"v": {"type": "number", "x-mcp-header": "V"}}), "type number"),
            (json!({"v": {"x-mcp-header": "V"}}), "no single type"),
            (
                json!({"a": {"type": "string", "x-mcp-header": "My"}, "b": {"type": "string", "x-mcp-header": "my"}}),
                "names both",
            ),
            (json!({"v": {"type": "string", "x-mcp-header": "My Region"}}), "not a valid header name"),
            (json!({"v": {"type": "string", "x-mcp-header": "A:B"}}), "not a valid header name"),
            (json!({"v": {"type": "string", "x-mcp-header": "Région"}}), "not a valid header name"),
            (json!({"v": {"type": "string", "x-mcp-header": "R\t1"}}), "not a valid header name"),
        ];
        for (props, want) in cases {
            let p = problem(&tool(props.clone())).unwrap_or_default();
            assert!(p.contains(want), "{props}: {p}");
        }
        assert_eq!(problem(&tool(json!({"r": {"type": "string", "x-mcp-header": "Region"}, "q": {}}))), None);
    }

    #[test]
    fn arguments_are_mirrored_and_unsafe_text_is_wrapped() {
        let t = tool(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "b": {"type": "boolean", "x-mcp-header": "B"},
            "e": {"type": "string", "x-mcp-header": "E"},
            "u": {"type": "string", "x-mcp-header": "U"},
            "gone": {"type": "boolean", "x-mcp-header": "Gone"},
            "q": {"type": "string"},
        }));
        let args =
            json!({"region": "us west 1", "n": 42, "b": false, "e": "", "u": "Hello, 世界", "gone": null, "q": "x"});
        let mut got = params(&marks(&t), &args);
        got.sort();
        let want: Vec<(String, String)> = [
            ("Mcp-Param-B", "false"),
            ("Mcp-Param-E", ""),
            ("Mcp-Param-N", "42"),
            ("Mcp-Param-Region", "us west 1"),
            ("Mcp-Param-U", "=?base64?SGVsbG8sIOS4lueVjA==?="),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        assert_eq!(got, want);
        assert_eq!(encode("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(
            encode(" padded "),
            format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(" padded "))
        );
    }

    #[test]
    fn method_and_name_come_from_the_body() {
        let call = json!({"method": "tools/call", "params": {"name": "my-tool"}});
        assert_eq!(standard(&call), [(METHOD, "tools/call".to_owned()), (NAME, "my-tool".to_owned())]);
        let read = json!({"method": "resources/read", "params": {"uri": "file:///a%20b.txt"}});
        assert_eq!(standard(&read)[1], (NAME, "file:///a%20b.txt".to_owned()));
        assert_eq!(standard(&json!({"method": "tools/list"})).len(), 1);
        let poll = json!({"method": "tasks/get", "params": {"taskId": "t-1"}});
        assert_eq!(standard(&poll)[1], (NAME, "t-1".to_owned()));
        assert!(standard(&json!({"id": 1, "result": {}})).is_empty());
    }
}
