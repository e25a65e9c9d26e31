//! The recording format: one session as JSON Lines. A header line, then one line per MCP
//! message (the raw frame exactly as it crossed the relay, its direction and the relay's
//! time stamp) or relay event. Appendable, greppable, `jq`-friendly, and a file cut off
//! midway is still readable up to the cut. Described in `docs/recording-format.md`.
//!
//! Nothing secret goes in: header and environment values of the target are masked, and so
//! are the query values of a sign-in's approval URL; the relay's token is never part of a
//! session.

mod live;
mod matching;
pub mod notes;
mod player;
mod read;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::relay::{AuthState, Direction, RelayEvent, ServerMsg, Target};
use crate::revision::ProtocolChoice;

pub use live::LiveRecorder;
pub use matching::{MAX_DELAY_MS, Mock, Reply};
pub use notes::{Note, NoteError};
pub use player::{FRAME_BUDGET_MS, LONGEST_PAUSE_MS, Next, Player, PlayerView, Speed};
pub use read::{ByteReader, Problem, Reader, Recording, parse};

/// The `format` of the header line.
pub const FORMAT: &str = "mcp-playground-recording";
/// The version this build writes, and the newest it reads. Version 2 added the App lane
/// (`"lane": "app"` entries), version 3 presenter notes (`notes` in the header, see
/// [`notes`]); older files are read as they are.
pub const VERSION: u32 = 3;

/// Who wrote a recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recorder {
    /// The page's own capture (`record-toggle`, exported).
    Page,
    /// The relay's `--record DIR`, whoever drove the session.
    Relay,
    /// The headless command line's `--record FILE`.
    Cli,
}

/// The first line of a recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    /// When the session began, milliseconds since the Unix epoch (relay time).
    pub started_at_ms: f64,
    pub recorded_by: Recorder,
    pub relay_version: String,
    /// The server, with every header and environment value masked.
    pub target: Target,
    /// The protocol revision asked for: `auto` (left out, and what an older recording
    /// without it means) or a pinned date. A replay asks for it again.
    #[serde(default, skip_serializing_if = "is_auto")]
    pub protocol: ProtocolChoice,
    /// What `initialize` negotiated; absent when the session never got that far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Map<String, Value>>,
    /// JSON Pointers a replay leaves out of its comparison (set by the replay view).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// The presenter's notes, in step order (version 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

impl Header {
    pub fn new(recorded_by: Recorder, relay_version: &str, target: &Target, started_at_ms: f64) -> Self {
        Self {
            format: FORMAT.into(),
            version: VERSION,
            started_at_ms,
            recorded_by,
            relay_version: relay_version.into(),
            target: masked_target(target),
            protocol: ProtocolChoice::Auto,
            protocol_version: None,
            server_info: None,
            capabilities: None,
            ignore: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Fills in what the `initialize` result says, from its frame; a `server/discover`
    /// result (2026-07-28) says as much, where it names that revision.
    pub fn learn_initialize(&mut self, result: &Value) {
        if let Some(versions) = result.get("supportedVersions").and_then(Value::as_array) {
            let stateless = crate::revision::Revision::V2026_07_28.as_str();
            if !versions.iter().any(|v| v == stateless) {
                return;
            }
            self.protocol_version = Some(stateless.to_owned());
            self.server_info =
                result.get("serverInfo").or_else(|| result["_meta"].get("io.modelcontextprotocol/serverInfo")).cloned();
            self.capabilities = result.get("capabilities").and_then(Value::as_object).cloned();
            return;
        }
        self.protocol_version = result.get("protocolVersion").and_then(Value::as_str).map(str::to_owned);
        self.server_info = result.get("serverInfo").cloned();
        self.capabilities = result.get("capabilities").and_then(Value::as_object).cloned();
    }

    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a header serializes")
    }
}

fn is_auto(choice: &ProtocolChoice) -> bool {
    *choice == ProtocolChoice::Auto
}

/// One line after the header.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// An MCP message, as its frame crossed the relay.
    Message { at_ms: f64, direction: Direction, frame: String },
    /// Something the relay saw that is not an MCP message.
    Event { at_ms: f64, event: RelayEvent },
    /// A message between the page and an App's view (the App lane): `to_view` when the host
    /// sent it. The page's clock (ms since the epoch).
    View { at_ms: f64, to_view: bool, frame: String },
}

/// The `lane` of an App-lane entry line.
const APP_LANE: &str = "app";

/// The JSON of an entry line: `{"t", "dir", "frame"}`, `{"t", "event"}`, or
/// `{"t", "lane": "app", "dir", "frame"}` (`out`: host → view).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryLine {
    t: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lane: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dir: Option<Direction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<RelayEvent>,
}

impl Entry {
    /// The entry for what the relay told its page, if it is part of the session.
    pub fn of(msg: &ServerMsg) -> Option<Entry> {
        match msg {
            // Secrets are never part of a recording; a stamp without its frame is the page's
            // (the relay records the frame it wrote).
            ServerMsg::Hello { .. } | ServerMsg::Secrets { .. } | ServerMsg::Sent { .. } | ServerMsg::Icon { .. } => {
                None
            }
            ServerMsg::Message { direction, at_ms, frame, .. } => {
                Some(Entry::Message { at_ms: *at_ms, direction: *direction, frame: frame.clone() })
            }
            ServerMsg::Event { at_ms, event } => Some(Entry::Event { at_ms: *at_ms, event: recorded_event(event) }),
        }
    }

