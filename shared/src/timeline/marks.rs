//! Each row's schema mark: the message checked against the official schema of the session's
//! protocol revision. A mark is computed the first time a row is drawn or opened and kept, so
//! a timeline of 100,000 messages costs nothing for the rows nobody looks at.

use serde_json::Value;

use super::{Row, RowDirection, RowKind, Timeline};
use crate::jsonrpc::Kind;
use crate::relay::Direction;
use crate::revision::Revision;
use crate::spec_check::{self, Message, NotChecked, Verdict};

/// A row's mark: the verdict, or why the row was not checked.
pub type Mark = Result<Verdict, NotChecked>;

/// Messages larger than this are not checked: parsing and walking them again would cost a
/// moment a person notices, for a rule they can read in the detail anyway.
const MAX_CHECKED_BYTES: usize = 2 * 1024 * 1024;

/// The `_meta` key by which 2026-07-28 requests name their revision.
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

impl Timeline {
    /// The revision marks are checked against, once the session has shown it.
    pub fn revision(&self) -> Option<Revision> {
        self.revision
    }

    /// Sets the revision the session negotiated; marks already made for another are dropped.
    pub fn set_revision(&mut self, revision: Revision) {
        if self.revision != Some(revision) {
            self.revision = Some(revision);
            for row in &mut self.rows {
                row.mark.take();
            }
        }
    }

    /// Learns the revision from the row just added, where it names one: the answer to our
    /// `initialize`, or (for 2026-07-28, which has none) the `_meta` of our first request.
    /// Only those rows are read again, so this costs the others a comparison.
    pub(super) fn notice_revision(&mut self, seq: usize) {
        let row = &self.rows[seq];
        let answer_to_initialize = row.kind == RowKind::Response
            && row.direction == RowDirection::In
            && row.method.as_deref() == Some("initialize");
        let stateless_request = self.revision.is_none()
            && row.kind == RowKind::Request
            && row.direction == RowDirection::Out
            && row.raw.contains(META_VERSION);
        if !(answer_to_initialize || stateless_request) {
            return;
        }
        let Ok(value) = serde_json::from_str::<Value>(&row.raw) else { return };
        let named = if answer_to_initialize {
            value.pointer("/result/protocolVersion")
        } else {
            value.get("params").and_then(|p| p.get("_meta")).and_then(|m| m.get(META_VERSION))
        };
        if let Some(revision) = named.and_then(Value::as_str).and_then(Revision::parse) {
            self.set_revision(revision);
        }
    }

    /// Row `seq`'s mark; `None` for relay events. Checked once, on first demand, when the
    /// revision is known; until then the mark says why it is missing and is not kept.
    pub fn schema_mark(&self, seq: usize) -> Option<Mark> {
        let row = self.rows.get(seq)?;
        let kind = message_kind(row)?;
        let Some(revision) = self.revision else {
            return Some(Err(NotChecked::RevisionUnknown));
        };
        Some(row.mark.get_or_init(|| check_row(row, kind, revision)).clone())
    }
}

fn message_kind(row: &Row) -> Option<Kind> {
    // The App lane speaks the bridge's methods, which MCP's schema does not name.
    if row.direction.is_app() {
        return None;
    }
    let kind = match row.kind {
        RowKind::Request => Kind::Request,
        RowKind::Notification => Kind::Notification,
        RowKind::Response => Kind::Response,
        RowKind::Error => Kind::Error,
        RowKind::Event => return None,
    };
    Some(kind)
}

fn check_row(row: &Row, kind: Kind, revision: Revision) -> Mark {
    if row.raw.len() > MAX_CHECKED_BYTES {
        return Err(NotChecked::TooLarge(MAX_CHECKED_BYTES / (1024 * 1024)));
    }
    let direction = if row.direction == RowDirection::Out { Direction::Out } else { Direction::In };
    let value: Value = serde_json::from_str(&row.raw).map_err(|e| NotChecked::NotJson(e.to_string()))?;
    spec_check::check(revision, Message { direction, kind, method: row.method.as_deref() }, &value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relay::RelayEvent;

    fn mark(t: &Timeline, seq: usize) -> String {
        match t.schema_mark(seq) {
            None => "-".to_owned(),
            Some(Ok(Verdict::Valid)) => "valid".to_owned(),
            Some(Ok(Verdict::Invalid { pointer, rule })) => format!("invalid {pointer}: {rule}"),
            Some(Err(why)) => why.to_string(),
        }
    }

    #[test]
    fn rows_are_marked_against_the_negotiated_revision_once_it_is_known() {
        let mut t = Timeline::new();
        t.push_event(0.0, &RelayEvent::Spawned { pid: Some(1), command: "x".into(), args: vec![] });
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"p","version":"1"}}}"#;
        t.push_message(Direction::Out, 1.0, 0, init.into());
        assert_eq!(mark(&t, 0), "-", "relay events get no mark");
        assert_eq!(mark(&t, 1), "the protocol revision is not known yet");
        // The server picks an older revision than the one offered: that is the one checked.
        let answer = r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
        t.push_message(Direction::In, 2.0, 0, answer.into());
        assert_eq!(t.revision(), Some(Revision::V2024_11_05));
        assert_eq!(mark(&t, 1), "valid");
        assert_eq!(mark(&t, 2), "valid");
        t.push_message(Direction::Out, 3.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into());
        t.push_message(Direction::In, 4.0, 0, r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]}}"#.into());
        assert_eq!(mark(&t, 4), "invalid /result/tools/0/inputSchema: inputSchema is required");
        // A mark is kept: the row is not parsed again.
        assert!(t.rows()[4].mark.get().is_some());
        assert!(t.rows()[3].mark.get().is_none(), "rows nobody asked about are never checked");
        // Another revision set later (the session knows best) drops the marks made.
        t.set_revision(Revision::V2025_06_18);
        assert!(t.rows()[4].mark.get().is_none());
    }

    #[test]
    fn a_stateless_session_names_its_revision_in_each_request() {
        let mut t = Timeline::new();
        let discover = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        t.push_message(Direction::Out, 0.0, 0, discover.into());
        assert_eq!(t.revision(), Some(Revision::V2026_07_28));
    }
}
