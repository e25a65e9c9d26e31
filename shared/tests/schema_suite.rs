//! The official JSON-Schema-Test-Suite against `shared::schema`, every draft we claim (and
//! the optional ECMA-262 pattern files), data driven: each test of each case of each file is run, and the outcome must be what the
//! suite says, or a failure `testdata/schema-suite-expected-failures.txt` lists with its
//! reason. A listed test that passes fails too, until its entry is removed. The suite is
//! installed by `cargo xtask test` (or `cargo xtask tools`) from the pinned PyPI sdist.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use shared::schema::Schema;

/// The drafts we claim, as the suite names its folders, with the `$schema` each implies.
const DRAFTS: [(&str, &str); 5] = [
    ("draft4", "http://json-schema.org/draft-04/schema#"),
    ("draft6", "http://json-schema.org/draft-06/schema#"),
    ("draft7", "http://json-schema.org/draft-07/schema#"),
    ("draft2019-09", "https://json-schema.org/draft/2019-09/schema"),
    ("draft2020-12", "https://json-schema.org/draft/2020-12/schema"),
];

const LIST: &str = "testdata/schema-suite-expected-failures.txt";

/// The optional files we claim too: patterns are ECMA-262, natively as in the browser.
const OPTIONAL: [&str; 3] =
    ["optional/ecmascript-regex.json", "optional/non-bmp-regex.json", "optional/format/regex.json"];

/// One line of the list: draft/file, case, test (`*` for any), and the reason.
struct Expected {
    file: String,
    case: String,
    test: String,
    reason: String,
    covered: usize,
}

impl Expected {
    fn covers(&self, file: &str, case: &str, test: &str) -> bool {
        self.file == file && (self.case == "*" || self.case == case) && (self.test == "*" || self.test == test)
    }
}

fn list() -> (String, Vec<Expected>) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(LIST)).unwrap();
    let pin = text.lines().find_map(|l| l.strip_prefix("# suite ")).expect("the list pins the suite").trim();
    let entries = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split(" | ").map(str::trim).collect();
            assert!(parts.len() == 4 && !parts[3].is_empty(), "{LIST}: not `file | case | test | reason`: {l}");
            let [file, case, test, reason] = [parts[0], parts[1], parts[2], parts[3]].map(str::to_owned);
            Expected { file, case, test, reason, covered: 0 }
        })
        .collect();
    (pin.to_owned(), entries)
}

fn suite_dir(pin: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/tools/json-schema-test-suite")
        .join(pin.replace("==", "-"))
        .join("tests");
    assert!(
        dir.is_dir(),
        "the JSON-Schema-Test-Suite ({pin}) is not installed in {}: run `cargo xtask tools` (or `cargo xtask test`)",
        dir.display()
    );
    dir
}

/// The suite's JSON files of one draft: the required ones, sorted, then the optional ones
/// we claim that the draft has.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out.extend(OPTIONAL.iter().map(|f| dir.join(f)).filter(|p| p.is_file()));
    out
}

#[test]
fn the_official_suite_passes_but_for_the_listed_failures() {
    let (pin, mut expected) = list();
    let root = suite_dir(&pin);
    let mut problems = Vec::new();
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (draft, meta) in DRAFTS {
        for path in files(&root.join(draft)) {
            let file = format!("{draft}/{}", path.strip_prefix(root.join(draft)).unwrap().to_string_lossy());
            let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for case in &cases {
                let description = case["description"].as_str().unwrap_or_default();
                let mut schema = case["schema"].clone();
                // A case without `$schema` is of its folder's draft.
                if let Value::Object(map) = &mut schema {
                    map.entry("$schema").or_insert_with(|| meta.into());
                }
                let compiled = Schema::compile(&schema);
                for test in case["tests"].as_array().into_iter().flatten() {
                    let name = test["description"].as_str().unwrap_or_default();
                    let want = test["valid"].as_bool().unwrap();
                    let passed = match &compiled {
                        Ok(s) => s.is_valid(&test["data"]) == want,
                        Err(_) => false,
                    };
                    let count = counts.entry(draft).or_default();
                    count.0 += usize::from(passed);
                    count.1 += 1;
                    match expected.iter_mut().find(|e| e.covers(&file, description, name)) {
                        Some(e) if passed => problems.push(format!(
                            "passes now, remove it from the list: {file} | {description} | {name} ({})",
                            e.reason
                        )),
                        Some(e) => e.covered += 1,
                        None if passed => {}
                        None => {
                            let why = match &compiled {
                                Ok(_) => format!("expected valid: {want}"),
                                Err(e) => format!("the schema does not compile: {e}"),
                            };
                            problems.push(format!("fails: {file} | {description} | {name} ({why})"));
                        }
                    }
                }
            }
        }
    }
    for e in expected.iter().filter(|e| e.covered == 0) {
        problems.push(format!("listed but not in the suite: {} | {} | {}", e.file, e.case, e.test));
    }
    #[allow(clippy::print_stdout, reason = "the pass counts per draft, for `--nocapture`")]
    for (draft, (passed, total)) in &counts {
        println!("{draft}: {passed} of {total} passed");
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
