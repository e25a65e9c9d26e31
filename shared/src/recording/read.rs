//! Reading a recording, tolerantly: a bad line is named and skipped, a file cut off midway
//! plays up to the cut, a newer format version plays as far as it can be read. Only a file
//! that is not a recording at all is refused. Large files are read a slice at a time
//! ([`Reader::read`]), so a page can stay responsive while it reads 100 MB.

use serde_json::Value;

use super::{APP_LANE, Entry, EntryLine, FORMAT, Header, VERSION};
use crate::relay::Direction;

/// Bytes read in one slice at most (the line that crosses it is finished).
pub const SLICE_BYTES: usize = 4 * 1024 * 1024;

/// Something wrong at one line of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A recording as read: what could be read, and what could not.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub header: Header,
    pub entries: Vec<Entry>,
    pub problems: Vec<Problem>,
}

/// Reads a whole recording at once.
pub fn parse(text: &str) -> Result<Recording, Problem> {
    let mut reader = Reader::start(text)?;
    while reader.read(text, usize::MAX) {}
    Ok(reader.finish())
}

/// A recording being read, a slice at a time.
#[derive(Debug)]
pub struct Reader {
    header: Header,
    entries: Vec<Entry>,
    problems: Vec<Problem>,
    /// Byte offset of the next line.
    offset: usize,
    /// 1-based number of the next line.
    line: usize,
}

impl Reader {
    /// Reads the header line of `text`; refuses what is not a recording.
    pub fn start(text: &str) -> Result<Reader, Problem> {
        let first_end = text.find('\n').unwrap_or(text.len());
        let mut reader = Self::from_header(&text[..first_end])?;
        reader.offset = (first_end + 1).min(text.len());
        Ok(reader)
    }

    /// A reader from the header line alone; refuses what is not a recording.
    fn from_header(first: &str) -> Result<Reader, Problem> {
        let first = first.trim();
        let refuse = |message: String| Err(Problem { line: 1, message });
        if first.is_empty() {
            return refuse("the file is empty: a recording starts with a header line".into());
        }
        let value: Value = match serde_json::from_str(first) {
            Ok(v) => v,
            Err(e) => {
                return refuse(format!(
                    "not a recording: the first line is not JSON ({e}); a recording starts with {{\"format\": \"{FORMAT}\", …}}"
                ));
            }
        };
        let format = value.get("format").and_then(Value::as_str).unwrap_or_default();
        if format != FORMAT {
            let found = if format.is_empty() { "no \"format\"".to_owned() } else { format!("\"format\": {format:?}") };
            return refuse(format!("not a recording: the header has {found}, not \"{FORMAT}\""));
        }
        let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
        let mut problems = Vec::new();
        if version > u64::from(VERSION) {
            problems.push(Problem {
                line: 1,
                message: format!(
                    "written in format version {version}, newer than this playground reads ({VERSION}): shown as far as it can be read"
                ),
            });
        }
        let header = match serde_json::from_value::<Header>(value) {
            Ok(h) => h,
            Err(e) => return refuse(format!("the header cannot be read: {e}")),
        };
        Ok(Reader { header, entries: Vec::new(), problems, offset: 0, line: 2 })
    }

    /// Reads up to `budget` more lines of `text` (the same text given to `start`), and
    /// stops early after [`SLICE_BYTES`] (a few huge lines are a slice too); false once the
    /// end is reached.
    pub fn read(&mut self, text: &str, budget: usize) -> bool {
        let mut done = 0;
        let started_at = self.offset;
        while self.offset < text.len() && done < budget && self.offset - started_at < SLICE_BYTES {
            let rest = &text[self.offset..];
            let (line, ended) = match rest.find('\n') {
                Some(end) => (&rest[..end], true),
                None => (rest, false),
            };
            self.offset += line.len() + usize::from(ended);
            self.read_line(line.trim_end_matches('\r'), ended);
            self.line += 1;
            done += 1;
        }
        self.offset < text.len()
    }

    /// Lines read so far (for a progress display), and the byte offset reached.
    pub fn progress(&self) -> (usize, usize) {
        (self.line - 1, self.offset)
    }

    pub fn finish(self) -> Recording {
        Recording { header: self.header, entries: self.entries, problems: self.problems }
    }

    fn read_line(&mut self, line: &str, ended: bool) {
        if line.trim().is_empty() {
            return;
        }
        let problem = match serde_json::from_str::<EntryLine>(line) {
            Ok(e) => match entry(e) {
                Ok(entry) => return self.entries.push(entry),
                Err(why) => why,
            },
            Err(_) if !ended => "cut off: the file ends in the middle of this line".to_owned(),
            Err(e) => format!("not an entry of a recording ({e})"),
        };
        self.problems.push(Problem { line: self.line, message: problem });
    }
}

/// A recording read from bytes as they arrive (a file read in slices): only whole lines
/// are read, so a slice may end anywhere, even inside a character.
#[derive(Debug, Default)]
pub struct ByteReader {
    reader: Option<Reader>,
    /// The start of a line whose end has not arrived yet.
    pending: Vec<u8>,
}

impl ByteReader {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the whole lines `bytes` completes; fails only when the first line shows the
    /// file is not a recording.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Problem> {
        self.pending.extend_from_slice(bytes);
        let Some(last_newline) = self.pending.iter().rposition(|b| *b == b'\n') else { return Ok(()) };
        let rest = self.pending.split_off(last_newline + 1);
        let whole = std::mem::replace(&mut self.pending, rest);
        for line in whole[..whole.len() - 1].split(|b| *b == b'\n') {
            self.line(line, true)?;
        }
        Ok(())
    }

    /// The recording, once every byte was fed; a last line without its newline is read too
    /// (and named when it is cut off).
    pub fn finish(mut self) -> Result<Recording, Problem> {
        let last = std::mem::take(&mut self.pending);
        if !last.is_empty() {
            self.line(&last, false)?;
        }
        match self.reader {
            Some(r) => Ok(r.finish()),
            None => {
                Err(Problem { line: 1, message: "the file is empty: a recording starts with a header line".into() })
            }
        }
    }

    /// Entries read so far.
    pub fn entries(&self) -> usize {
        self.reader.as_ref().map_or(0, |r| r.entries.len())
    }

    fn line(&mut self, bytes: &[u8], ended: bool) -> Result<(), Problem> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches('\r');
        match &mut self.reader {
            None => self.reader = Some(Reader::from_header(text)?),
            Some(r) => {
                r.read_line(text, ended);
                r.line += 1;
            }
        }
        Ok(())
    }
}

fn entry(e: EntryLine) -> Result<Entry, String> {
    match (e.lane.as_deref(), e.dir, e.frame, e.event) {
        (None, Some(direction), Some(frame), None) => Ok(Entry::Message { at_ms: e.t, direction, frame }),
        (None, None, None, Some(event)) => Ok(Entry::Event { at_ms: e.t, event }),
        (Some(APP_LANE), Some(dir), Some(frame), None) => {
            Ok(Entry::View { at_ms: e.t, to_view: dir == Direction::Out, frame })
        }
        (Some(lane), ..) if lane != APP_LANE => Err(format!("an entry of an unknown lane {lane:?}")),
        _ => Err("an entry has either \"dir\" and \"frame\", or \"event\"".into()),
    }
}
