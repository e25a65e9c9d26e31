//! Files only the user may read: the folder where the relay keeps what outlives a run
//! (`$XDG_STATE_HOME/mcp-playground`, else `~/.local/state/mcp-playground`), and a write
//! that makes a file there mode 0600 in a 0700 folder and swaps it in whole.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// `$XDG_STATE_HOME/mcp-playground/NAME`, else `~/.local/state/mcp-playground/NAME`.
pub fn state_file(name: &str) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()).map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/state"))
    })?;
    Some(base.join("mcp-playground").join(name))
}

/// Writes `bytes` to `file`: a new file beside it, readable by the user only, then renamed
/// over it, so a reader sees the old file or the new one, never half of one. The error
/// names what could not be done.
pub fn write(file: &Path, bytes: &[u8]) -> Result<(), (&'static str, PathBuf, std::io::Error)> {
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    private_dir(dir).map_err(|e| ("make", dir.to_owned(), e))?;
    // A name of this write's own: two relays of the user never share a half-written file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = file.with_extension(format!("{}-{n}.tmp", std::process::id()));
    write_new(&temp, bytes).map_err(|e| ("write", temp.clone(), e))?;
    std::fs::rename(&temp, file).map_err(|e| ("write", file.to_owned(), e))
}

fn private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let _ = std::fs::remove_file(path);
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}
