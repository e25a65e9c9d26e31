//! Agreeing on a protocol revision in `initialize`: which revision a person's choice
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
}

impl Negotiated {
    /// Why this revision: `pinned`, or what was offered and what the server did with it.
    pub fn reason(&self) -> String {
        if self.pinned {
            "pinned".to_owned()
        } else if self.revision == self.offered {
            format!("offered {}, the server accepted it", self.offered)
        } else {
            format!("offered {}, the server chose it", self.offered)
        }
    }
}

impl std::fmt::Display for Negotiated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.revision, self.reason())
    }
}

/// The revision `initialize` offers for a choice, or why nothing may be sent: 2026-07-28
/// has no `initialize`, and this client does not speak it yet.
pub fn offer(choice: ProtocolChoice) -> Result<Revision, String> {
    match choice {
        ProtocolChoice::Auto => Ok(Revision::NEWEST_WITH_INITIALIZE),
        ProtocolChoice::Pinned(r) if r.has_initialize() => Ok(r),
        ProtocolChoice::Pinned(r) => Err(format!(
            "protocol revision {r} is not spoken by MCP Playground yet; choose auto or a revision up to {}",
            Revision::NEWEST_WITH_INITIALIZE
        )),
    }
}

/// Whether the `protocolVersion` the server answered may stand. With `auto`, any revision
/// this client speaks does (the server picks); a pinned revision must come back as asked,
/// since the person wanted that one and no other.
pub fn accept(choice: ProtocolChoice, offered: Revision, answered: &str) -> Result<Negotiated, String> {
    let known = Revision::parse(answered).filter(|r| r.has_initialize());
    match (choice, known) {
        (ProtocolChoice::Pinned(pinned), Some(r)) if r == pinned => {
            Ok(Negotiated { revision: r, offered, pinned: true })
        }
        (ProtocolChoice::Pinned(pinned), _) => Err(format!(
            "pinned {pinned}, the server answered {}: choose auto to accept the server's revision",
            shown(answered)
        )),
        (ProtocolChoice::Auto, Some(r)) => Ok(Negotiated { revision: r, offered, pinned: false }),
        (ProtocolChoice::Auto, None) => {
            let spoken: Vec<&str> = Revision::ALL.iter().filter(|r| r.has_initialize()).map(|r| r.as_str()).collect();
            Err(format!(
                "the server answered protocol revision {}, which MCP Playground does not speak (offered {offered}; it speaks {})",
                shown(answered),
                spoken.join(", ")
            ))
        }
    }
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
        assert_eq!(offer(ProtocolChoice::Auto), Ok(V2025_11_25));
        assert_eq!(crate::DEFAULT_PROTOCOL_VERSION, Revision::NEWEST_WITH_INITIALIZE.as_str());
        let n = accept(ProtocolChoice::Auto, V2025_11_25, "2025-06-18").unwrap();
        assert_eq!(n, Negotiated { revision: V2025_06_18, offered: V2025_11_25, pinned: false });
        assert_eq!(n.to_string(), "2025-06-18 (offered 2025-11-25, the server chose it)");
        let same = accept(ProtocolChoice::Auto, V2025_11_25, "2025-11-25").unwrap();
        assert_eq!(same.reason(), "offered 2025-11-25, the server accepted it");
        assert_eq!(accept(ProtocolChoice::Auto, V2025_11_25, "2024-11-05").unwrap().revision, V2024_11_05);
    }

    #[test]
    fn auto_refuses_a_revision_it_does_not_speak() {
        let e = accept(ProtocolChoice::Auto, V2025_11_25, "2024-10-07").unwrap_err();
        assert_eq!(
            e,
            "the server answered protocol revision \"2024-10-07\", which MCP Playground does not speak (offered 2025-11-25; it speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25)"
        );
        // The stateless revision has no `initialize`: an answer naming it is no handshake.
        assert!(accept(ProtocolChoice::Auto, V2025_11_25, "2026-07-28").is_err());
    }

    #[test]
    fn a_pinned_revision_must_come_back_as_asked() {
        let pinned = ProtocolChoice::Pinned(V2024_11_05);
        assert_eq!(offer(pinned), Ok(V2024_11_05));
        let n = accept(pinned, V2024_11_05, "2024-11-05").unwrap();
        assert_eq!(n.to_string(), "2024-11-05 (pinned)");
        assert_eq!(
            accept(pinned, V2024_11_05, "2025-06-18").unwrap_err(),
            "pinned 2024-11-05, the server answered 2025-06-18: choose auto to accept the server's revision"
        );
    }

    #[test]
    fn the_stateless_revision_is_refused_before_anything_is_sent() {
        assert_eq!(
            offer(ProtocolChoice::Pinned(V2026_07_28)).unwrap_err(),
            "protocol revision 2026-07-28 is not spoken by MCP Playground yet; choose auto or a revision up to 2025-11-25"
        );
    }
}
