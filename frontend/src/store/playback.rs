//! Playing a recording back in the page: the file is read a slice at a time (a 100 MB file
//! never freezes the page), then its entries are fed, one by one or at the recorded pace,
//! to a playback [`Session`] — the same core that ran live, so what renders is what
//! rendered then. The live session is parked meanwhile and comes back untouched.

use std::time::Duration;

use leptos::prelude::*;
use shared::recording::{ByteReader, Entry, Header};
use shared::session::{Changed, RelayInfo, Session};

use super::Store;

/// Bytes of a file read between two breaths of the page.
const FILE_SLICE: f64 = 4.0 * 1024.0 * 1024.0;
/// Milliseconds of work per frame at the speed "as fast as possible" (the page stays smooth).
const FRAME_BUDGET_MS: f64 = 12.0;
/// The longest pause played at the recorded pace (a person waiting minutes sees it as stuck).
const LONGEST_PAUSE_MS: f64 = 3000.0;

/// How fast `replay-play` plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Speed {
    Times(f64),
    Max,
}

impl Speed {
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Times(x) if x >= 4.0 => "4",
            Speed::Times(_) => "1",
            Speed::Max => "max",
        }
    }

    pub fn parse(s: &str) -> Speed {
        match s {
            "4" => Speed::Times(4.0),
            "max" => Speed::Max,
            _ => Speed::Times(1.0),
        }
    }
}

/// What the playback bar shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaybackView {
    pub name: String,
    /// Entries applied so far.
    pub index: usize,
    pub total: usize,
    pub playing: bool,
    pub speed: Speed,
    /// Who and what was recorded, for the bar.
    pub summary: String,
}

/// A loaded recording.
pub(super) struct Playback {
    header: Header,
    entries: Vec<Entry>,
    /// The text of the file, exported again as it came.
    text: String,
    /// Bumped by every start, pause and step, so a stale timer stops itself.
    generation: u64,
}

/// Reading a file in progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Loading {
    pub name: String,
    pub percent: u32,
}

impl Store {
    /// Whether a recording is being shown (the live controls are read-only then).
    pub fn in_playback(self) -> bool {
        self.playback.with(Option::is_some)
    }

    /// Reads a recording a slice at a time (a picked or dropped file, or the one the relay
    /// opened: the page never holds it as one string in the browser), then plays it; what
    /// is wrong with it is said, line by line, and what can be played is played.
    pub async fn read_recording(self, name: String, file: &web_sys::Blob) -> Result<(), String> {
        let size = file.size();
        let mut reader = ByteReader::new();
        let mut bytes = Vec::with_capacity(size as usize);
        let mut at = 0.0;
        while at < size {
            let end = (at + FILE_SLICE).min(size);
            let slice = file.slice_with_f64_and_f64(at, end).map_err(|_| "the file cannot be sliced".to_owned())?;
            let chunk = crate::fetch::blob_bytes(&slice).await?;
            if let Err(p) = reader.feed(&chunk) {
                self.loading.set(None);
                self.notice(format!("{name} cannot be played: {p}"));
                return Ok(());
            }
            bytes.extend_from_slice(&chunk);
            at = end;
            self.loading.set(Some(Loading { name: name.clone(), percent: (at / size.max(1.0) * 100.0) as u32 }));
        }
        self.loading.set(None);
        let recording = match reader.finish() {
            Ok(r) => r,
            Err(p) => {
                self.notice(format!("{name} cannot be played: {p}"));
                return Ok(());
            }
        };
        let text = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.start_playback(name, recording.header, recording.entries, text, recording.problems);
        Ok(())
    }

    fn start_playback(
        self,
        name: String,
        header: Header,
        entries: Vec<Entry>,
        text: String,
        problems: Vec<shared::recording::Problem>,
    ) {
        let mut session = playback_session(&header);
        for p in &problems {
            session.notice(format!("{name}, {p}"));
        }
        if entries.is_empty() {
            session.notice(format!("{name} holds no messages"));
        }
        let live = self.session.try_update_value(|s| std::mem::replace(s, session)).expect("session");
        // A second recording replaces the first; the live session stays parked.
        if self.parked.with_value(Option::is_none) {
            self.parked.set_value(Some(live));
        }
        let summary = summary(&header);
        self.replay_ignore.set(header.ignore.join("\n"));
        self.running.set_value(None);
        self.replay_confirm.set(None);
        self.replay_view.set(Default::default());
        let total = entries.len();
        self.replay.set_value(Some(Playback { header, entries, text, generation: 0 }));
        self.playback.set(Some(PlaybackView {
            name,
            index: 0,
            total,
            playing: false,
            speed: Speed::Times(1.0),
            summary,
        }));
        self.selected.set(None);
        self.selected_row.set(None);
        self.calls.confirm.set(None);
        self.show(Changed::ALL);
    }

