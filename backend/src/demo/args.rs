//! Reads and validates tool arguments, producing messages a person can act on.
//!
//! A failed check is a tool error (`isError: true`), not a protocol error: the caller
//! (often a model) should see the message and retry with better arguments.

use std::ops::RangeInclusive;

use rmcp::model::JsonObject;
use serde_json::Value;

/// The `arguments` object of one `tools/call`, absent or not.
pub(super) struct Args<'a>(Option<&'a JsonObject>);

impl<'a> Args<'a> {
    pub(super) fn new(arguments: Option<&'a JsonObject>) -> Self {
        Self(arguments)
    }

    /// The value of `name`, treating an explicit `null` as absent.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.0?.get(name).filter(|value| !value.is_null())
    }

    pub(super) fn required_str(&self, name: &str) -> Result<&'a str, String> {
        self.optional_str(name)?.ok_or_else(|| format!("missing required argument `{name}` (a string)"))
    }

    pub(super) fn optional_str(&self, name: &str) -> Result<Option<&'a str>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(wrong_type(name, "a string", other)),
        }
    }

    /// A boolean flag; anything but JSON `true` counts as false.
    pub(super) fn flag(&self, name: &str) -> bool {
        self.get(name).and_then(Value::as_bool).unwrap_or(false)
    }

    /// An integer in `range`, or `default` when absent. `5.0` counts as an integer.
    pub(super) fn int_in(&self, name: &str, range: RangeInclusive<i64>, default: i64) -> Result<i64, String> {
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        let number = value
            .as_i64()
            .or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64))
            .ok_or_else(|| wrong_type(name, "an integer", value))?;
        if range.contains(&number) { Ok(number) } else { Err(out_of_range(name, range.start(), range.end(), value)) }
    }

    /// A number in `range`, or `default` when absent.
    pub(super) fn number_in(&self, name: &str, range: RangeInclusive<f64>, default: f64) -> Result<f64, String> {
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        let number = value.as_f64().ok_or_else(|| wrong_type(name, "a number", value))?;
        if range.contains(&number) { Ok(number) } else { Err(out_of_range(name, range.start(), range.end(), value)) }
    }
}

fn wrong_type(name: &str, expected: &str, got: &Value) -> String {
    let kind = shared::jsonrpc::value_kind(got);
    format!("argument `{name}` must be {expected}, got {kind} ({got})")
}

fn out_of_range(name: &str, min: impl ToString, max: impl ToString, got: &Value) -> String {
    format!("argument `{name}` must be between {} and {}, got {got}", min.to_string(), max.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        rmcp::model::object(value)
    }

    #[test]
    fn messages_name_the_argument_and_the_problem() {
        let arguments = object(json!({"w": "wide", "n": 9000, "s": 3, "f": 2.5, "z": null}));
        let args = Args::new(Some(&arguments));
        let errors = [
            args.int_in("w", 8..=512, 96).unwrap_err(),
            args.int_in("n", 8..=512, 96).unwrap_err(),
            args.required_str("s").unwrap_err(),
            args.required_str("missing").unwrap_err(),
            args.int_in("f", 0..=5, 1).unwrap_err(),
        ];
        expect_test::expect![[r#"
            [
                "argument `w` must be an integer, got a string (\"wide\")",
                "argument `n` must be between 8 and 512, got 9000",
                "argument `s` must be a string, got a number (3)",
                "missing required argument `missing` (a string)",
                "argument `f` must be an integer, got a number (2.5)",
            ]
        "#]]
        .assert_debug_eq(&errors);
        assert_eq!(args.int_in("z", 8..=512, 96), Ok(96));
        assert_eq!(args.number_in("f", 0.0..=5.0, 1.0), Ok(2.5));
        assert_eq!(Args::new(None).optional_str("s"), Ok(None));
    }
}
