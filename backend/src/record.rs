//! Recording files: written as a session happens, for the relay's `--record DIR` and the
//! headless commands' `--record FILE` (each line is written and flushed as soon as
//! [`LiveRecorder`] releases it, so a relay that is killed leaves a file that reads up to
//! its last message; a write that fails is logged once and ends the recording, never the
//! session it records), and read back whole for `play`, `mock` and `replay` ([`open`]).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use shared::recording::{self, Header, LiveRecorder};
use shared::relay::{ServerMsg, Target};

/// The largest recording file read back (a mock holds every answer in memory).
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Problems of a recording named in the log (the rest are counted).
const PROBLEMS_LOGGED: usize = 10;

/// Why a recording file cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot read the recording {file}: {error}")]
    Unreadable { file: String, error: io::Error },
    #[error("the recording {file} is {size} bytes, more than the {MAX_FILE_BYTES} that are read")]
    TooLarge { file: String, size: u64 },
    #[error("the recording {file} is not UTF-8 text")]
    NotText { file: String },
    #[error("{file} cannot be read as a recording: {problem}")]
    NotRecording { file: String, problem: recording::Problem },
}

/// Reads the recording at `path` whole: its text as it is, and what it holds. A file that is
/// no recording is refused; the problems of one with bad lines are logged.
pub fn open(path: &Path) -> Result<(String, recording::Recording), OpenError> {
    let file = path.display().to_string();
    let unreadable = |error| OpenError::Unreadable { file: file.clone(), error };
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > MAX_FILE_BYTES {
        return Err(OpenError::TooLarge { file, size });
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    let text = String::from_utf8(bytes).map_err(|_| OpenError::NotText { file: file.clone() })?;
    let rec = recording::parse(&text).map_err(|problem| OpenError::NotRecording { file: file.clone(), problem })?;
    for problem in rec.problems.iter().take(PROBLEMS_LOGGED) {
        tracing::warn!(%file, "skipped {problem}");
    }
    if rec.problems.len() > PROBLEMS_LOGGED {
        tracing::warn!(%file, more = rec.problems.len() - PROBLEMS_LOGGED, "more lines skipped");
    }
    Ok((text, rec))
}

/// Names tried for one session's file in a directory (`NAME.jsonl`, `NAME-2.jsonl`, …).
const NAME_TRIES: usize = 1000;

/// A recording being written.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    file: BufWriter<File>,
    live: LiveRecorder,
    /// A write failed: nothing more is written.
    failed: bool,
}

impl RecordFile {
    /// Records to `path`, truncating what is there (`tools`/`call --record FILE`).
    pub fn create(path: &Path, header: Header) -> io::Result<Self> {
        let file = File::create(path)?;
        Ok(Self::new(path.to_owned(), file, header))
    }

