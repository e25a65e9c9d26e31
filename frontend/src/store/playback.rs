//! Playing a recording back in the page: the file is read a slice at a time (a 100 MB file
//! never freezes the page), then its entries are fed, one by one or at the recorded pace,
//! to a playback [`Session`] — the same core that ran live, so what renders is what
//! rendered then. The live session is parked meanwhile and comes back untouched.

use std::time::Duration;

use leptos::prelude::*;
use shared::recording::{ByteReader, Entry, Header, Next, Player, Speed};
use shared::session::Changed;

use super::Store;

/// Bytes of a file read between two breaths of the page.
const FILE_SLICE: f64 = 4.0 * 1024.0 * 1024.0;

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
        // A view of the live session, or of the last file, goes before the file plays.
        self.close_view("a recording is played");
        let player = Player::new(name.clone(), header, entries, text);
        let mut session = player.fresh_session();
        for p in &problems {
            session.notice(format!("{name}, {p}"));
        }
        if player.view().total == 0 {
            session.notice(format!("{name} holds no messages"));
        }
        let live = self.session.try_update_value(|s| std::mem::replace(s, session)).expect("session");
        // A second recording replaces the first; the live session stays parked.
        if self.parked.with_value(Option::is_none) {
            self.parked.set_value(Some(live));
        }
        self.replay_ignore.set(player.header().ignore.join("\n"));
        self.end_run();
        self.replay_confirm.set(None);
        self.replay_view.set(Default::default());
        self.playback.set(Some(player.view()));
        self.player.set_value(Some(player));
        self.selected.set(None);
        self.selected_row.set(None);
        self.calls.confirm.set(None);
        self.reset_views();
        self.show(Changed::ALL);
    }

    /// Back to the live session, as it was.
    pub fn playback_exit(self) {
        // A replay under way ends while the live session is still parked behind the file.
        self.end_run();
        self.close_view("back to the live session");
        let Some(live) = self.parked.try_update_value(Option::take).flatten() else { return };
        self.session.set_value(live);
        self.player.set_value(None);
        self.replay_confirm.set(None);
        self.replay_view.set(Default::default());
        self.playback.set(None);
        self.selected.set(None);
        self.selected_row.set(None);
        self.show(Changed::ALL);
        self.sync();
        // The live session's view and picks, as they were remembered.
        if let Some(target) = self.with_session(|s| s.target().cloned()) {
            self.restore_place(&target);
        }
    }

    /// One entry forward.
    pub fn playback_step(self) {
        self.with_player(|p, s| {
            p.step(s);
        });
    }

    /// Writes the note of the step shown (both parts empty: removes it).
    pub fn set_note(self, title: &str, text: &str) -> Result<(), shared::recording::NoteError> {
        let mut result = Ok(());
        self.with_player(|p, _| result = p.set_note(title, text));
        result
    }

    /// One entry back: the session is played again from the start to there.
    pub fn playback_back(self) {
        self.with_player(|p, s| *s = p.back());
    }

    /// Plays from here at the chosen speed, or pauses.
    pub fn playback_toggle(self) {
        let Some(playing) = self.playback.with_untracked(|p| p.as_ref().map(|p| p.playing)) else { return };
        if playing {
            return self.with_player(|p, _| p.pause());
        }
        let mut generation = 0;
        self.with_player(|p, s| {
            let (g, rewound) = p.play();
            generation = g;
            if let Some(fresh) = rewound {
                *s = fresh;
            }
        });
        self.play_next(generation);
    }

    pub fn playback_set_speed(self, speed: Speed) {
        self.with_player(|p, _| p.set_speed(speed));
    }

    /// The loaded recording as it came, with the ignore pointers of the replay view saved
    /// in its header (every other line exactly as loaded).
    pub(super) fn playback_text(self) -> Option<String> {
        let ignore: Vec<String> = self
            .replay_ignore
            .with_untracked(|t| t.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect());
        self.player.with_value(|p| Some(p.as_ref()?.text_with_ignore(&ignore)))
    }

    /// One turn of play: what the player applies is shown, and the next turn is timed.
    fn play_next(self, generation: u64) {
        let mut next = Next::Stop;
        // As fast as possible, every frame brings many rows: they are drawn at a flood's pace.
        let flood = self.player.with_value(|p| p.as_ref().is_some_and(|p| p.view().speed == Speed::Max));
        self.rows.during(flood, || self.with_player(|p, s| next = p.tick(generation, s, &super::now_ms)));
        match next {
            Next::Stop => {}
            Next::Frame => request_animation_frame(move || self.play_next(generation)),
            Next::After(ms) => set_timeout(move || self.play_next(generation), Duration::from_secs_f64(ms / 1000.0)),
        }
    }

    /// Runs `action` on the player and the playback session, then shows what changed once.
    /// The player is taken out meanwhile, so nothing shown can find it borrowed.
    fn with_player(self, action: impl FnOnce(&mut Player, &mut shared::session::Session)) {
        let Some(mut player) = self.player.try_update_value(Option::take).flatten() else { return };
        self.act(|s| action(&mut player, s));
        self.playback.set(Some(player.view()));
        self.player.set_value(Some(player));
    }
}
