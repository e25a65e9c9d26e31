//! The bridge driven with plain vectors, natively, against real processes: small shell
//! servers that answer, talk on stderr, exit or linger.

use std::sync::Arc;

use serde_json::Value;
use shared::relay::{AuthState, ClientMsg, Limits, OAuthSettings, RelayEvent, ServerMsg, Target};

use super::*;
use crate::auth::Hub;
use crate::auth::store::{Registration, SignIn, Tokens};

/// Answers every line it reads with an `initialize` result.
const ANSWERS: &str = r#"while read -r line; do echo '{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"sh","version":"1"}}}'; done"#;

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

fn setup(hub: Option<Arc<Hub>>) -> Setup {
    Setup {
        limits: Limits { max_message_bytes: 1 << 20, max_stderr_line_bytes: 4096 },
        demo_command: ("true".into(), vec![]),
        inherit: Inherit::Minimal,
        signing: hub.map(|hub| Signing { hub, settings: OAuthSettings::default() }),
        grace: Some(Duration::from_millis(300)),
    }
}

fn sh(script: &str) -> Target {
    Target::Stdio { command: "sh".into(), args: vec!["-c".into(), script.into()], env: Default::default(), cwd: None }
}

fn connect(target: Target) -> ClientMsg {
    ClientMsg::Connect { target, oauth: OAuthSettings::default() }
}

/// The relay events among `msgs`, by kind (`spawned`, `closed`, …).
fn kinds(msgs: &[ServerMsg]) -> Vec<String> {
    msgs.iter()
        .map(|m| match m {
            ServerMsg::Event { event, .. } => {
                serde_json::to_value(event).unwrap()["kind"].as_str().unwrap_or("?").to_owned()
            }
            ServerMsg::Message { direction, .. } => format!("{direction:?}").to_lowercase(),
            ServerMsg::Hello { .. } => "hello".into(),
            ServerMsg::Secrets { .. } => "secrets".into(),
            ServerMsg::Sent { .. } => "sent".into(),
            ServerMsg::Icon { src, .. } => format!("icon {src}"),
        })
        .collect()
}

/// Reads events until `done` holds for what was said; everything said.
async fn until(bridge: &mut Bridge, done: impl Fn(&[ServerMsg]) -> bool) -> Vec<ServerMsg> {
    let mut said = Vec::new();
    while !done(&said) {
        let (event, _share) = tokio::time::timeout(Duration::from_secs(20), bridge.next_event())
            .await
            .expect("the upstream said nothing for 20 s");
        if !bridge.on_event(event, &mut said).await {
            break;
        }
    }
    said
}

#[tokio::test]
async fn frames_go_both_ways_and_a_second_connect_is_refused() {
    let mut b = Bridge::new(setup(None));
    let mut said = Vec::new();
    b.handle(connect(sh(ANSWERS)), &mut said).await;
    assert_eq!(kinds(&said), ["spawned"]);
    assert!(b.is_connected());
    said.clear();
    b.handle(connect(sh(ANSWERS)), &mut said).await;
    let ServerMsg::Event { event: RelayEvent::Error { message }, .. } = &said[0] else { panic!("{said:?}") };
    assert_eq!(message, "already connected: disconnect first");
    b.handle(ClientMsg::Send { frame: INIT.into() }, &mut Vec::new()).await;
    let said = until(&mut b, |s| {
        s.iter().any(|m| matches!(m, ServerMsg::Message { frame, .. } if frame.contains("serverInfo")))
    })
    .await;
    let frames: Vec<Value> = said
        .iter()
        .filter_map(|m| match m {
            ServerMsg::Message { frame, .. } => serde_json::from_str(frame).ok(),
            _ => None,
        })
        .collect();
    assert_eq!(frames[0]["method"], "initialize", "the frame written is echoed first");
    assert_eq!(frames.last().unwrap()["id"], 1);
    b.end().await;
    assert!(!b.is_connected());
}

#[tokio::test]
async fn a_disconnect_reports_the_exit_before_the_close() {
    let mut b = Bridge::new(setup(None));
    let mut said = Vec::new();
    b.handle(connect(sh("echo bye >&2; exec sleep 30")), &mut said).await;
    // The stderr line is in the queue before the disconnect takes the server down.
    let _ = until(&mut b, |s| kinds(s).contains(&"stderr".to_owned())).await;
    said.clear();
    b.handle(ClientMsg::Disconnect {}, &mut said).await;
    let k = kinds(&said);
    assert_eq!(k.last().map(String::as_str), Some("closed"), "{k:?}");
    assert!(k.contains(&"exited".to_owned()), "the exit comes before the close: {k:?}");
    // Exactly one close answers the disconnect, marked so: the page waits for it to connect again.
    let asked = |said: &[ServerMsg]| {
        said.iter()
            .filter(|m| matches!(m, ServerMsg::Event { event: RelayEvent::Closed { asked: true, .. }, .. }))
            .count()
    };
    assert_eq!(asked(&said), 1, "{said:?}");
    let ServerMsg::Event { event: RelayEvent::Closed { reason, asked: true }, .. } = said.last().unwrap() else {
        panic!()
    };
    assert_eq!(reason, "disconnected");
    said.clear();
    b.handle(ClientMsg::Disconnect {}, &mut said).await;
    let ServerMsg::Event { event: RelayEvent::Closed { reason, asked: true }, .. } = &said[0] else { panic!() };
    assert_eq!(reason, "not connected");
}

