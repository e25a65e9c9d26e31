//! The relay's stamp of a frame the page sent (`sent`, without the frame): the row is the
//! one an echo made, from the frame the session kept; numbers count every send.

use super::Harness;
use crate::relay::{ClientMsg, Direction, RelayEvent, ServerMsg, Target};
use crate::timeline::RowDirection;

/// The frames the session wants sent now, unechoed.
fn sent(h: &mut Harness) -> Vec<String> {
    let fx = h.s.drain();
    fx.send.into_iter().filter_map(|m| if let ClientMsg::Send { frame } = m { Some(frame) } else { None }).collect()
}

#[test]
fn a_stamp_makes_the_row_of_the_frame_sent_once() {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
    h.s.drain();
    h.event(RelayEvent::Spawned { pid: None, command: "d".into(), args: vec![] });
    let frames = sent(&mut h);
    assert_eq!(frames.len(), 1, "initialize");
    let size = frames[0].len();
    h.feed(ServerMsg::Sent { n: 0, at_ms: 1234.5, size });
    let row = h.s.timeline().rows().last().cloned().expect("a row");
    assert_eq!((row.direction, row.at_ms, row.size), (RowDirection::Out, 1234.5, size));
    assert_eq!(row.raw, frames[0]);
    assert_eq!(row.method.as_deref(), Some("initialize"));
    let rows = h.s.timeline().rows().len();
    h.feed(ServerMsg::Sent { n: 0, at_ms: 1300.0, size });
    h.feed(ServerMsg::Sent { n: 9, at_ms: 1300.0, size });
    assert_eq!(h.s.timeline().rows().len(), rows, "a stamp twice, or of nothing sent, adds no row");
}

#[test]
fn a_close_drops_what_the_relay_never_wrote() {
    let mut h = Harness::connected(serde_json::json!([]));
    h.s.receive(ServerMsg::Hello(super::playback::relay_info()), h.at);
    h.s.ping(h.at).expect("a ping");
    assert_eq!(sent(&mut h).len(), 1, "send 0, refused by the relay");
    h.event(RelayEvent::Closed { reason: "the server exited".into(), asked: false });
    let rows = h.s.timeline().rows().len();
    h.feed(ServerMsg::Sent { n: 0, at_ms: 9.0, size: 1 });
    assert_eq!(h.s.timeline().rows().len(), rows, "nothing waits after the close");
}

#[test]
fn a_new_socket_counts_from_zero_and_a_frame_the_relay_wrote_comes_whole() {
    let mut h = Harness::connected(serde_json::json!([{"name": "a", "inputSchema": {"type": "object"}}]));
    // The page's socket opened again: every socket begins with hello.
    h.s.receive(ServerMsg::Hello(super::playback::relay_info()), h.at);
    h.s.ping(h.at).expect("a ping");
    let ping = sent(&mut h);
    assert_eq!(ping.len(), 1);
    h.feed(ServerMsg::Sent { n: 0, at_ms: 2.0, size: ping[0].len() });
    assert_eq!(h.s.timeline().rows().last().map(|r| r.raw.as_str()), Some(ping[0].as_str()));
    // A second frame, not yet stamped when the socket is lost.
    h.s.ping(h.at).expect("a ping");
    assert_eq!(sent(&mut h).len(), 1);
    let before = h.s.timeline().rows().len();
    h.s.relay_lost("gone");
    h.feed(ServerMsg::Sent { n: 1, at_ms: 3.0, size: 1 });
    assert_eq!(h.s.timeline().rows().len(), before, "a lost socket forgets its sends");
    let whole = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    h.feed(ServerMsg::Message { direction: Direction::Out, at_ms: 4.0, size: whole.len(), frame: whole.into() });
    assert_eq!(h.s.timeline().rows().last().map(|r| r.raw.as_str()), Some(whole), "a frame of the relay's own");
}
