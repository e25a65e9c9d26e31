//! Reading the relay's wire messages by hand, exactly as strictly as the derived
//! `Deserialize` (an unknown tag, an unknown or missing field, a wrong type: all refused).
//! The page reads every relay message with this, and the relay every page message: serde's
//! derived code for internally tagged enums was about 50 KB of the page's Wasm, and it
//! buffers each frame once more on the way (a cost paid on every call).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::jsonrpc::value_kind;
use crate::revision::ProtocolChoice;

use super::{
    AuthExchange, AuthState, ClientMsg, ConfiguredServer, Direction, Limits, OAuthSettings, RelayEvent, ServerMsg,
    Target, Transport,
};

/// The fields of one JSON object, taken one by one; what is left over is an error.
struct Fields {
    what: &'static str,
    map: Map<String, Value>,
}

type Read<T> = Result<T, String>;

impl Fields {
    fn new(what: &'static str, value: Value) -> Read<Self> {
        match value {
            Value::Object(map) => Ok(Self { what, map }),
            other => Err(format!("{what}: expected an object, found {}", value_kind(&other))),
        }
    }

    fn take(&mut self, key: &str) -> Option<Value> {
        self.map.remove(key)
    }

    fn need(&mut self, key: &str) -> Read<Value> {
        self.take(key).ok_or_else(|| {
            // A typo is the likeliest reason: name what is there instead.
            let others: Vec<String> = self.map.keys().map(|k| format!("`{k}`")).collect();
            if others.is_empty() {
                format!("{}: missing field `{key}`", self.what)
            } else {
                format!("{}: missing field `{key}` (found {})", self.what, others.join(", "))
            }
        })
    }

    fn string(&mut self, key: &str) -> Read<String> {
        match self.need(key)? {
            Value::String(s) => Ok(s),
            other => Err(self.wrong(key, "a string", &other)),
        }
    }

    fn opt_string(&mut self, key: &str) -> Read<Option<String>> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.wrong(key, "a string", &other)),
        }
    }

    fn float(&mut self, key: &str) -> Read<f64> {
        let v = self.need(key)?;
        v.as_f64().ok_or_else(|| self.wrong(key, "a number", &v))
    }

    fn unsigned(&mut self, key: &str) -> Read<u64> {
        let v = self.need(key)?;
        v.as_u64().ok_or_else(|| self.wrong(key, "an unsigned integer", &v))
    }

    fn size(&mut self, key: &str) -> Read<usize> {
        let n = self.unsigned(key)?;
        usize::try_from(n).map_err(|_| format!("{}: `{key}` is too large", self.what))
    }

    fn boolean(&mut self, key: &str) -> Read<bool> {
        match self.need(key)? {
            Value::Bool(b) => Ok(b),
            other => Err(self.wrong(key, "a boolean", &other)),
        }
    }

    /// A flag that is false when absent.
    /// A protocol choice, `auto` when absent.
    fn protocol(&mut self, key: &str) -> Read<ProtocolChoice> {
        match self.take(key) {
            None => Ok(ProtocolChoice::Auto),
            Some(Value::String(s)) => ProtocolChoice::parse(&s).map_err(|e| format!("{}: `{key}`: {e}", self.what)),
            Some(other) => Err(self.wrong(key, "a string", &other)),
        }
    }

    fn flag(&mut self, key: &str) -> Read<bool> {
        match self.take(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(self.wrong(key, "a boolean", &other)),
        }
    }

    /// An optional number: absent and `null` are `None`.
    fn opt_int<T: TryFrom<i64>>(&mut self, key: &str) -> Read<Option<T>> {
        match self.take(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                let n = v.as_i64().ok_or_else(|| self.wrong(key, "an integer", &v))?;
                T::try_from(n).map(Some).map_err(|_| format!("{}: `{key}` is out of range", self.what))
            }
        }
    }

    /// A list of strings; absent is empty when `optional`.
    fn strings(&mut self, key: &str, optional: bool) -> Read<Vec<String>> {
        let v = match self.take(key) {
            None if optional => return Ok(Vec::new()),
            None => return Err(format!("{}: missing field `{key}`", self.what)),
            Some(v) => v,
        };
        let Value::Array(items) = v else { return Err(self.wrong(key, "a list of strings", &v)) };
        items
            .into_iter()
            .map(|i| match i {
                Value::String(s) => Ok(s),
                other => Err(self.wrong(key, "a list of strings", &other)),
            })
            .collect()
    }

    /// A map of strings to strings; absent is empty.
    fn string_map(&mut self, key: &str) -> Read<BTreeMap<String, String>> {
        let Some(v) = self.take(key) else { return Ok(BTreeMap::new()) };
        let Value::Object(map) = v else { return Err(self.wrong(key, "an object of strings", &v)) };
        map.into_iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k, s)),
                other => Err(self.wrong(key, "an object of strings", &other)),
            })
            .collect()
    }

    fn direction(&mut self, key: &str) -> Read<Direction> {
        match self.string(key)?.as_str() {
            "in" => Ok(Direction::In),
            "out" => Ok(Direction::Out),
            other => Err(format!("{}: unknown direction `{other}`", self.what)),
        }
    }

    fn wrong(&self, key: &str, expected: &str, found: &Value) -> String {
        format!("{}: `{key}` should be {expected}, found {}", self.what, value_kind(found))
    }

    /// Fails on any field not taken.
    fn done(self) -> Read<()> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(format!("{}: unknown field `{k}`", self.what)),
        }
    }
}