#[tokio::test]
async fn a_server_that_exits_ends_the_connection_and_sending_then_is_an_error() {
    let mut b = Bridge::new(setup(None));
    b.handle(connect(sh("echo last >&2; exit 3")), &mut Vec::new()).await;
    let said = until(&mut b, |_| false).await;
    let k = kinds(&said);
    assert_eq!(&k[k.len() - 2..], ["exited", "closed"], "{k:?}");
    assert!(!b.is_connected());
    let mut said = Vec::new();
    b.handle(ClientMsg::Send { frame: INIT.into() }, &mut said).await;
    let ServerMsg::Event { event: RelayEvent::Error { message }, .. } = &said[0] else { panic!("{said:?}") };
    assert_eq!(message, "not connected: the message was not sent");
}

#[tokio::test]
async fn a_server_that_cannot_start_says_why_and_closes() {
    let mut b = Bridge::new(setup(None));
    let mut said = Vec::new();
    let missing =
        Target::Stdio { command: "/nonexistent/server".into(), args: vec![], env: Default::default(), cwd: None };
    b.handle(connect(missing), &mut said).await;
    assert_eq!(kinds(&said), ["error", "closed"]);
    assert!(!b.is_connected());
}

#[tokio::test]
async fn signing_out_forgets_the_tokens_of_that_server_and_says_so() {
    let hub = Arc::new(Hub::for_command(crate::auth::store::Store::in_memory()));
    // Something listens (the relay reaches a server before it connects); it never answers.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let url = &*format!("{base}/mcp");
    let other = &*format!("{base}/other");
    let kept = |resource: &str| SignIn {
        issuer: base.clone(),
        resource: resource.into(),
        client: Registration { client_id: "c".into(), client_secret: None, auth_method: "none".into() },
        tokens: Tokens { access_token: "t".into(), refresh_token: None, expires_at_ms: None, scopes: Vec::new() },
    };
    hub.store.put(kept(url));
    hub.store.put(kept(other));
    let mut b = Bridge::new(setup(Some(hub.clone())));
    let target = Target::Http { url: url.into(), headers: Default::default() };
    b.handle(connect(target), &mut Vec::new()).await;
    let mut said = Vec::new();
    b.handle(ClientMsg::SignOut {}, &mut said).await;
    let k = kinds(&said);
    assert_eq!(&k[k.len() - 2..], ["auth", "closed"], "{k:?}");
    assert!(matches!(
        &said[said.len() - 2],
        ServerMsg::Event { event: RelayEvent::Auth { auth: AuthState::SignedOut }, .. }
    ));
    assert!(hub.store.find(url).is_none(), "the tokens of the server signed out of are gone");
    assert!(hub.store.find(other).is_some(), "another server's stay");
    assert!(!b.is_connected());
}

/// A server that closed its stdin: the write fails with a broken pipe, which is no error of
/// its own (said as one, it once stood in for the exit's reason): a note, then the exit
/// with its code, then the close.
#[tokio::test]
async fn a_closed_stdin_is_a_note_and_the_exit_gives_the_reason() {
    let mut b = Bridge::new(setup(None));
    let mut said = Vec::new();
    b.handle(connect(sh("exec 0<&-; echo gone >&2; sleep 0.3; exit 3")), &mut said).await;
    assert_eq!(kinds(&said), ["spawned"]);
    // Enough bytes that the write cannot fit in a pipe nobody reads.
    let big =
        format!(r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{{"pad":"{}"}}}}"#, "x".repeat(256 * 1024));
    b.handle(ClientMsg::Send { frame: big }, &mut said).await;
    let said = until(&mut b, |s| kinds(s).contains(&"closed".to_owned())).await;
    let k = kinds(&said);
    assert!(!k.contains(&"error".to_owned()), "{k:?}");
    assert!(k.contains(&"note".to_owned()), "{k:?}");
    let exited = said.iter().find_map(|m| match m {
        ServerMsg::Event { event: RelayEvent::Exited { code, .. }, .. } => Some(*code),
        _ => None,
    });
    assert_eq!(exited, Some(Some(3)), "{k:?}");
}