    /// Back to the live session, as it was.
    pub fn replay_exit(self) {
        let Some(live) = self.parked.try_update_value(Option::take).flatten() else { return };
        self.session.set_value(live);
        self.replay.set_value(None);
        self.running.set_value(None);
        self.replay_confirm.set(None);
        self.replay_view.set(Default::default());
        self.playback.set(None);
        self.selected.set(None);
        self.selected_row.set(None);
        self.show(Changed::ALL);
        self.sync();
    }

    /// One entry forward.
    pub fn replay_step(self) {
        self.pause();
        self.advance(1);
    }

    /// One entry back: the session is played again from the start to there.
    pub fn replay_back(self) {
        self.pause();
        let Some(index) = self.playback.with_untracked(|p| p.as_ref().map(|p| p.index)) else { return };
        let target = index.saturating_sub(1);
        let Some(session) = self.replay.with_value(|r| {
            r.as_ref().map(|r| {
                let mut s = playback_session(&r.header);
                for e in &r.entries[..target] {
                    s.receive(e.to_server_msg(), 0.0);
                }
                s
            })
        }) else {
            return;
        };
        self.session.set_value(session);
        self.playback.update(|p| {
            if let Some(p) = p {
                p.index = target;
            }
        });
        self.show(Changed::ALL);
    }

    /// Plays from here at the chosen speed, or pauses.
    pub fn replay_toggle_play(self) {
        let Some((playing, index, total)) =
            self.playback.with_untracked(|p| p.as_ref().map(|p| (p.playing, p.index, p.total)))
        else {
            return;
        };
        if playing {
            return self.pause();
        }
        if index >= total {
            // At the end: play again from the start.
            self.replay_rewind();
        }
        let generation = self.bump();
        self.playback.update(|p| {
            if let Some(p) = p {
                p.playing = true;
            }
        });
        self.play_next(generation);
    }

    pub fn replay_set_speed(self, speed: Speed) {
        self.playback.update(|p| {
            if let Some(p) = p {
                p.speed = speed;
            }
        });
    }

    /// The loaded recording as it came, with the ignore pointers of the replay view saved
    /// in its header (every other line exactly as loaded).
    pub(super) fn playback_text(self) -> Option<String> {
        let ignore: Vec<String> = self
            .replay_ignore
            .with_untracked(|t| t.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect());
        self.replay.with_value(|r| {
            let r = r.as_ref()?;
            if r.header.ignore == ignore {
                return Some(r.text.clone());
            }
            let mut header = r.header.clone();
            header.ignore = ignore;
            let rest = r.text.split_once('\n').map_or("", |(_, rest)| rest);
            Some(format!("{}\n{rest}", header.to_line()))
        })
    }

    fn replay_rewind(self) {
        let Some(session) = self.replay.with_value(|r| r.as_ref().map(|r| playback_session(&r.header))) else { return };
        self.session.set_value(session);
        self.playback.update(|p| {
            if let Some(p) = p {
                p.index = 0;
            }
        });
        self.show(Changed::ALL);
    }

    fn pause(self) {
        self.bump();
        self.playback.update(|p| {
            if let Some(p) = p.as_mut().filter(|p| p.playing) {
                p.playing = false;
            }
        });
    }

    fn bump(self) -> u64 {
        self.replay
            .try_update_value(|r| {
                r.as_mut().map(|r| {
                    r.generation += 1;
                    r.generation
                })
            })
            .flatten()
            .unwrap_or(0)
    }

