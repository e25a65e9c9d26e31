//! The session log the timeline shows: every message both ways and every relay event, in
//! order, classified, with requests and responses paired and timed.

use std::collections::HashMap;

use serde_json::Value;

use crate::jsonrpc::{self, Id, Kind};
use crate::relay::{Direction, RelayEvent};

/// Which way a row went, as `data-direction` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowDirection {
    Out,
    In,
    Relay,
}

impl RowDirection {
    pub fn as_str(self) -> &'static str {
        match self {
            RowDirection::Out => "out",
            RowDirection::In => "in",
            RowDirection::Relay => "relay",
        }
    }
}

/// What a row is, as `data-kind` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Request,
    Response,
    Error,
    Notification,
    Event,
}

impl RowKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RowKind::Request => "request",
            RowKind::Response => "response",
            RowKind::Error => "error",
            RowKind::Notification => "notification",
            RowKind::Event => "event",
        }
    }
}

/// One row of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Position in the session, from 0.
    pub seq: usize,
    /// Relay time, milliseconds since the Unix epoch.
    pub at_ms: f64,
    pub direction: RowDirection,
    pub kind: RowKind,
    /// The method; for a response, the method of its request; for an event, its name.
    pub method: Option<String>,
    pub id: Option<Id>,
    pub size: usize,
    /// The frame as it crossed the wire, or the event's JSON.
    pub raw: String,
    /// For a response: the `seq` of its request; for a request: of its response, once known.
    pub partner: Option<usize>,
    /// For a response: milliseconds since its request.
    pub duration_ms: Option<f64>,
}

/// The rows of one session, with the bookkeeping that pairs them.
#[derive(Debug, Default)]
pub struct Timeline {
    rows: Vec<Row>,
    /// Requests awaiting a response, per direction of the request: id → row.
    open: HashMap<(RowDirection, Id), usize>,
}

impl Timeline {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// When the session began (the first row), for relative times.
    pub fn start_ms(&self) -> Option<f64> {
        self.rows.first().map(|r| r.at_ms)
    }

    /// Requests still waiting for a response.
    pub fn open_requests(&self) -> usize {
        self.open.len()
    }

    /// Adds an MCP message and pairs it. Returns its `seq`.
    pub fn push_message(&mut self, direction: Direction, at_ms: f64, size: usize, frame: String) -> usize {
        let classified = jsonrpc::parse(&frame).map(|(_, c)| c);
        self.push_classified(direction, at_ms, size, frame, classified)
    }

    /// Adds an MCP message its caller already parsed (large frames are parsed once).
    pub fn push_classified(
        &mut self,
        direction: Direction,
        at_ms: f64,
        size: usize,
        frame: String,
        classified: Result<jsonrpc::Classified, jsonrpc::FrameError>,
    ) -> usize {
        let dir = match direction {
            Direction::Out => RowDirection::Out,
            Direction::In => RowDirection::In,
        };
        let seq = self.rows.len();
        let (kind, id, mut method) = match classified {
            Ok(c) => {
                let kind = match c.kind {
                    Kind::Request => RowKind::Request,
                    Kind::Notification => RowKind::Notification,
                    Kind::Response => RowKind::Response,
                    Kind::Error => RowKind::Error,
                };
                (kind, c.id, c.method)
            }
            // The relay forwards only JSON-RPC, but a page must survive anything.
            Err(_) => (RowKind::Event, None, Some("unreadable".to_owned())),
        };
        let mut partner = None;
        let mut duration_ms = None;
        match (kind, &id) {
            (RowKind::Request, Some(id)) => {
                self.open.insert((dir, id.clone()), seq);
            }
            (RowKind::Response | RowKind::Error, Some(id)) => {
                let request_dir = if dir == RowDirection::In { RowDirection::Out } else { RowDirection::In };
                if let Some(req) = self.open.remove(&(request_dir, id.clone())) {
                    let request = &mut self.rows[req];
                    request.partner = Some(seq);
                    method = request.method.clone();
                    partner = Some(req);
                    duration_ms = Some(at_ms - request.at_ms);
                }
            }
            _ => {}
        }
        self.rows.push(Row { seq, at_ms, direction: dir, kind, method, id, size, raw: frame, partner, duration_ms });
        seq
    }

    /// Adds a relay event. Returns its `seq`.
    pub fn push_event(&mut self, at_ms: f64, event: &RelayEvent) -> usize {
        let seq = self.rows.len();
        let raw = serde_json::to_string(event).unwrap_or_default();
        self.rows.push(Row {
            seq,
            at_ms,
            direction: RowDirection::Relay,
            kind: RowKind::Event,
            method: Some(event.name().to_owned()),
            id: None,
            size: raw.len(),
            raw,
            partner: None,
            duration_ms: None,
        });
        seq
    }

    /// The row's JSON pretty-printed for the detail view; raw text when it is not JSON.
    pub fn pretty(&self, seq: usize) -> Option<String> {
        let row = self.rows.get(seq)?;
        Some(match serde_json::from_str::<Value>(&row.raw) {
            Ok(v) => serde_json::to_string_pretty(&v).unwrap_or_else(|_| row.raw.clone()),
            Err(_) => row.raw.clone(),
        })
    }

