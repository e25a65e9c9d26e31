//! 2026-07-28, the stateless revision: `server/discover` instead of `initialize` (and the
//! fall back to `initialize` when a server does not answer it), `_meta` on every request,
//! `subscriptions/listen` for list changes, and the input-required rounds: a result that
//! asks the user something first, answered and retried under a new id.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::{Handled, McpClient, Purpose, Update};
use crate::asks::{self, ServerAsk};
use crate::jsonrpc::Id;
use crate::mcp::{Implementation, InitializeResult};
use crate::negotiation::{self, Discovery};
use crate::revision::{ProtocolChoice, Revision};

/// The `_meta` keys every stateless request carries.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// Where a discover result may name the server (it may also say `serverInfo`).
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Rounds of input one request may ask for before it is given up on.
pub const MAX_INPUT_ROUNDS: usize = 16;
/// Questions one round may ask.
const MAX_INPUT_REQUESTS: usize = 32;

/// What the client keeps for the stateless revision.
#[derive(Debug, Default)]
pub(super) struct Stateless {
    /// Requests carry `_meta`: 2026-07-28 was agreed.
    pub on: bool,
    /// `server/discover` is out and nothing is settled yet.
    pub discovering: Option<Id>,
    /// `initialize` went too (discover was refused, or slow to answer).
    pub initialize: Option<Id>,
    /// What discovery came to, for the reason shown once `initialize` settles things.
    pub discovery: Discovery,
    /// Requests sent while stateless, for a retry: method and params without `_meta`.
    sent: HashMap<Id, (String, Value)>,
    /// A retry's id → the id the caller knows the request by (its first attempt).
    origin: HashMap<Id, Id>,
    /// Requests waiting on the user, by the id the caller knows.
    rounds: HashMap<Id, Round>,
    /// The id of each question asked → its request's id and its key.
    questions: HashMap<Id, (Id, String)>,
    /// Requests sent again after `-32022` (unsupported version), by their first id: once.
    version_retried: std::collections::HashSet<Id>,
}

/// One request's round of questions.
#[derive(Debug)]
struct Round {
    purpose: Purpose,
    method: String,
    params: Value,
    request_state: Option<String>,
    number: usize,
    waiting: usize,
    answers: Map<String, Value>,
}

impl McpClient {
    /// What opens the session: `server/discover` when the choice asks for it (auto, or a
    /// pinned 2026-07-28), `initialize` otherwise.
    pub fn open(&mut self) -> String {
        if !negotiation::discovers(self.choice) {
            return self.initialize();
        }
        let params = json!({"_meta": self.meta(Revision::V2026_07_28)});
        let (id, frame) = self.request(Purpose::Discover, "server/discover", Some(params));
        self.stateless.discovering = Some(id);
        frame
    }

    /// `server/discover` got no answer in time: `initialize` goes too (auto) and whichever
    /// is answered first settles the session; a pinned 2026-07-28 fails.
    pub fn discover_overdue(&mut self) -> Handled {
        let mut out = Handled::default();
        if self.stateless.discovering.is_some() && self.stateless.initialize.is_none() {
            self.not_discovered(Discovery::Silent, "", &mut out);
        }
        out
    }

    /// Whether `server/discover` is out with nothing settled (its deadline matters then).
    pub fn is_discovering(&self) -> bool {
        self.stateless.discovering.is_some() && self.stateless.initialize.is_none()
    }

    /// The `_meta` of a stateless request.
    fn meta(&self, revision: Revision) -> Value {
        json!({
            META_VERSION: revision.as_str(),
            META_CLIENT_INFO: {"name": self.client_name, "title": "MCP Playground", "version": self.client_version},
            META_CAPABILITIES: asks::capabilities(Some(revision)),
        })
    }

