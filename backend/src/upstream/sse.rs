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

/// Feeds on chunks, yields complete events.
#[derive(Debug)]
pub struct Parser {
    line: Vec<u8>,
    event: String,
    data: String,
    id: Option<String>,
    size: usize,
    max: usize,
    skip_lf: bool,
}

impl Parser {
    pub fn new(max: usize) -> Self {
        Self { line: Vec::new(), event: String::new(), data: String::new(), id: None, size: 0, max, skip_lf: false }
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
                    let line = std::mem::take(&mut self.line);
                    if let Some(e) = self.line_done(&line) {
                        out.push(e);
                    }
                }
                _ => {
                    self.size += 1;
                    // Past the limit the line is only counted, not kept.
                    if self.size <= self.max {
                        self.line.push(b);
                    }
                }
            }
        }
        out
    }

    fn line_done(&mut self, line: &[u8]) -> Option<Result<Event, TooLarge>> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line[0] == b':' {
            return None;
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f.to_owned(), v.strip_prefix(' ').unwrap_or(v).to_owned()),
            None => (text.into_owned(), String::new()),
        };
        match field.as_str() {
            "event" => self.event = value,
            "data" => {
                // A second data line joins the first with a newline.
                if !self.data.is_empty() {
                    self.data.push('\n');
                }
                self.data.push_str(&value);
            }
            "id" => self.id = Some(value),
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<Result<Event, TooLarge>> {
        let size = std::mem::take(&mut self.size);
        let event = std::mem::take(&mut self.event);
        let data = std::mem::take(&mut self.data);
        if size > self.max {
            // The data held is already bounded by `max` (lines past it are only counted).
            let mut head = data.into_bytes();
            head.truncate(HEAD_BYTES);
            return Some(Err(TooLarge { size, head }));
        }
        if data.is_empty() && event.is_empty() {
            return None;
        }
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
