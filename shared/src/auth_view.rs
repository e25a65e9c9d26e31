//! What the connection panel says of signing in (`auth-status`) and what its buttons do:
//! the words for each [`AuthState`], a token's expiry in human terms, and whether a sign-in
//! URL may be opened at all (only `http`/`https`: the URL comes from a server).

use crate::relay::AuthState;

/// What `auth-status` shows, and which buttons go with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthView {
    /// `data-state`: `none`, or [`AuthState::name`].
    pub state: &'static str,
    /// The first line: where sign-in stands.
    pub title: String,
    /// Smaller lines below it: scopes, expiry, why it failed.
    pub details: Vec<String>,
    /// The label of `auth-sign-in`, when it is offered; `None` hides it.
    pub sign_in: Option<&'static str>,
    /// `auth-sign-in` is shown but cannot be clicked (the relay is busy signing in).
    pub sign_in_busy: bool,
    /// `auth-sign-out` is offered.
    pub sign_out: bool,
}

/// Where the connection stands, as far as signing in cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// Not connected, nor connecting: a click on sign-in connects.
    Idle,
    Connecting,
    Connected,
}

/// The view of `auth` at `now_ms` (milliseconds since the Unix epoch), with local times
/// `utc_offset_min` minutes ahead of UTC.
pub fn view(auth: Option<&AuthState>, link: Link, now_ms: f64, utc_offset_min: i32) -> AuthView {
    let idle = link == Link::Idle;
    let mut v = AuthView {
        state: auth.map_or("none", AuthState::name),
        title: String::new(),
        details: Vec::new(),
        sign_in: None,
        sign_in_busy: false,
        sign_out: false,
    };
    match auth {
        None => {
            v.title = match link {
                Link::Connected => "No sign-in: the server asked for none".into(),
                _ => "Not signed in: the server will say if it needs OAuth".into(),
            };
            v.sign_in = idle.then_some("Sign in");
        }
        Some(AuthState::SigningIn { step }) => {
            v.title = format!("Signing in: {step}…");
            v.sign_in = Some("Signing in…");
            v.sign_in_busy = true;
        }
        Some(AuthState::Approve { issuer, .. }) => {
            v.title = format!("Approve access at {issuer}");
            v.details.push("The sign-in page opens in a new tab; come back once you approve.".into());
            v.sign_in = Some("Open sign-in page");
        }
        Some(AuthState::SignedIn { issuer, scopes, expires_at_ms }) => {
            v.title = format!("Signed in at {issuer}");
            v.details.push(if scopes.is_empty() {
                "no scopes named".into()
            } else {
                format!("scopes: {}", scopes.join(" "))
            });
            if let Some(at) = expires_at_ms {
                v.details.push(expiry(*at as f64, now_ms, utc_offset_min));
            }
            v.sign_out = true;
        }
        Some(AuthState::SignedOut) => {
            v.title = "Signed out: the relay forgot the tokens".into();
            v.sign_in = idle.then_some("Sign in");
        }
        Some(AuthState::Failed { step, message }) => {
            v.title = format!("Sign-in failed at {step}");
            v.details.push(message.clone());
            v.sign_in = idle.then_some("Sign in again");
        }
    }
    v
}

/// When a token expires, in human terms: "expires in 59 min" within two hours, else the
/// local time ("expires at 14:05").
pub fn expiry(at_ms: f64, now_ms: f64, utc_offset_min: i32) -> String {
    let left = at_ms - now_ms;
    if left <= 0.0 {
        return "expired: the relay refreshes it on the next request".into();
    }
    let minutes = (left / 60_000.0).floor() as i64;
    match minutes {
        0 => "expires in under a minute".into(),
        1..120 => format!("expires in {minutes} min"),
        _ => {
            let local_min = ((at_ms / 60_000.0).floor() as i64 + i64::from(utc_offset_min)).rem_euclid(24 * 60);
            format!("expires at {:02}:{:02}", local_min / 60, local_min % 60)
        }
    }
}

