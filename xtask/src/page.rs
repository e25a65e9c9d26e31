//! Building the page: Trunk (with the project's own wasm-bindgen and wasm-opt, never a
//! download) into dist/, then gzip and brotli copies that the relay serves precompressed.

use std::io::Write;

use anyhow::{Context, Result};

use crate::tools::path_with_tools;
use crate::util::{self, root, say};

pub fn build() -> Result<()> {
    if up_to_date() {
        say("the page in dist/ is newer than its sources; not rebuilt");
        return Ok(());
    }
    util::run("trunk", &["build", "--release"], &[("PATH", &path_with_tools())], None)?;
    compress()
}

/// Whether dist/ was built after every source of the page last changed.
fn up_to_date() -> bool {
    fn newest(path: &std::path::Path) -> Option<std::time::SystemTime> {
        let meta = std::fs::metadata(path).ok()?;
        if meta.is_file() {
            return meta.modified().ok();
        }
        std::fs::read_dir(path).ok()?.flatten().filter_map(|e| newest(&e.path())).max()
    }
    let root = root();
    let built = root.join("dist/index.html.br");
    let Some(built) = std::fs::metadata(&built).and_then(|m| m.modified()).ok() else { return false };
    let sources =
        ["frontend", "shared/src", "shared/Cargo.toml", "index.html", "Trunk.toml", "Cargo.lock", "Cargo.toml"];
    sources.iter().filter_map(|s| newest(&root.join(s))).all(|t| t < built)
}

fn compress() -> Result<()> {
    let dist = root().join("dist");
    let mut total = (0usize, 0usize, 0usize);
    for entry in std::fs::read_dir(&dist).context("reading dist/")? {
        let path = entry?.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "wasm" | "js" | "css" | "html" | "svg") {
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
