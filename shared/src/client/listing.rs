//! The pages of a `tools/list` listing: each one read, the next one asked for, and a
//! listing that fails or never ends stopped with what came before kept.

use serde_json::json;

use super::pages::Next;
use super::{Handled, McpClient, Purpose, Update};
use crate::http_headers;
use crate::mcp::ListToolsResult;

/// What a (2026-07-28) tool list says beyond its tools: how long it may be cached, for
/// whom, and the tools left out because their `x-mcp-header` marks are invalid.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListFacts {
    pub ttl_ms: Option<u64>,
    pub cache_scope: Option<String>,
    /// Tools left out: name and why.
    pub left_out: Vec<(String, String)>,
}

impl McpClient {
    /// A page of `tools/list` failed: what came before it is kept and said.
    pub(super) fn tools_failed(&mut self, why: String, out: &mut Handled) {
        let partial = std::mem::take(&mut self.tools);
        let message = self.pages.failed("tools/list", &why, partial.len(), "tool");
        out.updates.push(Update::ToolsFailed { message, partial });
        self.listing_done(out);
    }

    /// The listing under way ended; a change said meanwhile asks for one more.
    fn listing_done(&mut self, out: &mut Handled) {
        self.listing_open = false;
        if std::mem::take(&mut self.relist) {
            out.replies.push(self.list_tools());
        }
    }

    /// The server said its tool list changed: a new listing, or (one under way) one more
    /// once it ends, so that a burst of notifications costs two listings, not one each.
    pub(super) fn on_tools_changed(&mut self, out: &mut Handled) {
        if !self.listing_open {
            out.updates.push(Update::ToolsChanged);
            out.replies.push(self.list_tools());
        } else if !self.relist {
            self.relist = true;
            out.updates.push(Update::ToolsChanged);
        }
    }

    pub(super) fn on_tools_page(&mut self, mut page: ListToolsResult, out: &mut Handled) {
        if self.stateless.on {
            if self.pages.count == 0 {
                self.facts = ListFacts::default();
            }
            // The newest page says for how long the list holds.
            if let Some(ttl) = page.extra.get("ttlMs").and_then(|v| v.as_u64()) {
                self.facts.ttl_ms = Some(ttl);
            }
            if let Some(scope) = page.extra.get("cacheScope").and_then(|v| v.as_str()) {
                self.facts.cache_scope = Some(scope.to_owned());
            }
            let left_out = &mut self.facts.left_out;
            page.tools.retain(|t| match http_headers::problem(t) {
                Some(why) => {
                    left_out.push((t.name.clone(), why));
                    false
                }
                None => true,
            });
        }
        self.tools.extend(page.tools);
        if page.next_cursor.is_none() && self.stateless.on {
            out.updates.push(Update::ListFacts(self.facts.clone()));
        }
        match self.pages.read("tools/list", page.next_cursor) {
            Next::Page(cursor) => {
                let frame =
                    self.request(Purpose::ListTools(self.listing), "tools/list", Some(json!({"cursor": cursor}))).1;
                out.replies.push(frame);
            }
            Next::Done => self.listed(out),
            Next::Stopped(why) => {
                out.updates.push(Update::Notice(why));
                self.listed(out);
            }
        }
    }

    /// The listing is complete: its tools, and one more listing if the list changed meanwhile.
    fn listed(&mut self, out: &mut Handled) {
        out.updates.push(Update::Tools(self.tools.clone()));
        self.listing_done(out);
    }
}
