//! What the relay says, taken in by turns: a message that comes alone is taken at once, and a
//! flood is worked off once a frame, so it costs one render a frame and not one a batch.
//! A turn of a flood tells the timeline's rows at a pace of their own (`pace::Rows`): the
//! rows in view are all new at every frame, and nobody reads them that fast.

use std::time::Duration;

use leptos::prelude::*;
use shared::relay::ServerMsg;

use super::{Store, now_ms};

/// A turn sooner than this after the last one waits for the next frame.
const FRAME_MS: f64 = 16.0;
/// A page in the background gets no frames: its turn comes after this at the latest, so the
/// session still answers the server (a ping, say).
const HIDDEN_TURN: Duration = Duration::from_millis(100);
/// A turn takes in this many messages at most; the rest wait for the next frame, so a
/// backlog (messages that came while the page was busy) costs no long frame.
const MOST_A_TURN: usize = 2000;
/// A turn taking in this many messages or more is a flood.
const FLOOD: usize = 100;

/// The messages not taken in yet.
#[derive(Default)]
pub(super) struct Inbox {
    queue: Vec<ServerMsg>,
    /// When the last turn ended (`performance.now()`).
    last_turn: f64,
}

impl Store {
    /// Queues a relay message for the next turn.
    pub(super) fn enqueue(self, msg: ServerMsg) {
        // The saved servers' secrets are the page's, not the session's.
        if let ServerMsg::Secrets { server, secrets } = msg {
            return self.on_secrets(server, secrets);
        }
        // So are the icons the relay fetched.
        if let ServerMsg::Icon { src, data, error } = msg {
            return self.on_icon(src, data, error);
        }
        let Some((first, last_turn)) = self.inbox.try_update_value(|i| {
            i.queue.push(msg);
            (i.queue.len() == 1, i.last_turn)
        }) else {
            return;
        };
        if !first {
            return;
        }
        if now_ms() - last_turn >= FRAME_MS {
            set_timeout(move || self.take_in(), Duration::ZERO);
        } else {
            self.next_turn();
        }
    }

    /// A turn at the next frame.
    fn next_turn(self) {
        // Whichever comes first; the other finds the queue empty.
        request_animation_frame(move || self.take_in());
        set_timeout(move || self.take_in(), HIDDEN_TURN);
    }

    /// Takes in the queued messages, [`MOST_A_TURN`] at most (the rest at the next frame).
    fn take_in(self) {
        let batch = self
            .inbox
            .try_update_value(|i| {
                if i.queue.len() > MOST_A_TURN {
                    let rest = i.queue.split_off(MOST_A_TURN);
                    std::mem::replace(&mut i.queue, rest)
                } else {
                    std::mem::take(&mut i.queue)
                }
            })
            .unwrap_or_default();
        if batch.is_empty() {
            return;
        }
        let flood = batch.len() >= FLOOD;
        if self.inbox.with_value(|i| !i.queue.is_empty()) {
            self.next_turn();
        }
        let now = now_ms();
        self.rows.during(flood, || self.receive_all(batch, now));
        self.inbox.update_value(|i| i.last_turn = now_ms());
    }

    fn receive_all(self, batch: Vec<ServerMsg>, now: f64) {
        if self.parked.with_value(Option::is_some) {
            // A recording is playing: the live session goes on behind it, unseen until the
            // person comes back, but its answers (a ping, say) still go out, and a replay
            // against it moves on.
            self.parked.update_value(|p| {
                if let Some(s) = p {
                    for msg in batch {
                        s.receive(msg, now);
                    }
                }
            });
            self.send_parked();
            self.replay_go();
            return;
        }
        self.act(|s| {
            for msg in batch {
                s.receive(msg, now);
            }
        });
    }
}
