//! Which recorded tool calls a replay sends again: one rule for the page and the command
//! line. A call the confirmation policy would ask about (a tool that may write, by its
//! annotations: the live server's, else the recording's) is re-sent only after a yes (the
//! page's dialog, the command line's `--allow-writes`); every other call goes.

use serde_json::Value;

use super::Recorded;
use crate::calls::ConfirmPolicy;
use crate::mcp::Tool;

/// Why a call was not re-sent, as its row says.
pub const NOT_ALLOWED: &str = "not re-sent: it may write, and re-sending calls that may write was not allowed";

/// The rule a replay decides each recorded tool call by.
#[derive(Debug, Clone)]
pub struct ResendPolicy {
    confirm: ConfirmPolicy,
    /// The live server's tools first, then the recording's (the live annotations win).
    tools: Vec<Tool>,
    writes_allowed: bool,
    /// How a person allows them where this replay runs, said in a skipped row.
    how_to_allow: &'static str,
}

impl ResendPolicy {
    /// The rule of `confirm` ("never" does not apply: a recording is not a person's
    /// choice, so it counts as "unsafe"), with nothing that may write allowed yet.
    pub fn new(confirm: ConfirmPolicy, live: &[Tool], recorded: &[Tool]) -> Self {
        let confirm = if confirm == ConfirmPolicy::Never { ConfirmPolicy::Unsafe } else { confirm };
        let mut tools = live.to_vec();
        tools.extend(recorded.iter().filter(|r| !live.iter().any(|l| l.name == r.name)).cloned());
        Self { confirm, tools, writes_allowed: false, how_to_allow: "" }
    }

    /// Says in each skipped row how to allow what was skipped (`--allow-writes` re-sends it).
    pub fn how_to_allow(mut self, how: &'static str) -> Self {
        self.how_to_allow = how;
        self
    }

    /// The person's answer: calls that need a yes are re-sent, or skipped.
    pub fn allow_writes(&mut self, yes: bool) {
        self.writes_allowed = yes;
    }

    /// Whether a call of `tool` needs a yes before it is re-sent.
    pub fn needs_confirmation(&self, tool: &str) -> bool {
        let known = self.tools.iter().find(|t| t.name == tool);
        self.confirm.needs_confirmation(known.and_then(|t| t.annotations.as_ref()))
    }

    /// The recorded calls that need a yes, with the arguments they will be sent with.
    pub fn to_confirm(&self, requests: &[Recorded]) -> Vec<(String, Value)> {
        requests
            .iter()
            .filter(|r| r.method == "tools/call")
            .filter_map(|r| {
                let name = r.params["name"].as_str()?;
                self.needs_confirmation(name).then(|| (name.to_owned(), r.params["arguments"].clone()))
            })
            .collect()
    }

    /// Whether the call of `tool` is re-sent; `Err` says why not.
    pub fn check(&self, tool: &str) -> Result<(), String> {
        if self.writes_allowed || !self.needs_confirmation(tool) {
            Ok(())
        } else if self.how_to_allow.is_empty() {
            Err(NOT_ALLOWED.to_owned())
        } else {
            Err(format!("{NOT_ALLOWED} ({})", self.how_to_allow))
        }
    }
}
