//! Signing in to a remote server: the settings travel with the connect, the states reach
//! `auth()` and mark `Changed.auth`, signing out ends the connection without an error, and
//! the page's recording keeps the approval URL without its query values.

use super::*;
use crate::relay::{AuthState, OAuthSettings};

fn remote() -> Target {
    Target::Http { url: "http://127.0.0.1:9/mcp".into(), headers: Default::default() }
}

fn approve() -> AuthState {
    AuthState::Approve {
        issuer: "http://127.0.0.1:9".into(),
        url: "http://127.0.0.1:9/authorize?client_id=c&state=ST4TE&code_challenge=CH".into(),
    }
}

#[test]
fn sign_in_states_follow_the_relay_and_a_new_connection_forgets_them() {
    let mut h = Harness::new();
    let oauth = OAuthSettings { client_id: Some("c".into()), scopes: vec!["mcp:tools".into()] };
    h.s.connect_signing_in(remote(), ProtocolChoice::Auto, oauth.clone(), true);
    let (_, others, _) = h.flush();
    assert_eq!(others, [ClientMsg::Connect { target: remote(), oauth }]);
    assert_eq!(h.s.auth(), None, "no sign-in until the server asks");
    let states = [
        AuthState::SigningIn { step: "discovery".into() },
        approve(),
        AuthState::SignedIn {
            issuer: "http://127.0.0.1:9".into(),
            scopes: vec!["mcp:tools".into()],
            expires_at_ms: Some(9),
        },
    ];
    for state in states {
        h.event(RelayEvent::Auth { auth: state.clone() });
        let (.., changed) = h.flush();
        assert!(changed.auth, "{state:?}");
        assert_eq!(h.s.auth(), Some(&state));
    }
    assert_eq!(h.s.auth().map(AuthState::name), Some("signed-in"));
    h.s.connect_with(Target::Demo, ProtocolChoice::Auto, false);
    h.flush();
    assert_eq!(h.s.auth(), None, "another server, another sign-in");
}

#[test]
fn signing_out_ends_the_connection_without_an_error() {
    let mut h = Harness::connected(echo_tool());
    h.event(RelayEvent::Auth { auth: AuthState::SignedIn { issuer: "i".into(), scopes: vec![], expires_at_ms: None } });
    h.s.sign_out();
    assert_eq!(h.flush().1, [ClientMsg::SignOut {}]);
    h.event(RelayEvent::Auth { auth: AuthState::SignedOut });
    h.event(RelayEvent::Closed { reason: "signed out".into(), asked: true });
    assert_eq!(h.s.conn(), &ConnState::Disconnected);
    assert_eq!(h.s.auth(), Some(&AuthState::SignedOut));
}

#[test]
fn the_pages_recording_masks_the_approval_url() {
    let mut h = Harness::new();
    h.s.connect_signing_in(remote(), ProtocolChoice::Auto, OAuthSettings::default(), true);
    h.flush();
    h.event(RelayEvent::Auth { auth: approve() });
    let shown = h.s.timeline().rows().last().unwrap().raw.clone();
    assert!(shown.contains("ST4TE"), "the page itself needs the URL: {shown}");
    let text = h.s.export_recording().unwrap();
    assert!(!text.contains("ST4TE") && !text.contains("code_challenge=CH"), "{text}");
    assert!(text.contains("state=••••"), "{text}");
}
