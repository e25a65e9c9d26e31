//! Server-sent events (the `text/event-stream` format), parsed incrementally from the bytes
//! of a response body, with a bound on how much one event may hold.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The `event:` field, `message` when absent.
    pub event: String,
    pub data: String,
    pub id: Option<String>,
}

/// An event that grew past the limit; it is dropped, but its first bytes are kept so the
/// call it answers can be failed at once (see [`super::oversized`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    pub size: usize,
    /// The start of its `data`, at most [`HEAD_BYTES`].
    pub head: Vec<u8>,
}

/// What is kept of an event over the limit: what `oversized` reads an id from.
pub const HEAD_BYTES: usize = super::oversized::SCAN_BYTES;

/// Feeds on chunks, yields complete events, as the HTML standard's event-stream
/// interpretation describes (`data` lines joined by newlines, an event with no data not
/// dispatched, `id` kept for later events), with one addition: an event whose lines hold
/// more than `max` bytes is dropped whole and reported once, keeping only the first bytes
/// of its data.
#[derive(Debug)]
pub struct Parser {
    /// The kept bytes of the line being read.
    line: Vec<u8>,
    /// Every byte of that line, kept or not: a line cut at the limit is not a blank line.
    line_len: usize,
    /// The line began with `:`: a comment, neither kept nor counted.
    comment: bool,
    event: String,
    /// Each data line with a newline after it, as the standard builds it.
    data: String,
    id: Option<String>,
    /// The stream's `retry:` field: how long to wait before reconnecting, in ms.
    retry: Option<u64>,
    /// Bytes of the event so far (its lines but comments); past `max` it is dropped.
    size: usize,
    max: usize,
    skip_lf: bool,
}

impl Parser {
    pub fn new(max: usize) -> Self {
        Self {
            line: Vec::new(),
            line_len: 0,
            comment: false,
            event: String::new(),
            data: String::new(),
            id: None,
            retry: None,
            size: 0,
            max,
            skip_lf: false,
        }
    }

    /// Parses a chunk; returns the events it completed (or the size of one too large).
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<Result<Event, TooLarge>> {
        let mut out = Vec::new();
        for &b in chunk {
            if self.skip_lf {
                self.skip_lf = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\r' | b'\n' => {
                    self.skip_lf = b == b'\r';
                    if let Some(e) = self.line_done() {
                        out.push(e);
                    }
                }
                _ => {
                    self.line_len += 1;
                    if self.line_len == 1 && b == b':' {
                        self.comment = true;
                    }
                    if self.comment {
                        continue;
                    }
                    self.size += 1;
                    // Past the limit the event is only counted, not kept.
                    if self.size <= self.max {
                        self.line.push(b);
                    }
                }
            }
        }
        out
    }

    /// The last event id the stream set: sent as `Last-Event-ID` to resume it.
    pub fn last_event_id(&self) -> Option<&str> {
        self.id.as_deref().filter(|id| !id.is_empty())
    }

    /// The reconnection time the stream asked for, in milliseconds.
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry
    }

    fn over(&self) -> bool {
        self.size > self.max
    }

    fn line_done(&mut self) -> Option<Result<Event, TooLarge>> {
        let line = std::mem::take(&mut self.line);
        let len = std::mem::take(&mut self.line_len);
        if std::mem::take(&mut self.comment) {
            return None;
        }
        if len == 0 {
            return self.dispatch();
        }
        let cut = line.len() < len;
        let text = String::from_utf8_lossy(&line);
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (text.as_ref(), ""),
        };
        match field {
            // Of an event past the limit only the start of its data is kept, for its head.
            "data" if !self.over() || self.data.len() < HEAD_BYTES => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            // A cut line's value is not its value: an event past the limit sets nothing.
            _ if cut || self.over() => {}
            "event" => self.event = value.to_owned(),
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
            }
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<Result<Event, TooLarge>> {
        let size = std::mem::take(&mut self.size);
        let event = std::mem::take(&mut self.event);
        let mut data = std::mem::take(&mut self.data);
        if size > self.max {
            // The data held is already bounded by `max` (bytes past it are only counted).
            if data.ends_with('\n') {
                data.pop();
            }
            let mut head = data.into_bytes();
            head.truncate(HEAD_BYTES);
            return Some(Err(TooLarge { size, head }));
        }
        if data.is_empty() {
            return None;
        }
        data.pop();
        let event = if event.is_empty() { "message".to_owned() } else { event };
        Some(Ok(Event { event, data, id: self.id.clone() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize, chunk: usize) -> Vec<Result<Event, TooLarge>> {
        let mut p = Parser::new(max);
        input.chunks(chunk).flat_map(|c| p.feed(c)).collect()
    }

    #[test]
    fn parses_events_across_any_chunking() {
        let input = b": comment\nevent: endpoint\ndata: /messages?sessionId=1\n\ndata: {\"a\":1}\r\n\r\nid: 7\ndata: line1\ndata:line2\n\n\n";
        for chunk in [1, 2, 5, 1000] {
            let got = all(input, 1 << 20, chunk);
            assert_eq!(
                got,
                vec![
                    Ok(Event { event: "endpoint".into(), data: "/messages?sessionId=1".into(), id: None }),
                    Ok(Event { event: "message".into(), data: "{\"a\":1}".into(), id: None }),
                    Ok(Event { event: "message".into(), data: "line1\nline2".into(), id: Some("7".into()) }),
                ],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn the_stream_says_where_and_when_to_resume() {
        let mut p = Parser::new(1024);
        assert_eq!((p.last_event_id(), p.retry_ms()), (None, None));
        // A priming event: an id, a reconnection time and empty data.
        let got = p.feed(b"id: event-1\nretry: 500\ndata: \n\nretry: soon\n\n");
        assert_eq!(got, vec![Ok(Event { event: "message".into(), data: String::new(), id: Some("event-1".into()) })]);
        assert_eq!(
            (p.last_event_id(), p.retry_ms()),
            (Some("event-1"), Some(500)),
            "a retry that is no number is ignored"
        );
        p.feed(b"id\n\n");
        assert_eq!(p.last_event_id(), None, "an empty id resets it");
    }

    #[test]
    fn an_event_over_the_limit_is_dropped_and_said() {
        let mut input = b"data: ".to_vec();
        input.extend(std::iter::repeat_n(b'x', 5000));
        input.extend_from_slice(b"\n\ndata: ok\n\n");
        let got = all(&input, 1000, 64);
        assert!(matches!(&got[0], Err(TooLarge { size, .. }) if *size > 5000));
        assert_eq!(got[1], Ok(Event { event: "message".into(), data: "ok".into(), id: None }));
    }

    #[test]
    fn an_event_over_the_limit_keeps_its_first_bytes_only() {
        let event = |n| format!("data: {{\"id\":3,\"result\":\"{}\ndata: {}\"}}\n\n", "x".repeat(100), "y".repeat(n));
        // Limit 1000: a first line of 124 bytes, then 876 of the second (its "data: " and 870
        // bytes): the data joined is 118 + 1 + 870 bytes. A larger limit keeps `HEAD_BYTES`.
        for (max, n, kept) in [(1000, 5000, 989), (10_000, 50_000, HEAD_BYTES)] {
            let got = all(event(n).as_bytes(), max, 333);
            let Err(TooLarge { size, head }) = &got[0] else { panic!("{max}: {got:?}") };
            assert_eq!(*size, 124 + 6 + n + 2, "{max}");
            assert_eq!(head.len(), kept, "{max}");
            assert!(head.starts_with(br#"{"id":3,"result":"xx"#), "{max}");
        }
    }
}
