//! Requests of any method, paired like the rest and answered as they came, and the lists
//! beside the tools (`resources/list`, `resources/templates/list`, `prompts/list`), every
//! page followed by [`super::pages`].

use serde_json::{Value, json};

use super::pages::{Next, Pages};
use super::{Handled, McpClient, Purpose, Update};
use crate::catalog::ListKind;
use crate::jsonrpc::{ErrorObject, Id};

/// How a request of any method ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Its `result`.
    Result(Value),
    /// Its JSON-RPC `error`.
    Error(ErrorObject),
    /// No answer: the transport failed, or the request was given up on (cancelled, timed out).
    Failed(String),
}

impl Answer {
    /// The answer a response gives: its `error` when it has one, else its `result`.
    pub(super) fn of(response: &Value, error: Option<ErrorObject>) -> Answer {
        match error {
            Some(e) => Answer::Error(e),
            None => Answer::Result(response["result"].clone()),
        }
    }

    /// Why it did not succeed, as a person reads it.
    pub fn failure(&self) -> Option<String> {
        match self {
            Answer::Result(_) => None,
            Answer::Error(e) => Some(format!("{} ({})", e.message, e.code)),
            Answer::Failed(why) => Some(why.clone()),
        }
    }

    /// The answer as the wire had it, without `jsonrpc` and `id`: `{"result": …}` or
    /// `{"error": …}`; `None` when there was none.
    pub fn wire(&self) -> Option<Value> {
        match self {
            Answer::Result(r) => Some(json!({"result": r})),
            Answer::Error(e) => Some(json!({"error": e})),
            Answer::Failed(_) => None,
        }
    }
}

/// One listing of a list beside the tools.
#[derive(Debug, Clone, Default)]
pub(super) struct Listing {
    /// The number of the newest listing: pages of an older one are dropped.
    number: u64,
    pages: Pages,
    items: Vec<Value>,
}

impl Listing {
    /// A new listing from the first page; its number.
    fn restart(&mut self) -> u64 {
        *self = Listing { number: self.number + 1, ..Default::default() };
        self.number
    }
}

impl McpClient {
    /// A request of `method`, answered with [`Update::Answered`].
    pub fn general_request(&mut self, method: &str, params: Option<Value>) -> (Id, String) {
        self.request(Purpose::Request(method.to_owned()), method, params)
    }

    /// A fresh listing of `kind`, from its first page.
    pub fn list(&mut self, kind: ListKind) -> String {
        let number = self.lists.entry(kind).or_default().restart();
        self.request(Purpose::List(kind, number), kind.method(), None).1
    }

    /// Playback: a recorded page request of `kind` (the first when it has no cursor).
    pub(super) fn observe_list(&mut self, kind: ListKind, first: bool) -> Purpose {
        let listing = self.lists.entry(kind).or_default();
        let number = if first { listing.restart() } else { listing.number };
        Purpose::List(kind, number)
    }

    /// An answer to a page of `kind`'s listing number `number`.
    pub(super) fn on_list_page(&mut self, kind: ListKind, number: u64, answer: Answer, out: &mut Handled) {
        let Some(listing) = self.lists.get_mut(&kind).filter(|l| l.number == number) else { return };
        let method = kind.method();
        let why = match &answer {
            Answer::Result(page) => match page.get(kind.items_key()).map(Value::as_array) {
                Some(Some(items)) => {
                    listing.items.extend(items.iter().cloned());
                    let cursor = page["nextCursor"].as_str().map(str::to_owned);
                    match listing.pages.read(method, cursor) {
                        Next::Page(cursor) => {
                            let frame =
                                self.request(Purpose::List(kind, number), method, Some(json!({"cursor": cursor})));
                            return out.replies.push(frame.1);
                        }
                        Next::Done => None,
                        Next::Stopped(why) => {
                            out.updates.push(Update::Notice(why));
                            None
                        }
                    }
                }
                _ => Some(format!("could not be read: no {} array", kind.items_key())),
            },
            _ => Some(format!("failed: {}", answer.failure().unwrap_or_default())),
        };
        let error = why.map(|why| listing.pages.failed(method, &why, listing.items.len(), kind.noun()));
        let items = std::mem::take(&mut listing.items);
        out.updates.push(Update::Listed { kind, items, error });
    }
}
