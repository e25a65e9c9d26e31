//! Installing what the build and the tests need, from the package registries only, and
//! only when the version on the machine is not already the right one.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::util::{self, Job, output, root, say};

const BINARYEN_VERSION: &str = "132";

/// Where npm-installed build tools live (binaryen's wasm-opt).
pub fn tools_dir() -> PathBuf {
    root().join("target/tools")
}

/// Cargo's home: its installed binaries and the registry's sources.
pub fn cargo_home() -> PathBuf {
    std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"))
}

/// PATH with the project's tools first.
pub fn path_with_tools() -> String {
    let bin = tools_dir().join("node_modules/.bin");
    let cargo_bin = cargo_home().join("bin");
    format!("{}:{}:{}", bin.display(), cargo_bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// The quick page tools: the wasm32 target and wasm-opt (npm `binaryen`).
pub fn ensure_page_tools() -> Result<()> {
    if !util_output_all("rustup", &["target", "list", "--installed"]).contains("wasm32-unknown-unknown") {
        util::run("rustup", &["target", "add", "wasm32-unknown-unknown"], &[], None)?;
    }
    let wasm_opt = tools_dir().join("node_modules/.bin/wasm-opt");
    let have = output(&wasm_opt.to_string_lossy(), &["--version"]).unwrap_or_default();
    if !have.starts_with(&format!("wasm-opt version {BINARYEN_VERSION}")) {
        std::fs::create_dir_all(tools_dir())?;
        let dir = tools_dir();
        let spec = format!("binaryen@{BINARYEN_VERSION}.0.0");
        util::run("npm", &["install", "--no-save", "--no-audit", "--no-fund", "--prefix", ".", &spec], &[], Some(&dir))
            .context("installing wasm-opt (npm binaryen) needs Node.js and npm")?;
    }
    Ok(())
}

/// Starts compiling the `wasm-bindgen` CLI that matches Cargo.lock, when the one on PATH
/// differs (the one slow install: about 2.5 minutes on 2 cores, once per machine).
pub fn wasm_bindgen_job() -> Result<Option<Job>> {
    let wanted = wasm_bindgen_version()?;
    let have = output("wasm-bindgen", &["--version"]);
    if have.as_deref() == Some(&format!("wasm-bindgen {wanted}")) {
        return Ok(None);
    }
    say(&format!("wasm-bindgen {wanted} is not installed (found {have:?}); compiling it once"));
    // Without --locked: the CLI's own lockfile wants crates the registry here does not serve.
    let job =
        Job::start("wasm-bindgen", &util::cargo_bin(), &["install", "wasm-bindgen-cli", "--version", &wanted], &[])?;
    Ok(Some(job))
}

fn util_output_all(program: &str, args: &[&str]) -> String {
    #[allow(clippy::disallowed_methods, reason = "xtask asks tools for their state")]
    let out = std::process::Command::new(program).args(args).output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
}

/// The wasm-bindgen version Cargo.lock pins.
fn wasm_bindgen_version() -> Result<String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).context("reading Cargo.lock")?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            let version = lines.next().and_then(|l| l.strip_prefix("version = \"")).and_then(|v| v.strip_suffix('"'));
            return version.map(str::to_owned).context("Cargo.lock: wasm-bindgen without a version");
        }
    }
    bail!("Cargo.lock does not list wasm-bindgen")
}

/// Debian's Chromium and ChromeDriver, installed with apt when missing (as root).
pub fn ensure_browser() -> Result<()> {
    let present = |p: &str| std::path::Path::new(p).is_file();
    if present("/usr/bin/chromium") && present("/usr/bin/chromedriver") {
        return Ok(());
    }
    say("Chromium or ChromeDriver is missing; installing Debian's chromium and chromium-driver");
    let root_user = output("id", &["-u"]).as_deref() == Some("0");
    let (program, prefix): (&str, &[&str]) = if root_user { ("apt-get", &[]) } else { ("sudo", &["apt-get"]) };
    let with = |args: &[&str]| -> Vec<String> { prefix.iter().chain(args).map(|s| s.to_string()).collect() };
    let update = with(&["update"]);
    util::run(program, &update.iter().map(String::as_str).collect::<Vec<_>>(), &[], None)?;
    let install = with(&["install", "-y", "--no-install-recommends", "chromium", "chromium-driver"]);
    util::run(
        program,
        &install.iter().map(String::as_str).collect::<Vec<_>>(),
        &[("DEBIAN_FRONTEND", "noninteractive")],
        None,
    )
}

