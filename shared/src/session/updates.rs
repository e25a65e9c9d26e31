//! What the client's reading of a server message changes in the session: the handshake's
//! outcome, tool pages, a call's end, progress, logs, reads and the server's own requests.

use std::collections::BTreeMap;

use super::*;

/// Where a connection's tool list stands, for telling how it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ToolsChange {
    /// Its first listing is on its way: a change said now changes nothing shown.
    Unlisted,
    Listed,
    /// The server said the list changed: the listing under way tells how, when it ends.
    Told,
}

impl Session {
    pub(super) fn update(&mut self, update: Update, duration_ms: Option<f64>, now_ms: f64) {
        match update {
            Update::Ready(result) => {
                let negotiated = self.client.negotiated().copied();
                if let Some(n) = negotiated {
                    // The revision the marks are checked against is the one agreed.
                    self.timeline.set_revision(n.revision);
                }
                self.server = Some(ServerInfo { negotiated, ..ServerInfo::of(&result) });
                self.changed.server = true;
                self.set_conn(ConnState::Connected);
                self.set_tools_loading(true);
                self.tools_change = ToolsChange::Unlisted;
            }
            Update::InitializeFailed(message) => {
                // The first reason stands: the relay often explains before the request fails.
                if self.conn.is_live() {
                    self.set_conn(ConnState::Error(message));
                    self.disconnect();
                }
            }
            Update::ListFacts(facts) => {
                self.list_facts = Some(facts);
                self.changed.tools = true;
            }
            Update::Tools(tools) => {
                // Said only when the list is not what it was: servers often say it changed
                // right after the handshake, when nothing has.
                if std::mem::replace(&mut self.tools_change, ToolsChange::Listed) == ToolsChange::Told
                    && let Some(words) = tools_change(&self.tools, &tools)
                {
                    self.notice(words);
                }
                self.tools = tools;
                self.tools_error = None;
                self.set_tools_loading(false);
            }
            Update::ToolsFailed { message, partial } => {
                self.tools_change = ToolsChange::Listed;
                if !partial.is_empty() {
                    self.tools = partial;
                }
                self.tools_error = Some(message);
                self.set_tools_loading(false);
            }
            Update::ToolsChanged => {
                self.set_tools_loading(true);
                if self.tools_change == ToolsChange::Listed {
                    self.tools_change = ToolsChange::Told;
                }
            }
            Update::CallDone { id, outcome } => {
                if let Some(tool) = self.call.tool_of(&id) {
                    let tool = tool.to_owned();
                    let schema = self.tool(&tool).and_then(|t| t.output_schema.as_ref());
                    let (output, agreement) = match &outcome {
                        CallOutcome::Result { result, .. } => {
                            (output::check(schema, result), output::text_agreement(result))
                        }
                        _ => (OutputCheck::Skipped("no result to check".into()), None),
                    };
                    self.set_call(CallState::Done { tool, outcome, duration_ms, output, agreement });
                }
            }
            Update::CallFailed { id, message } => {
                if self.call.is_pending(&id) {
                    self.fail_pending_call(&message);
                }
            }
            Update::ResourceRead { uri, outcome } => {
                let state = match outcome {
                    Ok(contents) => ReadState::Done(contents),
                    Err(e) => ReadState::Failed(e),
                };
                self.catalog.read(&uri);
                self.changed.catalog = true;
                self.reads.insert(uri, state);
                self.changed.reads = true;
            }
            Update::Progress { token, progress, total, message } => {
                let Some((id, _)) = self.call.pending() else { return };
                if token != progress_token(id) {
                    return;
                }
                self.call.on_progress(Progress { progress, total, message }, now_ms);
                self.changed.call = true;
            }
            Update::Late { id } => self.notice(format!(
                "a late response to request #{id} arrived after it was given up on; it is in the timeline"
            )),
            Update::CancelledByServer { id, reason } => {
                let why = format!(
                    "cancelled by the server{}",
                    reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default()
                );
                self.request_ended(&id, &why);
                if let Some(tool) = self.call.tool_of(&id) {
                    let tool = tool.to_owned();
                    let reason =
                        format!("cancelled by the server{}", reason.map(|r| format!(": {r}")).unwrap_or_default());
                    self.set_call(CallState::Cancelled { tool, reason });
                }
            }
            Update::Log { level, logger, data } => {
                self.logs.push(LogLine::new(self.next_log, level, logger, data));
                self.next_log += 1;
                // Trimmed in bulk, so a flood of log lines costs O(1) per line.
                if self.logs.len() > 2 * MAX_LOG_LINES {
                    self.logs.drain(..self.logs.len() - MAX_LOG_LINES);
                }
                self.changed.logs = true;
            }
            Update::Notice(n) => self.notice(n),
            Update::Asked(ask) => self.on_asked(ask, now_ms),
            Update::AskWithdrawn { id, reason } => {
                self.drop_ask(&id, now_ms);
                let why = reason.map(|r| format!(": {r}")).unwrap_or_default();
                self.notice(format!("the server withdrew its request #{id}{why}"));
            }
            Update::TaskCreated { .. }
            | Update::TaskStatus { .. }
            | Update::TaskPollFailed { .. }
            | Update::TaskOutcome { .. }
            | Update::TaskFetchFailed { .. }
            | Update::TaskCancelRefused { .. }
            | Update::TaskCancelAcked { .. }
            | Update::TasksListed { .. } => self.on_task_update(update, now_ms),
            Update::Answered { id, answer, .. } => self.on_answered(id, answer, duration_ms),
            Update::Listed { kind, items, error } => self.on_listed(kind, items, error),
            Update::ListChanged(kind) => self.on_list_changed(kind),
            Update::ResourceUpdated(uri) => self.on_resource_updated(uri),
            Update::ForView { id, outcome } => {
                // Played back, the answer is the recording's, already in the App lane.
                if let Some(view_id) = self.for_view.remove(&id).filter(|_| !self.playback) {
                    self.view_answers.push((view_id, outcome));
                    self.changed.view = true;
                }
            }
        }
    }
}

/// What a new tool list changed, in words for a notice; `None` when it is the same.
fn tools_change(before: &[Tool], after: &[Tool]) -> Option<String> {
    if before == after {
        return None;
    }
    fn named(list: &[Tool]) -> BTreeMap<&str, &Tool> {
        list.iter().map(|t| (t.name.as_str(), t)).collect()
    }
    let (was, now) = (named(before), named(after));
    let added: Vec<&str> = now.keys().filter(|n| !was.contains_key(*n)).copied().collect();
    let removed: Vec<&str> = was.keys().filter(|n| !now.contains_key(*n)).copied().collect();
    let updated: Vec<&str> =
        now.iter().filter(|(n, t)| was.get(*n).is_some_and(|w| w != *t)).map(|(n, _)| *n).collect();
    let names = |list: &[&str]| {
        if list.len() > 4 { format!("{} and {} more", list[..3].join(", "), list.len() - 3) } else { list.join(", ") }
    };
    let parts: Vec<String> = [("added", &added), ("removed", &removed), ("updated", &updated)]
        .into_iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(what, list)| format!("{what} {}", names(list)))
        .collect();
    let said = if parts.is_empty() { "the same tools in another order".to_owned() } else { parts.join("; ") };
    Some(format!("the server's tool list changed: {said}"))
}
