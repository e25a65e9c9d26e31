//! Properties of the `text/event-stream` parser: events written any valid way (fields in any
//! order, comments, `\r`, `\n` or `\r\n` endings, data over several lines), cut into any
//! chunks, come out as the spec reads them and as one chunk gives them; an event past the
//! limit is reported with its size and never given out.

use proptest::prelude::*;

use super::sse::{Event, Parser, TooLarge};

/// One event as written on the wire.
#[derive(Debug, Clone)]
struct Written {
    event: Option<String>,
    /// Never empty, and no line is empty (see `empty_data_lines_keep_their_newlines`).
    data: Vec<String>,
    id: Option<String>,
    comments: Vec<String>,
    /// Where each comment and the `event`/`id` lines go among the data lines.
    order: Vec<usize>,
    /// Whether a space follows each field's colon.
    spaced: Vec<bool>,
    /// The line ending of each line: 0 `\n`, 1 `\r`, 2 `\r\n`.
    endings: Vec<u8>,
}

/// What the parser gives out, comparable whatever else `TooLarge` carries.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Out {
    Event(Event),
    TooLarge(usize),
}

fn outs(results: Vec<Result<Event, TooLarge>>) -> Vec<Out> {
    results
        .into_iter()
        .map(|r| match r {
            Ok(e) => Out::Event(e),
            Err(TooLarge { size, .. }) => Out::TooLarge(size),
        })
        .collect()
}

/// Text of a field value: no line ending, no NUL (which voids an `id`).
fn value() -> impl Strategy<Value = String> {
    "[^\r\n\u{0}]{0,12}"
}

fn written() -> impl Strategy<Value = Written> {
    (
        prop::option::of(value().prop_filter("an event type is a word", |v| !v.is_empty())),
        prop::collection::vec(value().prop_filter("not empty", |v| !v.is_empty()), 1..4),
        prop::option::of(value()),
        prop::collection::vec(value(), 0..3),
        prop::collection::vec(any::<usize>(), 8),
        prop::collection::vec(any::<bool>(), 8),
        prop::collection::vec(0u8..3, 9),
    )
        .prop_map(|(event, data, id, comments, order, spaced, endings)| Written {
            event,
            data,
            id,
            comments,
            order,
            spaced,
            endings,
        })
}

impl Written {
    /// The event's lines (without endings), in a shuffled but valid order: data lines keep
    /// their order, everything else goes anywhere among them.
    fn lines(&self) -> Vec<String> {
        let field = |name: &str, v: &str, spaced: bool| {
            // Without the space, a value starting with one would lose it: keep the space then.
            if spaced || v.starts_with(' ') { format!("{name}: {v}") } else { format!("{name}:{v}") }
        };
        let mut lines: Vec<String> =
            self.data.iter().enumerate().map(|(i, d)| field("data", d, self.spaced[i % 8])).collect();
        let mut others = Vec::new();
        if let Some(e) = &self.event {
            others.push(field("event", e, self.spaced[5]));
        }
        if let Some(id) = &self.id {
            others.push(field("id", id, self.spaced[6]));
        }
        others.extend(self.comments.iter().map(|c| format!(":{c}")));
        for (i, line) in others.into_iter().enumerate() {
            let at = self.order[i % 8] % (lines.len() + 1);
            lines.insert(at, line);
        }
        lines
    }

    /// The bytes of the event, ended by its blank line. A `\r` ending is never followed by
    /// an empty line ended by `\n` alone (that reads as one `\r\n`).
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let mut lines = self.lines();
        lines.push(String::new());
        for (i, line) in lines.iter().enumerate() {
            out.extend_from_slice(line.as_bytes());
            let after_cr = out.last() == Some(&b'\r');
            out.extend_from_slice(match self.endings[i % 9] {
                0 if after_cr => b"\r\n",
                0 => b"\n",
                1 => b"\r",
                _ => b"\r\n",
            });
        }
        out
    }

    /// The bytes the parser counts against its limit: every line but its ending, comments
    /// aside (a stream of keep-alive comments is no event growing).
    fn size(&self) -> usize {
        self.lines().iter().filter(|l| !l.starts_with(':')).map(String::len).sum()
    }
}

/// What the spec says the parser must give out for `events`, with `max` as its limit.
fn expected(events: &[Written], max: usize) -> Vec<Out> {
    let mut last_id = None;
    events
        .iter()
        .map(|w| {
            if w.size() > max {
                return Out::TooLarge(w.size());
            }
            if let Some(id) = &w.id {
                last_id = Some(id.clone());
            }
            Out::Event(Event {
                event: w.event.clone().unwrap_or_else(|| "message".into()),
                data: w.data.join("\n"),
                id: last_id.clone(),
            })
        })
        .collect()
}

/// `bytes` fed in pieces cut at `cuts`.
fn parse(bytes: &[u8], cuts: &[usize], max: usize) -> Vec<Out> {
    let mut p = Parser::new(max);
    let mut at = 0;
    let mut got = Vec::new();
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    for cut in cuts.into_iter().chain([bytes.len()]) {
        got.extend(p.feed(&bytes[at..cut]));
        at = cut;
    }
    outs(got)
}

proptest! {
    // A few hundred cases run in a second or two in CI; failures are written up as plain
    // tests rather than kept in regression files.
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(256) })]

    #[test]
    fn events_come_out_as_written_however_they_are_cut(
        events in prop::collection::vec(written(), 0..8),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
    ) {
        let bytes: Vec<u8> = events.iter().flat_map(Written::bytes).collect();
        let whole = parse(&bytes, &[], usize::MAX);
        prop_assert_eq!(&whole, &expected(&events, usize::MAX));
        prop_assert_eq!(parse(&bytes, &cuts, usize::MAX), whole);
    }

    #[test]
    fn events_past_the_limit_are_reported_never_given_out(
        events in prop::collection::vec(written().prop_map(|mut w| { w.id = None; w }), 0..8),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
        max in 4usize..48,
    ) {
        // Without ids: what id an event after a dropped one carries is not settled here.
        let bytes: Vec<u8> = events.iter().flat_map(Written::bytes).collect();
        let got = parse(&bytes, &cuts, max);
        prop_assert_eq!(&got, &expected(&events, max));
        prop_assert_eq!(got, parse(&bytes, &[], max));
    }
}

/// The spec appends every data line and a newline, then drops the last newline: empty data
/// lines are newlines of the data, and one empty data line is an event with empty data.
#[test]
fn empty_data_lines_keep_their_newlines() {
    let got = outs(Parser::new(1024).feed(b"data:\ndata: x\n\ndata\n\n"));
    let event = |data: &str| Out::Event(Event { event: "message".into(), data: data.into(), id: None });
    assert_eq!(got, [event("\nx"), event("")]);
}

/// The smallest case of the property above: the event's first line passes the limit, its
/// second is not kept and so taken for its end, and its third comes out as an event.
#[test]
fn the_tail_of_an_event_past_the_limit_is_never_given_out() {
    let got = outs(Parser::new(16).feed(b"data: 0123456789abcdef\ndata: x\ndata: {\"ok\":1}\n\n"));
    assert_eq!(got, [Out::TooLarge(43)]);
}
