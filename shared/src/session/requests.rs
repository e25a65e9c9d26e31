//! Requests of any method, as a session makes them: each paired, timed (the call's
//! silence limit), cancellable, marked against the schema like every row, and routed by
//! what it was sent for: a person's subscription, prompt, completion, log level or ping,
//! or a script's request (replay, the command line), whose answer is kept to be read.

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value};

use super::{CallLimits, Refused, Session};
use crate::catalog::{Activity, Field, Got, ListKind, LogLevel, Target};
use crate::client::Answer;
use crate::jsonrpc::Id;
use crate::mcp::catalog::GetPromptResult;

/// Answers of scripts' requests kept to be read (the oldest go first).
pub const KEPT_ANSWERS: usize = 256;

/// What a request was sent for: where its answer goes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum For {
    /// A script's request: its answer is kept for [`Session::answer`].
    Script,
    /// `resources/subscribe` (true) or `resources/unsubscribe` (false) of a URI.
    Subscribe(String, bool),
    /// `prompts/get` of a prompt, with its arguments.
    Prompt(String, Map<String, Value>),
    /// A completion of a field, for the text typed.
    Complete(Field, String),
    SetLevel(String),
    Ping,
}

impl For {
    /// What a request (recorded, or sent) of `method` with `params` was for.
    pub(super) fn of(method: &str, params: &Value) -> For {
        let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
        match method {
            "resources/subscribe" => For::Subscribe(text("uri"), true),
            "resources/unsubscribe" => For::Subscribe(text("uri"), false),
            "prompts/get" => For::Prompt(text("name"), params["arguments"].as_object().cloned().unwrap_or_default()),
            "logging/setLevel" => For::SetLevel(text("level")),
            "ping" => For::Ping,
            "completion/complete" => match Target::of(&params["ref"]) {
                Some(target) => {
                    let argument = &params["argument"];
                    let field = (target, argument["name"].as_str().unwrap_or_default().to_owned());
                    For::Complete(field, argument["value"].as_str().unwrap_or_default().to_owned())
                }
                None => For::Script,
            },
            _ => For::Script,
        }
    }
}

/// A script's request that ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub method: String,
    pub answer: Answer,
    /// From the request's row to the answer's (none when there was no answer).
    pub duration_ms: Option<f64>,
}

#[derive(Debug, Clone)]
struct Open {
    method: String,
    for_: For,
    /// When it is given up on (never, for a recorded one).
    due_ms: f64,
}

/// The requests of any method under way, and the scripts' answers.
#[derive(Debug, Default)]
pub(super) struct Requests {
    open: HashMap<Id, Open>,
    done: VecDeque<(Id, Answered)>,
}

impl Session {
    /// Sends a request of `method` (any method): its answer is read with
    /// [`answer`](Self::answer). It is given up on after the call's silence limit.
    pub fn request(&mut self, method: &str, params: Option<Value>, now_ms: f64) -> Result<Id, Refused> {
        self.method_exists(method)?;
        self.send_request(method, params, For::Script, now_ms)
    }

    /// Refuses a method the negotiated revision does not have (2026-07-28 has no `ping`).
    pub(super) fn method_exists(&self, method: &str) -> Result<(), Refused> {
        match self.negotiated() {
            Some(n) if method == "ping" && !n.revision.has_ping() => {
                Err(Refused::Unsupported("the negotiated revision has no ping"))
            }
            _ => Ok(()),
        }
    }

    /// How a script's request ended, once it has.
    pub fn answer(&self, id: &Id) -> Option<&Answered> {
        self.requests.done.iter().rev().find(|(i, _)| i == id).map(|(_, a)| a)
    }

    /// Whether a request of any method is still under way.
    pub fn is_request_open(&self, id: &Id) -> bool {
        self.requests.open.contains_key(id)
    }

    /// Gives up on a request: the server is told, and it ends as cancelled.
    pub fn cancel_request(&mut self, id: &Id) {
        self.give_up_request(id, "cancelled by the user");
    }

    pub(super) fn send_request(
        &mut self,
        method: &str,
        params: Option<Value>,
        for_: For,
        now_ms: f64,
    ) -> Result<Id, Refused> {
        if self.conn != super::ConnState::Connected {
            return Err(Refused::NotConnected);
        }
        let (id, frame) = self.client.general_request(method, params);
        let due_ms = now_ms + CallLimits::TIMEOUT_S * 1000.0;
        self.before(&for_, &id);
        self.requests.open.insert(id.clone(), Open { method: method.to_owned(), for_, due_ms });
        self.send_frame(frame);
        Ok(id)
    }

    /// Playback: a recorded request is taken as sent, for what it was for.
    pub(super) fn observe_request(&mut self, id: Id, method: &str, params: &Value) {
        if let Some(kind) = ListKind::of_method(method) {
            if params["cursor"].is_null() {
                self.catalog.listing(kind);
                self.changed.catalog = true;
            }
            return;
        }
        let for_ = For::of(method, params);
        self.before(&for_, &id);
        self.requests.open.insert(id, Open { method: method.to_owned(), for_, due_ms: f64::INFINITY });
    }