    /// The relay message this entry was (what playback feeds the session); `None` for the
    /// App lane, which never crossed the relay.
    pub fn to_server_msg(&self) -> Option<ServerMsg> {
        match self {
            Entry::Message { at_ms, direction, frame } => Some(ServerMsg::Message {
                direction: *direction,
                at_ms: *at_ms,
                size: frame.len(),
                frame: frame.clone(),
            }),
            Entry::Event { at_ms, event } => Some(ServerMsg::Event { at_ms: *at_ms, event: event.clone() }),
            Entry::View { .. } => None,
        }
    }

    pub fn at_ms(&self) -> f64 {
        match self {
            Entry::Message { at_ms, .. } | Entry::Event { at_ms, .. } | Entry::View { at_ms, .. } => *at_ms,
        }
    }

    pub fn to_line(&self) -> String {
        let line = match self {
            Entry::Message { at_ms, direction, frame } => {
                EntryLine { t: *at_ms, lane: None, dir: Some(*direction), frame: Some(frame.clone()), event: None }
            }
            Entry::Event { at_ms, event } => {
                EntryLine { t: *at_ms, lane: None, dir: None, frame: None, event: Some(event.clone()) }
            }
            Entry::View { at_ms, to_view, frame } => EntryLine {
                t: *at_ms,
                lane: Some(APP_LANE.into()),
                dir: Some(if *to_view { Direction::Out } else { Direction::In }),
                frame: Some(frame.clone()),
                event: None,
            },
        };
        serde_json::to_string(&line).expect("an entry serializes")
    }
}

/// A whole recording as text: the header line, then one line per entry.
pub fn write(header: &Header, entries: &[Entry]) -> String {
    let mut out = header.to_line();
    out.push('\n');
    for e in entries {
        out.push_str(&e.to_line());
        out.push('\n');
    }
    out
}

/// A secret's stand-in: a scheme word such as `Bearer ` stays, the rest does not.
pub fn mask_value(value: &str) -> String {
    let scheme = value.split_once(' ').map(|(s, _)| s).filter(|s| s.len() <= 12 && !s.is_empty());
    match scheme {
        Some(s) => format!("{s} ••••"),
        None => "••••".into(),
    }
}

fn mask_map(map: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    map.iter().map(|(k, v)| (k.clone(), mask_value(v))).collect()
}

/// A URL without the secrets it may carry: a password, and the values of its query.
pub fn mask_url(url: &str) -> String {
    let (base, fragment) = url.split_once('#').map_or((url, None), |(b, f)| (b, Some(f)));
    let (path, query) = base.split_once('?').map_or((base, None), |(p, q)| (p, Some(q)));
    let mut out = match path.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, tail) = rest.split_once('/').map_or((rest, None), |(a, t)| (a, Some(t)));
            let authority = match authority.rsplit_once('@') {
                Some((user, host)) => {
                    let name = user.split_once(':').map_or(user, |(n, _)| n);
                    format!("{name}:••••@{host}")
                }
                None => authority.to_owned(),
            };
            format!("{scheme}://{authority}{}", tail.map(|t| format!("/{t}")).unwrap_or_default())
        }
        None => path.to_owned(),
    };
    if let Some(q) = query {
        let masked: Vec<String> = q
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((k, _)) => format!("{k}=••••"),
                None => pair.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&masked.join("&"));
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// `event` as a recording keeps it: the approval URL of a sign-in loses its query values
/// (`state`, the PKCE challenge), as a connected server's URL does.
pub fn recorded_event(event: &RelayEvent) -> RelayEvent {
    match event {
        RelayEvent::Auth { auth: AuthState::Approve { issuer, url } } => {
            RelayEvent::Auth { auth: AuthState::Approve { issuer: issuer.clone(), url: mask_url(url) } }
        }
        other => other.clone(),
    }
}

/// `target` with every header and environment value masked, and the URL's secrets.
pub fn masked_target(target: &Target) -> Target {
    match target {
        Target::Demo => Target::Demo,
        Target::Stdio { command, args, env, cwd } => {
            Target::Stdio { command: command.clone(), args: args.clone(), env: mask_map(env), cwd: cwd.clone() }
        }
        Target::Http { url, headers } => Target::Http { url: mask_url(url), headers: mask_map(headers) },
        Target::Sse { url, headers } => Target::Sse { url: mask_url(url), headers: mask_map(headers) },
        Target::Auto { url, headers } => Target::Auto { url: mask_url(url), headers: mask_map(headers) },
    }
}

/// A file name for a session's recording: when it began and what it reached, safe on any
/// file system, e.g. `2026-11-22T23-41-25Z-server-everything.jsonl`.
pub fn file_name(started_at_ms: f64, target: &Target) -> String {
    let what = match target {
        Target::Demo => "demo".to_owned(),
        Target::Stdio { command, args, .. } => {
            let last = args.iter().rev().find(|a| !a.starts_with('-')).unwrap_or(command);
            last.rsplit('/').next().unwrap_or(last).to_owned()
        }
        Target::Http { url, .. } | Target::Sse { url, .. } | Target::Auto { url, .. } => {
            url.split("://").nth(1).unwrap_or(url).split(['/', '?']).next().unwrap_or(url).to_owned()
        }
    };
    let safe: String = what
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '-' })
        .take(40)
        .collect();
    format!("{}-{safe}.jsonl", utc_stamp(started_at_ms))
}

/// `YYYY-MM-DDTHH-MM-SSZ` for milliseconds since the epoch (no calendar crate needed).
pub fn utc_stamp(ms: f64) -> String {
    let secs = (ms / 1000.0).floor() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = crate::timeline::clock::civil(days);
    format!("{year:04}-{month:02}-{day:02}T{:02}-{:02}-{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}
