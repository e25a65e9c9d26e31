//! Building the page into dist/: the frontend compiled for wasm32, its JS glue made by the
//! project's own `wasm-bindgen` CLI, shrunk by `wasm-opt`, linked from `index.html`, then
//! gzip and brotli copies that the relay serves precompressed. No Trunk: it takes longer
//! to compile (6 to 15 minutes on 2 cores) than everything it would do here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::tools::path_with_tools;
use crate::util::{self, Job, root, say};
use crate::{player, split};

const PROFILE: &str = "wasm-release";
const TARGET: &str = "wasm32-unknown-unknown";
/// Where `index.html` gets the page's stylesheet, icon and script.
const ASSETS_MARK: &str = "<!-- page assets -->";
/// Where the split writes the main module and the chunks.
const SPLIT_DIR: &str = "target/page-split";

/// Starts compiling the frontend for wasm32 (the long part of a page build).
pub fn compile() -> Result<Job> {
    let remap = remap_paths();
    let args = ["build", "-p", "frontend", "--target", TARGET, "--profile", PROFILE, "--config", &remap];
    Job::start("page", &util::cargo_bin(), &args, &[])
}

/// The page's panic messages name source files relative to their crate's home, not by
/// where this checkout and the registry's sources are: the page names no directory of
/// the machine that built it, and weighs the same wherever it is built. (A `--config`
/// array is added to the ones of `.cargo/config.toml`.)
fn remap_paths() -> String {
    let mut checkout = root().display().to_string();
    checkout.push('/');
    let mut flags = vec![format!("--remap-path-prefix={checkout}=")];
    // One directory of sources per registry index.
    let registry = crate::tools::cargo_home().join("registry/src");
    for index in std::fs::read_dir(&registry).into_iter().flatten().flatten() {
        flags.push(format!("--remap-path-prefix={}/=", index.path().display()));
    }
    let quoted: Vec<String> = flags.iter().map(|f| format!("'{}'", f.replace('\'', ""))).collect();
    format!("target.{TARGET}.rustflags=[{}]", quoted.join(", "))
}

/// Whether dist/ was built after every source of the page last changed.
pub fn up_to_date() -> bool {
    fn newest(path: &Path) -> Option<std::time::SystemTime> {
        let meta = std::fs::metadata(path).ok()?;
        if meta.is_file() {
            return meta.modified().ok();
        }
        std::fs::read_dir(path).ok()?.flatten().filter_map(|e| newest(&e.path())).max()
    }
    let root = root();
    let built = root.join("dist/index.html.br");
    let Some(built) = std::fs::metadata(&built).and_then(|m| m.modified()).ok() else { return false };
    let sources = [
        "frontend",
        "shared/src",
        "shared/Cargo.toml",
        "index.html",
        "Cargo.lock",
        "Cargo.toml",
        ".cargo",
        "xtask/src",
    ];
    sources.iter().filter_map(|s| newest(&root.join(s))).all(|t| t < built)
}

/// From the compiled wasm to a complete dist/: bindings, wasm-opt, index.html, copies.
pub fn bundle() -> Result<()> {
    let started = Instant::now();
    let root = root();
    let stage = root.join("target/page-stage");
    let _ = std::fs::remove_dir_all(&stage);
    std::fs::create_dir_all(&stage)?;
    let wasm = root.join(format!("target/{TARGET}/{PROFILE}/frontend.wasm"));
    let parts = split::split(&wasm, &root.join(SPLIT_DIR))?;
    let path = path_with_tools();
    let (stage_s, main_s) = (show(&stage), show(&parts.main));
    util::run(
        "wasm-bindgen",
        &[
            "--target",
            "web",
            "--no-typescript",
            "--keep-lld-exports",
            "--out-name",
            "frontend",
            "--out-dir",
            &stage_s,
            &main_s,
        ],
        &[("PATH", &path)],
        None,
    )?;
    // The main module is most of wasm-opt's work: the chunks go beside it on the other core.
    let mut chunks = Vec::new();
    let link = std::thread::scope(|scope| -> Result<String> {
        let main = scope.spawn(|| optimize(&stage.join("frontend_bg.wasm"), &path));
        let mut link = std::fs::read_to_string(&parts.link).context("reading the link module")?;
        for chunk in &parts.chunks {
            let name = chunk.file_name().and_then(|n| n.to_str()).context("a chunk without a name")?.to_owned();
            std::fs::copy(chunk, stage.join(&name))?;
            optimize(&stage.join(&name), &path)?;
            // Content-hashed names: a new build is never mixed with a cached old one.
            let hashed = publish(&stage, &name, "wasm")?;
            let named = format!("\"./{name}\"");
            if !link.contains(&named) {
                bail!("the link module does not fetch {name} as {named}");
            }
            link = link.replace(&named, &format!("\"./{hashed}\""));
            chunks.push(hashed);
        }
        main.join().map_err(|_| anyhow::anyhow!("wasm-opt of the main module panicked"))??;
        Ok(link)
    })?;
    let wasm = publish(&stage, "frontend_bg.wasm", "wasm")?;
    let (js, link) = publish_pair(&stage, link)?;
    std::fs::copy(root.join("frontend/style.css"), stage.join("style.css"))?;
    let css = publish(&stage, "style.css", "css")?;
    std::fs::copy(root.join("frontend/favicon.svg"), stage.join("favicon.svg"))?;
    // The start-up lines live in a file of their own, never inline: the relay's
    // Content-Security-Policy allows scripts from the page's own origin only.
    let boot = format!("import init from \"/{js}\";\ninit({{ module_or_path: \"/{wasm}\" }});\n");
    std::fs::write(stage.join("boot.js"), boot)?;
    let boot = publish(&stage, "boot.js", "js")?;
    let template = std::fs::read_to_string(root.join("index.html")).context("reading index.html")?;
    if !template.contains(ASSETS_MARK) {
        bail!("index.html lacks the line {ASSETS_MARK}");
    }
    let assets = format!(
        r#"<link rel="stylesheet" href="/{css}" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="modulepreload" href="/{js}" />
    <link rel="modulepreload" href="/{link}" />
    <link rel="preload" href="/{wasm}" as="fetch" type="application/wasm" crossorigin />
    <script type="module" src="/{boot}"></script>"#
    );
    std::fs::write(stage.join("index.html"), template.replace(ASSETS_MARK, &assets))?;
    let parts = player::Parts { glue: &js, link: &link, wasm: &wasm, chunks: &chunks, css: &css };
    let size = player::build(&stage, &parts)?;
    say(&format!("offline player: {} KB", size / 1024));
    compress(&stage)?;
    let dist = root.join("dist");
    let _ = std::fs::remove_dir_all(&dist);
    std::fs::rename(&stage, &dist).context("moving the page into dist/")?;
    say(&format!("page bundled into dist/ in {:.1} s", started.elapsed().as_secs_f64()));
    Ok(())
}

