//! The page's own recording: which stretches of the session are captured
//! (`record-toggle`), and the recording file made from them (`recording-export`), in the
//! format of [`crate::recording`]. The timeline already holds every row, so capturing costs
//! nothing; the file is written when asked for.

use crate::recording::{self, Entry, Header, Recorder};
use crate::relay::{Direction, RelayEvent, Target};
use crate::timeline::{Row, RowDirection, RowKind};

use super::Session;

impl Session {
    /// Starts or stops capturing. Started at connect (the default), the capture holds the
    /// whole session; started later, it holds what comes from then on. Stopping and
    /// starting again keeps what was captured before.
    pub fn set_recording(&mut self, on: bool) {
        let now = self.timeline.len();
        match (on, self.capture.last_mut()) {
            (true, Some((_, None))) | (false, None | Some((_, Some(_)))) => return,
            (true, _) => self.capture.push((now, None)),
            (false, Some((_, end))) => *end = Some(now),
        }
        self.changed.relay = true;
    }

    /// Whether the session is being captured now.
    pub fn is_recording(&self) -> bool {
        matches!(self.capture.last(), Some((_, None)))
    }

    /// Whether anything was captured (there is something to export).
    pub fn has_recording(&self) -> bool {
        self.target.is_some() && self.capture.iter().any(|(from, to)| to.unwrap_or(self.timeline.len()) > *from)
    }

    /// The captured rows as a recording file; `None` when nothing was captured.
    pub fn export_recording(&self) -> Option<String> {
        let target = self.target.as_ref()?;
        let rows = self.timeline.rows();
        let captured: Vec<&Row> =
            self.capture.iter().flat_map(|(from, to)| &rows[*from..to.unwrap_or(rows.len()).min(rows.len())]).collect();
        let first = captured.first()?;
        let relay_version = self.relay.as_ref().map_or("", |r| r.version.as_str());
        let mut header = Header::new(Recorder::Page, relay_version, target, first.at_ms);
        header.protocol = self.protocol;
        // The handshake that settled the session: `initialize`, or `server/discover`.
        for init in rows.iter().filter(|r| {
            r.direction == RowDirection::In
                && r.kind == RowKind::Response
                && matches!(r.method.as_deref(), Some("initialize" | "server/discover"))
        }) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&init.raw) {
                header.learn_initialize(&v["result"]);
            }
            if header.protocol_version.is_some() {
                break;
            }
        }
        let entries: Vec<Entry> = captured.into_iter().filter_map(entry).collect();
        Some(recording::write(&header, &entries))
    }

    /// Remembers what the session connects to, for a recording's header.
    pub(super) fn remember_target(&mut self, target: &Target) {
        self.target = Some(target.clone());
    }
}

/// The recording entry of a timeline row.
fn entry(row: &Row) -> Option<Entry> {
    let direction = match row.direction {
        RowDirection::Out => Direction::Out,
        RowDirection::In => Direction::In,
        RowDirection::ToView | RowDirection::FromView => {
            let to_view = row.direction == RowDirection::ToView;
            return Some(Entry::View { at_ms: row.at_ms, to_view, frame: row.raw.clone() });
        }
        RowDirection::Relay => {
            let event = serde_json::from_str::<RelayEvent>(&row.raw).ok()?;
            // What the page showed in full (the approval URL) is masked in the file.
            return Some(Entry::Event { at_ms: row.at_ms, event: recording::recorded_event(&event) });
        }
    };
    Some(Entry::Message { at_ms: row.at_ms, direction, frame: row.raw.clone() })
}
