//! Newline-delimited framing for stdio servers, bounded: a line longer than the limit is
//! measured and skipped rather than buffered, so a runaway server cannot exhaust memory.

use std::io;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One line read from a stream, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The first `max` bytes of the line at most.
    pub bytes: Vec<u8>,
    /// The whole line's size in bytes, kept or not.
    pub size: usize,
}

impl Line {
    pub fn truncated(&self) -> bool {
        self.size > self.bytes.len()
    }
}

/// Reads lines of at most `max` kept bytes from `reader`.
pub struct LineReader<R> {
    reader: R,
    max: usize,
}

impl<R: AsyncBufRead + Unpin> LineReader<R> {
    pub fn new(reader: R, max: usize) -> Self {
        Self { reader, max }
    }

    /// The next line, or `None` at the end of the stream. A last line without a newline
    /// still counts; `\r\n` endings are accepted.
    pub async fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut bytes = Vec::new();
        let mut size = 0usize;
        let mut any = false;
        // The line's last byte, kept or not: a `\r` there is its ending's, not its content.
        let mut last = None;
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(any.then(|| finish(bytes, size, last)));
            }
            any = true;
            let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            let room = self.max.saturating_sub(bytes.len());
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            size += chunk.len();
            last = chunk.last().copied().or(last);
            let used = chunk.len() + usize::from(found);
            self.reader.consume(used);
            if found {
                return Ok(Some(finish(bytes, size, last)));
            }
        }
    }
}

/// The line without the `\r` of a `\r\n` ending, which is neither kept nor counted: a line
/// of exactly the limit fits whichever ending it has.
fn finish(mut bytes: Vec<u8>, mut size: usize, last: Option<u8>) -> Line {
    if last == Some(b'\r') {
        size -= 1;
        bytes.truncate(size);
    }
    Line { bytes, size }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::BufReader;

    async fn lines(input: &[u8], max: usize, buf_cap: usize) -> Vec<(String, usize, bool)> {
        let mut r = LineReader::new(BufReader::with_capacity(buf_cap, input), max);
        let mut out = Vec::new();
        while let Some(l) = r.next_line().await.unwrap() {
            let t = l.truncated();
            out.push((String::from_utf8_lossy(&l.bytes).into_owned(), l.size, t));
        }
        out
    }

    #[tokio::test]
    async fn splits_and_bounds_lines_whatever_the_buffer_size() {
        let input = b"{\"a\":1}\r\nshort\n0123456789abcdef\n\nlast-no-newline";
        for cap in [1, 3, 7, 64] {
            let got = lines(input, 10, cap).await;
            assert_eq!(
                got,
                vec![
                    ("{\"a\":1}".to_string(), 7, false),
                    ("short".to_string(), 5, false),
                    ("0123456789".to_string(), 16, true),
                    (String::new(), 0, false),
                    ("last-no-ne".to_string(), 15, true),
                ],
                "buffer capacity {cap}"
            );
        }
    }

    #[tokio::test]
    async fn a_huge_line_is_measured_not_kept() {
        let mut input = vec![b'x'; 5_000_000];
        input.extend_from_slice(b"\nok\n");
        let got = lines(&input, 1024, 8192).await;
        assert_eq!(got[0].1, 5_000_000);
        assert_eq!(got[0].0.len(), 1024);
        assert_eq!(got[1], ("ok".to_string(), 2, false));
    }

    #[tokio::test]
    async fn empty_input_has_no_lines() {
        assert!(lines(b"", 10, 4).await.is_empty());
    }
}
