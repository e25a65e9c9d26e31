//! Icons at `http(s)` addresses (2025-11-25 `icons`): the page's CSP loads no image from
//! elsewhere, so the relay fetches the ones the server declared (`ClientMsg::Icon`) and
//! answers with a `data:` URL. Each is asked once per connection; every item showing it
//! reads the same answer.

use std::collections::HashMap;

use leptos::prelude::*;
use shared::relay::ClientMsg;

use super::Store;

/// Where an icon's fetch stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    Waiting,
    /// The image, as a `data:` URL.
    Ready(String),
    /// Why it is not shown (the relay's words).
    Failed(String),
}

/// The connection's icons by address. Reference-counted signals: an item drawn again (the
/// lists are windowed) finds its icon's answer where it left it.
pub type IconCache = StoredValue<HashMap<String, ArcRwSignal<Fetched>>>;

impl Store {
    /// The icon at `src`, asked of the relay the first time.
    pub fn fetched_icon(self, src: &str) -> ArcRwSignal<Fetched> {
        if let Some(known) = self.icons.with_value(|m| m.get(src).cloned()) {
            return known;
        }
        let state = ArcRwSignal::new(Fetched::Waiting);
        self.icons.update_value(|m| {
            m.insert(src.to_owned(), state.clone());
        });
        let asked =
            self.socket.with_value(|s| s.as_ref().is_some_and(|s| s.send(&ClientMsg::Icon { src: src.to_owned() })));
        if !asked {
            state.set(Fetched::Failed("not connected to the relay".into()));
        }
        state
    }

    /// The relay's answer about an icon.
    pub(super) fn on_icon(self, src: String, data: Option<String>, error: Option<String>) {
        let Some(state) = self.icons.with_value(|m| m.get(&src).cloned()) else { return };
        // Only an image is shown: the relay sends nothing else, and nothing else is trusted.
        state.set(match (data, error) {
            (Some(d), _) if d.starts_with("data:image/") => Fetched::Ready(d),
            (_, Some(e)) => Fetched::Failed(e),
            _ => Fetched::Failed("the relay sent no image".into()),
        });
    }

    /// A new connection: its server's icons are its own.
    pub(super) fn forget_icons(self) {
        self.icons.update_value(HashMap::clear);
    }
}
