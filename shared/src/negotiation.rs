//! Agreeing on a protocol revision: `server/discover` first (2026-07-28, stateless), then
//! `initialize` for a server that does not answer it; which revision a person's choice
//! offers, whether the server's answer may stand, and the words that say why a session
//! speaks the revision it does (the page, the command line and a recording all show them).

use serde::{Deserialize, Serialize};

use crate::revision::{ProtocolChoice, Revision};

/// The revision a session speaks, and what led to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Negotiated {
    /// What the server answered, and so what the session speaks.
    pub revision: Revision,
    /// What `initialize` offered.
    pub offered: Revision,
    /// Whether a person pinned the revision (then nothing else would have done).
    pub pinned: bool,
    /// What became of `server/discover`, asked first unless an older revision was pinned.
    #[serde(default)]
    pub discovery: Discovery,
}

/// What `server/discover` came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discovery {
    /// Not asked: a revision with `initialize` was pinned.
    #[default]
    NotAsked,
    /// Answered with 2026-07-28 among its versions: the session is stateless.
    Answered,
    /// Refused (an error, an HTTP status): the server predates it.
    Refused,
    /// Answered, but naming no revision this client speaks statelessly.
    Unsupported,
    /// No answer in time: `initialize` went too, and answered first.
    Silent,
}

impl Discovery {
    /// What led to `initialize`, said before its outcome; empty when discovery settled it.
    fn before_initialize(self) -> &'static str {
        match self {
            Discovery::NotAsked | Discovery::Answered => "",
            Discovery::Refused => "server/discover refused; ",
            Discovery::Unsupported => "server/discover named no revision spoken here; ",
            Discovery::Silent => "server/discover unanswered; ",
        }
    }
}

impl Negotiated {
    /// Why this revision: `pinned`, or what was offered and what the server did with it.
    /// How the revision was chosen, in a word: `pinned` or `auto`.
    pub fn how(&self) -> &'static str {
        if self.pinned { "pinned" } else { "auto" }
    }

    pub fn reason(&self) -> String {
        let before = self.discovery.before_initialize();
        if self.pinned {
            "pinned".to_owned()
        } else if self.discovery == Discovery::Answered {
            "the server answered server/discover".to_owned()
        } else if self.revision == self.offered {
            format!("{before}offered {}, the server accepted it", self.offered)
        } else {
            format!("{before}offered {}, the server chose it", self.offered)
        }
    }
}

impl std::fmt::Display for Negotiated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.revision, self.reason())
    }
}

/// The revision `initialize` offers for a choice (a pinned 2026-07-28 never sends one).
pub fn offer(choice: ProtocolChoice) -> Revision {
    match choice {
        ProtocolChoice::Auto | ProtocolChoice::Pinned(Revision::V2026_07_28) => Revision::NEWEST_WITH_INITIALIZE,
        ProtocolChoice::Pinned(r) => r,
    }
}

/// Whether a choice asks `server/discover` first: `auto` and a pinned 2026-07-28 do.
pub fn discovers(choice: ProtocolChoice) -> bool {
    match choice {
        ProtocolChoice::Auto => true,
        ProtocolChoice::Pinned(r) => !r.has_initialize(),
    }
}

/// What a `server/discover` answer settles: the stateless revision when it names it, or
/// how the handshake goes on. `Err` ends the session (2026-07-28 was pinned).
pub fn discovered(choice: ProtocolChoice, supported: &[String]) -> Result<Negotiated, Discovery> {
    let stateless = Revision::V2026_07_28;
    if supported.iter().any(|v| v == stateless.as_str()) {
        let pinned = choice == ProtocolChoice::Pinned(stateless);
        return Ok(Negotiated { revision: stateless, offered: stateless, pinned, discovery: Discovery::Answered });
    }
    Err(Discovery::Unsupported)
}

/// Why a pinned 2026-07-28 cannot go on once discovery came to `d`.
pub fn pinned_stateless_failed(d: Discovery, detail: &str) -> String {
    let what = match d {
        Discovery::Refused => "refused server/discover",
        Discovery::Unsupported => "does not list 2026-07-28 in server/discover",
        Discovery::Silent => "did not answer server/discover",
        Discovery::NotAsked | Discovery::Answered => "cannot speak it",
    };
    let detail = if detail.is_empty() { String::new() } else { format!(" ({detail})") };
    format!("pinned 2026-07-28, but the server {what}{detail}: choose auto to fall back to initialize")
}

