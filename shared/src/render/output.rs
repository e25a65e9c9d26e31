//! Checking a result's `structuredContent` against the tool's `outputSchema`, and whether
//! its text content says the same thing.

use serde_json::Value;

use crate::form::{Checker, Violation};
use crate::mcp::{CallToolResult, Content};

/// What `output-validation` shows.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputCheck {
    /// The structured content matches the declared schema.
    Valid,
    /// It does not, or it is missing although a schema is declared.
    Invalid(Vec<Violation>),
    /// The tool declares no `outputSchema`.
    Absent,
    /// Not checked, and why (a tool error, or a schema that cannot be used).
    Skipped(String),
}

impl OutputCheck {
    /// The `data-state` value; `None` when nothing is shown.
    pub fn state(&self) -> Option<&'static str> {
        match self {
            OutputCheck::Valid => Some("valid"),
            OutputCheck::Invalid(_) => Some("invalid"),
            OutputCheck::Absent => Some("absent"),
            OutputCheck::Skipped(_) => None,
        }
    }
}

/// Validates `result` against `output_schema`.
pub fn check(output_schema: Option<&Value>, result: &CallToolResult) -> OutputCheck {
    if result.is_error == Some(true) {
        return OutputCheck::Skipped("not checked: the tool reported an error".into());
    }
    let Some(schema) = output_schema else { return OutputCheck::Absent };
    let Some(structured) = &result.structured_content else {
        return OutputCheck::Invalid(vec![Violation {
            path: String::new(),
            message: "the tool declares an outputSchema but the result has no structuredContent".into(),
        }]);
    };
    match Checker::new(schema) {
        Ok(c) => {
            let v = c.check(structured);
            if v.is_empty() { OutputCheck::Valid } else { OutputCheck::Invalid(v) }
        }
        Err(e) => {
            OutputCheck::Skipped(format!("not checked: the output schema cannot be used for validation: {}", e.0))
        }
    }
}

/// Whether the text content carries the structured content (as the spec recommends for
/// clients that do not read `structuredContent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextAgreement {
    /// A text item holds the same JSON.
    Matches,
    /// Text items hold JSON, but not the same.
    Differs,
    /// No text item holds JSON.
    NoJsonText,
}

pub fn text_agreement(result: &CallToolResult) -> Option<TextAgreement> {
    let structured = result.structured_content.as_ref()?;
    let mut any_json = false;
    for c in &result.content {
        if let Content::Text(t) = c
            && let Ok(v) = serde_json::from_str::<Value>(&t.text)
        {
            if &v == structured {
                return Some(TextAgreement::Matches);
            }
            any_json = true;
        }
    }
    Some(if any_json { TextAgreement::Differs } else { TextAgreement::NoJsonText })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(v: Value) -> CallToolResult {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn every_outcome() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]});
        let ok = result(json!({"content": [{"type": "text", "text": "{\"n\": 1}"}], "structuredContent": {"n": 1}}));
        assert_eq!(check(Some(&schema), &ok), OutputCheck::Valid);
        assert_eq!(text_agreement(&ok), Some(TextAgreement::Matches));
        let bad = result(json!({"content": [{"type": "text", "text": "{\"n\": 2}"}], "structuredContent": {"n": -1}}));
        let OutputCheck::Invalid(v) = check(Some(&schema), &bad) else { panic!() };
        assert_eq!(v[0].path, "/n");
        assert_eq!(text_agreement(&bad), Some(TextAgreement::Differs));
        let missing = result(json!({"content": []}));
        assert!(
            matches!(check(Some(&schema), &missing), OutputCheck::Invalid(v) if v[0].message.contains("no structuredContent"))
        );
        assert_eq!(text_agreement(&missing), None);
        let failed = result(json!({"content": [], "isError": true}));
        assert!(matches!(check(Some(&schema), &failed), OutputCheck::Skipped(_)));
        assert!(matches!(check(None, &failed), OutputCheck::Skipped(_)));
        assert_eq!(check(None, &ok), OutputCheck::Absent);
        // Any JSON value, not only objects.
        let arr = result(json!({"content": [{"type": "text", "text": "plain"}], "structuredContent": [1, 2]}));
        assert_eq!(check(Some(&json!({"type": "array"})), &arr), OutputCheck::Valid);
        assert_eq!(text_agreement(&arr), Some(TextAgreement::NoJsonText));
    }
}
