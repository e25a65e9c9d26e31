//! MCP Apps (`io.modelcontextprotocol/ui`, 2026-01-26), the host's side: which tools have a
//! view and who may call them (this file), the view's resource checked and its CSP built
//! (`resource.rs`), and the bridge a view talks to over `postMessage` (`bridge.rs`), sans-IO:
//! the page moves its messages, this decides what they do.

mod bridge;
mod resource;
#[cfg(test)]
mod tests;

use serde_json::{Value, json};

use crate::mcp::Tool;

pub use bridge::{DisplayMode, Effect, HostEnv, Theme, ViewBridge, ViewRequest};
pub use resource::{Csp, MAX_RESOURCE_BYTES, UiResource, UiResourceError, csp_header, permissions_allow};

/// The extension's identifier, as clients declare it.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The one MIME type of a view (an HTML5 document).
pub const MIME: &str = "text/html;profile=mcp-app";
/// The revision of the bridge protocol this host speaks.
pub const PROTOCOL: &str = "2026-01-26";

/// What the client declares under `capabilities.extensions`, in every revision: the
/// extension's own examples declare it in a 2024-11-05 `initialize`, and servers built on
/// its SDK look for it there whatever the revision.
pub fn capability() -> Value {
    json!({ EXTENSION: {"mimeTypes": [MIME]} })
}

/// Who may call a tool: the model (here, the person using the page) and the App's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Visibility {
    pub model: bool,
    pub app: bool,
}

/// A tool's App: the view that renders its results and who may call it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolUi {
    /// The `ui://` resource of its view; `None` for a tool that only sets its visibility.
    pub resource_uri: Option<String>,
    pub visibility: Visibility,
}

impl Visibility {
    /// `["model", "app"]` when not said.
    pub const DEFAULT: Visibility = Visibility { model: true, app: true };

    fn read(v: &Value) -> Visibility {
        match v.as_array() {
            Some(list) => {
                let has = |s: &str| list.iter().any(|x| x.as_str() == Some(s));
                Visibility { model: has("model"), app: has("app") }
            }
            None => Self::DEFAULT,
        }
    }
}

/// The App of `tool`: `_meta.ui` (`resourceUri`, `visibility`), or the deprecated flat
/// `_meta["ui/resourceUri"]`; `None` for a tool with neither.
pub fn tool_ui(tool: &Tool) -> Option<ToolUi> {
    let meta = tool.extra.get("_meta")?;
    let ui = meta.get("ui").filter(|u| u.is_object());
    let uri = ui
        .and_then(|u| u.get("resourceUri"))
        .or_else(|| meta.get("ui/resourceUri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let visibility = ui.and_then(|u| u.get("visibility")).map_or(Visibility::DEFAULT, Visibility::read);
    (uri.is_some() || ui.is_some()).then_some(ToolUi { resource_uri: uri, visibility })
}

/// The view resource of `tool`, if it has one.
pub fn resource_uri(tool: &Tool) -> Option<String> {
    tool_ui(tool)?.resource_uri
}

/// Whether `tool` is for the App's view only (`visibility: ["app"]`): listed apart.
pub fn app_only(tool: &Tool) -> bool {
    tool_ui(tool).is_some_and(|u| u.visibility.app && !u.visibility.model)
}

/// Whether a view may call `tool` (its visibility includes `"app"`).
pub fn callable_by_view(tool: &Tool) -> bool {
    tool_ui(tool).is_none_or(|u| u.visibility.app)
}
