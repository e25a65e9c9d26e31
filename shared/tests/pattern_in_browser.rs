//! `pattern` in the page: `schema/pattern.rs` hands patterns to the browser's own `RegExp`,
//! so what ECMA-262 means is what the page judges, in real headless Chromium
//! (`cargo test -p mcp-playground-shared --target wasm32-unknown-unknown --test
//! pattern_in_browser`, run by `cargo xtask test`). Natively this file is empty.

#![cfg(target_arch = "wasm32")]

use serde_json::{Value, json};
use shared::schema::Schema;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn matches(pattern: &str, text: &str) -> bool {
    Schema::compile(&json!({"type": "string", "pattern": pattern})).unwrap().is_valid(&Value::from(text))
}

#[wasm_bindgen_test]
fn classes_are_ascii_and_matches_are_unanchored() {
    assert!(matches(r"^\d+$", "2026"));
    assert!(!matches(r"^\d+$", "٢٠٢٦"), "\\d is ASCII digits only");
    assert!(!matches(r"^\w+$", "é"), "\\w is ASCII word characters only");
    assert!(matches("b", "abc"), "a pattern matches anywhere");
    assert!(!matches("^b", "abc"));
}

#[wasm_bindgen_test]
fn what_the_regex_crate_lacks_works_in_the_page() {
    // Look-around and backreferences: natively such a pattern allows anything.
    assert!(matches(r"^(?=.*\d).{3}$", "ab1"));
    assert!(!matches(r"^(?=.*\d).{3}$", "abc"));
    assert!(!matches(r"^(?!admin$).*$", "admin"));
    assert!(matches(r"^(a)\1$", "aa"));
    assert!(!matches(r"^(a)\1$", "ab"));
    // Unicode properties, with the `u` flag JSON Schema asks for.
    assert!(matches(r"^\p{L}+$", "héllo"));
    assert!(!matches(r"^\p{L}+$", "h3llo"));
}

#[wasm_bindgen_test]
fn pattern_properties_and_bad_patterns() {
    let s = Schema::compile(&json!({"patternProperties": {"^x-(?=[a-z])": {"type": "integer"}}})).unwrap();
    assert!(s.is_valid(&json!({"x-a": 1, "x-1": "any"})));
    assert!(!s.is_valid(&json!({"x-a": "one"})));
    let err = Schema::compile(&json!({"pattern": "("})).unwrap_err().to_string();
    assert!(err.contains("pattern"), "the browser's own words say why: {err}");
}
