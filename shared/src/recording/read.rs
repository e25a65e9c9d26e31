//! Reading a recording, tolerantly: a bad line is named and skipped, a file cut off midway
//! plays up to the cut, a newer format version plays as far as it can be read. Only a file
//! that is not a recording at all is refused. Large files are read a slice at a time
//! ([`Reader::read`]), so a page can stay responsive while it reads 100 MB.

use serde_json::Value;

use super::{Entry, EntryLine, FORMAT, Header, VERSION};

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
        let first = text[..first_end].trim();
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
        let offset = (first_end + 1).min(text.len());
        Ok(Reader { header, entries: Vec::new(), problems, offset, line: 2 })
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

fn entry(e: EntryLine) -> Result<Entry, String> {
    match (e.dir, e.frame, e.event) {
        (Some(direction), Some(frame), None) => Ok(Entry::Message { at_ms: e.t, direction, frame }),
        (None, None, Some(event)) => Ok(Entry::Event { at_ms: e.t, event }),
        _ => Err("an entry has either \"dir\" and \"frame\", or \"event\"".into()),
    }
}
