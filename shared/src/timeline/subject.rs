//! What a request is about beside its method: the tool of a `tools/call`, the resource of a
//! `resources/read` (and of a subscription), the prompt of a `prompts/get`, the task of a
//! `tasks/get`, `tasks/result` or `tasks/cancel`. A row names it
//! (`tools/call · submit_order`), its answer too, and the timeline's filter finds it.

use serde::Deserialize;
use serde::de::IgnoredAny;

#[derive(Deserialize)]
struct Frame {
    #[serde(default)]
    params: Option<Params>,
}

/// Only the names: everything else of the frame (arguments included) is skipped unread.
#[derive(Deserialize)]
struct Params {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    uri: Option<String>,
    #[serde(default, rename = "taskId")]
    task_id: Option<String>,
    #[serde(flatten)]
    _rest: std::collections::HashMap<String, IgnoredAny>,
}

/// The subject of a request `frame` of `method`, when its method has one.
pub(super) fn of(method: &str, frame: &str) -> Option<String> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
        "tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/update" => "taskId",
        _ => return None,
    };
    let params = serde_json::from_str::<Frame>(frame).ok()?.params?;
    match key {
        "name" => params.name,
        "uri" => params.uri,
        _ => params.task_id,
    }
    .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::of;

    #[test]
    fn a_request_names_its_tool_resource_or_prompt() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"submit_order","arguments":{"x":[1,2]}}}"#;
        assert_eq!(of("tools/call", call).as_deref(), Some("submit_order"));
        let read = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a.txt"}}"#;
        assert_eq!(of("resources/read", read).as_deref(), Some("file:///a.txt"));
        let prompt = r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"review"}}"#;
        assert_eq!(of("prompts/get", prompt).as_deref(), Some("review"));
        assert_eq!(of("tools/list", r#"{"jsonrpc":"2.0","id":4,"method":"tools/list"}"#), None);
        assert_eq!(of("tools/call", r#"{"jsonrpc":"2.0","id":5,"method":"tools/call"}"#), None);
        assert_eq!(of("tools/call", "not json"), None);
        let poll = r#"{"jsonrpc":"2.0","id":6,"method":"tasks/get","params":{"taskId":"t-9"}}"#;
        assert_eq!(of("tasks/get", poll).as_deref(), Some("t-9"));
    }
}
