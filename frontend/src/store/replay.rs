//! Replaying the loaded recording against the live server: the recorded requests are sent
//! again through the live session (parked behind the playback) by `shared::replay`, the
//! same code the command line's `mcp-playground replay` runs, and each answer is compared
//! with the recorded one. Calls of tools that may write wait for a person's yes.

use leptos::prelude::*;
use serde_json::Value;
use shared::recording::Recording;
use shared::replay::{Drift, Replay, ReplayRow, ResendPolicy, Want, drift, recorded_tools, view_drift};
use shared::session::{CallLimits, ConnState};

use super::{Store, now_ms};

/// What the replay view shows; the rows themselves are read with [`Store::replay_row`]
/// (a run of 10,000 requests adds rows, it never copies them all again).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplayView {
    pub running: bool,
    /// A run has finished (rows and drift are final).
    pub done: bool,
    /// Rows so far, and how many of each state.
    pub rows: usize,
    pub counts: [usize; 5],
    pub drift: Vec<Drift>,
    pub total: usize,
    /// The person stopped the run.
    pub stopped: bool,
}

/// Recorded calls a person must confirm before they are sent again.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayConfirm {
    /// Tool name and the arguments it will be sent with.
    pub calls: Vec<(String, Value)>,
}

/// A run in progress.
pub(super) struct Running {
    replay: Replay,
    /// Which calls are sent again, and the person's answer about those that may write.
    policy: ResendPolicy,
    /// Nothing is sent until the person answered the confirmation.
    awaiting_answer: bool,
    /// The live roots, while the recording's are offered instead.
    roots_before: Option<Vec<String>>,
    /// How the run moves on ([`Store::replay_advance`]): reached through the run, so that
    /// what a replay does is in the replay panel's chunk, never in the first load (the
    /// relay's messages and the clock, in the first load, only call it).
    go: fn(Store),
}

impl Store {
    /// Whether the live session behind the playback is connected (a replay can run).
    pub fn live_connected(self) -> bool {
        self.parked.with_value(|p| p.as_ref().is_some_and(|s| *s.conn() == ConnState::Connected))
    }

    /// Starts a replay; asks first when the recording calls tools that may write.
    pub fn replay_run(self) {
        if self.replay_view.with_untracked(|v| v.running) || !self.live_connected() {
            return;
        }
        let Some(recording) = self.loaded_recording() else { return };
        let ignore = self.ignore_list();
        let replay = Replay::new(&recording, &ignore, CallLimits::default());
        let recorded = recorded_tools(replay.requests()).unwrap_or_default();
        let live = self.parked.with_value(|p| p.as_ref().map(|s| s.tools().to_vec())).unwrap_or_default();
        let policy = ResendPolicy::new(self.calls.policy.get_untracked(), &live, &recorded)
            .how_to_allow("you chose not to re-send them when the replay started");
        let calls = policy.to_confirm(replay.requests());
        let total = replay.requests().len();
        let awaiting_answer = !calls.is_empty();
        // The server is offered the roots it was offered then, so what it does with them
        // compares equal; the person's own come back when the run ends.
        let roots_before = shared::replay::recorded_roots(&recording).and_then(|roots| {
            self.parked.try_update_value(|p| {
                let s = p.as_mut()?;
                let before = s.roots().to_vec();
                s.set_roots(roots);
                Some(before)
            })?
        });
        self.send_parked();
        self.running.set_value(Some(Running {
            replay,
            policy,
            awaiting_answer,
            roots_before,
            go: Store::replay_advance,
        }));
        self.replay_rows.set_value(Vec::new());
        self.replay_view.set(ReplayView { running: true, total, ..ReplayView::default() });
        if awaiting_answer {
            self.replay_confirm.set(Some(ReplayConfirm { calls }));
        } else {
            self.replay_go();
        }
    }

    /// The person's answer about the calls that may write: send them, or skip them.
    pub fn replay_confirmed(self, send_writes: bool) {
        self.replay_confirm.set(None);
        self.running.update_value(|r| {
            if let Some(r) = r {
                r.policy.allow_writes(send_writes);
                r.awaiting_answer = false;
            }
        });
        self.replay_go();
    }

    /// Moves the run under way on, if there is one.
    pub(super) fn replay_go(self) {
        if let Some(go) = self.running.with_value(|r| r.as_ref().map(|r| r.go)) {
            go(self);
        }
    }

