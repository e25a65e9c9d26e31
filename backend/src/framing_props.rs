//! Properties of the bounded line reader: whatever lines a server writes, however the pipe
//! cuts them, each line comes back once, in order, whole or measured as too long with its
//! exact size; none is lost or merged with the next.

use std::pin::Pin;
use std::task::{Context, Poll};

use proptest::prelude::*;
use tokio::io::{AsyncRead, BufReader, ReadBuf};

use crate::framing::LineReader;

/// Bytes delivered in chunks of the given sizes, as a pipe might deliver them.
struct Chunked {
    data: Vec<u8>,
    sizes: Vec<usize>,
    at: usize,
    read: usize,
}

impl AsyncRead for Chunked {
    fn poll_read(mut self: Pin<&mut Self>, _: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let size = self.sizes.get(self.read % self.sizes.len().max(1)).copied().unwrap_or(1).max(1);
        let end = (self.at + size).min(self.data.len()).min(self.at + buf.remaining());
        buf.put_slice(&self.data[self.at..end]);
        self.at = end;
        self.read += 1;
        Poll::Ready(Ok(()))
    }
}

/// Every line read from `input` with at most `max` bytes kept: (kept bytes, size).
fn read_all(input: Vec<u8>, max: usize, sizes: Vec<usize>, capacity: usize) -> Vec<(Vec<u8>, usize)> {
    let rt = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    rt.block_on(async {
        let reader = BufReader::with_capacity(capacity, Chunked { data: input, sizes, at: 0, read: 0 });
        let mut lines = LineReader::new(reader, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line().await.expect("reading memory cannot fail") {
            assert_eq!(line.truncated(), line.size > max, "truncated() says whether the size is over the limit");
            out.push((line.bytes, line.size));
        }
        out
    })
}

/// Line contents: any bytes but the line ending's, some far longer than the limit.
fn contents() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let byte = any::<u8>().prop_filter("no line ending", |b| *b != b'\n' && *b != b'\r');
    prop::collection::vec(prop::collection::vec(byte, 0..48), 0..24)
}

/// Writes `lines`, each ended by `\n` or (where `crlf` says so) `\r\n`; the last one without
/// an ending when `open_end`.
fn write(lines: &[Vec<u8>], crlf: &[bool], open_end: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        out.extend_from_slice(line);
        if open_end && i + 1 == lines.len() {
            break;
        }
        if crlf.get(i).copied().unwrap_or(false) {
            out.push(b'\r');
        }
        out.push(b'\n');
    }
    out
}

/// What must come back: each line cut to `max` bytes, with its whole size.
fn expected(lines: &[Vec<u8>], max: usize, open_end: bool) -> Vec<(Vec<u8>, usize)> {
    let mut want: Vec<(Vec<u8>, usize)> = lines.iter().map(|l| (l[..l.len().min(max)].to_vec(), l.len())).collect();
    // An empty last line without an ending is no line at all.
    if open_end && lines.last().is_some_and(Vec::is_empty) {
        want.pop();
    }
    want
}

proptest! {
    // A few hundred cases run in a second or two in CI; failures are written up as plain
    // tests rather than kept in regression files.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(256) })]

    #[test]
    fn lines_ended_by_lf_come_back_whole_or_measured(
        lines in contents(),
        open_end in any::<bool>(),
        max in 1usize..40,
        sizes in prop::collection::vec(1usize..64, 1..8),
        capacity in 1usize..64,
    ) {
        let input = write(&lines, &[], open_end);
        prop_assert_eq!(read_all(input, max, sizes, capacity), expected(&lines, max, open_end));
    }

    #[test]
    fn lines_ended_by_crlf_or_lf_come_back_whole_or_measured(
        lines in contents(),
        crlf in prop::collection::vec(any::<bool>(), 24),
        open_end in any::<bool>(),
        max in 1usize..40,
        sizes in prop::collection::vec(1usize..64, 1..8),
        capacity in 1usize..64,
    ) {
        let input = write(&lines, &crlf, open_end);
        prop_assert_eq!(read_all(input, max, sizes, capacity), expected(&lines, max, open_end));
    }
}

/// A line of exactly the limit, ended by `\r\n`, fits: it is not truncated.
#[test]
fn a_line_of_exactly_the_limit_ended_by_crlf_fits() {
    assert_eq!(read_all(b"abc\r\nabcd\r\n".to_vec(), 3, vec![64], 64), [(b"abc".to_vec(), 3), (b"abc".to_vec(), 4)]);
}
