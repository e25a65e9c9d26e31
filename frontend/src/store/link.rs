//! The page's URL and the tool picked (`shared::deep_link`): a link's `#tool=NAME` (with
//! `args=` from `mcp-playground --tool NAME --args JSON`) picks that tool once the server
//! lists it and fills its form, calling nothing; each tool picked since writes its own
//! `#tool=NAME`, so a reload or a shared link opens it again.

use leptos::prelude::*;
use serde_json::Value;
use shared::deep_link::{self, Link};

use super::Store;

/// What a link asks, until the tool list answers it.
#[derive(Debug, Clone, Copy)]
pub struct LinkState {
    /// The link's tool, while the server has not listed its tools.
    tool: StoredValue<Option<String>>,
    /// The arguments for its form.
    args: StoredValue<Option<Value>>,
    /// Why the link opens nothing, said once a server is listed (a connection clears what
    /// was said before it).
    problem: StoredValue<Option<String>>,
}

impl LinkState {
    pub fn new() -> Self {
        Self { tool: StoredValue::new(None), args: StoredValue::new(None), problem: StoredValue::new(None) }
    }
}

impl Store {
    /// Reads the page's own link (at start): its tool is picked once listed, before the
    /// one a reload would bring back.
    pub(super) fn read_link(self) {
        let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else { return };
        match deep_link::read(&hash) {
            Ok(Some(Link { tool, args })) => {
                self.saved.pending_tool.set_value(Some(tool.clone()));
                self.link.tool.set_value(Some(tool));
                self.link.args.set_value(args);
            }
            Ok(None) => {}
            Err(e) => self.link.problem.set_value(Some(format!("{e}: the link opens no tool"))),
        }
    }

    /// A tool list came: a link that opens nothing, or the tool it asked for when this
    /// server lacks it, is said; a tool it names that is listed is filled in once picked.
    pub(super) fn link_listed(self, listed: bool) {
        if let Some(problem) = self.link.problem.try_update_value(Option::take).flatten() {
            self.notice(problem);
        }
        let Some(tool) = self.link.tool.try_update_value(Option::take).flatten() else { return };
        if !listed {
            self.link.args.set_value(None);
            self.notice(format!("the link opens the tool {tool}, which this server does not list"));
        }
    }

    /// The link's arguments, for the tool just picked (once).
    pub(super) fn link_args(self) -> Option<Value> {
        self.link.args.try_update_value(Option::take).flatten()
    }

    /// The page's URL says the tool picked (replacing, so Back leaves the page as before).
    pub(super) fn show_link(self, tool: &str) {
        let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
        let _ =
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&deep_link::fragment(tool, None)));
    }
}

impl Default for LinkState {
    fn default() -> Self {
        Self::new()
    }
}