/// The URL if a page may open it: `http` or `https` only, never `javascript:` or `data:`.
pub fn openable(url: &str) -> Option<&str> {
    let lower = url.trim_start().get(..8).unwrap_or(url).to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://")).then_some(url.trim())
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    const NOW: f64 = 1_767_323_045_000.0; // 2026-01-02T03:04:05Z

    fn shown(auth: Option<AuthState>, link: Link) -> String {
        let v = view(auth.as_ref(), link, NOW, 60);
        let mut buttons = Vec::new();
        if let Some(label) = v.sign_in {
            buttons.push(format!("[{label}{}]", if v.sign_in_busy { " (busy)" } else { "" }));
        }
        if v.sign_out {
            buttons.push("[Sign out]".into());
        }
        format!("{}: {} | {} {}", v.state, v.title, v.details.join(" · "), buttons.join(" ")).trim_end().to_owned()
    }

    #[test]
    fn every_state_reads_as_the_panel_shows_it() {
        let issuer = || "https://auth.example".to_owned();
        let lines = [
            shown(None, Link::Idle),
            shown(None, Link::Connected),
            shown(Some(AuthState::SigningIn { step: "discovery".into() }), Link::Connecting),
            shown(
                Some(AuthState::Approve { issuer: issuer(), url: "https://auth.example/authorize?x".into() }),
                Link::Connecting,
            ),
            shown(
                Some(AuthState::SignedIn {
                    issuer: issuer(),
                    scopes: vec!["mcp:read".into(), "mcp:write".into()],
                    expires_at_ms: Some(NOW as u64 + 59 * 60_000 + 30_000),
                }),
                Link::Connected,
            ),
            shown(Some(AuthState::SignedIn { issuer: issuer(), scopes: vec![], expires_at_ms: None }), Link::Connected),
            shown(Some(AuthState::SignedOut), Link::Idle),
            shown(Some(AuthState::Failed { step: "token".into(), message: "invalid_grant".into() }), Link::Idle),
            shown(Some(AuthState::Failed { step: "token".into(), message: "invalid_grant".into() }), Link::Connected),
        ];
        expect![[r#"
            none: Not signed in: the server will say if it needs OAuth |  [Sign in]
            none: No sign-in: the server asked for none |
            signing-in: Signing in: discovery… |  [Signing in… (busy)]
            signing-in: Approve access at https://auth.example | The sign-in page opens in a new tab; come back once you approve. [Open sign-in page]
            signed-in: Signed in at https://auth.example | scopes: mcp:read mcp:write · expires in 59 min [Sign out]
            signed-in: Signed in at https://auth.example | no scopes named [Sign out]
            signed-out: Signed out: the relay forgot the tokens |  [Sign in]
            failed: Sign-in failed at token | invalid_grant [Sign in again]
            failed: Sign-in failed at token | invalid_grant"#]]
        .assert_eq(&lines.join("\n"));
    }

    #[test]
    fn expiry_is_minutes_then_a_local_time() {
        assert_eq!(expiry(NOW + 30_000.0, NOW, 0), "expires in under a minute");
        assert_eq!(expiry(NOW + 61_000.0, NOW, 0), "expires in 1 min");
        assert_eq!(expiry(NOW + 119.5 * 60_000.0, NOW, 0), "expires in 119 min");
        // 03:04 UTC + 3 h = 06:04 UTC, shown at UTC+1 and UTC-5.
        assert_eq!(expiry(NOW + 3.0 * 3_600_000.0, NOW, 60), "expires at 07:04");
        assert_eq!(expiry(NOW + 3.0 * 3_600_000.0, NOW, -300), "expires at 01:04");
        assert!(expiry(NOW - 1.0, NOW, 0).starts_with("expired"));
    }

    #[test]
    fn only_web_urls_may_be_opened() {
        assert_eq!(openable("https://as.example/authorize?a=1"), Some("https://as.example/authorize?a=1"));
        assert_eq!(openable(" HTTP://127.0.0.1:9/authorize "), Some("HTTP://127.0.0.1:9/authorize"));
        assert_eq!(openable("javascript:alert(1)"), None);
        assert_eq!(openable("data:text/html,x"), None);
        assert_eq!(openable("http:"), None);
    }
}
