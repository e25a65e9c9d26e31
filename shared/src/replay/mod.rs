//! Replaying a recording against a live server: the recorded client requests re-sent in
//! order through the same sans-IO [`Session`](crate::session::Session) (`plan.rs`), each
//! live answer compared with the recorded one (`diff.rs`, a structural JSON diff), and the
//! recorded tool list compared with the live one (`drift.rs`, and `view_drift.rs` for the
//! App views and their resources). The page and the command
//! line (`mcp-playground replay`) both drive it; the result is a [`Report`].

mod diff;
mod drift;
mod plan;
mod resend;
#[cfg(test)]
mod tests;
mod view_drift;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use diff::{Change, ChangeKind, MAX_CHANGES, diff, diff_bounded};
pub use drift::{Drift, DriftClass, drift};
pub use plan::{Recorded, Replay, Want, recorded_requests, recorded_roots, recorded_tools};
pub use resend::{NOT_ALLOWED, ResendPolicy};
pub use view_drift::view_drift;

/// How one re-sent request compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowState {
    /// The live answer matches the recorded one (ignores aside).
    Same,
    /// Both answered, differently.
    Different,
    /// No live answer (timed out, cancelled).
    Missing,
    /// The live answer is an error where the recording has a result, or the transport failed.
    Error,
    /// Not re-sent (a tool that may write, a request the session does not send).
    Skipped,
}

impl RowState {
    pub fn as_str(self) -> &'static str {
        match self {
            RowState::Same => "same",
            RowState::Different => "different",
            RowState::Missing => "missing",
            RowState::Error => "error",
            RowState::Skipped => "skipped",
        }
    }
}

/// One recorded request and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayRow {
    /// 0-based, among the recording's requests.
    pub index: usize,
    /// The recording's line holding the request (1-based, the header is line 1).
    pub line: usize,
    pub method: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub state: RowState,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// More changes than [`MAX_CHANGES`] were found; only the first are listed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// Why it was skipped, missing or an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The recorded response without `jsonrpc` and `id` (`null` when none was recorded).
    pub recorded: Value,
    /// The live response without `jsonrpc` and `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<Value>,
}

/// What fails a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Only breaking drift, and rows in error or missing.
    Breaking,
    /// Any difference at all.
    #[default]
    Any,
}

/// Rows by state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub same: usize,
    pub different: usize,
    pub missing: usize,
    pub error: usize,
    pub skipped: usize,
    pub breaking: usize,
    pub compatible: usize,
}

/// A whole replay: one row per recorded request, the tool drift, and counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub rows: Vec<ReplayRow>,
    pub drift: Vec<Drift>,
    pub counts: Counts,
    /// The ignore patterns used (the recording's and the caller's).
    pub ignore: Vec<String>,
}

impl Report {
    pub fn new(rows: Vec<ReplayRow>, drift: Vec<Drift>, ignore: Vec<String>) -> Self {
        let mut counts = Counts::default();
        for r in &rows {
            *match r.state {
                RowState::Same => &mut counts.same,
                RowState::Different => &mut counts.different,
                RowState::Missing => &mut counts.missing,
                RowState::Error => &mut counts.error,
                RowState::Skipped => &mut counts.skipped,
            } += 1;
        }
        counts.breaking = drift.iter().filter(|d| d.class == DriftClass::Breaking).count();
        counts.compatible = drift.len() - counts.breaking;
        Self { rows, drift, counts, ignore }
    }

    /// Whether the replay fails under `fail_on`.
    pub fn failed(&self, fail_on: FailOn) -> bool {
        let c = &self.counts;
        let broken = c.error > 0 || c.missing > 0 || c.breaking > 0;
        match fail_on {
            FailOn::Breaking => broken,
            FailOn::Any => broken || c.different > 0 || c.compatible > 0,
        }
    }
}