    /// `params` with the stateless `_meta` merged in (keys already there, such as a
    /// progress token, are kept); the params as they are otherwise.
    pub(super) fn with_meta(&mut self, id: &Id, method: &str, params: Option<Value>) -> Option<Value> {
        if !self.stateless.on {
            return params;
        }
        let mut params = match params {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let mut bare = params.clone();
        bare.remove("_meta");
        self.stateless.sent.insert(id.clone(), (method.to_owned(), Value::Object(bare)));
        let Value::Object(meta) = self.meta(Revision::V2026_07_28) else { unreachable!("json! object") };
        let entry = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(existing) = entry {
            existing.extend(meta);
        }
        Some(Value::Object(params))
    }

    /// Discovery did not settle the session: on to `initialize`, or (pinned) the end.
    fn not_discovered(&mut self, d: Discovery, detail: &str, out: &mut Handled) {
        self.stateless.discovery = d;
        if d != Discovery::Silent {
            self.stateless.discovering = None;
        }
        if self.choice == ProtocolChoice::Pinned(Revision::V2026_07_28) {
            self.stateless.discovering = None;
            let message = negotiation::pinned_stateless_failed(d, detail);
            return out.updates.push(Update::InitializeFailed(message));
        }
        if self.stateless.initialize.is_none() {
            let frame = self.initialize();
            out.replies.push(frame);
        }
    }

    /// The answer to `server/discover` (`Err` with its reason when it failed).
    pub(super) fn on_discovered(&mut self, answer: Result<&Value, String>, out: &mut Handled) {
        if self.ready {
            return; // `initialize` was answered first.
        }
        let result = match answer {
            Ok(r) => r,
            Err(why) => return self.not_discovered(Discovery::Refused, &why, out),
        };
        let supported: Vec<String> = result["supportedVersions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        let negotiated = match negotiation::discovered(self.choice, &supported) {
            Ok(n) => n,
            Err(d) => return self.not_discovered(d, &format!("it lists {}", supported.join(", ")), out),
        };
        // An `initialize` sent meanwhile is answered for nothing.
        if let Some(init) = self.stateless.initialize.take()
            && self.waiting.forget(crate::relay::Direction::Out, &init).is_some()
        {
            self.abandoned.insert(init);
        }
        self.stateless.discovering = None;
        self.stateless.discovery = Discovery::Answered;
        self.stateless.on = true;
        self.ready = true;
        self.negotiated = Some(negotiated);
        let info = result
            .get("serverInfo")
            .or_else(|| result["_meta"].get(META_SERVER_INFO))
            .and_then(|v| serde_json::from_value::<Implementation>(v.clone()).ok())
            .unwrap_or_default();
        let capabilities = result["capabilities"].as_object().cloned().unwrap_or_default();
        let listens = capabilities.get("tools").is_some_and(|t| t["listChanged"] == true);
        let mut extra = Map::new();
        for key in ["ttlMs", "cacheScope"] {
            if let Some(v) = result.get(key) {
                extra.insert(key.to_owned(), v.clone());
            }
        }
        let ready = InitializeResult {
            protocol_version: Revision::V2026_07_28.as_str().to_owned(),
            capabilities,
            server_info: info,
            instructions: result["instructions"].as_str().map(str::to_owned),
            extra,
        };
        out.replies.push(self.list_tools());
        if listens {
            let params = json!({"notifications": {"toolsListChanged": true}});
            out.replies.push(self.request(Purpose::Listen, "subscriptions/listen", Some(params)).1);
        }
        out.updates.push(Update::Ready(Box::new(ready)));
    }

    /// The id the caller knows a request by (a retry answers for its first attempt); the
    /// stateless bookkeeping of an answered request is let go.
    pub(super) fn settle(&mut self, id: &Id) -> Id {
        self.stateless.sent.remove(id);
        self.stateless.origin.remove(id).unwrap_or_else(|| id.clone())
    }

    /// The attempt under way of the request the caller knows as `id`.
    pub(super) fn attempt_of(&self, id: &Id) -> Id {
        self.stateless
            .origin
            .iter()
            .find(|(_, first)| *first == id)
            .map_or_else(|| id.clone(), |(attempt, _)| attempt.clone())
    }

    /// `-32022` (unsupported protocol version) naming 2026-07-28 among the supported: the
    /// request goes once more under a new id (a server may refuse a first request until
    /// it has seen the client's version). True when it went.
    pub(super) fn retry_version(&mut self, purpose: &Purpose, id: &Id, value: &Value, out: &mut Handled) -> bool {
        let error = &value["error"];
        let stateless = Revision::V2026_07_28.as_str();
        let names_it = error["data"]["supported"].as_array().is_some_and(|s| s.iter().any(|v| v == stateless));
        if error["code"] != -32022 || !names_it {
            return false;
        }
        let origin = self.stateless.origin.get(id).cloned().unwrap_or_else(|| id.clone());
        if !self.stateless.version_retried.insert(origin.clone()) {
            return false;
        }
        if matches!(purpose, Purpose::Discover) {
            self.stateless.origin.remove(id);
            out.replies.push(self.open());
            return true;
        }
        let Some((method, params)) = self.stateless.sent.remove(id) else { return false };
        self.stateless.origin.remove(id);
        let params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        out.replies.push(self.again(purpose.clone(), &method, params, &origin));
        true
    }

    /// Whether a result asks for input first (`resultType: input_required`).
    pub(super) fn wants_input(&self, value: &Value) -> bool {
        self.stateless.on && value["result"]["resultType"] == "input_required"
    }

    /// A result that asks for input: each question goes to the user (roots are answered
    /// here), and once all are answered the request goes again under a new id.
    pub(super) fn on_input_required(&mut self, purpose: Purpose, id: &Id, value: &Value, out: &mut Handled) {
        let origin = self.stateless.origin.remove(id).unwrap_or_else(|| id.clone());
        let Some((method, params)) = self.stateless.sent.remove(id) else { return };
        let result = &value["result"];
        let number = self.stateless.rounds.remove(&origin).map_or(1, |r| r.number + 1);
        let requests: BTreeMap<String, Value> = result["inputRequests"]
            .as_object()
            .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default();
        let failure = if number > MAX_INPUT_ROUNDS {
            Some(format!("the server asked for input {number} times; given up after {MAX_INPUT_ROUNDS}"))
        } else if requests.len() > MAX_INPUT_REQUESTS {
            Some(format!("the server asked {} questions at once, more than {MAX_INPUT_REQUESTS}", requests.len()))
        } else {
            None
        };
        if let Some(message) = failure {
            return self.fail_round(purpose, &origin, message, out);
        }
        let mut round = Round {
            purpose,
            method,
            params,
            request_state: result["requestState"].as_str().map(str::to_owned),
            number,
            waiting: 0,
            answers: Map::new(),
        };
        for (key, request) in requests {
            let method = request["method"].as_str().unwrap_or_default();
            let ask_id = Id::String(format!("{origin}/{key}"));
            if method == "roots/list" {
                round.answers.insert(key, asks::roots_result(&self.roots));
            } else if let Some(ask) = ServerAsk::read(&ask_id, method, &request["params"]) {
                round.waiting += 1;
                self.asked.insert(ask_id.clone());
                self.stateless.questions.insert(ask_id, (origin.clone(), key));
                out.updates.push(Update::Asked(ask));
            } else {
                let message = format!("the server asked for input this client cannot give: {key} ({method:?})");
                return self.fail_round(round.purpose, &origin, message, out);
            }
        }
        if round.waiting == 0 {
            out.replies.push(self.retry(&origin, round));
        } else {
            self.stateless.rounds.insert(origin, round);
        }
    }

    /// The user answered one question of a round; the retry goes once none is left.
    /// `None` when `id` is no question of a round.
    pub(super) fn answer_question(&mut self, id: &Id, frame: &str) -> Option<Handled> {
        let (origin, key) = self.stateless.questions.remove(id)?;
        let mut out = Handled::default();
        let Some(mut round) = self.stateless.rounds.remove(&origin) else { return Some(out) };
        let answer: Value = serde_json::from_str(frame).unwrap_or_default();
        if let Some(result) = answer.get("result") {
            round.answers.insert(key, result.clone());
            round.waiting -= 1;
        } else {
            // A declined sampling request has no answer the retry could carry.
            self.forget_questions(&origin);
            let message = format!("{key} was declined, so the request was not sent again");
            self.fail_round(round.purpose, &origin, message, &mut out);
            return Some(out);
        }
        if round.waiting == 0 {
            out.replies.push(self.retry(&origin, round));
        } else {
            self.stateless.rounds.insert(origin, round);
        }
        Some(out)
    }

    /// A request waiting on the user is given up: its questions are withdrawn.
    pub(super) fn drop_round(&mut self, origin: &Id) -> bool {
        self.forget_questions(origin);
        self.stateless.rounds.remove(origin).is_some()
    }

    fn forget_questions(&mut self, origin: &Id) {
        let asked = &mut self.asked;
        self.stateless.questions.retain(|q, (o, _)| {
            let keep = o != origin;
            if !keep {
                asked.remove(q);
            }
            keep
        });
    }

    /// The request again, under a new id, with the answers and the server's state.
    fn retry(&mut self, origin: &Id, round: Round) -> String {
        let mut params = match round.params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        params.insert("inputResponses".into(), Value::Object(round.answers));
        match round.request_state {
            Some(state) => params.insert("requestState".into(), Value::String(state)),
            None => params.remove("requestState"),
        };
        self.again(round.purpose, &round.method, params, origin)
    }

    /// A request sent again under a new id that answers for `origin`; a call keeps asking
    /// for progress under its first id's token.
    fn again(&mut self, purpose: Purpose, method: &str, mut params: Map<String, Value>, origin: &Id) -> String {
        if matches!(purpose, Purpose::CallTool { .. }) {
            params.insert("_meta".into(), json!({"progressToken": super::progress_token(origin)}));
        }
        let (id, frame) = self.request(purpose, method, Some(Value::Object(params)));
        self.stateless.origin.insert(id, origin.clone());
        frame
    }

    /// A request that asked for input ends without its answer.
    fn fail_round(&mut self, purpose: Purpose, origin: &Id, message: String, out: &mut Handled) {
        self.stateless.rounds.remove(origin);
        match purpose {
            Purpose::CallTool { .. } => out.updates.push(Update::CallFailed { id: origin.clone(), message }),
            Purpose::ListTools(n) if n == self.listing => self.tools_failed(message, out),
            Purpose::ReadResource(uri) => out.updates.push(Update::ResourceRead { uri, outcome: Err(message) }),
            Purpose::Request(method) => out.updates.push(Update::Answered {
                id: origin.clone(),
                method,
                answer: super::Answer::Failed(message),
            }),
            Purpose::List(kind, n) => self.on_list_page(kind, n, super::Answer::Failed(message), out),
            _ => out.updates.push(Update::Notice(format!("request #{origin}: {message}"))),
        }
    }
}