    /// Every row with its stamps, as a JSON document to download (`format` names the shape).
    pub fn export(&self) -> Value {
        let start = self.start_ms().unwrap_or(0.0);
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                // The message as JSON where it is JSON; otherwise its text, never dropped.
                let message = serde_json::from_str::<Value>(&r.raw).unwrap_or_else(|_| Value::String(r.raw.clone()));
                serde_json::json!({
                    "seq": r.seq,
                    "at_ms": r.at_ms,
                    "since_start_ms": r.at_ms - start,
                    "direction": r.direction.as_str(),
                    "kind": r.kind.as_str(),
                    "method": r.method,
                    "id": r.id,
                    "size": r.size,
                    "partner": r.partner,
                    "duration_ms": r.duration_ms,
                    "message": message,
                })
            })
            .collect();
        serde_json::json!({"format": "mcp-playground-timeline/1", "rows": rows})
    }

    /// Rows matching a free-text filter (method, id, direction, kind or body text).
    pub fn filtered(&self, filter: &str) -> Vec<&Row> {
        let needle = filter.trim().to_lowercase();
        self.rows
            .iter()
            .filter(|r| {
                needle.is_empty()
                    || r.method.as_deref().is_some_and(|m| m.to_lowercase().contains(&needle))
                    || r.kind.as_str() == needle
                    || r.direction.as_str() == needle
                    || r.raw.to_lowercase().contains(&needle)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn dump(t: &Timeline) -> String {
        t.rows()
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {} id={} partner={:?} dur={:?}",
                    r.seq,
                    r.direction.as_str(),
                    r.kind.as_str(),
                    r.method.as_deref().unwrap_or("-"),
                    r.id.as_ref().map(|i| i.to_string()).unwrap_or("-".into()),
                    r.partner,
                    r.duration_ms
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn pairs_both_ways_and_times_round_trips() {
        let mut t = Timeline::new();
        t.push_event(0.0, &RelayEvent::Spawned { pid: Some(1), command: "x".into(), args: vec![] });
        t.push_message(Direction::Out, 10.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#.into());
        t.push_message(Direction::Out, 11.0, 0, r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#.into());
        // The server asks something with an id that collides with ours: kept apart by direction.
        t.push_message(Direction::In, 12.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into());
        t.push_message(Direction::Out, 13.0, 0, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
        t.push_message(Direction::In, 25.5, 0, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
        t.push_message(Direction::In, 26.0, 0, r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#.into());
        t.push_message(Direction::In, 40.0, 0, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}"#.into());
        // A response nobody asked for stays unpaired.
        t.push_message(Direction::In, 41.0, 0, r#"{"jsonrpc":"2.0","id":99,"result":{}}"#.into());
        expect![[r#"
            0 relay event spawned id=- partner=None dur=None
            1 out request initialize id=1 partner=Some(5) dur=None
            2 out request tools/call id=2 partner=Some(7) dur=None
            3 in request ping id=1 partner=Some(4) dur=None
            4 out response ping id=1 partner=Some(3) dur=Some(1.0)
            5 in response initialize id=1 partner=Some(1) dur=Some(15.5)
            6 in notification notifications/progress id=- partner=None dur=None
            7 in error tools/call id=2 partner=Some(2) dur=Some(29.0)
            8 in response - id=99 partner=None dur=None"#]]
        .assert_eq(&dump(&t));
        assert_eq!(t.open_requests(), 0);
        assert_eq!(t.filtered("tools/call").len(), 2);
        assert_eq!(t.filtered("relay").len(), 1);
        assert_eq!(t.filtered("").len(), 9);
    }

    #[test]
    fn export_keeps_every_message_with_its_stamps() {
        let mut t = Timeline::new();
        t.push_event(100.0, &RelayEvent::Stderr { line: "hi".into(), truncated: false });
        t.push_message(Direction::Out, 110.0, 38, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.into());
        t.push_message(Direction::In, 112.5, 36, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
        let e = t.export();
        expect![[r#"{"format":"mcp-playground-timeline/1","rows":[{"seq":0,"at_ms":100.0,"since_start_ms":0.0,"direction":"relay","kind":"event","method":"stderr","id":null,"size":47,"partner":null,"duration_ms":null,"message":{"kind":"stderr","line":"hi","truncated":false}},{"seq":1,"at_ms":110.0,"since_start_ms":10.0,"direction":"out","kind":"request","method":"ping","id":1,"size":38,"partner":2,"duration_ms":null,"message":{"jsonrpc":"2.0","id":1,"method":"ping"}},{"seq":2,"at_ms":112.5,"since_start_ms":12.5,"direction":"in","kind":"response","method":"ping","id":1,"size":36,"partner":1,"duration_ms":2.5,"message":{"jsonrpc":"2.0","id":1,"result":{}}}]}"#]]
            .assert_eq(&e.to_string());
    }

    #[test]
    fn string_and_number_ids_do_not_collide() {
        let mut t = Timeline::new();
        t.push_message(Direction::Out, 0.0, 0, r#"{"jsonrpc":"2.0","id":1,"method":"a"}"#.into());
        t.push_message(Direction::In, 1.0, 0, r#"{"jsonrpc":"2.0","id":"1","result":{}}"#.into());
        assert_eq!(t.rows()[1].partner, None);
        assert_eq!(t.open_requests(), 1);
    }
}