    /// Records to a new file in `dir` named after the session (`--record DIR`): when it
    /// began and what it reached, with a number added when that name is taken.
    pub fn create_in(dir: &Path, header: Header, target: &Target) -> io::Result<Self> {
        let name = recording::file_name(header.started_at_ms, target);
        let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
        for n in 1..=NAME_TRIES {
            let path = if n == 1 { dir.join(&name) } else { dir.join(format!("{stem}-{n}.jsonl")) };
            // `create_new`: two sessions starting in the same second never share a file.
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => return Ok(Self::new(path, file, header)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{NAME_TRIES} files named {stem}… exist already")))
    }

    fn new(path: PathBuf, file: File, header: Header) -> Self {
        Self { path, file: BufWriter::new(file), live: LiveRecorder::new(header), failed: false }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// False once a write has failed.
    pub fn is_writing(&self) -> bool {
        !self.failed
    }

    /// Records one message of the session (a `hello` is not part of it and is skipped).
    pub fn push(&mut self, msg: &ServerMsg) {
        if self.failed {
            return;
        }
        let lines = self.live.push(msg);
        self.write(&lines);
    }

    /// Writes what the recorder still holds (the header, when `initialize` was never
    /// answered). Safe to call more than once; dropping the file calls it too.
    pub fn finish(&mut self) {
        if self.failed {
            return;
        }
        let lines = self.live.finish();
        self.write(&lines);
    }

    fn write(&mut self, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        // Local files take a line in microseconds: written in place, not on another thread,
        // so the file's order is the session's order.
        let written = lines
            .iter()
            .try_for_each(|line| self.file.write_all(line.as_bytes()).and_then(|()| self.file.write_all(b"\n")))
            .and_then(|()| self.file.flush());
        if let Err(e) = written {
            self.failed = true;
            tracing::warn!(path = %self.path.display(), %e, "cannot write the recording; recording stops for this session");
        }
    }
}

impl Drop for RecordFile {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Makes sure recordings can be written in `dir`, creating it when missing: the relay
/// refuses to start rather than find out at the first session.
pub fn prepare_dir(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".mcp-playground-write-test-{}", std::process::id()));
    let written = File::create(&probe).and_then(|mut f| f.write_all(b"ok\n").and_then(|()| f.sync_all()));
    let _ = std::fs::remove_file(&probe);
    written
}

#[cfg(test)]
mod tests {
    use shared::recording::{Recorder, parse};
    use shared::relay::{Direction, RelayEvent};

    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mcp-playground-record-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn header() -> Header {
        // 2026-01-02T03:04:05Z
        Header::new(Recorder::Relay, "0.1.0", &Target::Demo, 1_767_323_045_000.0)
    }

    fn message(direction: Direction, frame: &str) -> ServerMsg {
        ServerMsg::Message { direction, at_ms: 1_767_323_045_001.0, size: frame.len(), frame: frame.into() }
    }

    fn event(event: RelayEvent) -> ServerMsg {
        ServerMsg::Event { at_ms: 1_767_323_045_002.0, event }
    }

    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
    const ANSWER: &str = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"d","version":"1"}}}"#;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn lines_are_on_disk_as_soon_as_they_are_released() {
        let dir = temp_dir("lines");
        let path = dir.join("s.jsonl");
        std::fs::write(&path, "old content that is replaced\n").unwrap();
        let mut rec = RecordFile::create(&path, header()).unwrap();
        assert_eq!(read(&path), "", "truncated");
        rec.push(&event(RelayEvent::Spawned { pid: Some(7), command: "demo".into(), args: vec![] }));
        rec.push(&message(Direction::Out, INITIALIZE));
        assert_eq!(read(&path), "", "the handshake is held until initialize is answered");
        rec.push(&message(Direction::In, ANSWER));
        let text = read(&path);
        assert_eq!(text.lines().count(), 4, "header and three lines, flushed: {text}");
        assert!(text.lines().next().unwrap().contains(r#""protocol_version":"2025-06-18""#));
        rec.push(&message(Direction::In, r#"{"jsonrpc":"2.0","method":"notifications/x"}"#));
        assert_eq!(read(&path).lines().count(), 5, "each later line at once");
        rec.push(&event(RelayEvent::Closed { reason: "disconnected".into(), asked: false }));
        rec.finish();
        rec.finish();
        drop(rec);
        let text = read(&path);
        let recording = parse(&text).unwrap();
        assert!(recording.problems.is_empty(), "{:?}", recording.problems);
        assert_eq!(recording.entries.len(), 5);
        assert_eq!(recording.header.recorded_by, Recorder::Relay);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn finish_writes_the_header_of_a_session_that_never_initialized() {
        let dir = temp_dir("finish");
        let path = dir.join("s.jsonl");
        let mut rec = RecordFile::create(&path, header()).unwrap();
        rec.push(&event(RelayEvent::Error { message: "could not start".into() }));
        assert_eq!(read(&path), "");
        rec.finish();
        let text = read(&path);
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(!text.contains("protocol_version"));
        // Dropping finishes too.
        let other = dir.join("t.jsonl");
        drop(RecordFile::create(&other, header()).unwrap());
        assert_eq!(read(&other).lines().count(), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn files_in_a_directory_get_unique_names() {
        let dir = temp_dir("names");
        let a = RecordFile::create_in(&dir, header(), &Target::Demo).unwrap();
        let b = RecordFile::create_in(&dir, header(), &Target::Demo).unwrap();
        let name = |r: &RecordFile| r.path().file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name(&a), "2026-01-02T03-04-05Z-demo.jsonl");
        assert_eq!(name(&b), "2026-01-02T03-04-05Z-demo-2.jsonl");
        drop((a, b));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_sign_in_approval_url_is_written_without_its_state() {
        let dir = temp_dir("approve");
        let path = dir.join("s.jsonl");
        let mut rec = RecordFile::create(&path, header()).unwrap();
        let url = "http://127.0.0.1:9/authorize?client_id=c&state=ST4TE&code_challenge=CH4L".to_owned();
        let auth = shared::relay::AuthState::Approve { issuer: "http://127.0.0.1:9".into(), url };
        rec.push(&event(RelayEvent::Auth { auth }));
        rec.finish();
        let text = read(&path);
        assert!(text.contains("state=••••") && !text.contains("ST4TE") && !text.contains("CH4L"), "{text}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_failed_write_stops_recording_quietly() {
        // /dev/full takes the open and refuses every write (ENOSPC): a full disk.
        let mut rec = RecordFile::create(Path::new("/dev/full"), header()).unwrap();
        rec.push(&message(Direction::Out, INITIALIZE));
        assert!(rec.is_writing(), "nothing written yet");
        rec.push(&message(Direction::In, ANSWER));
        assert!(!rec.is_writing());
        // Later messages and the end are ignored, without panicking or retrying.
        rec.push(&message(Direction::In, ANSWER));
        rec.finish();
        assert!(!rec.is_writing());
    }

    #[test]
    fn a_directory_is_made_and_checked_before_use() {
        let dir = temp_dir("prepare").join("new/deeper");
        prepare_dir(&dir).unwrap();
        assert!(dir.is_dir());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the probe is removed");
        let file = dir.join("a-file");
        std::fs::write(&file, "").unwrap();
        assert!(prepare_dir(&file).is_err(), "a file is not a directory");
        assert!(prepare_dir(Path::new("/proc/no-such-dir")).is_err());
        let _ = std::fs::remove_dir_all(dir.parent().unwrap().parent().unwrap());
    }
}
