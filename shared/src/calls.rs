//! Keeping a human in the loop and a clock on every call: when to ask for confirmation
//! (from annotation hints, with the spec's defaults), and when a pending call has timed out
//! (a per-call timeout that progress resets, bounded by a maximum total).

use serde::{Deserialize, Serialize};

use crate::mcp::ToolAnnotations;

/// When the confirmation dialog appears before a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmPolicy {
    /// Every call.
    Always,
    /// Calls of tools not marked read-only, or marked destructive.
    #[default]
    Unsafe,
    /// Never.
    Never,
}

impl ConfirmPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            ConfirmPolicy::Always => "always",
            ConfirmPolicy::Unsafe => "unsafe",
            ConfirmPolicy::Never => "never",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "always" => ConfirmPolicy::Always,
            "unsafe" => ConfirmPolicy::Unsafe,
            "never" => ConfirmPolicy::Never,
            _ => return None,
        })
    }

    /// Whether a call of a tool with these annotations needs confirmation.
    pub fn needs_confirmation(self, annotations: Option<&ToolAnnotations>) -> bool {
        match self {
            ConfirmPolicy::Always => true,
            ConfirmPolicy::Never => false,
            ConfirmPolicy::Unsafe => {
                let h = Hints::of(annotations);
                !h.read_only || h.destructive
            }
        }
    }
}

/// Annotation hints with the spec's defaults applied where a hint is absent: not
/// read-only, destructive, not idempotent, open-world. Each says whether it was stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
    pub read_only_stated: bool,
    pub destructive_stated: bool,
    pub idempotent_stated: bool,
    pub open_world_stated: bool,
}

impl Hints {
    pub fn of(a: Option<&ToolAnnotations>) -> Self {
        let get = |f: fn(&ToolAnnotations) -> Option<bool>| a.and_then(f);
        let read_only = get(|a| a.read_only_hint);
        let destructive = get(|a| a.destructive_hint);
        let idempotent = get(|a| a.idempotent_hint);
        let open_world = get(|a| a.open_world_hint);
        let ro = read_only.unwrap_or(false);
        Hints {
            read_only: ro,
            // Destructiveness only means something for tools that write.
            destructive: !ro && destructive.unwrap_or(true),
            idempotent: idempotent.unwrap_or(false),
            open_world: open_world.unwrap_or(true),
            read_only_stated: read_only.is_some(),
            destructive_stated: destructive.is_some(),
            idempotent_stated: idempotent.is_some(),
            open_world_stated: open_world.is_some(),
        }
    }

    /// Labels for the dialog: (label, stated by the server).
    pub fn labels(&self) -> Vec<(&'static str, bool)> {
        let mut out = vec![if self.read_only {
            ("read-only", self.read_only_stated)
        } else {
            ("may modify", self.read_only_stated)
        }];
        if !self.read_only {
            out.push(if self.destructive {
                ("destructive", self.destructive_stated)
            } else {
                ("additive", self.destructive_stated)
            });
            if self.idempotent {
                out.push(("idempotent", self.idempotent_stated));
            }
        }
        out.push(if self.open_world {
            ("open-world", self.open_world_stated)
        } else {
            ("closed-world", self.open_world_stated)
        });
        out
    }
}

/// The clock of one pending call, in milliseconds of any monotonic time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadline {
    started_ms: f64,
    last_activity_ms: f64,
    /// Silence allowed since the start or the last progress.
    pub timeout_ms: f64,
    /// Total allowed, whatever the progress.
    pub max_total_ms: f64,
    /// Since when the clock has stood still (the server waits on the user), if it does.
    paused_at_ms: Option<f64>,
}

/// Why a call ran out of time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expiry {
    /// No response and no progress for `timeout_ms`.
    Silent { after_ms: f64 },
    /// Progress kept coming, but the maximum total passed.
    TooLong { after_ms: f64 },
}

impl Deadline {
    pub fn new(now_ms: f64, timeout_ms: f64, max_total_ms: f64) -> Self {
        Self {
            started_ms: now_ms,
            last_activity_ms: now_ms,
            timeout_ms,
            max_total_ms: max_total_ms.max(timeout_ms),
            paused_at_ms: None,
        }
    }

    /// The server asked the user something and waits: the time the user takes is not the
    /// server's, so neither the silence nor the total clock runs until [`resume`](Self::resume).
    pub fn pause(&mut self, now_ms: f64) {
        self.paused_at_ms.get_or_insert(now_ms);
    }

