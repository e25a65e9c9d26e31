//! Bundles the official JSON Schema of each MCP revision into the crate, for the per-message
//! check (`spec_check`). The schemas are published beside the project, not in it, so they are
//! read at build time from `MCP_SPEC_SCHEMAS` (a folder of `<revision>/schema.json`) or, by
//! default, from `shared/spec/schema` next to the workspace. A missing folder is no error: the
//! build goes on and the check says the schemas are not bundled.
//!
//! Each document is minified on the way in: `description` texts (about two thirds of the bytes)
//! say nothing a validator reads, so the page carries the rules only.

use std::path::PathBuf;
use std::{env, fs};

use serde_json::Value;

const REVISIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_SPEC_SCHEMAS");
    let dir = match env::var_os("MCP_SPEC_SCHEMAS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
            .join("../../shared/spec/schema"),
    };
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut entries = String::new();
    for revision in REVISIONS {
        let path = dir.join(revision).join("schema.json");
        println!("cargo:rerun-if-changed={}", path.display());
        let Ok(text) = fs::read_to_string(&path) else { continue };
        let mut doc: Value = match serde_json::from_str(&text) {
            Ok(doc) => doc,
            Err(e) => {
                println!("cargo:warning=the schema of {revision} is not JSON ({e}); it is left out");
                continue;
            }
        };
        strip_descriptions(&mut doc);
        let file = format!("{revision}.json");
        write_if_changed(&out.join(&file), &doc.to_string());
        entries.push_str(&format!("    ({revision:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\"))),\n"));
    }
    println!("cargo:rerun-if-changed={}", dir.display());
    let code = format!(
        "/// (revision, minified schema) of each bundled revision.\npub(super) const BUNDLED: &[(&str, &str)] = &[\n{entries}];\n"
    );
    write_if_changed(&out.join("bundled_schemas.rs"), &code);
}

/// Writes `text` unless the file already holds it: a rewritten file would make the crate
/// compile again (a missing folder has the script run on every build).
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
