//! A recording as one web page that plays anywhere: `mcp-playground export FILE -o
//! PAGE.html`, and the page's "Save as web page" (`POST /api/export`). The offline player
//! `cargo xtask page` leaves in dist/ (`player.html`: the page, its styles and every Wasm
//! module inside) gets the recording, gzip'd in base64, at its mark. The recording is
//! checked first, as `play` checks it: a file that is no recording makes no page.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use shared::recording;

use crate::record::{self, OpenError};

/// The offline player's file in the page's folder.
pub const PLAYER: &str = "player.html";
/// Where the recording goes (`xtask/src/player.rs` writes the same mark).
const MARK: &str = "<!-- recording -->";
/// The longest file name the page keeps (it says what plays).
const MAX_NAME: usize = 120;

/// Why no page was made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("the offline player is not built ({path}): run `cargo xtask page`, or point --assets at a built dist/")]
    NotBuilt { path: String },
    #[error(
        "{path} is no offline player of this version (it has no place for a recording): rebuild it with `cargo xtask page`"
    )]
    NoMark { path: String },
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error("cannot write {file}: {source}")]
    Write { file: String, source: std::io::Error },
}

/// The player of the page's folder `assets`.
pub fn player(assets: &Path) -> Result<String, ExportError> {
    let path = assets.join(PLAYER);
    let text =
        std::fs::read_to_string(&path).map_err(|_| ExportError::NotBuilt { path: path.display().to_string() })?;
    if text.matches(MARK).count() != 1 {
        return Err(ExportError::NoMark { path: path.display().to_string() });
    }
    Ok(text)
}

/// The page: `player` with the recording `text` (already checked) in it, named `name`.
pub fn page(player: &str, name: &str, text: &str) -> String {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = gz.write_all(text.as_bytes());
    let packed = base64::engine::general_purpose::STANDARD.encode(gz.finish().unwrap_or_default());
    let block = format!(
        "<script type=\"application/octet-stream\" id=\"mcp-recording\" data-name=\"{}\">{packed}</script>",
        safe_name(name)
    );
    player.replacen(MARK, &block, 1)
}

/// A file's name as an HTML attribute may hold it: letters, digits, `._- ` and no more.
fn safe_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let kept: String = base
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | ' ') { c } else { '_' })
        .take(MAX_NAME)
        .collect();
    if kept.trim().is_empty() { "recording.jsonl".to_owned() } else { kept }
}

/// What `export` wrote, for the person.
#[derive(Debug)]
pub struct Written {
    pub file: PathBuf,
    pub bytes: usize,
    pub recording_bytes: usize,
}

/// `mcp-playground export FILE [-o PAGE.html]`: the page next to the recording unless told
/// where.
pub fn run(file: &Path, output: Option<PathBuf>, assets: &Path) -> Result<Written, ExportError> {
    let player = player(assets)?;
    let (text, _) = record::open(file)?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let html = page(&player, &name, &text);
    let out = output.unwrap_or_else(|| file.with_extension("html"));
    std::fs::write(&out, &html).map_err(|source| ExportError::Write { file: out.display().to_string(), source })?;
    Ok(Written { file: out, bytes: html.len(), recording_bytes: text.len() })
}

/// Checks a recording the page sent, as [`record::open`] checks a file.
pub fn check(text: &str) -> Result<(), recording::Problem> {
    recording::parse(text).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYER_TEXT: &str = "<html><body>\n<!-- recording -->\n<script id=\"x\"></script></body></html>";

    #[test]
    fn the_recording_goes_at_the_mark_packed_and_named_safely() {
        let html = page(PLAYER_TEXT, "../a\"b<c>.jsonl", "{\"format\":1}\n</script><b>");
        assert!(!html.contains(MARK));
        assert!(html.contains(r#"id="mcp-recording" data-name="a_b_c_.jsonl">"#), "{html}");
        // Whatever the recording holds, it is base64 in the page: no markup of it survives.
        assert!(!html.contains("</script><b>"));
        let start = html.find("data-name=\"a_b_c_.jsonl\">").unwrap() + "data-name=\"a_b_c_.jsonl\">".len();
        let packed = &html[start..html[start..].find('<').unwrap() + start];
        let gz = base64::engine::general_purpose::STANDARD.decode(packed).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
        assert_eq!(text, "{\"format\":1}\n</script><b>");
    }

    #[test]
    fn an_empty_or_strange_name_becomes_a_plain_one() {
        assert_eq!(safe_name("dir/"), "recording.jsonl");
        assert_eq!(safe_name("démo 1.jsonl"), "démo 1.jsonl");
        assert_eq!(safe_name(&"x".repeat(500)).len(), MAX_NAME);
    }

    #[test]
    fn a_player_without_its_mark_or_missing_is_refused() {
        let dir = std::env::temp_dir().join(format!("mcp-playground-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(matches!(player(&dir), Err(ExportError::NotBuilt { .. })));
        std::fs::write(dir.join(PLAYER), "<html></html>").unwrap();
        assert!(matches!(player(&dir), Err(ExportError::NoMark { .. })));
        std::fs::write(dir.join(PLAYER), PLAYER_TEXT).unwrap();
        assert!(player(&dir).is_ok());
        let _ = std::fs::remove_dir_all(dir);
    }
}
