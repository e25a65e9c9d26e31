//! Names and types of the files the page saves. A server says what its bytes are, and a
//! saved file's extension decides what opens it, so the extension comes from a fixed
//! allow-list of media types, never from the server's words: `text/html` or
//! `application/x-msdownload` are saved as `.bin`. A name part from a server (a resource's
//! name or URI) keeps only harmless characters.

/// The media types a saved file may claim, each with the extension it gets.
const KNOWN: &[(&str, &str)] = &[
    ("image/png", "png"),
    ("image/jpeg", "jpg"),
    ("image/gif", "gif"),
    ("image/webp", "webp"),
    ("image/avif", "avif"),
    ("image/bmp", "bmp"),
    // Saved as a file, never rendered inline as a document of the page.
    ("image/svg+xml", "svg"),
    ("audio/wav", "wav"),
    ("audio/x-wav", "wav"),
    ("audio/wave", "wav"),
    ("audio/mpeg", "mp3"),
    ("audio/ogg", "ogg"),
    ("audio/flac", "flac"),
    ("audio/aac", "aac"),
    ("audio/mp4", "m4a"),
    ("audio/webm", "weba"),
    ("application/json", "json"),
    ("application/x-ndjson", "jsonl"),
    ("text/plain", "txt"),
    ("text/markdown", "md"),
    ("text/csv", "csv"),
    ("application/pdf", "pdf"),
    ("application/xml", "xml"),
    ("text/xml", "xml"),
    ("application/yaml", "yaml"),
    ("text/yaml", "yaml"),
    ("application/zip", "zip"),
    ("application/gzip", "gz"),
];

/// The extension of a file of anything else: bytes, opened by nothing in particular.
pub const UNKNOWN_EXTENSION: &str = "bin";

/// The Blob type of anything else.
pub const UNKNOWN_TYPE: &str = "application/octet-stream";

/// Longest name part kept from a server, in characters (the extension comes on top).
pub const MAX_STEM_CHARS: usize = 64;

/// The entry of the allow-list for `mime` (case and parameters such as `; charset=` aside).
fn known(mime: &str) -> Option<&'static (&'static str, &'static str)> {
    let essence = mime.split(';').next().unwrap_or_default().trim();
    KNOWN.iter().find(|(m, _)| m.eq_ignore_ascii_case(essence))
}

/// The extension of a saved file: from the allow-list, else `bin`.
pub fn extension(mime: &str) -> &'static str {
    known(mime).map_or(UNKNOWN_EXTENSION, |(_, ext)| ext)
}

/// The type of the Blob a file is saved from: the allow-list's own spelling, else
/// `application/octet-stream` (the server's string never reaches the browser as a type).
pub fn blob_type(mime: &str) -> &'static str {
    known(mime).map_or(UNKNOWN_TYPE, |(m, _)| m)
}

/// A file name: a harmless stem from `hint` (a resource's name or URI) or `fallback`, and
/// the extension of `mime` from the allow-list.
pub fn file_name(hint: Option<&str>, fallback: &str, mime: &str) -> String {
    format!("{}.{}", stem(hint, fallback), extension(mime))
}

/// The name of a recording saved as a web page (our own page, never a server's bytes):
/// a harmless stem from `hint` (the recording's name, its extension dropped) and `.html`.
pub fn page_name(hint: Option<&str>) -> String {
    format!("{}.html", stem(hint, "recording"))
}

/// A text's file name: as [`file_name`], but text of a type not on the list is `.txt`
/// (what it is, once saved: characters, opened by an editor).
pub fn text_file_name(hint: Option<&str>, fallback: &str, mime: &str) -> String {
    let ext = known(mime).map_or("txt", |(_, ext)| ext);
    format!("{}.{ext}", stem(hint, fallback))
}

