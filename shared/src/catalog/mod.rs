//! What a server offers beside its tools, as the session knows it: the resource, template
//! and prompt lists (each every page), the subscriptions and the resources updated since
//! last read, the prompts got, the completions, the log level asked for and the last ping.
//! Sans-IO: the session makes the requests and feeds the answers here.

pub mod completion;
pub mod uri_template;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use crate::mcp::catalog::{GetPromptResult, Prompt, Resource, ResourceTemplate};
pub use completion::{Completer, Field, Suggestions, Target};

/// A list a server may offer beside its tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ListKind {
    Resources,
    Templates,
    Prompts,
}

impl ListKind {
    pub const ALL: [ListKind; 3] = [ListKind::Resources, ListKind::Templates, ListKind::Prompts];

    pub fn method(self) -> &'static str {
        match self {
            ListKind::Resources => "resources/list",
            ListKind::Templates => "resources/templates/list",
            ListKind::Prompts => "prompts/list",
        }
    }

    /// The member of a page that holds the items.
    pub fn items_key(self) -> &'static str {
        match self {
            ListKind::Resources => "resources",
            ListKind::Templates => "resourceTemplates",
            ListKind::Prompts => "prompts",
        }
    }

    /// The noun of one item, for messages.
    pub fn noun(self) -> &'static str {
        match self {
            ListKind::Resources => "resource",
            ListKind::Templates => "template",
            ListKind::Prompts => "prompt",
        }
    }

    pub fn of_method(method: &str) -> Option<ListKind> {
        ListKind::ALL.into_iter().find(|k| k.method() == method)
    }

    /// The capability that offers it.
    pub fn capability(self) -> &'static str {
        match self {
            ListKind::Resources | ListKind::Templates => "resources",
            ListKind::Prompts => "prompts",
        }
    }
}

/// One list: its items, whether it is being listed, and why it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    pub loading: bool,
    /// Listed at least once this connection (a `list_changed` lists it again).
    pub loaded: bool,
    pub error: Option<String>,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Self { items: Vec::new(), loading: false, loaded: false, error: None }
    }
}

impl<T: serde::de::DeserializeOwned> Listed<T> {
    /// The items of a complete listing (or of its pages before a failure), each read
    /// tolerantly; an item that cannot be read is counted in the error.
    fn take(&mut self, items: Vec<Value>, error: Option<String>, noun: &str) {
        let total = items.len();
        self.items = items.into_iter().filter_map(|v| serde_json::from_value(v).ok()).collect();
        let unreadable = total - self.items.len();
        let skipped = (unreadable > 0)
            .then(|| format!("{unreadable} {noun}{} could not be read", if unreadable == 1 { "" } else { "s" }));
        self.error = match (error, skipped) {
            (Some(e), Some(s)) => Some(format!("{e}; {s}")),
            (e, s) => e.or(s),
        };
        self.loading = false;
        self.loaded = true;
    }
}

/// A subscription as it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subscription {
    /// `resources/subscribe` sent, not yet answered.
    Subscribing,
    Subscribed,
    /// `resources/unsubscribe` sent, not yet answered.
    Unsubscribing,
}

/// A request whose answer is shown: under way, done, or failed with why.
#[derive(Debug, Clone, PartialEq)]
pub enum Got<T> {
    Loading,
    Done(T),
    Failed(String),
}

/// What `logging/setLevel` asked for and whether the server took it.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLevel {
    pub level: String,
    pub state: Got<()>,
}

/// The levels of `logging/setLevel`, least severe first (RFC 5424).
pub const LOG_LEVELS: [&str; 8] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/// How severe a level is (0 for `debug`); an unknown level counts as `info`.
pub fn severity(level: &str) -> usize {
    LOG_LEVELS.iter().position(|l| *l == level).unwrap_or(1)
}

/// The newest thing a person did beside the tools (a played recording's view follows it).
#[derive(Debug, Clone, PartialEq)]
pub enum Activity {
    Read(String),
    Prompt(String, serde_json::Map<String, Value>),
}