    /// The user answered: both clocks go on from where they stood, and the silence clock
    /// starts again (an answer is activity: the server has just been given work).
    pub fn resume(&mut self, now_ms: f64) {
        if let Some(at) = self.paused_at_ms.take() {
            let stood = (now_ms - at).max(0.0);
            self.started_ms += stood;
            self.last_activity_ms = now_ms;
        }
    }

    pub fn is_paused(&self) -> bool {
        self.paused_at_ms.is_some()
    }

    /// Progress arrived: the silence clock starts again.
    pub fn on_progress(&mut self, now_ms: f64) {
        self.last_activity_ms = now_ms;
    }

    /// When [`check`](Self::check) will next say the call expired, if nothing happens before.
    pub fn due_ms(&self) -> f64 {
        if self.paused_at_ms.is_some() {
            return f64::INFINITY;
        }
        (self.started_ms + self.max_total_ms).min(self.last_activity_ms + self.timeout_ms)
    }

    pub fn check(&self, now_ms: f64) -> Option<Expiry> {
        if self.paused_at_ms.is_some() {
            return None;
        }
        let total = now_ms - self.started_ms;
        if total >= self.max_total_ms {
            return Some(Expiry::TooLong { after_ms: total });
        }
        if now_ms - self.last_activity_ms >= self.timeout_ms {
            return Some(Expiry::Silent { after_ms: total });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ann(ro: Option<bool>, de: Option<bool>) -> ToolAnnotations {
        ToolAnnotations { read_only_hint: ro, destructive_hint: de, ..Default::default() }
    }

    #[test]
    fn policy_and_defaults() {
        let unsafe_ = ConfirmPolicy::Unsafe;
        assert!(unsafe_.needs_confirmation(None), "no hints: not read-only by default");
        assert!(!unsafe_.needs_confirmation(Some(&ann(Some(true), None))));
        assert!(unsafe_.needs_confirmation(Some(&ann(Some(false), Some(false)))), "writes, even additively");
        assert!(unsafe_.needs_confirmation(Some(&ann(Some(false), Some(true)))));
        assert!(ConfirmPolicy::Always.needs_confirmation(Some(&ann(Some(true), None))));
        assert!(!ConfirmPolicy::Never.needs_confirmation(Some(&ann(Some(false), Some(true)))));
        assert_eq!(ConfirmPolicy::default(), ConfirmPolicy::Unsafe);
        for p in [ConfirmPolicy::Always, ConfirmPolicy::Unsafe, ConfirmPolicy::Never] {
            assert_eq!(ConfirmPolicy::parse(p.as_str()), Some(p));
        }
        let h = Hints::of(None);
        assert_eq!(h.labels(), [("may modify", false), ("destructive", false), ("open-world", false)]);
        let h = Hints::of(Some(&ann(Some(true), Some(true))));
        assert_eq!(h.labels(), [("read-only", true), ("open-world", false)]);
    }

    #[test]
    fn progress_resets_the_timeout_but_not_the_maximum() {
        let mut d = Deadline::new(1000.0, 100.0, 250.0);
        assert_eq!(d.check(1099.0), None);
        assert_eq!(d.due_ms(), 1100.0);
        assert_eq!(d.check(1100.0), Some(Expiry::Silent { after_ms: 100.0 }));
        d.on_progress(1090.0);
        assert_eq!(d.check(1150.0), None);
        d.on_progress(1180.0);
        d.on_progress(1240.0);
        assert_eq!(d.due_ms(), 1250.0, "the maximum comes first");
        assert_eq!(d.check(1249.0), None);
        assert_eq!(d.check(1250.0), Some(Expiry::TooLong { after_ms: 250.0 }));
        // The user's time is not the server's.
        let mut d = Deadline::new(0.0, 100.0, 250.0);
        d.pause(50.0);
        assert_eq!((d.check(10_000.0), d.due_ms()), (None, f64::INFINITY));
        d.resume(10_000.0);
        assert_eq!(d.due_ms(), 10_100.0, "silence counts from the answer");
        d.on_progress(10_150.0);
        assert_eq!(d.check(10_199.0), None, "50 ms ran before the pause: 200 left of the maximum");
        assert_eq!(d.check(10_200.0), Some(Expiry::TooLong { after_ms: 250.0 }));
        // A maximum below the timeout is raised to it.
        assert_eq!(Deadline::new(0.0, 500.0, 10.0).check(400.0), None);
    }
}
