//! The tasks of a connection the client knows of: those its calls started and those
//! `tasks/list` named, each with its last status, its tool when known, and its outcome once
//! fetched. The page's tasks panel and the command line's `tasks` read it.

use super::{TaskInfo, TaskStatus};
use crate::client::CallOutcome;

/// Tasks kept at most (the oldest known go first).
pub const MAX_KNOWN: usize = 500;

/// One task known to the client.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownTask {
    pub info: TaskInfo,
    /// The tool whose call started it, when this client started it.
    pub tool: Option<String>,
    /// When the client first heard of it (its clock).
    pub first_seen_ms: f64,
    /// What `tasks/result` gave, once asked.
    pub outcome: Option<CallOutcome>,
}

/// The known tasks, in the order they were first heard of.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskBook {
    tasks: Vec<KnownTask>,
    /// A `tasks/list` listing is under way.
    pub listing: bool,
    /// Why the last listing failed.
    pub list_error: Option<String>,
    /// The pages of the listing under way.
    pub pages: crate::client::pages::Pages,
}

impl TaskBook {
    pub fn tasks(&self) -> &[KnownTask] {
        &self.tasks
    }

    pub fn get(&self, task_id: &str) -> Option<&KnownTask> {
        self.tasks.iter().find(|t| t.info.task_id == task_id)
    }

    /// The server said how `info` stands; `tool` when a call of this client started it.
    pub fn seen(&mut self, info: TaskInfo, tool: Option<&str>, now_ms: f64) {
        match self.tasks.iter_mut().find(|t| t.info.task_id == info.task_id) {
            Some(known) => {
                // An ended task moves no more.
                if !known.info.status.is_terminal() || info.status.is_terminal() {
                    known.info = info;
                }
                if known.tool.is_none() {
                    known.tool = tool.map(str::to_owned);
                }
            }
            None => {
                self.tasks.push(KnownTask {
                    info,
                    tool: tool.map(str::to_owned),
                    first_seen_ms: now_ms,
                    outcome: None,
                });
                if self.tasks.len() > MAX_KNOWN {
                    self.tasks.remove(0);
                }
            }
        }
    }

    /// What `tasks/result` gave for `task_id`: answered only once the task ended, so a task
    /// last seen running ends now, completed or failed as its outcome says.
    pub fn outcome(&mut self, task_id: &str, outcome: CallOutcome) {
        if let Some(known) = self.tasks.iter_mut().find(|t| t.info.task_id == task_id) {
            if !known.info.status.is_terminal() {
                let failed = match &outcome {
                    CallOutcome::Result { result, .. } => result.is_error == Some(true),
                    _ => true,
                };
                known.info.status = if failed { TaskStatus::Failed } else { TaskStatus::Completed };
            }
            known.outcome = Some(outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn info(id: &str, status: &str) -> TaskInfo {
        TaskInfo::read(&json!({"taskId": id, "status": status})).unwrap()
    }

    #[test]
    fn tasks_are_known_once_keep_their_tool_and_stay_ended() {
        let mut book = TaskBook::default();
        book.seen(info("a", "working"), Some("research"), 1.0);
        book.seen(info("b", "completed"), None, 2.0);
        book.seen(info("a", "completed"), None, 3.0);
        book.seen(info("a", "working"), None, 4.0);
        let a = book.get("a").unwrap();
        assert_eq!((a.info.status.as_str(), a.tool.as_deref(), a.first_seen_ms), ("completed", Some("research"), 1.0));
        assert_eq!(book.tasks().len(), 2);
        book.outcome("b", CallOutcome::Unreadable { raw: json!(null), error: "x".into() });
        assert!(book.get("b").unwrap().outcome.is_some());
        book.seen(info("c", "working"), None, 4.5);
        let ok = serde_json::from_value(json!({"content": []})).unwrap();
        book.outcome("c", CallOutcome::Result { result: Box::new(ok), raw: json!(null) });
        assert_eq!(book.get("c").unwrap().info.status, TaskStatus::Completed, "an outcome ends a task seen running");
        for i in 0..MAX_KNOWN {
            book.seen(info(&format!("t{i}"), "working"), None, 5.0);
        }
        assert_eq!(book.tasks().len(), MAX_KNOWN);
        assert!(book.get("a").is_none(), "the oldest went first");
    }
}
