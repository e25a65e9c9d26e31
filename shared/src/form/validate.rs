//! Validating arguments against a tool's `inputSchema` before they are sent, with our own
//! validator ([`crate::schema`]). Violations carry the JSON Pointer of the field they belong
//! to. Remote `$ref`s are never fetched: they count as "any value".

use serde_json::Value;

use crate::schema::Schema;
pub use crate::schema::Violation;

/// Why a schema cannot validate (the form still works without it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the input schema cannot be used for validation: {0}")]
pub struct UnusableSchema(pub String);

/// A compiled input schema.
#[derive(Debug)]
pub struct Checker {
    schema: Schema,
}

impl Checker {
    /// Compiles `schema`; the error says why it is not a usable JSON Schema.
    pub fn new(schema: &Value) -> Result<Self, UnusableSchema> {
        Schema::compile(schema).map(|schema| Self { schema }).map_err(|e| UnusableSchema(e.0))
    }

    /// Every violation, in the order the schema states its keywords.
    pub fn check(&self, value: &Value) -> Vec<Violation> {
        self.schema.validate(value)
    }
}