impl ServerMsg {
    /// Reads one message of the relay, strictly.
    pub fn read(text: &str) -> Read<ServerMsg> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let mut f = Fields::new("relay message", value)?;
        let msg = match f.string("type")?.as_str() {
            "hello" => {
                let protocol = f.unsigned("protocol")?;
                let protocol = u32::try_from(protocol).map_err(|_| "hello: `protocol` is out of range".to_owned())?;
                ServerMsg::Hello {
                    protocol,
                    relay_version: f.string("relay_version")?,
                    preset: Target::read(f.need("preset")?)?,
                    preset_protocol: f.protocol("preset_protocol")?,
                    preset_oauth: read_oauth(f.take("preset_oauth"))?,
                    limits: read_limits(f.need("limits")?)?,
                    servers: match f.take("servers") {
                        None => Vec::new(),
                        Some(Value::Array(items)) => {
                            items.into_iter().map(ConfiguredServer::read).collect::<Read<_>>()?
                        }
                        Some(other) => return Err(f.wrong("servers", "a list", &other)),
                    },
                    recording: f.flag("recording")?,
                    playback: f.flag("playback")?,
                }
            }
            "message" => ServerMsg::Message {
                direction: f.direction("direction")?,
                at_ms: f.float("at_ms")?,
                size: f.size("size")?,
                frame: f.string("frame")?,
            },
            "event" => ServerMsg::Event { at_ms: f.float("at_ms")?, event: RelayEvent::read(f.need("event")?)? },
            other => return Err(format!("unknown relay message type `{other}`")),
        };
        f.done()?;
        Ok(msg)
    }
}

impl ClientMsg {
    /// Reads one message of the page, strictly.
    pub fn read(text: &str) -> Read<ClientMsg> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let mut f = Fields::new("page message", value)?;
        let msg = match f.string("type")?.as_str() {
            "connect" => {
                ClientMsg::Connect { target: Target::read(f.need("target")?)?, oauth: read_oauth(f.take("oauth"))? }
            }
            "send" => ClientMsg::Send { frame: f.string("frame")? },
            "disconnect" => ClientMsg::Disconnect,
            "sign_out" => ClientMsg::SignOut,
            other => return Err(format!("unknown page message type `{other}`")),
        };
        f.done()?;
        Ok(msg)
    }
}

fn read_limits(value: Value) -> Read<Limits> {
    let mut f = Fields::new("limits", value)?;
    let limits = Limits {
        max_message_bytes: f.size("max_message_bytes")?,
        max_stderr_line_bytes: f.size("max_stderr_line_bytes")?,
    };
    f.done()?;
    Ok(limits)
}

impl Target {
    /// Reads a server target (as the relay announces it, or as the page stored it).
    pub fn read(value: Value) -> Read<Target> {
        let mut f = Fields::new("target", value)?;
        let name = f.string("transport")?;
        let Some(transport) = Transport::parse(&name) else { return Err(format!("unknown transport `{name}`")) };
        let target = match transport {
            Transport::Demo => Target::Demo,
            Transport::Stdio => Target::Stdio {
                command: f.string("command")?,
                args: f.strings("args", true)?,
                env: f.string_map("env")?,
                cwd: f.opt_string("cwd")?,
            },
            Transport::Http => Target::Http { url: f.string("url")?, headers: f.string_map("headers")? },
            Transport::Sse => Target::Sse { url: f.string("url")?, headers: f.string_map("headers")? },
            Transport::Auto => Target::Auto { url: f.string("url")?, headers: f.string_map("headers")? },
        };
        f.done()?;
        Ok(target)
    }
}

