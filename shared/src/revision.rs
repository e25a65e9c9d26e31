//! The MCP protocol revisions the playground speaks, and how a person chooses among them:
//! `auto` (offer the newest, accept what the server picks) or one pinned revision.

use serde::{Deserialize, Serialize};

/// One dated revision of the MCP specification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Revision {
    #[serde(rename = "2024-11-05")]
    V2024_11_05,
    #[serde(rename = "2025-03-26")]
    V2025_03_26,
    #[serde(rename = "2025-06-18")]
    V2025_06_18,
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
    #[serde(rename = "2026-07-28")]
    V2026_07_28,
}

impl Revision {
    /// Every revision, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The newest revision that opens with `initialize` (2026-07-28 has none).
    pub const NEWEST_WITH_INITIALIZE: Revision = Revision::V2025_11_25;

    /// Its date, as `protocolVersion` and the `MCP-Protocol-Version` header write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The revision of a `protocolVersion` string, when it is one the playground speaks.
    pub fn parse(text: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.as_str() == text.trim())
    }

    /// Whether a session of this revision opens with `initialize` (all before 2026-07-28).
    pub fn has_initialize(self) -> bool {
        self < Revision::V2026_07_28
    }

    /// Whether this revision has `ping` (2026-07-28 has none: each request stands alone).
    pub fn has_ping(self) -> bool {
        self < Revision::V2026_07_28
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a person asks for: the newest the server accepts, or one revision.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ProtocolChoice {
    #[default]
    Auto,
    Pinned(Revision),
}

impl ProtocolChoice {
    /// `auto` or a revision's date.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolChoice::Auto => "auto",
            ProtocolChoice::Pinned(r) => r.as_str(),
        }
    }

    /// Reads `auto` or a date; the error lists what is accepted.
    pub fn parse(text: &str) -> Result<ProtocolChoice, UnknownRevision> {
        let text = text.trim();
        if text.is_empty() || text.eq_ignore_ascii_case("auto") {
            return Ok(ProtocolChoice::Auto);
        }
        Revision::parse(text).map(ProtocolChoice::Pinned).ok_or_else(|| UnknownRevision(text.to_owned()))
    }
}

/// A revision a person asked for that this client does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol revision {0:?}: use auto or one of {known}", known = known_revisions())]
pub struct UnknownRevision(pub String);

fn known_revisions() -> String {
    Revision::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", ")
}

impl Serialize for ProtocolChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ProtocolChoice::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_read_and_write_their_dates_in_order() {
        for r in Revision::ALL {
            assert_eq!(Revision::parse(r.as_str()), Some(r));
            assert_eq!(serde_json::to_value(r).unwrap(), r.as_str());
        }
        assert!(Revision::V2024_11_05 < Revision::V2026_07_28);
        assert!(Revision::V2025_11_25.has_initialize() && !Revision::V2026_07_28.has_initialize());
        assert_eq!(Revision::parse("2025-01-01"), None);
    }

    #[test]
    fn a_choice_is_auto_or_a_known_date() {
        assert_eq!(ProtocolChoice::parse("").unwrap(), ProtocolChoice::Auto);
        assert_eq!(ProtocolChoice::parse("AUTO").unwrap(), ProtocolChoice::Auto);
        assert_eq!(ProtocolChoice::parse("2024-11-05").unwrap(), ProtocolChoice::Pinned(Revision::V2024_11_05));
        let e = ProtocolChoice::parse("2023-01-01").unwrap_err();
        assert!(e.to_string().contains("use auto or one of 2024-11-05, 2025-03-26"), "{e}");
        let back: ProtocolChoice = serde_json::from_str("\"2026-07-28\"").unwrap();
        assert_eq!(back, ProtocolChoice::Pinned(Revision::V2026_07_28));
        assert_eq!(serde_json::to_string(&ProtocolChoice::Auto).unwrap(), "\"auto\"");
    }
}
