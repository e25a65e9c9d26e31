//! The page's wasm cut at its split points (`lazy_view!`) into a main module and chunks loaded on
//! first use (`wasm_split_cli_support`, the splitter `cargo-leptos --split` runs). The
//! compiled wasm keeps its relocations for this (`.cargo/config.toml`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};

/// The main module's JS glue, as the link module imports it before the names are hashed.
pub const GLUE: &str = "./frontend.js";
/// The link module, as the glue imports it before the names are hashed.
pub const LINK: &str = "./__wasm_split.js";
/// The main module's file in the split's folder.
pub const MAIN: &str = "main.wasm";

/// What the split wrote into its folder.
pub struct Split {
    /// The main module, for wasm-bindgen.
    pub main: PathBuf,
    /// The chunks, each a `.wasm` file the link module fetches by its name.
    pub chunks: Vec<PathBuf>,
    /// The link module: the loaders of the chunks.
    pub link: PathBuf,
}

/// Splits `wasm` into `dir`, emptied first (the splitter creates it again).
pub fn split(wasm: &Path, dir: &Path) -> Result<Split> {
    let _ = std::fs::remove_dir_all(dir);
    let input = std::fs::read(wasm).with_context(|| format!("reading {}", wasm.display()))?;
    let main = dir.join(MAIN);
    let mut opts = wasm_split_cli_support::Options::new(&input);
    opts.output_dir = dir;
    opts.main_out_path = &main;
    opts.main_module = GLUE;
    opts.link_name = LINK;
    let split = wasm_split_cli_support::transform(opts).map_err(|e| anyhow!("splitting the page's wasm: {e:#}"))?;
    let link = dir.join(LINK.trim_start_matches("./"));
    if !link.is_file() {
        anyhow::bail!("the splitter wrote no link module ({})", link.display());
    }
    Ok(Split { main, chunks: split.split_modules, link })
}
