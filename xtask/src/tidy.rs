//! Convention checks that run inside `cargo test` (see STYLE.md): every Rust file says what
//! it is for in a `//!` line, stays small, and the page carries the test ids of the UI
//! contract that the end-to-end tests rely on.

use std::path::{Path, PathBuf};

use crate::util::root;

/// Lines a source file may have before it should be split by feature.
const MAX_LINES: usize = 600;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == "node_modules" || name == "dist" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_doc_line_and_stays_small() {
    let mut files = Vec::new();
    for crate_dir in ["shared", "backend", "frontend", "tests", "xtask"] {
        rust_files(&root().join(crate_dir), &mut files);
    }
    assert!(files.len() > 20, "found only {} files", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let shown = file.strip_prefix(root()).unwrap().display();
        if !text.starts_with("//!") {
            problems.push(format!("{shown}: does not open with a //! line"));
        }
        let lines = text.lines().count();
        if lines > MAX_LINES {
            problems.push(format!("{shown}: {lines} lines (split it by feature)"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_page_carries_the_test_ids_the_e2e_tests_use() {
    let mut page = String::new();
    let mut files = Vec::new();
    rust_files(&root().join("frontend/src"), &mut files);
    for f in files {
        page.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let mut used = Vec::new();
    let mut files = Vec::new();
    rust_files(&root().join("tests"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, _) in text.match_indices("data-testid=") {
            let rest = &text[i + "data-testid=".len()..];
            let id: String = rest
                .trim_start_matches(['"', '\\'])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if !id.is_empty() {
                used.push(id);
            }
        }
        for (i, _) in text.match_indices(".id(\"") {
            let id: String = text[i + 5..].chars().take_while(|c| *c != '"').collect();
            used.push(id);
        }
    }
    used.sort();
    used.dedup();
    assert!(used.len() > 10, "found only {used:?}");
    let missing: Vec<&String> = used.iter().filter(|id| !page.contains(&format!("data-testid=\"{id}\""))).collect();
    assert!(missing.is_empty(), "test ids used by tests but not in the page: {missing:?}");
}
