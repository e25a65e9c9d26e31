//! The offline player: `dist/player.html`, one HTML file that holds the whole page (its
//! styles, its JS made one inline module, and every Wasm module gzip'd in base64), for
//! `mcp-playground export` to put a recording in at [`RECORDING_MARK`]. It opens from
//! `file://` with no relay and no network: the chunks the page loads on first use come from
//! the file itself, and its own CSP allows nothing else.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use base64::Engine;
use sha2::Digest;

/// The file's name in dist/ (the relay's `export` reads it there).
pub const FILE: &str = "player.html";
/// Where `export` puts the recording; `backend/src/export.rs` names the same mark.
const RECORDING_MARK: &str = "<!-- recording -->";

/// The page's names in the staged dist/: the JS glue, the link module, the main Wasm, the
/// chunks, the stylesheet.
pub struct Parts<'a> {
    pub glue: &'a str,
    pub link: &'a str,
    pub wasm: &'a str,
    pub chunks: &'a [String],
    pub css: &'a str,
}

/// Writes [`FILE`] into `dir` (the staged dist/); returns its size in bytes.
pub fn build(dir: &Path, parts: &Parts) -> Result<usize> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).with_context(|| format!("reading {name}"));
    let (link, exported, assets) = link_module(&read(parts.link)?, parts.glue)?;
    let glue = glue_module(&read(parts.glue)?, parts.link)?;
    for chunk in parts.chunks {
        if !assets.contains(chunk) {
            bail!("the link module never loads {chunk}");
        }
    }
    let script = format!(
        "{PRELUDE}\n{link}\nconst __mcpSplit = {{ {} }};\n{glue}\n{BOOT}__wbg_init({{ module_or_path: __mcpAsset(\"{}\") }});\n",
        exported.join(", "),
        parts.wasm
    );
    if script.contains("</script") || script.contains("<!--") {
        bail!("the page's JS cannot be inlined: it holds </script or <!--");
    }
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script.as_bytes()));
    let mut blocks = String::new();
    for name in std::iter::once(parts.wasm).chain(assets.iter().map(String::as_str)) {
        let bytes = std::fs::read(dir.join(name)).with_context(|| format!("reading {name}"))?;
        blocks.push_str(&format!(
            "<script type=\"application/octet-stream\" id=\"asset:{name}\">{}</script>\n",
            base64::engine::general_purpose::STANDARD.encode(gzip(&bytes)?)
        ));
    }
    let css = read(parts.css)?;
    if css.contains("</style") {
        bail!("the stylesheet cannot be inlined: it holds </style");
    }
    let icon = base64::engine::general_purpose::STANDARD.encode(std::fs::read(dir.join("favicon.svg"))?);
    // No fetch, no socket, no frame: what the file holds is all it may use. Styles are
    // inline as in the page (`style=` attributes); images and sounds of results are
    // `data:` or `blob:`.
    let csp = format!(
        "default-src 'none'; script-src 'sha256-{hash}' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; \
         img-src data: blob:; media-src data: blob:; form-action 'none'; base-uri 'none'"
    );
    let html = format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta http-equiv="Content-Security-Policy" content="{csp}" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="color-scheme" content="light dark" />
<meta name="generator" content="MCP Playground {version}" />
<title>MCP Playground recording</title>
<link rel="icon" href="data:image/svg+xml;base64,{icon}" />
<style>{css}</style>
<script type="module">{script}</script>
</head>
<body>
{RECORDING_MARK}
{blocks}</body>
</html>
"#,
        version = env!("CARGO_PKG_VERSION"),
    );
    std::fs::write(dir.join(FILE), &html)?;
    Ok(html.len())
}

/// The file's bytes, read back into `Response`s: an asset's Wasm, the recording's text.
const PRELUDE: &str = r#"const __mcpBytes = (id) => {
  const text = document.getElementById(id).textContent.trim();
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const s = atob(text);
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
};
const __mcpGunzip = (id, type) => new Response(
  new Blob([__mcpBytes(id)]).stream().pipeThrough(new DecompressionStream("gzip")),
  { headers: { "content-type": type } });
const __mcpAsset = (name) => Promise.resolve(__mcpGunzip("asset:" + name, "application/wasm"));"#;

/// The recording, for the page to play (`frontend/src/store/offline.rs` reads it).
const BOOT: &str = r#"const __mcpRecording = document.getElementById("mcp-recording");
if (__mcpRecording) {
  globalThis.mcpPlayerRecording = {
    name: __mcpRecording.dataset.name || "recording.jsonl",
    blob: await __mcpGunzip("mcp-recording", "application/x-ndjson").blob(),
  };
}
"#;

/// The link module with its chunks read from the file, its exports made plain constants
/// and its import of the glue gone: (its text, the names it exported, the chunks' names).
fn link_module(link: &str, glue: &str) -> Result<(String, Vec<String>, Vec<String>)> {
    let import = format!("import {{ initSync }} from \"./{glue}\";");
    if !link.contains(&import) {
        bail!("the link module does not import the glue as {import}");
    }
    let mut text = link.replacen(&import, "", 1);
    let (open, close) = ("fetch(new URL(\"./", "\", import.meta.url))");
    let mut assets = Vec::new();
    while let Some(start) = text.find(open) {
        let rest = &text[start + open.len()..];
        let end = rest.find(close).context("a chunk's fetch is not closed")?;
        let name = rest[..end].to_owned();
        text.replace_range(start..start + open.len() + end + close.len(), &format!("__mcpAsset(\"{name}\")"));
        assets.push(name);
    }
    let mut exported = Vec::new();
    let text = text
        .lines()
        .map(|line| match line.strip_prefix("export const ") {
            Some(rest) => {
                exported.push(rest.split([' ', '=']).next().unwrap_or_default().to_owned());
                format!("const {rest}")
            }
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    if text.contains("import.meta") || text.lines().any(|l| l.starts_with("import ") || l.starts_with("export ")) {
        bail!("the link module changed shape: it still imports, exports or fetches by URL");
    }
    Ok((text, exported, assets))
}

/// The glue with its imports of the link module read from `__mcpSplit` and its exports
/// gone.
fn glue_module(glue: &str, link: &str) -> Result<String> {
    let mut out = Vec::new();
    let mut found_export = false;
    for line in glue.lines() {
        if let Some(rest) = line.strip_prefix("import * as ") {
            let (alias, from) = rest.split_once(" from ").context("an import without from")?;
            if from.trim_end_matches(';') != format!("\"./{link}\"") {
                bail!("the glue imports {from}");
            }
            out.push(format!("const {alias} = __mcpSplit;"));
        } else if let Some(rest) = line.strip_prefix("export class ") {
            out.push(format!("class {rest}"));
        } else if line.starts_with("export {") {
            found_export = true;
        } else if line.starts_with("import ") || line.starts_with("export ") {
            bail!("the glue changed shape: {line}");
        } else {
            out.push(line.to_owned());
        }
    }
    if !found_export {
        bail!("the glue does not export its init");
    }
    Ok(out.join("\n"))
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes)?;
    Ok(gz.finish()?)
}