    /// Moves the replay on as far as it can go without waiting, and sends what it asks.
    fn replay_advance(self) {
        let now = now_ms();
        let outcome = self.running.try_update_value(|run| {
            let run = run.as_mut().filter(|r| !r.awaiting_answer)?;
            self.parked.try_update_value(|p| {
                let s = p.as_mut()?;
                if !run.replay.answered(s) {
                    return None;
                }
                let want = run.replay.advance(s, &run.policy, now);
                Some((want, run.replay.rows().len()))
            })?
        });
        self.send_parked();
        let Some(Some((want, _))) = outcome else { return };
        self.show_replay_rows();
        if want == Want::Done {
            self.replay_finish();
        }
    }

    /// The live session's clock, while a replay waits on it.
    pub(super) fn replay_tick(self) {
        if self.running.with_value(Option::is_none) {
            return;
        }
        let now = now_ms();
        self.parked.update_value(|p| {
            if let Some(s) = p {
                s.tick(now);
            }
        });
        self.replay_go();
    }

    /// The rows found since the view last looked, appended (a long run stays cheap).
    fn show_replay_rows(self) {
        let shown = self.replay_rows.with_value(Vec::len);
        let new: Vec<ReplayRow> =
            self.running.with_value(|r| r.as_ref().map(|r| r.replay.rows()[shown..].to_vec()).unwrap_or_default());
        if new.is_empty() {
            return;
        }
        let states: Vec<usize> = new.iter().map(|r| r.state as usize).collect();
        self.replay_rows.update_value(|rows| rows.extend(new));
        let len = self.replay_rows.with_value(Vec::len);
        self.replay_view.update(|v| {
            v.rows = len;
            for s in states {
                v.counts[s] += 1;
            }
        });
    }

    /// Row `i` of the replay, as found.
    pub fn replay_row(self, i: usize) -> Option<ReplayRow> {
        self.replay_rows.with_value(|rows| rows.get(i).cloned())
    }

    /// Stops a run: what was compared stays, nothing more is sent (a call under way is
    /// cancelled).
    pub fn replay_stop(self) {
        if self.end_run().is_none() {
            return;
        }
        self.replay_confirm.set(None);
        self.parked.update_value(|p| {
            if let Some(s) = p {
                s.cancel_call();
            }
        });
        self.send_parked();
        self.replay_view.update(|v| {
            v.running = false;
            v.done = true;
            v.stopped = true;
        });
    }

    fn replay_finish(self) {
        let Some(run) = self.end_run() else { return };
        let recorded = recorded_tools(run.replay.requests());
        let live = self.parked.with_value(|p| p.as_ref().map(|s| s.tools().to_vec()));
        let mut drift = match (&recorded, live) {
            (Some(r), Some(l)) => drift(r, &l),
            _ => Vec::new(),
        };
        drift.extend(view_drift(recorded.as_deref().unwrap_or_default(), run.replay.rows()));
        self.replay_view.update(|v| {
            v.running = false;
            v.done = true;
            v.drift = drift;
        });
    }

    /// Ends the run under way, if any: the live session offers the person's roots again.
    pub(super) fn end_run(self) -> Option<Running> {
        let mut run = self.running.try_update_value(Option::take).flatten()?;
        if let Some(roots) = run.roots_before.take() {
            self.parked.update_value(|p| {
                if let Some(s) = p {
                    s.set_roots(roots);
                }
            });
            self.send_parked();
        }
        Some(run)
    }

    /// Sends what the live session behind the playback asks to send.
    pub(super) fn send_parked(self) {
        let sends = self.parked.try_update_value(|p| p.as_mut().map(|s| s.drain().send)).flatten().unwrap_or_default();
        for msg in sends {
            self.socket.with_value(|s| s.as_ref().is_some_and(|s| s.send(&msg)));
        }
    }

    /// The ignore pointers typed in the view, one per line.
    fn ignore_list(self) -> Vec<String> {
        self.replay_ignore
            .with_untracked(|t| t.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect())
    }
}

/// The recording being played, as the replay reads it.
impl Store {
    fn loaded_recording(self) -> Option<Recording> {
        self.player.with_value(|p| p.as_ref().map(|p| p.recording()))
    }
}
