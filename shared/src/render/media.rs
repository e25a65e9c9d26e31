//! Base64 media a server sends (images, audio, blobs): its size without decoding it all, a
//! look at its first bytes to check the declared mime type, and clear notices when the
//! data or the type is wrong.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// What the page needs to show a piece of base64 media.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaInfo {
    /// The mime type to use (the declared one, or the sniffed one when none was declared).
    pub mime: String,
    /// Decoded size in bytes.
    pub bytes: usize,
    /// Something a person should know: bad data, a missing or wrong mime type.
    pub notice: Option<String>,
    /// Whether the browser can be asked to show it at all.
    pub playable: bool,
}

/// The kind of media a content item claims to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Image,
    Audio,
}

/// Decoded size of base64 text, or `None` when it is not valid base64 in length or alphabet.
/// Only the length and the alphabet are checked, so a 20 MB image costs one pass.
pub fn decoded_len(data: &str) -> Option<usize> {
    let data = data.trim_end();
    if !data.len().is_multiple_of(4) {
        return None;
    }
    let body = data.trim_end_matches('=');
    if data.len() - body.len() > 2 || !body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
        return None;
    }
    Some(data.len() / 4 * 3 - (data.len() - body.len()))
}

/// The mime type the first bytes suggest.
pub fn sniff(head: &[u8]) -> Option<&'static str> {
    let starts = |magic: &[u8]| head.starts_with(magic);
    Some(if starts(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if starts(b"\xff\xd8\xff") {
        "image/jpeg"
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        "image/gif"
    } else if head.len() >= 12 && starts(b"RIFF") && &head[8..12] == b"WEBP" {
        "image/webp"
    } else if head.len() >= 12 && starts(b"RIFF") && &head[8..12] == b"WAVE" {
        "audio/wav"
    } else if starts(b"BM") {
        "image/bmp"
    } else if starts(b"ID3") || starts(b"\xff\xfb") || starts(b"\xff\xf3") {
        "audio/mpeg"
    } else if starts(b"OggS") {
        "audio/ogg"
    } else if starts(b"fLaC") {
        "audio/flac"
    } else if starts(b"<svg") || starts(b"<?xml") {
        "image/svg+xml"
    } else {
        return None;
    })
}

fn same_type(declared: &str, sniffed: &str) -> bool {
    let norm = |m: &str| match m {
        "image/jpg" => "image/jpeg".to_owned(),
        "audio/x-wav" | "audio/wave" | "audio/vnd.wave" => "audio/wav".to_owned(),
        "audio/mp3" => "audio/mpeg".to_owned(),
        other => other.to_owned(),
    };
    norm(declared) == norm(sniffed)
}

/// Checks base64 media against what it claims to be.
pub fn inspect(kind: MediaKind, declared_mime: &str, data: &str) -> MediaInfo {
    let declared = declared_mime.trim().to_ascii_lowercase();
    let family = match kind {
        MediaKind::Image => "image/",
        MediaKind::Audio => "audio/",
    };
    let Some(bytes) = decoded_len(data) else {
        return MediaInfo {
            mime: declared,
            bytes: 0,
            notice: Some("the data is not valid base64, so it cannot be shown".into()),
            playable: false,
        };
    };
    if bytes == 0 {
        return MediaInfo { mime: declared, bytes, notice: Some("the data is empty".into()), playable: false };
    }
    // The first 24 base64 characters are 18 bytes: enough for every signature above. Cut
    // after trailing whitespace is gone: what is left is ASCII (checked by `decoded_len`),
    // so no cut falls inside a character.
    let data = data.trim_end();
    let head = STANDARD.decode(&data[..data.len().min(24)]).unwrap_or_default();
    let sniffed = sniff(&head);
    let (mime, notice) = match (declared.is_empty(), sniffed) {
        (true, Some(s)) => (s.to_owned(), Some(format!("no mimeType was given; the data looks like {s}"))),
        (true, None) => (String::new(), Some("no mimeType was given and the data is of no known type".into())),
        (false, _) if !declared.starts_with(family) => {
            let what = if kind == MediaKind::Image { "an image" } else { "audio" };
            (declared.clone(), Some(format!("mimeType {declared} is not {what} type")))
        }
        (false, Some(s)) if !same_type(&declared, s) => {
            (s.to_owned(), Some(format!("declared as {declared} but the data looks like {s}")))
        }
        _ => (declared.clone(), None),
    };
    let playable = mime.starts_with(family);
    MediaInfo { mime, bytes, notice, playable }
}

/// A size for people: bytes, KB or MB.
pub fn human_size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const PNG: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    #[test]
    fn lengths_without_decoding() {
        assert_eq!(decoded_len("aGVsbG8="), Some(5));
        assert_eq!(decoded_len("aGVsbG8h"), Some(6));
        assert_eq!(decoded_len(""), Some(0));
        assert_eq!(decoded_len("aGVsbG8"), None);
        assert_eq!(decoded_len("aGV$bG8="), None);
        assert_eq!(decoded_len(PNG), Some(STANDARD.decode(PNG).unwrap().len()));
    }

    #[test]
    fn notices_for_bad_media() {
        let cases = [
            (MediaKind::Image, "image/png", PNG),
            (MediaKind::Image, "", PNG),
            (MediaKind::Image, "image/jpeg", PNG),
            (MediaKind::Image, "text/plain", PNG),
            (MediaKind::Image, "image/png", "!!not base64!!"),
            (MediaKind::Audio, "audio/wav", "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="),
            (MediaKind::Audio, "", "AAAA"),
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|(k, m, d)| {
                let i = inspect(*k, m, d);
                format!("{} {} playable={} {}", i.mime, i.bytes, i.playable, i.notice.unwrap_or_default())
            })
            .collect();
        expect![[r#"
            image/png 70 playable=true 
            image/png 70 playable=true no mimeType was given; the data looks like image/png
            image/png 70 playable=true declared as image/jpeg but the data looks like image/png
            text/plain 70 playable=false mimeType text/plain is not an image type
            image/png 0 playable=false the data is not valid base64, so it cannot be shown
            audio/wav 44 playable=true 
             3 playable=false no mimeType was given and the data is of no known type"#]]
        .assert_eq(&out.join("\n"));
        assert_eq!(human_size(20 * 1024 * 1024 + 1), "20.0 MB");
    }

    #[test]
    fn trailing_multibyte_whitespace_is_not_cut_inside() {
        // 20 base64 characters, then ideographic spaces (3 bytes each) across byte 24.
        let data = format!("{}\u{3000}\u{3000}", &PNG[..20]);
        let i = inspect(MediaKind::Image, "image/png", &data);
        assert_eq!((i.mime.as_str(), i.bytes, i.notice), ("image/png", 15, None));
    }
}