/// The last path segment of `hint` (a URI's query and fragment dropped, its own extension
/// too), with ASCII letters, digits, `-`, `_` and inner dots only: no path separator, no
/// control or invisible character, no leading dot (no hidden file, no `..`), at most
/// [`MAX_STEM_CHARS`]. `fallback` (ours, already harmless) when nothing is left.
pub fn stem(hint: Option<&str>, fallback: &str) -> String {
    let Some(hint) = hint else { return fallback.to_owned() };
    let path = hint.split(['?', '#']).next().unwrap_or_default();
    let last = path.trim_end_matches(['/', '\\']).rsplit(['/', '\\', ':']).next().unwrap_or_default();
    let without_ext = match last.rsplit_once('.') {
        Some((stem, _)) if !stem.trim_start_matches('.').is_empty() => stem,
        _ => last,
    };
    let cleaned: String = without_ext
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' })
        .collect();
    let trimmed = cleaned.trim_start_matches(['.', '_']);
    let bounded: String = trimmed.chars().take(MAX_STEM_CHARS).collect();
    let bounded = bounded.trim_end_matches(['.', '_']);
    if bounded.is_empty() { fallback.to_owned() } else { bounded.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_comes_from_the_allow_list_only() {
        for (mime, ext) in [
            ("image/png", "png"),
            ("image/jpeg", "jpg"),
            ("IMAGE/JPEG", "jpg"),
            ("image/gif", "gif"),
            ("image/webp", "webp"),
            ("image/svg+xml", "svg"),
            ("audio/wav", "wav"),
            ("audio/mpeg", "mp3"),
            ("audio/ogg; codecs=opus", "ogg"),
            ("application/json", "json"),
            ("text/plain; charset=utf-8", "txt"),
            ("text/markdown", "md"),
            ("text/csv", "csv"),
            ("application/pdf", "pdf"),
            ("application/x-ndjson", "jsonl"),
        ] {
            assert_eq!(extension(mime), ext, "{mime}");
        }
        // What the old rule (the part after `/`) would have made an executable or a page.
        for mime in [
            "text/html",
            "application/x-msdownload",
            "application/x-sh",
            "image/x-exe",
            "application/hta",
            "image/../../evil",
            "exe",
            "",
            "text/javascript",
            "application/octet-stream",
        ] {
            assert_eq!(extension(mime), "bin", "{mime:?}");
            assert_eq!(blob_type(mime), "application/octet-stream", "{mime:?}");
        }
        assert_eq!(blob_type("Image/PNG; x=1"), "image/png");
    }

    #[test]
    fn a_name_from_a_server_is_made_harmless() {
        let name = |hint: &str| file_name(Some(hint), "file", "image/png");
        assert_eq!(name("demo://resource/session/chart.png"), "chart.png");
        assert_eq!(name("https://x.org/../../etc/passwd"), "passwd.png");
        assert_eq!(name("C:\\Windows\\system32\\evil.exe"), "evil.png");
        assert_eq!(name("mem://we ird/na me?.txt"), "na_me.png", "the query is dropped");
        assert_eq!(name("https://x.org/a.svg#frag"), "a.png");
        assert_eq!(name(".bashrc"), "bashrc.png", "no hidden file");
        assert_eq!(name("../.."), "file.png");
        assert_eq!(name("..."), "file.png");
        assert_eq!(name("a\u{0}b\u{1b}[31mc\nd"), "ab_31mcd.png", "control characters go");
        assert_eq!(name("invoice\u{202e}gnp.exe"), "invoice_gnp.png", "no right-to-left override");
        assert_eq!(name("report.pdf.exe"), "report.pdf.png", "only the last extension is the server's");
        assert_eq!(name("/"), "file.png");
        assert_eq!(file_name(None, "image", "text/html"), "image.bin");
        let long = "x".repeat(500);
        assert_eq!(stem(Some(&long), "file").len(), MAX_STEM_CHARS);
        assert_eq!(text_file_name(Some("file:///src/main.py"), "resource", "text/x-python"), "main.txt");
        assert_eq!(text_file_name(Some("notes/readme.md"), "resource", "text/markdown"), "readme.md");
        assert_eq!(text_file_name(Some("page.html"), "resource", "text/html"), "page.txt", "a page saved as text");
        assert_eq!(text_file_name(None, "text", "text/plain"), "text.txt");
    }
}
