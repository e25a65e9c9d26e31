//! Stepping through a recording, sans-IO: the cursor over its entries, playing and
//! pausing, and the pacing at the recorded speed. Each entry is fed to a playback
//! [`Session`], the same core that ran live, so what renders is what rendered then. The
//! page owns the timers and the clock: [`Player::tick`] says what to wait for next.

use serde_json::{Value, json};

use super::notes::{self, Note, NoteError};
use super::{Entry, Header, Mock, Recorder, Recording};
use crate::apps::ViewRequest;
use crate::mcp::Implementation;
use crate::relay::{Limits, OAuthSettings, RELAY_PROTOCOL};
use crate::session::{RelayInfo, Session};

/// Milliseconds of work per frame at the speed "as fast as possible" (the page stays smooth).
pub const FRAME_BUDGET_MS: f64 = 12.0;
/// The longest pause played at the recorded pace (a person waiting minutes sees it as stuck).
pub const LONGEST_PAUSE_MS: f64 = 3000.0;

/// How fast a recording plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Speed {
    /// The recorded pace, this many times faster.
    Times(f64),
    /// As fast as the page can show it.
    Max,
}

impl Speed {
    /// The name the speed picker uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Times(x) if x >= 4.0 => "4",
            Speed::Times(_) => "1",
            Speed::Max => "max",
        }
    }

    /// The speed named by [`Speed::as_str`]; the recorded pace for anything else.
    pub fn parse(s: &str) -> Speed {
        match s {
            "4" => Speed::Times(4.0),
            "max" => Speed::Max,
            _ => Speed::Times(1.0),
        }
    }
}

/// What to do after a [`Player::tick`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next {
    /// Nothing more: paused, at the end, or a stale timer.
    Stop,
    /// Tick again at the next frame.
    Frame,
    /// Tick again after this many milliseconds.
    After(f64),
}

/// What the playback bar shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerView {
    /// The file's name.
    pub name: String,
    /// Entries applied so far.
    pub index: usize,
    pub total: usize,
    pub playing: bool,
    pub speed: Speed,
    /// Who and what was recorded ([`Header::summary`]).
    pub summary: String,
    /// The presenter's note of this step.
    pub note: Option<Note>,
}

/// A loaded recording and where its playback stands.
#[derive(Debug)]
pub struct Player {
    name: String,
    header: Header,
    entries: Vec<Entry>,
    /// The text of the file, exported again as it came.
    text: String,
    index: usize,
    playing: bool,
    speed: Speed,
    /// Bumped by every play, pause and step, so a stale timer stops itself.
    generation: u64,
    /// The recording as a server, for what an App's view asks while the file plays.
    mock: Option<Mock>,
    /// The notes were written here: the header is written anew on export.
    notes_edited: bool,
}

impl Player {
    /// A player at the start of `entries`, paused, at the recorded pace.
    pub fn new(name: String, header: Header, entries: Vec<Entry>, text: String) -> Self {
        Self {
            name,
            header,
            entries,
            text,
            index: 0,
            playing: false,
            speed: Speed::Times(1.0),
            generation: 0,
            mock: None,
            notes_edited: false,
        }
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// What the playback bar shows.
    pub fn view(&self) -> PlayerView {
        PlayerView {
            name: self.name.clone(),
            index: self.index,
            total: self.entries.len(),
            playing: self.playing,
            speed: self.speed,
            summary: self.header.summary(),
            note: notes::at(&self.header.notes, self.index).cloned(),
        }
    }

    /// Writes the note of the step shown (empty parts remove it).
    pub fn set_note(&mut self, title: &str, text: &str) -> Result<(), NoteError> {
        notes::set(&mut self.header.notes, self.index, self.entries.len(), title, text)?;
        self.notes_edited = true;
        Ok(())
    }

    /// The recording, as a replay against a live server reads it.
    pub fn recording(&self) -> Recording {
        Recording { header: self.header.clone(), entries: self.entries.clone(), problems: Vec::new() }
    }

    /// A session at the start of the recording: nothing applied yet.
    pub fn fresh_session(&self) -> Session {
        let relay = RelayInfo {
            protocol: RELAY_PROTOCOL,
            version: self.header.relay_version.clone(),
            preset: self.header.target.clone(),
            preset_protocol: self.header.protocol,
            preset_oauth: OAuthSettings::default(),
            // What was recorded passed the live limits already.
            limits: Limits { max_message_bytes: usize::MAX, max_stderr_line_bytes: usize::MAX },
            servers: Vec::new(),
            recording: false,
            playback: false,
            sandbox: None,
            config: None,
        };
        Session::for_playback(env!("CARGO_PKG_VERSION"), relay)
    }

    /// What the recording answered to a request like the one an App's view makes now (the
    /// same call first, then the next unused one of that tool or resource); anything it
    /// never answered is an error that says what it holds. A demo of an App runs with no
    /// server this way.
    pub fn answer_view(&mut self, request: &ViewRequest) -> Result<Value, Value> {
        let (method, params) = request.method_params();
        let frame = json!({"jsonrpc": "2.0", "id": 0, "method": method, "params": params}).to_string();
        // The recording is read as a server once, at the view's first request.
        if self.mock.is_none() {
            self.mock = Some(Mock::new(&self.recording()));
        }
        let answer = self
            .mock
            .as_mut()
            .expect("set above")
            .answer(&frame)
            .into_iter()
            .filter_map(|r| serde_json::from_str::<Value>(&r.frame).ok())
            .find(|v| v.get("id") == Some(&json!(0)));
        match answer {
            Some(mut v) if v.get("result").is_some() => Ok(v["result"].take()),
            Some(mut v) => Err(v["error"].take()),
            None => Err(json!({"code": -32603, "message": "the recording gave no answer"})),
        }
    }

    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
    }

