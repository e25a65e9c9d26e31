//! The pages of a `tools/list` listing: each one read, the next one asked for, and a
//! listing that fails or never ends stopped with what came before kept.

use serde_json::json;

use super::{Handled, MAX_TOOL_PAGES, McpClient, Purpose, Update};
use crate::mcp::ListToolsResult;

impl McpClient {
    /// A page of `tools/list` failed: what came before it is kept and said.
    pub(super) fn tools_failed(&mut self, why: String, out: &mut Handled) {
        let partial = std::mem::take(&mut self.tools);
        let message = if self.pages == 0 {
            format!("tools/list {why}")
        } else {
            let n = partial.len();
            format!(
                "tools/list page {} {why}; showing the {n} tool{} of the pages before it",
                self.pages + 1,
                if n == 1 { "" } else { "s" }
            )
        };
        out.updates.push(Update::ToolsFailed { message, partial });
    }

    pub(super) fn on_tools_page(&mut self, page: ListToolsResult, out: &mut Handled) {
        self.pages += 1;
        self.tools.extend(page.tools);
        match page.next_cursor {
            Some(cursor) if self.cursors_seen.contains(&cursor) => {
                out.updates.push(Update::Notice(format!("tools/list repeated cursor {cursor:?}; stopped paging")));
                out.updates.push(Update::Tools(self.tools.clone()));
            }
            Some(_) if self.pages >= MAX_TOOL_PAGES => {
                out.updates
                    .push(Update::Notice(format!("tools/list still paging after {MAX_TOOL_PAGES} pages; stopped")));
                out.updates.push(Update::Tools(self.tools.clone()));
            }
            Some(cursor) => {
                self.cursors_seen.insert(cursor.clone());
                let frame =
                    self.request(Purpose::ListTools(self.listing), "tools/list", Some(json!({"cursor": cursor}))).1;
                out.replies.push(frame);
            }
            None => out.updates.push(Update::Tools(self.tools.clone())),
        }
    }
}