/// The official inspector and the Node 22 it needs, for `cargo xtask bench`, exactly as
/// `tests/bench/package-lock.json` pins them.
pub fn ensure_inspector() -> Result<()> {
    npm_ci(&root().join("tests/bench")).context("installing the official inspector needs Node.js and npm")
}

/// `npm ci` in `dir` unless its node_modules is newer than its lockfile.
fn npm_ci(dir: &std::path::Path) -> Result<()> {
    let lock = dir.join("package-lock.json");
    let installed = dir.join("node_modules/.package-lock.json");
    let fresh = match (std::fs::metadata(&lock), std::fs::metadata(&installed)) {
        (Ok(l), Ok(i)) => i.modified()? >= l.modified()?,
        _ => false,
    };
    if !fresh {
        util::run("npm", &["ci", "--no-audit", "--no-fund"], &[], Some(dir))?;
    }
    Ok(())
}

/// The npm MCP servers the tests run, exactly as `tests/servers/package-lock.json` pins them.
pub fn ensure_test_servers() -> Result<()> {
    let dir = root().join("tests/servers");
    npm_ci(&dir).context("installing the test servers needs Node.js and npm")?;
    // The Python test server runs on the official `mcp` package, pinned.
    let pinned = std::fs::read_to_string(dir.join("python/requirements.txt")).unwrap_or_default();
    let want = pinned.lines().find_map(|l| l.trim().strip_prefix("mcp==")).unwrap_or("").to_owned();
    let have = output("python3", &["-c", "import importlib.metadata as m, uvicorn; print(m.version('mcp'))"]);
    if have.as_deref() != Some(want.as_str()) {
        let reqs = dir.join("python/requirements.txt");
        util::run("python3", &["-m", "pip", "install", "--quiet", "-r", &reqs.to_string_lossy()], &[], None)
            .context("installing the Python test server's packages needs pip")?;
    }
    Ok(())
}

/// Everything the tests need beside the code: the page's tools, the browser, the test
/// servers and the JSON-Schema-Test-Suite.
pub fn ensure_test_tools() -> Result<()> {
    ensure_page_tools()?;
    ensure_browser()?;
    ensure_test_servers()?;
    ensure_schema_suite()
}

/// The PyPI release whose sdist carries the JSON-Schema-Test-Suite (`json/`), as the list
/// of expected failures pins it (`# suite jsonschema==X`): the list holds for that version.
fn schema_suite_pin() -> Result<String> {
    let list = std::fs::read_to_string(root().join("shared/testdata/schema-suite-expected-failures.txt"))?;
    let pin = list.lines().find_map(|l| l.strip_prefix("# suite ")).context("the list names no `# suite` pin")?;
    Ok(pin.trim().to_owned())
}

/// Where the official JSON-Schema-Test-Suite is unpacked; the shared crate's suite test
/// reads it from here.
fn schema_suite_dir(pin: &str) -> PathBuf {
    tools_dir().join("json-schema-test-suite").join(pin.replace("==", "-"))
}

/// The official JSON-Schema-Test-Suite, from the `json/` folder of PyPI's `jsonschema`
/// sdist at the pinned version, unless it is there already.
pub fn ensure_schema_suite() -> Result<()> {
    let pin = schema_suite_pin()?;
    let dir = schema_suite_dir(&pin);
    if dir.join("tests/draft2020-12").is_dir() {
        return Ok(());
    }
    let download = tools_dir().join("json-schema-test-suite/download");
    let _ = std::fs::remove_dir_all(&download);
    std::fs::create_dir_all(&download)?;
    let into = download.to_string_lossy().into_owned();
    let pip = ["-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:", "-d", &into, &pin];
    util::run("python3", &pip, &[], None).context("getting the JSON-Schema-Test-Suite needs pip")?;
    let sdist = std::fs::read_dir(&download)?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        .context("pip left no sdist")?;
    let unpacked = download.join("unpacked");
    std::fs::create_dir_all(&unpacked)?;
    let tar = ["-xzf", &sdist.to_string_lossy(), "-C", &unpacked.to_string_lossy(), "--wildcards", "*/json/*"]
        .map(str::to_owned);
    util::run("tar", &tar.iter().map(String::as_str).collect::<Vec<_>>(), &[], None)?;
    let top = std::fs::read_dir(&unpacked)?.flatten().next().context("the sdist is empty")?.path();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().context("a parent")?)?;
    std::fs::rename(top.join("json"), &dir).context("moving the suite into place")?;
    let _ = std::fs::remove_dir_all(&download);
    say(&format!("the JSON-Schema-Test-Suite of {pin} is in {}", dir.display()));
    Ok(())
}