    /// Stops playing; a timer already set finds itself stale.
    pub fn pause(&mut self) {
        self.generation += 1;
        self.playing = false;
    }

    /// Starts playing from here (from the start when at the end, in the fresh session
    /// returned); the generation is what [`Player::tick`] must be called with.
    pub fn play(&mut self) -> (u64, Option<Session>) {
        let rewound = (self.index >= self.entries.len()).then(|| {
            self.index = 0;
            self.mock = None;
            self.fresh_session()
        });
        self.generation += 1;
        self.playing = true;
        (self.generation, rewound)
    }

    /// Pauses, then applies one more entry to `s`; false at the end.
    pub fn step(&mut self, s: &mut Session) -> bool {
        self.pause();
        self.apply_next(s)
    }

    /// Pauses and goes one entry back: the session is played again from the start to there.
    pub fn back(&mut self) -> Session {
        self.pause();
        self.mock = None;
        self.index = self.index.saturating_sub(1);
        let mut s = self.fresh_session();
        for e in &self.entries[..self.index] {
            feed(e, &mut s);
        }
        s
    }

    /// Plays on: at the recorded pace one entry and the wait until the next; as fast as
    /// possible as many as fit in [`FRAME_BUDGET_MS`] by `clock` (one at least).
    pub fn tick(&mut self, generation: u64, s: &mut Session, clock: &dyn Fn() -> f64) -> Next {
        if generation != self.generation || !self.playing {
            return Next::Stop;
        }
        if self.index >= self.entries.len() {
            self.pause();
            return Next::Stop;
        }
        match self.speed {
            Speed::Max => {
                let until = clock() + FRAME_BUDGET_MS;
                while self.apply_next(s) && clock() < until {}
                Next::Frame
            }
            Speed::Times(x) => {
                let at = self.index;
                self.apply_next(s);
                let gap = match (self.entries.get(at), self.entries.get(at + 1)) {
                    (Some(now), Some(next)) => next.at_ms() - now.at_ms(),
                    _ => 0.0,
                };
                Next::After((gap.clamp(0.0, LONGEST_PAUSE_MS) / x).max(0.0))
            }
        }
    }

    /// The file as it came, with `ignore` (the replay view's pointers) and the notes saved
    /// in its header; every other line exactly as loaded.
    pub fn text_with_ignore(&self, ignore: &[String]) -> String {
        if self.header.ignore == ignore && !self.notes_edited {
            return self.text.clone();
        }
        let mut header = self.header.clone();
        header.ignore = ignore.to_vec();
        if !header.notes.is_empty() {
            // Older entries are read by a newer version as they are.
            header.version = header.version.max(notes::NOTES_SINCE);
        }
        let rest = self.text.split_once('\n').map_or("", |(_, rest)| rest);
        format!("{}\n{rest}", header.to_line())
    }

    fn apply_next(&mut self, s: &mut Session) -> bool {
        let Some(e) = self.entries.get(self.index) else { return false };
        feed(e, s);
        self.index += 1;
        true
    }
}

/// Applies one entry to a playback session: the App lane joins the timeline as recorded.
fn feed(e: &Entry, s: &mut Session) {
    match (e, e.to_server_msg()) {
        // The recorded time stands for the clock: a task's statuses keep their spacing.
        (_, Some(msg)) => s.receive(msg, e.at_ms()),
        (Entry::View { at_ms, to_view, frame }, None) => s.view_frame(*to_view, frame.clone(), *at_ms),
        _ => {}
    }
}

impl Header {
    /// "server-everything 2.0 · recorded 2026-11-22 23:41 UTC by the page"
    pub fn summary(&self) -> String {
        let info = self.server_info.clone().and_then(|v| serde_json::from_value::<Implementation>(v).ok());
        let server = match info {
            Some(i) => {
                let name = i.title.filter(|t| !t.is_empty()).unwrap_or(i.name);
                let name = if name.is_empty() { "a server".to_owned() } else { name };
                format!("{name} {}", i.version).trim().to_owned()
            }
            None => format!("a {} server", self.target.transport()),
        };
        let when = super::utc_stamp(self.started_at_ms);
        let (date, time) = when.split_once('T').unwrap_or((&when, ""));
        let time = time.trim_end_matches('Z').get(..5).unwrap_or_default().replace('-', ":");
        let by = match self.recorded_by {
            Recorder::Page => "the page",
            Recorder::Relay => "the relay",
            Recorder::Cli => "the command line",
        };
        format!("{server} · recorded {date} {time} UTC by {by}")
    }
}
