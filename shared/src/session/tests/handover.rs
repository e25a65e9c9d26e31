//! A connection that fails, and one after another: a connect made before the relay has
//! closed the one before waits for that close, and nothing of the earlier connection
//! reaches it.

use super::Harness;
use crate::relay::{ClientMsg, RelayEvent, Target};
use crate::session::ConnState;

/// A session whose server refused `initialize`.
fn refused_initialize() -> Harness {
    let mut h = Harness::new();
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
    h.flush();
    h.event(RelayEvent::Spawned { pid: None, command: "d".into(), args: vec![] });
    h.flush();
    h.server_says(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Unsupported protocol version"}}"#);
    h
}

#[test]
fn initialize_refused_is_an_error_and_disconnects() {
    let mut h = refused_initialize();
    assert_eq!(h.s.conn(), &ConnState::Error("initialize failed: Unsupported protocol version (-32602)".into()));
    let (_, others, _) = h.flush();
    assert_eq!(others, [ClientMsg::Disconnect {}]);
    h.event(RelayEvent::Closed { reason: "disconnected".into(), asked: true });
    assert!(matches!(h.s.conn(), ConnState::Error(e) if e.contains("Unsupported")), "the error stays");
}

/// Connect clicked again before the relay has closed the failed connection: the new one
/// waits for that close, and nothing of the old one (its late frames, its close) ends it.
#[test]
fn a_connect_right_after_a_failure_waits_for_the_close_of_the_one_before() {
    let mut h = refused_initialize();
    assert_eq!(h.flush().1, [ClientMsg::Disconnect {}]);
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
    assert_eq!(h.s.conn(), &ConnState::Connecting);
    let (_, sent, _) = h.flush();
    assert!(sent.is_empty(), "the connect waits for the close it follows: {sent:?}");
    h.event(RelayEvent::Stderr { line: "bye".into(), truncated: false });
    h.server_says(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"late"}}"#);
    h.event(RelayEvent::Closed { reason: "disconnected".into(), asked: true });
    assert_eq!(h.s.conn(), &ConnState::Connecting, "the earlier close is not this connection's");
    assert!(h.s.stderr().is_empty() && h.s.timeline().rows().is_empty(), "nothing of the earlier one is kept");
    let (_, sent, _) = h.flush();
    assert!(matches!(sent.as_slice(), [ClientMsg::Connect { .. }]), "{sent:?}");
    h.event(RelayEvent::Spawned { pid: None, command: "d".into(), args: vec![] });
    assert_eq!(h.flush().0.len(), 1, "initialize goes out");
}

/// A connect still waiting is dropped by a disconnect: the relay never hears of it.
#[test]
fn a_waiting_connect_cancelled_is_never_sent() {
    let mut h = Harness::connected(serde_json::json!([]));
    h.s.disconnect();
    h.s.connect_with(Target::Demo, crate::session::tests_pin(), true);
    h.s.disconnect();
    assert_eq!(h.s.conn(), &ConnState::Disconnected);
    h.event(RelayEvent::Closed { reason: "disconnected".into(), asked: true });
    let (_, sent, _) = h.flush();
    assert_eq!(sent, [ClientMsg::Disconnect {}], "only the first disconnect went");
    assert_eq!(h.s.conn(), &ConnState::Disconnected);
}
