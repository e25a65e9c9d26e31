//! Validating arguments against a tool's `inputSchema` with the `jsonschema` crate, before
//! they are sent. Violations carry the JSON Pointer of the field they belong to. Remote
//! `$ref`s are never fetched: they count as "any value".

use jsonschema::error::ValidationErrorKind;
use serde_json::{Value, json};

use super::pointer;

/// One reason the arguments do not match the schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The field it belongs to (for `required`: the missing property's own path).
    pub path: String,
    pub message: String,
}

/// A compiled input schema.
pub struct Checker {
    validator: jsonschema::Validator,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checker")
    }
}

struct NeverFetch;

impl jsonschema::Retrieve for NeverFetch {
    fn retrieve(&self, _uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        // MCP forbids fetching remote schemas; treat them as allowing anything.
        Ok(json!({}))
    }
}

impl Checker {
    /// Compiles `schema`; the error says why it is not a usable JSON Schema.
    pub fn new(schema: &Value) -> Result<Self, String> {
        jsonschema::options()
            .should_validate_formats(true)
            .with_retriever(NeverFetch)
            .build(schema)
            .map(|validator| Self { validator })
            .map_err(|e| format!("the input schema cannot be used for validation: {e}"))
    }

    /// Every violation, in the order the validator reports them.
    pub fn check(&self, value: &Value) -> Vec<Violation> {
        self.validator
            .iter_errors(value)
            .map(|e| {
                let at = e.instance_path().as_str().to_owned();
                let path = match e.kind() {
                    ValidationErrorKind::Required { property } => {
                        pointer::child(&at, property.as_str().unwrap_or_default())
                    }
                    _ => at,
                };
                let message = match e.kind() {
                    ValidationErrorKind::Required { property } => {
                        format!("{} is required", property.as_str().map(str::to_owned).unwrap_or(property.to_string()))
                    }
                    _ => e.to_string(),
                };
                Violation { path, message }
            })
            .collect()
    }
}