    fn play_next(self, generation: u64) {
        let current = self.replay.with_value(|r| r.as_ref().map(|r| r.generation));
        if current != Some(generation) {
            return;
        }
        let Some((index, total, speed)) =
            self.playback.with_untracked(|p| p.as_ref().map(|p| (p.index, p.total, p.speed)))
        else {
            return;
        };
        if index >= total {
            return self.pause();
        }
        match speed {
            Speed::Max => {
                self.advance_within(FRAME_BUDGET_MS);
                request_animation_frame(move || self.play_next(generation));
            }
            Speed::Times(x) => {
                self.advance(1);
                let gap = self.replay.with_value(|r| {
                    r.as_ref().and_then(|r| Some(r.entries.get(index + 1)?.at_ms() - r.entries.get(index)?.at_ms()))
                });
                let wait = (gap.unwrap_or(0.0).clamp(0.0, LONGEST_PAUSE_MS) / x).max(0.0);
                set_timeout(move || self.play_next(generation), Duration::from_secs_f64(wait / 1000.0));
            }
        }
    }

    /// Applies as many entries as `budget_ms` allows (one at least), showing them once.
    fn advance_within(self, budget_ms: f64) {
        let Some(index) = self.playback.with_untracked(|p| p.as_ref().map(|p| p.index)) else { return };
        let until = super::now_ms() + budget_ms;
        let replay = self.replay;
        let applied = self.act(|s| {
            replay.with_value(|r| {
                let Some(r) = r else { return 0 };
                let mut applied = 0;
                for e in &r.entries[index.min(r.entries.len())..] {
                    s.receive(e.to_server_msg(), 0.0);
                    applied += 1;
                    if super::now_ms() >= until {
                        break;
                    }
                }
                applied
            })
        });
        self.playback.update(|p| {
            if let Some(p) = p {
                p.index += applied;
            }
        });
    }

    /// Applies up to `n` more entries and shows the result once; false at the end.
    fn advance(self, n: usize) -> bool {
        let Some(index) = self.playback.with_untracked(|p| p.as_ref().map(|p| p.index)) else { return false };
        let batch: Vec<Entry> = self.replay.with_value(|r| {
            r.as_ref().map(|r| r.entries.iter().skip(index).take(n).cloned().collect()).unwrap_or_default()
        });
        if batch.is_empty() {
            return false;
        }
        let applied = batch.len();
        self.act(|s| {
            for e in batch {
                s.receive(e.to_server_msg(), 0.0);
            }
        });
        self.playback.update(|p| {
            if let Some(p) = p {
                p.index += applied;
            }
        });
        true
    }
}

impl Playback {
    /// The recording, as the replay reads it.
    pub(super) fn recording(&self) -> shared::recording::Recording {
        shared::recording::Recording {
            header: self.header.clone(),
            entries: self.entries.clone(),
            problems: Vec::new(),
        }
    }
}

fn playback_session(header: &Header) -> Session {
    let relay = RelayInfo {
        preset_oauth: Default::default(),
        version: header.relay_version.clone(),
        preset: header.target.clone(),
        preset_protocol: header.protocol,
        limits: shared::relay::Limits { max_message_bytes: usize::MAX, max_stderr_line_bytes: usize::MAX },
        servers: Vec::new(),
        recording: false,
        playback: false,
    };
    Session::for_playback(env!("CARGO_PKG_VERSION"), relay)
}

/// "server-everything 2.0 · recorded 2026-11-22 23:41 UTC by the page"
fn summary(header: &Header) -> String {
    let server = header
        .server_info
        .as_ref()
        .map(|s| {
            let name = s.get("title").or_else(|| s.get("name")).and_then(|v| v.as_str()).unwrap_or("a server");
            let version = s.get("version").and_then(|v| v.as_str()).unwrap_or_default();
            format!("{name} {version}").trim().to_owned()
        })
        .unwrap_or_else(|| format!("a {} server", header.target.transport()));
    let when = shared::recording::utc_stamp(header.started_at_ms);
    let (date, time) = when.split_once('T').unwrap_or((&when, ""));
    let time = time.trim_end_matches('Z').get(..5).unwrap_or_default().replace('-', ":");
    let by = match header.recorded_by {
        shared::recording::Recorder::Page => "the page",
        shared::recording::Recorder::Relay => "the relay",
        shared::recording::Recorder::Cli => "the command line",
    };
    format!("{server} · recorded {date} {time} UTC by {by}")
}
