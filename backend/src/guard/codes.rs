//! One-time codes: what the browser the relay starts is given instead of the token. A
//! process's arguments are readable by every local user for as long as it runs; a code is
//! worth nothing once the browser has used it, or two minutes after it was made.

use std::time::{Duration, Instant};

use super::{constant_time_eq, random_token};

/// How long a code waits for its browser.
pub const LIFETIME: Duration = Duration::from_secs(120);

/// Codes alive at once: a relay issues one per start, so this only bounds a misuse.
const MAX_LIVE: usize = 8;

/// The live codes, each with the instant it expires.
#[derive(Debug, Default)]
pub struct Codes {
    live: Vec<(String, Instant)>,
}

impl Codes {
    /// A fresh code, valid until `now + LIFETIME`.
    pub fn issue(&mut self, now: Instant) -> String {
        self.live.retain(|(_, expires)| now < *expires);
        if self.live.len() >= MAX_LIVE {
            self.live.remove(0);
        }
        let code = random_token();
        self.live.push((code.clone(), now + LIFETIME));
        code
    }

    /// True when `code` is live at `now`; it is gone afterwards either way.
    pub fn redeem(&mut self, code: &str, now: Instant) -> bool {
        let Some(at) = self.live.iter().position(|(c, _)| constant_time_eq(c.as_bytes(), code.as_bytes())) else {
            return false;
        };
        let (_, expires) = self.live.remove(at);
        now < expires
    }
}