impl ConfiguredServer {
    fn read(value: Value) -> Read<ConfiguredServer> {
        let mut f = Fields::new("configured server", value)?;
        let name = f.string("name")?;
        let target = match f.take("target") {
            None | Some(Value::Null) => None,
            Some(v) => Some(Target::read(v)?),
        };
        let error = f.opt_string("error")?;
        let protocol = f.protocol("protocol")?;
        let oauth = read_oauth(f.take("oauth"))?;
        f.done()?;
        ConfiguredServer::new(name, target, error, protocol, oauth)
    }
}

impl RelayEvent {
    fn read(value: Value) -> Read<RelayEvent> {
        let mut f = Fields::new("relay event", value)?;
        let event = match f.string("kind")?.as_str() {
            "spawned" => RelayEvent::Spawned {
                pid: f.opt_int("pid")?,
                command: f.string("command")?,
                args: f.strings("args", false)?,
            },
            "connected" => RelayEvent::Connected {
                transport: f.string("transport")?,
                url: f.string("url")?,
                headers: f.strings("headers", false)?,
            },
            "request_failed" => RelayEvent::RequestFailed { id: f.need("id")?, message: f.string("message")? },
            "stderr" => RelayEvent::Stderr { line: f.string("line")?, truncated: f.boolean("truncated")? },
            "invalid_frame" => RelayEvent::InvalidFrame {
                preview: f.string("preview")?,
                size: f.size("size")?,
                error: f.string("error")?,
            },
            "oversized" => RelayEvent::Oversized {
                direction: f.direction("direction")?,
                size: f.size("size")?,
                limit: f.size("limit")?,
            },
            "exited" => RelayEvent::Exited { code: f.opt_int("code")?, signal: f.opt_int("signal")? },
            "closed" => RelayEvent::Closed { reason: f.string("reason")? },
            "error" => RelayEvent::Error { message: f.string("message")? },
            "note" => RelayEvent::Note { message: f.string("message")? },
            "auth" => RelayEvent::Auth { auth: read_auth_state(f.need("auth")?)? },
            "auth_exchange" => RelayEvent::AuthExchange { exchange: read_exchange(f.need("exchange")?)? },
            other => return Err(format!("unknown relay event `{other}`")),
        };
        f.done()?;
        Ok(event)
    }
}

/// OAuth settings; absent is none.
fn read_oauth(value: Option<Value>) -> Read<OAuthSettings> {
    let Some(value) = value else { return Ok(OAuthSettings::default()) };
    let mut f = Fields::new("oauth", value)?;
    let settings = OAuthSettings { client_id: f.opt_string("client_id")?, scopes: f.strings("scopes", true)? };
    f.done()?;
    Ok(settings)
}

fn read_auth_state(value: Value) -> Read<AuthState> {
    let mut f = Fields::new("auth state", value)?;
    let state = match f.string("state")?.as_str() {
        "signing_in" => AuthState::SigningIn { step: f.string("step")? },
        "approve" => AuthState::Approve { issuer: f.string("issuer")?, url: f.string("url")? },
        "signed_in" => AuthState::SignedIn {
            issuer: f.string("issuer")?,
            scopes: f.strings("scopes", false)?,
            expires_at_ms: match f.take("expires_at_ms") {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.as_u64().ok_or_else(|| f.wrong("expires_at_ms", "an unsigned integer", &v))?),
            },
        },
        "signed_out" => AuthState::SignedOut,
        "failed" => AuthState::Failed { step: f.string("step")?, message: f.string("message")? },
        other => return Err(format!("unknown auth state `{other}`")),
    };
    f.done()?;
    Ok(state)
}

fn read_exchange(value: Value) -> Read<AuthExchange> {
    let mut f = Fields::new("auth exchange", value)?;
    let exchange = AuthExchange {
        step: f.string("step")?,
        method: f.string("method")?,
        url: f.string("url")?,
        status: f.opt_int("status")?,
        request: f.opt_string("request")?.unwrap_or_default(),
        response: f.opt_string("response")?.unwrap_or_default(),
        ms: f.unsigned("ms")?,
    };
    f.done()?;
    Ok(exchange)
}
