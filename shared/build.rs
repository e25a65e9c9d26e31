//! Bundles the official JSON Schema of each MCP revision into the crate, for the per-message
//! check (`spec_check`). The schemas travel with the project in `shared/spec/schema` (their
//! licence and origin in `shared/spec/README.md`), so every build checks every message: a
//! missing or broken schema fails the build instead of leaving messages unchecked.
//!
//! Each document is minified on the way in: `description` texts (about two thirds of the bytes)
//! say nothing a validator reads, so the page carries the rules only.

use std::path::PathBuf;
use std::{env, fs};

use serde_json::Value;

const REVISIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn main() {
    let dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("spec/schema");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut entries = String::new();
    for revision in REVISIONS {
        let path = dir.join(revision).join("schema.json");
        println!("cargo:rerun-if-changed={}", path.display());
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the schema of {revision} is part of the crate ({}): {e}", path.display()));
        let mut doc: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("the schema of {revision} is not JSON: {e}"));
        strip_descriptions(&mut doc);
        let file = format!("{revision}.json");
        write_if_changed(&out.join(&file), &doc.to_string());
        entries.push_str(&format!("    ({revision:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\"))),\n"));
    }
    let code = format!(
        "/// (revision, minified schema) of each bundled revision.\npub(super) const BUNDLED: &[(&str, &str)] = &[\n{entries}];\n"
    );
    write_if_changed(&out.join("bundled_schemas.rs"), &code);
}

/// Writes `text` unless the file already holds it: a rewritten file would make the crate
/// compile again.
fn write_if_changed(path: &std::path::Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).expect("OUT_DIR is writable");
    }
}

/// Removes every `description` whose value is a text. A property *named* `description` maps to
/// a schema (an object), so it stays.
fn strip_descriptions(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("description").is_some_and(Value::is_string) {
                map.remove("description");
            }
            map.values_mut().for_each(strip_descriptions);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_descriptions),
        _ => {}
    }
}