/// Everything beside the tools.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// The newest read or prompt, and how many there were.
    pub last: Option<(usize, Activity)>,
    pub resources: Listed<Resource>,
    pub templates: Listed<ResourceTemplate>,
    pub prompts: Listed<Prompt>,
    subscriptions: BTreeMap<String, Subscription>,
    /// Resources the server said changed, not read since.
    updated: BTreeSet<String>,
    /// Why the last subscribe or unsubscribe failed.
    pub subscription_error: Option<String>,
    /// `prompts/get` of each prompt: its last answer.
    pub prompts_got: HashMap<String, Got<GetPromptResult>>,
    pub completer: Completer,
    pub log_level: Option<LogLevel>,
    /// The last ping: its round trip in milliseconds.
    pub ping: Option<Got<f64>>,
}

impl Catalog {
    pub fn listing(&mut self, kind: ListKind) {
        match kind {
            ListKind::Resources => self.resources.loading = true,
            ListKind::Templates => self.templates.loading = true,
            ListKind::Prompts => self.prompts.loading = true,
        }
    }

    pub fn listed(&mut self, kind: ListKind, items: Vec<Value>, error: Option<String>) {
        match kind {
            ListKind::Resources => self.resources.take(items, error, kind.noun()),
            ListKind::Templates => self.templates.take(items, error, kind.noun()),
            ListKind::Prompts => self.prompts.take(items, error, kind.noun()),
        }
    }

    /// Whether `kind` was listed (a change then lists it again).
    pub fn loaded(&self, kind: ListKind) -> bool {
        match kind {
            ListKind::Resources => self.resources.loaded,
            ListKind::Templates => self.templates.loaded,
            ListKind::Prompts => self.prompts.loaded,
        }
    }

    pub fn is_loading(&self, kind: ListKind) -> bool {
        match kind {
            ListKind::Resources => self.resources.loading,
            ListKind::Templates => self.templates.loading,
            ListKind::Prompts => self.prompts.loading,
        }
    }

    pub fn subscription(&self, uri: &str) -> Option<Subscription> {
        self.subscriptions.get(uri).copied()
    }

    /// Whether `uri` is subscribed to (or about to be).
    pub fn is_subscribed(&self, uri: &str) -> bool {
        matches!(self.subscription(uri), Some(Subscription::Subscribed | Subscription::Subscribing))
    }

    /// A subscribe (`on`) or unsubscribe of `uri` was sent.
    pub fn subscribing(&mut self, uri: &str, on: bool) {
        let state = if on { Subscription::Subscribing } else { Subscription::Unsubscribing };
        self.subscriptions.insert(uri.to_owned(), state);
        self.subscription_error = None;
    }

    /// The answer to a subscribe (`on`) or unsubscribe: on failure the subscription stays
    /// as it was before, and the reason is kept.
    pub fn subscribed(&mut self, uri: &str, on: bool, failure: Option<String>) {
        let after = match (&failure, on) {
            (None, true) | (Some(_), false) => Some(Subscription::Subscribed),
            (None, false) | (Some(_), true) => None,
        };
        match after {
            Some(s) => self.subscriptions.insert(uri.to_owned(), s),
            None => self.subscriptions.remove(uri),
        };
        if !on && failure.is_none() {
            self.updated.remove(uri);
        }
        self.subscription_error = failure.map(|f| format!("{uri}: {f}"));
    }

    /// `notifications/resources/updated` for `uri`.
    pub fn on_updated(&mut self, uri: &str) {
        self.updated.insert(uri.to_owned());
    }

    /// Whether `uri` changed since it was last read.
    pub fn is_updated(&self, uri: &str) -> bool {
        self.updated.contains(uri)
    }

    /// `uri` was read: no longer marked.
    pub fn read(&mut self, uri: &str) {
        self.updated.remove(uri);
    }

    /// A read or prompt was asked for.
    pub fn did(&mut self, activity: Activity) {
        let n = self.last.as_ref().map_or(1, |(n, _)| n + 1);
        self.last = Some((n, activity));
    }

    /// The connection ended: nothing is being listed, typed text is asked about no more,
    /// and the subscriptions ended with it.
    pub fn connection_ended(&mut self) {
        self.resources.loading = false;
        self.templates.loading = false;
        self.prompts.loading = false;
        self.completer = Completer::default();
        self.subscriptions.clear();
    }

    /// The resources subscribed to.
    pub fn subscriptions(&self) -> impl Iterator<Item = &str> {
        self.subscriptions.iter().filter(|(_, s)| **s == Subscription::Subscribed).map(|(u, _)| u.as_str())
    }
}

#[cfg(test)]
mod tests;