/// Whether the `protocolVersion` the server answered may stand. With `auto`, any revision
/// this client speaks does (the server picks); a pinned revision must come back as asked,
/// since the person wanted that one and no other.
pub fn accept(choice: ProtocolChoice, offered: Revision, answered: &str) -> Result<Negotiated, NotAgreed> {
    let known = Revision::parse(answered).filter(|r| r.has_initialize());
    match (choice, known) {
        (ProtocolChoice::Pinned(pinned), Some(r)) if r == pinned => {
            Ok(Negotiated { revision: r, offered, pinned: true, discovery: Discovery::NotAsked })
        }
        (ProtocolChoice::Pinned(pinned), _) => Err(NotAgreed::NotAsPinned { pinned, answered: shown(answered) }),
        (ProtocolChoice::Auto, Some(r)) => {
            Ok(Negotiated { revision: r, offered, pinned: false, discovery: Discovery::NotAsked })
        }
        (ProtocolChoice::Auto, None) => Err(NotAgreed::Unspoken { answered: shown(answered), offered }),
    }
}

/// Why the revision `initialize` answered may not stand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAgreed {
    #[error("pinned {pinned}, the server answered {answered}: choose auto to accept the server's revision")]
    NotAsPinned { pinned: Revision, answered: String },
    #[error(
        "the server answered protocol revision {answered}, which MCP Playground does not speak (offered {offered}; it speaks {})",
        spoken_with_initialize()
    )]
    Unspoken { answered: String, offered: Revision },
}

fn spoken_with_initialize() -> String {
    Revision::ALL.iter().filter(|r| r.has_initialize()).map(|r| r.as_str()).collect::<Vec<_>>().join(", ")
}

/// A server's `protocolVersion` as a message quotes it: a date bare, anything odder quoted.
fn shown(answered: &str) -> String {
    match Revision::parse(answered) {
        Some(r) => r.to_string(),
        None => format!("{answered:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Revision::*;

    #[test]
    fn auto_offers_the_newest_with_initialize_and_takes_what_the_server_picks() {
        assert_eq!(offer(ProtocolChoice::Auto), V2025_11_25);
        assert_eq!(crate::DEFAULT_PROTOCOL_VERSION, Revision::NEWEST_WITH_INITIALIZE.as_str());
        let n = accept(ProtocolChoice::Auto, V2025_11_25, "2025-06-18").unwrap();
        assert_eq!(
            n,
            Negotiated { revision: V2025_06_18, offered: V2025_11_25, pinned: false, discovery: Discovery::NotAsked }
        );
        assert_eq!(n.to_string(), "2025-06-18 (offered 2025-11-25, the server chose it)");
        let refused = Negotiated { discovery: Discovery::Refused, ..n };
        assert_eq!(refused.reason(), "server/discover refused; offered 2025-11-25, the server chose it");
        let same = accept(ProtocolChoice::Auto, V2025_11_25, "2025-11-25").unwrap();
        assert_eq!(same.reason(), "offered 2025-11-25, the server accepted it");
        assert_eq!(accept(ProtocolChoice::Auto, V2025_11_25, "2024-11-05").unwrap().revision, V2024_11_05);
    }

    #[test]
    fn auto_refuses_a_revision_it_does_not_speak() {
        let e = accept(ProtocolChoice::Auto, V2025_11_25, "2024-10-07").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the server answered protocol revision \"2024-10-07\", which MCP Playground does not speak (offered 2025-11-25; it speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25)"
        );
        // The stateless revision has no `initialize`: an answer naming it is no handshake.
        assert!(accept(ProtocolChoice::Auto, V2025_11_25, "2026-07-28").is_err());
    }

    #[test]
    fn a_pinned_revision_must_come_back_as_asked() {
        let pinned = ProtocolChoice::Pinned(V2024_11_05);
        assert_eq!(offer(pinned), V2024_11_05);
        assert!(!discovers(pinned) && discovers(ProtocolChoice::Auto));
        let n = accept(pinned, V2024_11_05, "2024-11-05").unwrap();
        assert_eq!(n.to_string(), "2024-11-05 (pinned)");
        assert_eq!(
            accept(pinned, V2024_11_05, "2025-06-18").unwrap_err().to_string(),
            "pinned 2024-11-05, the server answered 2025-06-18: choose auto to accept the server's revision"
        );
    }

    #[test]
    fn discovery_settles_the_stateless_revision_or_hands_over_to_initialize() {
        let pinned = ProtocolChoice::Pinned(V2026_07_28);
        assert!(discovers(pinned));
        let n = discovered(ProtocolChoice::Auto, &["2025-11-25".into(), "2026-07-28".into()]).unwrap();
        assert_eq!(n.to_string(), "2026-07-28 (the server answered server/discover)");
        assert_eq!(discovered(pinned, &["2026-07-28".into()]).unwrap().to_string(), "2026-07-28 (pinned)");
        assert_eq!(discovered(ProtocolChoice::Auto, &["2027-01-01".into()]), Err(Discovery::Unsupported));
        assert_eq!(
            pinned_stateless_failed(Discovery::Refused, "Method not found (-32601)"),
            "pinned 2026-07-28, but the server refused server/discover (Method not found (-32601)): choose auto to fall back to initialize"
        );
    }
}
