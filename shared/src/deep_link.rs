//! Links that open a tool: the page's URL follows the tool picked (`#tool=NAME`), so a
//! reload or a shared link opens the same tool; `mcp-playground --tool NAME --args JSON`
//! prints a link that also fills its form (`#tool=NAME&args=JSON`). Nothing is called by a
//! link: the person presses Call.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde_json::Value;

/// What stays as it is in a fragment's value: letters, digits and `-._~`.
const KEEP: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// A link's tool, and the arguments to fill its form with.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub tool: String,
    pub args: Option<Value>,
}

/// Why a link cannot be followed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinkError {
    #[error("the link's arguments are not JSON: {0}")]
    NotJson(String),
    #[error("the link's arguments are not a JSON object")]
    NotObject,
    #[error("the link names no tool")]
    NoTool,
}

/// The fragment of a link to `tool`, with `args` for its form (`#tool=…&args=…`).
pub fn fragment(tool: &str, args: Option<&Value>) -> String {
    let mut out = format!("#tool={}", utf8_percent_encode(tool, KEEP));
    if let Some(args) = args {
        out.push_str(&format!("&args={}", utf8_percent_encode(&args.to_string(), KEEP)));
    }
    out
}

/// Checks what `--args` gives: a JSON object.
pub fn read_args(text: &str) -> Result<Value, LinkError> {
    let value: Value = serde_json::from_str(text).map_err(|e| LinkError::NotJson(e.to_string()))?;
    if value.is_object() { Ok(value) } else { Err(LinkError::NotObject) }
}

/// The link a URL's fragment (with or without its `#`) makes: none without `tool=`.
pub fn read(fragment: &str) -> Result<Option<Link>, LinkError> {
    let mut tool = None;
    let mut args = None;
    for pair in fragment.trim_start_matches('#').split('&') {
        let Some((key, value)) = pair.split_once('=') else { continue };
        let value = percent_decode_str(value).decode_utf8_lossy().into_owned();
        match key {
            "tool" => tool = Some(value),
            "args" => args = Some(value),
            _ => {}
        }
    }
    let Some(tool) = tool else {
        return if args.is_some() { Err(LinkError::NoTool) } else { Ok(None) };
    };
    if tool.is_empty() {
        return Err(LinkError::NoTool);
    }
    let args = args.map(|a| read_args(&a)).transpose()?;
    Ok(Some(Link { tool, args }))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_link_reads_back_what_was_written() {
        let args = json!({"city": "São Paulo & co", "days": 3, "note": "a#b=c"});
        let f = fragment("get weather/v2", Some(&args));
        assert!(f.starts_with("#tool=get%20weather%2Fv2&args=%7B"), "{f}");
        assert!(!f[1..].contains('#') && f.matches('&').count() == 1, "{f}");
        assert_eq!(read(&f).unwrap(), Some(Link { tool: "get weather/v2".into(), args: Some(args) }));
        assert_eq!(read("#tool=echo").unwrap(), Some(Link { tool: "echo".into(), args: None }));
        assert_eq!(fragment("echo", None), "#tool=echo");
    }

    #[test]
    fn fragments_that_name_no_tool_or_bad_arguments_are_told_apart() {
        assert_eq!(read(""), Ok(None));
        assert_eq!(read("#view=resources"), Ok(None));
        assert_eq!(read("#args=%7B%7D"), Err(LinkError::NoTool));
        assert_eq!(read("#tool="), Err(LinkError::NoTool));
        assert_eq!(read("#tool=echo&args=%5B1%5D"), Err(LinkError::NotObject));
        assert!(matches!(read("#tool=echo&args=%7Bnope"), Err(LinkError::NotJson(_))));
        assert_eq!(read_args("{\"a\": 1}"), Ok(json!({"a": 1})));
    }
}
