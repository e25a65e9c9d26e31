//! Telling the page of a change at once, but at most every so often while changes flood in:
//! what is drawn anew for each telling then costs a few frames a second, not every frame.

use std::time::Duration;

use leptos::prelude::*;

use super::now_ms;

#[derive(Default)]
struct Pace {
    /// When the last telling ran (`performance.now()`).
    last: f64,
    /// A later telling is set.
    pending: bool,
}

/// A pace of tellings, one every `every_ms` at most.
#[derive(Clone, Copy)]
pub(super) struct Paced {
    state: StoredValue<Pace>,
    every_ms: f64,
}

impl Paced {
    pub(super) fn new(every_ms: f64) -> Self {
        Self { state: StoredValue::new(Pace::default()), every_ms }
    }

    /// Runs `tell` now if the last telling is `every_ms` old, else once it is; a telling
    /// already set covers this one (`tell` reads what is new when it runs).
    pub(super) fn tell(self, tell: impl FnOnce() + 'static) {
        let now = now_ms();
        let wait = self.state.try_update_value(|p| {
            if p.pending {
                return None;
            }
            let since = now - p.last;
            if since >= self.every_ms {
                p.last = now;
                Some(None)
            } else {
                p.pending = true;
                Some(Some(self.every_ms - since))
            }
        });
        match wait.flatten() {
            Some(None) => tell(),
            Some(Some(ms)) => set_timeout(
                move || {
                    self.state.update_value(|p| {
                        p.pending = false;
                        p.last = now_ms();
                    });
                    tell();
                },
                Duration::from_millis(ms.ceil() as u64),
            ),
            None => {}
        }
    }
}

/// How often the timeline's rows are drawn while messages flood in, in ms.
const FLOOD_PACE_MS: f64 = 100.0;

/// The timeline's row count, told at once, or at a flood's pace during a turn that brings
/// a flood (many messages taken in at once, or a recording played as fast as possible).
#[derive(Clone, Copy)]
pub(super) struct Rows {
    pace: Paced,
    /// The turn running now brings a flood.
    in_flood_turn: StoredValue<bool>,
    /// When the last flood's turn ended (`performance.now()`).
    last_flood: StoredValue<f64>,
}

impl Rows {
    pub(super) fn new() -> Self {
        Self {
            pace: Paced::new(FLOOD_PACE_MS),
            in_flood_turn: StoredValue::new(false),
            last_flood: StoredValue::new(f64::MIN),
        }
    }

    /// Runs `turn`, a flood's turn when `flood`.
    pub(super) fn during(self, flood: bool, turn: impl FnOnce()) {
        self.in_flood_turn.set_value(flood);
        turn();
        self.in_flood_turn.set_value(false);
        if flood {
            self.last_flood.set_value(now_ms());
        }
    }

    /// Whether a flood is under way: its last turn ended less than a flood's pace ago.
    pub(super) fn flooding(self) -> bool {
        now_ms() - self.last_flood.get_value() < FLOOD_PACE_MS
    }

    /// Runs `tell` (which reads the count when it runs): at once, or at the flood's pace.
    pub(super) fn tell(self, tell: impl FnOnce() + 'static) {
        if self.in_flood_turn.get_value() { self.pace.tell(tell) } else { tell() }
    }
}