/// The main module as split, before wasm-bindgen: its function names are kept.
pub fn split_main() -> PathBuf {
    root().join(SPLIT_DIR).join(split::MAIN)
}

/// `wasm-opt -Oz` over `file`, in place.
fn optimize(file: &Path, path: &str) -> Result<()> {
    let opt = file.with_extension("opt.wasm");
    let (in_s, out_s) = (show(file), show(&opt));
    // The features match what Rust's wasm32 target emits by default.
    // PAGE_KEEP_NAMES keeps the function names, for a profile that names them (bigger).
    let keep_names = std::env::var_os("PAGE_KEEP_NAMES").is_some();
    let args = [
        if keep_names { "-g" } else { "--strip-debug" },
        "-Oz",
        "--enable-bulk-memory",
        "--enable-mutable-globals",
        "--enable-nontrapping-float-to-int",
        "--enable-sign-ext",
        "--enable-reference-types",
        "--enable-multivalue",
        &in_s,
        "-o",
        &out_s,
    ];
    util::run("wasm-opt", &args, &[("PATH", path)], None)?;
    std::fs::rename(&opt, file)?;
    Ok(())
}

/// The JS glue and the link module import each other, so they are named by one hash of
/// both: `frontend-H.js` and `split-H.js`. Returns (glue, link) names.
fn publish_pair(dir: &Path, link: String) -> Result<(String, String)> {
    let glue = std::fs::read_to_string(dir.join("frontend.js")).context("reading the JS glue")?;
    // Only the import statement: the imports object keeps the name the wasm asks for.
    let import = |quote: char| format!("from {quote}{}{quote}", split::LINK);
    if !glue.contains(&import('\'')) && !glue.contains(&import('"')) {
        bail!("the JS glue does not import {}", split::LINK);
    }
    let hash = fnv(format!("{glue}\u{0}{link}").as_bytes());
    let (js, split_js) = (format!("frontend-{hash:016x}.js"), format!("split-{hash:016x}.js"));
    let glue = glue
        .replace(&import('\''), &format!("from './{split_js}'"))
        .replace(&import('"'), &format!("from \"./{split_js}\""));
    let link = link.replace(&format!("\"{}\"", split::GLUE), &format!("\"./{js}\""));
    std::fs::write(dir.join(&js), glue)?;
    std::fs::write(dir.join(&split_js), link)?;
    std::fs::remove_file(dir.join("frontend.js"))?;
    Ok((js, split_js))
}

/// FNV-1a: a name that changes with the content, not a security measure.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

fn show(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Renames `name` in `dir` to `stem-HASH.ext` and returns the new name.
fn publish(dir: &Path, name: &str, ext: &str) -> Result<String> {
    let from: PathBuf = dir.join(name);
    let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
    let hash = fnv(&bytes);
    let stem = name.trim_end_matches(&format!(".{ext}"));
    let to = format!("{stem}-{:016x}.{ext}", hash);
    std::fs::rename(&from, dir.join(&to))?;
    Ok(to)
}

fn compress(dir: &Path) -> Result<()> {
    let mut total = (0usize, 0usize, 0usize);
    for entry in std::fs::read_dir(dir).context("reading the staged page")? {
        let path = entry?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        // The offline player is a file `export` reads, never one a browser fetches.
        let player = path.file_name().is_some_and(|n| n == player::FILE);
        if !matches!(ext, "wasm" | "js" | "css" | "html" | "svg") || player {
            continue;
        }
        let bytes = std::fs::read(&path)?;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&bytes)?;
        let gz = gz.finish()?;
        let mut br = Vec::new();
        {
            let mut w = brotli::CompressorWriter::new(&mut br, 64 * 1024, 11, 22);
            w.write_all(&bytes)?;
        }
        std::fs::write(format!("{}.gz", path.display()), &gz)?;
        std::fs::write(format!("{}.br", path.display()), &br)?;
        total = (total.0 + bytes.len(), total.1 + gz.len(), total.2 + br.len());
    }
    say(&format!("page assets: {} KB raw, {} KB gzip, {} KB brotli", total.0 / 1024, total.1 / 1024, total.2 / 1024));
    Ok(())
}
