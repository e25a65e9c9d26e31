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
    // A component may take its id as a `test_id` prop that becomes its `data-testid`.
    let in_page =
        |id: &String| page.contains(&format!("data-testid=\"{id}\"")) || page.contains(&format!("test_id=\"{id}\""));
    let missing: Vec<&String> = used.iter().filter(|id| !in_page(id)).collect();
    assert!(missing.is_empty(), "test ids used by tests but not in the page: {missing:?}");
}

/// The module paths ARCHITECTURE.md writes in backticks (`session/`, `remote/http.rs`),
/// section by section: `### \`crate/\`` opens a crate's section.
fn architecture_sections() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("### `").and_then(|l| l.strip_suffix("/`")) {
            sections.push((name.to_owned(), Vec::new()));
            continue;
        }
        if line.starts_with("## ") {
            sections.push((String::new(), Vec::new()));
            continue;
        }
        let Some((_, tokens)) = sections.last_mut() else { continue };
        for (i, token) in line.split('`').enumerate() {
            let path_like = token.ends_with(".rs") || token.ends_with('/');
            let chars_ok = token.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_/.".contains(c));
            if i % 2 == 1 && path_like && chars_ok && token.len() > 1 {
                tokens.push(token.to_owned());
            }
        }
    }
    sections.retain(|(name, _)| !name.is_empty());
    sections
}

/// Whether `path` (relative to its crate, with `/` separators) is what `token` names.
fn names(token: &str, path: &str) -> bool {
    let path = format!("/{path}");
    path.ends_with(&format!("/{token}"))
}

#[test]
fn architecture_names_every_module_and_only_modules_that_exist() {
    let sections = architecture_sections();
    let crates: Vec<&str> = sections.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(crates, ["shared", "backend", "frontend", "tests", "xtask"]);
    let mut problems = Vec::new();
    for (name, tokens) in &sections {
        let dir = root().join(name);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        let rel: Vec<String> =
            files.iter().map(|f| f.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/")).collect();
        let rel: Vec<String> = rel.iter().map(|r| r.strip_prefix("src/").unwrap_or(r).to_owned()).collect();
        let mut dirs: Vec<String> = Vec::new();
        for r in &rel {
            let mut at = r.as_str();
            while let Some((parent, _)) = at.rsplit_once('/') {
                dirs.push(format!("{parent}/"));
                at = parent;
            }
        }
        // Folders of data or servers the section names (`servers/`, `spec/`) exist too.
        let exists = |t: &str| {
            rel.iter().any(|r| names(t, r))
                || dirs.iter().any(|d| names(t, d))
                || (t.ends_with('/') && (dir.join(t).is_dir() || root().join(t).is_dir()))
        };
        for t in tokens {
            if !exists(t) {
                problems.push(format!("ARCHITECTURE.md, {name}/: `{t}` does not exist"));
            }
        }
        if name == "tests" {
            continue;
        }
        for r in &rel {
            let file = r.rsplit('/').next().unwrap();
            let test = file == "tests.rs" || file.ends_with("_props.rs") || r.contains("tests/");
            if test || ["lib.rs", "main.rs", "build.rs"].contains(&file) && !r.contains('/') {
                continue;
            }
            let named = if file == "mod.rs" {
                let folder = format!("{}/", r.rsplit_once('/').unwrap().0);
                tokens.iter().any(|t| t.ends_with('/') && names(t, &folder))
            } else {
                tokens.iter().any(|t| names(t, r))
            };
            if !named {
                problems.push(format!("ARCHITECTURE.md, {name}/: {r} is not named"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