    /// What a request changes in what is shown as it goes.
    fn before(&mut self, for_: &For, id: &Id) {
        match for_ {
            For::Subscribe(uri, on) => self.catalog.subscribing(uri, *on),
            For::Prompt(name, arguments) => {
                self.catalog.prompts_got.insert(name.clone(), Got::Loading);
                self.catalog.did(Activity::Prompt(name.clone(), arguments.clone()));
            }
            For::Complete(field, value) => self.catalog.completer.sent(field.clone(), value.clone(), id.clone()),
            For::SetLevel(level) => {
                self.catalog.log_level = Some(LogLevel { level: level.clone(), state: Got::Loading })
            }
            For::Ping => self.catalog.ping = Some(Got::Loading),
            For::Script => return,
        }
        self.changed.catalog = true;
    }

    /// A request of any method ended.
    pub(super) fn on_answered(&mut self, id: Id, answer: Answer, duration_ms: Option<f64>) {
        let Some(Open { method, for_, .. }) = self.requests.open.remove(&id) else { return };
        let failure = answer.failure();
        match for_ {
            For::Script => {
                self.requests.done.push_back((id, Answered { method, answer, duration_ms }));
                if self.requests.done.len() > KEPT_ANSWERS {
                    self.requests.done.pop_front();
                }
                return;
            }
            For::Subscribe(uri, on) => self.catalog.subscribed(&uri, on, failure),
            For::Prompt(name, _) => {
                let got = match answer {
                    Answer::Result(r) => match serde_json::from_value::<GetPromptResult>(r) {
                        Ok(result) => Got::Done(result),
                        Err(e) => Got::Failed(format!("unreadable prompts/get result: {e}")),
                    },
                    _ => Got::Failed(failure.unwrap_or_default()),
                };
                self.catalog.prompts_got.insert(name, got);
            }
            For::Complete(..) => {
                let outcome = match &answer {
                    Answer::Result(r) => Ok(r),
                    _ => Err(failure.unwrap_or_default()),
                };
                self.catalog.completer.answered(&id, outcome);
            }
            For::SetLevel(level) => {
                let state = failure.map_or(Got::Done(()), Got::Failed);
                self.catalog.log_level = Some(LogLevel { level, state });
            }
            For::Ping => {
                self.catalog.ping = Some(match failure {
                    None => Got::Done(duration_ms.unwrap_or_default()),
                    Some(f) => Got::Failed(f),
                })
            }
        }
        self.changed.catalog = true;
    }

    /// The clock moved: requests past their limit are given up on, and a completion whose
    /// typing paused is asked.
    pub(super) fn tick_requests(&mut self, now_ms: f64) {
        let late: Vec<Id> =
            self.requests.open.iter().filter(|(_, o)| o.due_ms <= now_ms).map(|(id, _)| id.clone()).collect();
        for id in late {
            self.give_up_request(&id, &format!("timed out after {:.0} s without a response", CallLimits::TIMEOUT_S));
        }
        let with_context = self.negotiated().is_some_and(|n| n.revision >= crate::revision::Revision::V2025_06_18);
        if !self.playback
            && let Some((field, value, params)) = self.catalog.completer.take_due(now_ms, with_context)
        {
            let _ = self.send_request("completion/complete", Some(params), For::Complete(field, value), now_ms);
        }
    }

    /// When [`tick_requests`](Self::tick_requests) has something to do next.
    pub(super) fn requests_wake_ms(&self) -> Option<f64> {
        let due = self.requests.open.values().map(|o| o.due_ms).filter(|d| d.is_finite()).reduce(f64::min);
        [due, self.catalog.completer.due_ms()].into_iter().flatten().reduce(f64::min)
    }

    /// A request ended with no answer (cancelled by the server, or in a recording).
    pub(super) fn request_ended(&mut self, id: &Id, why: &str) {
        if self.requests.open.contains_key(id) {
            self.on_answered(id.clone(), Answer::Failed(why.to_owned()), None);
        }
    }

    /// The connection ended: every request still open ends with `why`, and no list is
    /// being listed any more.
    pub(super) fn end_requests(&mut self, why: &str) {
        let open: Vec<Id> = self.requests.open.keys().cloned().collect();
        for id in open {
            self.on_answered(id, Answer::Failed(why.to_owned()), None);
        }
        self.catalog.connection_ended();
        self.changed.catalog = true;
    }

    fn give_up_request(&mut self, id: &Id, reason: &str) {
        if !self.requests.open.contains_key(id) {
            return;
        }
        if let Some(frame) = self.client.cancel(id, reason) {
            self.send_frame(frame);
        }
        self.on_answered(id.clone(), Answer::Failed(reason.to_owned()), None);
    }

    /// The suggestions under `field` go (one was picked, or the field was left).
    pub fn dismiss_completion(&mut self, field: &Field) {
        self.catalog.completer.dismiss(field);
        self.changed.catalog = true;
    }

    /// A person typed `value` in `field`; `context` holds the form's other values. The
    /// server is asked once typing pauses.
    pub fn complete(&mut self, field: Field, value: String, context: Map<String, Value>, now_ms: f64) {
        self.catalog.completer.typed(field, value, context, now_ms);
    }
}
