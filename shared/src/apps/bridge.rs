//! The host's end of a view's JSON-RPC over `postMessage`, sans-IO: the page hands it what
//! the sandbox proxy posts and carries out the [`Effect`]s it returns. It answers
//! `ui/initialize` (host info, capabilities, context), sends nothing before the view says
//! `initialized`, then the call's input and result; it carries the view's `tools/call`
//! (only tools the view may call, and through the confirmation policy) and `resources/read`
//! to the server, keeps its log and what it would tell the model, opens links only after a
//! person saw them, switches display modes and sizes, and tears the view down politely.

use serde_json::{Value, json};

use super::{UiResource, callable_by_view};
use crate::calls::ConfirmPolicy;
use crate::jsonrpc::Id;
use crate::mcp::Tool;

/// The page's light or dark look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// How the view is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplayMode {
    Inline,
    /// A modal over the page.
    Fullscreen,
    /// Picture-in-picture: a small floating panel.
    Pip,
}

impl DisplayMode {
    pub const ALL: [DisplayMode; 3] = [DisplayMode::Inline, DisplayMode::Fullscreen, DisplayMode::Pip];

    pub fn as_str(self) -> &'static str {
        match self {
            DisplayMode::Inline => "inline",
            DisplayMode::Fullscreen => "fullscreen",
            DisplayMode::Pip => "pip",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// What the host knows of where the view is shown.
#[derive(Debug, Clone, PartialEq)]
pub struct HostEnv {
    pub theme: Theme,
    /// BCP 47, e.g. `en-US`.
    pub locale: String,
    /// IANA, e.g. `Europe/Lisbon`.
    pub time_zone: String,
    /// The width the view gets, in CSS pixels; its height follows its content up to
    /// `max_height`.
    pub width: u32,
    pub max_height: u32,
    /// This host's version.
    pub version: String,
}

/// A request of the view that the page carries to the server.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewRequest {
    CallTool { name: String, arguments: Value },
    ReadResource { uri: String },
}

impl ViewRequest {
    /// The MCP method and params it is sent as.
    pub fn method_params(&self) -> (&'static str, Value) {
        match self {
            ViewRequest::CallTool { name, arguments } => ("tools/call", json!({"name": name, "arguments": arguments})),
            ViewRequest::ReadResource { uri } => ("resources/read", json!({"uri": uri})),
        }
    }
}

/// What the page does for the bridge.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Post this to the view (through the sandbox proxy).
    ToView(Value),
    /// Send this to the server; its answer goes back with [`ViewBridge::answer`].
    Server { view_id: Id, request: ViewRequest },
    /// A call of the view that the confirmation policy holds for a person's yes:
    /// [`ViewBridge::confirmed`] with the answer.
    Confirm { view_id: Id, tool: Box<Tool>, arguments: Value },
    /// A line for the view's log: its `notifications/message`, or something refused.
    Log { level: String, text: String },
    /// What the view would tell the model (`ui/message`, `ui/update-model-context`).
    ForModel { method: String, params: Value },
    /// A link the view asks to open: shown to the person, who opens it or not
    /// ([`ViewBridge::link_answered`]).
    OpenLink { view_id: Id, url: String },
    /// The view is now shown so.
    Display(DisplayMode),
    /// The view's content size, within limits (`None`: unchanged).
    Resize { width: Option<u32>, height: Option<u32> },
    /// The view may be removed (it answered the teardown, or was never initialized).
    Gone,
}

/// Where a view's life stands.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    /// The sandbox proxy has not said it is ready.
    AwaitingProxy,
    /// The HTML is loading; the view has not said `initialized`.
    Loading,
    Ready,
    /// Teardown asked (the request's id); the view's answer ends it.
    TearingDown(Id),
    Gone,
}

/// The tallest and widest a view may ask to be, in CSS pixels.
const MAX_SIDE: f64 = 4000.0;
/// The JSON-RPC codes of refusals.
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const REFUSED: i64 = -32000;

/// One view and its conversation with the host.
#[derive(Debug)]
pub struct ViewBridge {
    tool: Tool,
    call_id: Option<Id>,
    resource: UiResource,
    env: HostEnv,
    phase: Phase,
    /// The call's arguments, and whether the view has them.
    input: Option<(Value, bool)>,
    /// `tool-result` or `tool-cancelled`, once the call ended, and whether it went out.
    outcome: Option<(Value, bool)>,
    mode: DisplayMode,
    /// The modes the view said it supports (`None`: it did not say).
    view_modes: Option<Vec<DisplayMode>>,
    next_id: i64,
}

impl ViewBridge {
    /// The view of `tool`'s call `call_id`, waiting for its sandbox proxy.
    pub fn new(tool: Tool, call_id: Option<Id>, resource: UiResource, env: HostEnv) -> Self {
        ViewBridge {
            tool,
            call_id,
            resource,
            env,
            phase: Phase::AwaitingProxy,
            input: None,
            outcome: None,
            mode: DisplayMode::Inline,
            view_modes: None,
            next_id: 1,
        }
    }

    pub fn tool(&self) -> &Tool {
        &self.tool
    }

    /// The id of the call whose input the view has (none for a call played back whole).
    pub fn call_id(&self) -> Option<&Id> {
        self.call_id.as_ref()
    }

    pub fn resource(&self) -> &UiResource {
        &self.resource
    }

    pub fn mode(&self) -> DisplayMode {
        self.mode
    }

    /// Whether the view said `initialized` (and was not torn down).
    pub fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    pub fn is_gone(&self) -> bool {
        self.phase == Phase::Gone
    }

    /// Reads one message the sandbox posted (from the view, or the proxy's own).
    pub fn from_view(&mut self, msg: &Value, tools: &[Tool], policy: ConfirmPolicy) -> Vec<Effect> {
        let refuse = |why: String| vec![Effect::Log { level: "warning".into(), text: why }];
        if self.phase == Phase::Gone {
            return refuse(format!("refused after teardown: {}", describe(msg)));
        }
        if msg.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !msg.is_object() {
            return refuse(format!("refused, not JSON-RPC 2.0: {}", describe(msg)));
        }
        let method = msg.get("method").and_then(Value::as_str);
        let id = msg.get("id").and_then(|i| serde_json::from_value::<Id>(i.clone()).ok());
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        match (method, id) {
            (Some("ui/notifications/sandbox-proxy-ready"), None) if self.phase == Phase::AwaitingProxy => {
                self.phase = Phase::Loading;
                vec![Effect::ToView(notification(
                    "ui/notifications/sandbox-resource-ready",
                    self.resource.sandbox_params(),
                ))]
            }
            (Some(m), _) if m.starts_with("ui/notifications/sandbox-") => {
                refuse(format!("refused {m}: only the sandbox proxy says it, once"))
            }
            (Some(_), _) if self.phase == Phase::AwaitingProxy => {
                refuse(format!("refused before the sandbox was ready: {}", describe(msg)))
            }
            (Some(m), Some(id)) => self.request(m, id, params, tools, policy),
            (Some(m), None) => self.notification(m, params),
            (None, Some(id)) => self.response(&id),
            (None, None) => refuse(format!("refused, neither request nor answer: {}", describe(msg))),
        }
    }

    fn request(&mut self, method: &str, id: Id, params: Value, tools: &[Tool], policy: ConfirmPolicy) -> Vec<Effect> {
        match method {
            "ui/initialize" => {
                self.view_modes = params["appCapabilities"]["availableDisplayModes"]
                    .as_array()
                    .map(|l| l.iter().filter_map(|m| m.as_str().and_then(DisplayMode::parse)).collect());
                vec![Effect::ToView(response(&id, self.initialize_result()))]
            }
            "ping" => vec![Effect::ToView(response(&id, json!({})))],
            "tools/call" => {
                let name = params["name"].as_str().unwrap_or_default().to_owned();
                let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
                let Some(tool) = tools.iter().find(|t| t.name == name) else {
                    return self.refuse_request(&id, INVALID_PARAMS, format!("no tool {name:?} on this server"));
                };
                if !callable_by_view(tool) {
                    return self.refuse_request(
                        &id,
                        REFUSED,
                        format!("{name} is not callable by the view (visibility)"),
                    );
                }
                if needs_confirmation(policy, tool) {
                    return vec![Effect::Confirm { view_id: id, tool: Box::new(tool.clone()), arguments }];
                }
                vec![Effect::Server { view_id: id, request: ViewRequest::CallTool { name, arguments } }]
            }
            "resources/read" => match params["uri"].as_str() {
                Some(uri) => {
                    vec![Effect::Server { view_id: id, request: ViewRequest::ReadResource { uri: uri.into() } }]
                }
                None => self.refuse_request(&id, INVALID_PARAMS, "resources/read needs a uri".into()),
            },
            "ui/open-link" => match params["url"].as_str().filter(|u| is_web_url(u)) {
                Some(url) => vec![Effect::OpenLink { view_id: id, url: url.to_owned() }],
                None => self.refuse_request(&id, REFUSED, "Invalid URL: only http and https links open".into()),
            },
            "ui/message" | "ui/update-model-context" => {
                vec![Effect::ForModel { method: method.to_owned(), params }, Effect::ToView(response(&id, json!({})))]
            }
            "ui/request-display-mode" => {
                let wanted = params["mode"].as_str().and_then(DisplayMode::parse);
                let allowed = |m: DisplayMode| self.view_modes.as_ref().is_none_or(|v| v.contains(&m));
                let mut out = Vec::new();
                if let Some(m) = wanted.filter(|m| allowed(*m) && *m != self.mode) {
                    out.extend(self.set_mode(m));
                }
                out.insert(0, Effect::ToView(response(&id, json!({"mode": self.mode.as_str()}))));
                out
            }
            other => self.refuse_request(&id, METHOD_NOT_FOUND, format!("{other} is not offered to views")),
        }
    }

    fn notification(&mut self, method: &str, params: Value) -> Vec<Effect> {
        match method {
            "ui/notifications/initialized" if self.phase == Phase::Loading => {
                self.phase = Phase::Ready;
                self.flush()
            }
            "notifications/message" => {
                let data = &params["data"];
                let text = data.as_str().map_or_else(|| data.to_string(), str::to_owned);
                vec![Effect::Log { level: params["level"].as_str().unwrap_or("info").to_owned(), text }]
            }
            "ui/notifications/size-changed" => {
                let side =
                    |v: &Value| v.as_f64().filter(|x| x.is_finite() && *x >= 0.0).map(|x| x.min(MAX_SIDE) as u32);
                vec![Effect::Resize { width: side(&params["width"]), height: side(&params["height"]) }]
            }
            _ => vec![],
        }
    }

    /// An answer of the view: to the teardown, the one this host asks.
    fn response(&mut self, id: &Id) -> Vec<Effect> {
        if self.phase == Phase::TearingDown(id.clone()) {
            self.phase = Phase::Gone;
            return vec![Effect::Gone];
        }
        vec![]
    }

    fn refuse_request(&self, id: &Id, code: i64, message: String) -> Vec<Effect> {
        vec![
            Effect::Log { level: "warning".into(), text: format!("refused: {message}") },
            Effect::ToView(error(id, code, &message)),
        ]
    }

    fn initialize_result(&self) -> Value {
        let mut sandbox = json!({});
        if let Some(c) = &self.resource.csp {
            sandbox["csp"] = c.to_json();
        }
        if let Some(p) = self.resource.sandbox_params().get("permissions") {
            sandbox["permissions"] = p.clone();
        }
        json!({
            "protocolVersion": super::PROTOCOL,
            "hostInfo": {"name": "mcp-playground", "title": "MCP Playground", "version": self.env.version},
            "hostCapabilities": {
                "openLinks": {}, "serverTools": {}, "serverResources": {}, "logging": {}, "sandbox": sandbox,
            },
            "hostContext": self.context(),
        })
    }

    fn context(&self) -> Value {
        json!({
            "toolInfo": {"id": self.call_id, "tool": self.tool},
            "theme": self.env.theme.as_str(),
            "styles": {"variables": style_variables()},
            "displayMode": self.mode.as_str(),
            "availableDisplayModes": DisplayMode::ALL.map(DisplayMode::as_str),
            "containerDimensions": {"width": self.env.width, "maxHeight": self.env.max_height},
            "locale": self.env.locale,
            "timeZone": self.env.time_zone,
            "userAgent": format!("mcp-playground/{}", self.env.version),
            "platform": "web",
            "deviceCapabilities": {"touch": false, "hover": true},
        })
    }

    /// What waited for `initialized`: the input, then how the call ended.
    fn flush(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.phase != Phase::Ready {
            return out;
        }
        if let Some((arguments, sent @ false)) = &mut self.input {
            *sent = true;
            out.push(Effect::ToView(notification("ui/notifications/tool-input", json!({"arguments": arguments}))));
        }
        let input_sent = self.input.as_ref().is_none_or(|(_, s)| *s);
        if let Some((message, sent @ false)) = &mut self.outcome
            && input_sent
        {
            *sent = true;
            out.push(Effect::ToView(message.clone()));
        }
        out
    }

    /// The call that shows this view was made (again) with `arguments`: the view gets them,
    /// now or once it is initialized; a result of an earlier call is forgotten.
    pub fn tool_input(&mut self, call_id: Option<Id>, arguments: Value) -> Vec<Effect> {
        self.call_id = call_id;
        self.input = Some((arguments, false));
        self.outcome = None;
        self.flush()
    }

    /// The call ended with `result` (a `CallToolResult`); told once, however often the
    /// page looks.
    pub fn tool_result(&mut self, result: Value) -> Vec<Effect> {
        self.ended(notification("ui/notifications/tool-result", result))
    }

    /// The call was cancelled (or timed out, or failed without a result).
    pub fn tool_cancelled(&mut self, reason: &str) -> Vec<Effect> {
        self.ended(notification("ui/notifications/tool-cancelled", json!({"reason": reason})))
    }

    fn ended(&mut self, message: Value) -> Vec<Effect> {
        if self.outcome.as_ref().is_some_and(|(m, _)| *m == message) {
            return vec![];
        }
        self.outcome = Some((message, false));
        self.flush()
    }

    /// The server's answer to the view's request `view_id`: a JSON-RPC response's
    /// `result`, or its `error` object.
    pub fn answer(&mut self, view_id: &Id, outcome: Result<Value, Value>) -> Vec<Effect> {
        if self.phase == Phase::Gone {
            return vec![];
        }
        let msg = match outcome {
            Ok(result) => response(view_id, result),
            Err(e) => json!({"jsonrpc": "2.0", "id": view_id, "error": e}),
        };
        vec![Effect::ToView(msg)]
    }

    /// The person's answer about a call of the view that needed one.
    pub fn confirmed(&mut self, view_id: Id, tool: &str, arguments: Value, yes: bool) -> Vec<Effect> {
        if yes {
            let request = ViewRequest::CallTool { name: tool.to_owned(), arguments };
            return vec![Effect::Server { view_id, request }];
        }
        self.refuse_request(&view_id, REFUSED, format!("the person declined the call of {tool}"))
    }

    /// Whether the person opened the link the view asked for.
    pub fn link_answered(&mut self, view_id: &Id, opened: bool) -> Vec<Effect> {
        if opened {
            return vec![Effect::ToView(response(view_id, json!({})))];
        }
        self.refuse_request(view_id, REFUSED, "Link opening denied by user".into())
    }

    /// The page's look changed: a ready view is told.
    pub fn set_theme(&mut self, theme: Theme) -> Vec<Effect> {
        if self.env.theme == theme {
            return vec![];
        }
        self.env.theme = theme;
        self.context_changed(json!({"theme": theme.as_str(), "styles": {"variables": style_variables()}}))
    }

    /// The view's column is now `width` CSS pixels wide (the window was resized).
    pub fn set_width(&mut self, width: u32) -> Vec<Effect> {
        if self.env.width == width {
            return vec![];
        }
        self.env.width = width;
        let dims = json!({"containerDimensions": {"width": width, "maxHeight": self.env.max_height}});
        self.context_changed(dims)
    }

    /// The view is now shown in `mode` (the person's choice, or the view's granted).
    pub fn set_mode(&mut self, mode: DisplayMode) -> Vec<Effect> {
        if mode == self.mode {
            return vec![];
        }
        self.mode = mode;
        let mut out = vec![Effect::Display(mode)];
        out.extend(self.context_changed(json!({"displayMode": mode.as_str()})));
        out
    }

    fn context_changed(&self, params: Value) -> Vec<Effect> {
        if self.phase != Phase::Ready {
            return vec![];
        }
        vec![Effect::ToView(notification("ui/notifications/host-context-changed", params))]
    }

    /// The view is about to be removed (`reason`): a ready view is asked first, and
    /// [`Effect::Gone`] comes with its answer (the page gives it a short grace, then
    /// [`gone`](Self::gone)); any other view goes at once.
    pub fn teardown(&mut self, reason: &str) -> Vec<Effect> {
        match self.phase {
            Phase::Ready => {
                let id = Id::Number(self.next_id);
                self.next_id += 1;
                self.phase = Phase::TearingDown(id.clone());
                let msg =
                    json!({"jsonrpc": "2.0", "id": id, "method": "ui/resource-teardown", "params": {"reason": reason}});
                vec![Effect::ToView(msg)]
            }
            Phase::TearingDown(_) | Phase::Gone => vec![],
            Phase::AwaitingProxy | Phase::Loading => self.gone(),
        }
    }

    /// The grace is over (or there is none): the view is gone, whatever it says later.
    pub fn gone(&mut self) -> Vec<Effect> {
        if self.phase == Phase::Gone {
            return vec![];
        }
        self.phase = Phase::Gone;
        vec![Effect::Gone]
    }
}

/// Whether a call of the view waits for a person: by the page's policy, except that a tool
/// made for the view alone (`visibility: ["app"]`, a refresh button's) is held back under
/// "unless read-only" only when it says it is destructive; "always" holds every call.
fn needs_confirmation(policy: ConfirmPolicy, tool: &Tool) -> bool {
    let destructive = tool.annotations.as_ref().and_then(|a| a.destructive_hint) == Some(true);
    match policy {
        ConfirmPolicy::Unsafe if super::app_only(tool) => destructive,
        other => other.needs_confirmation(tool.annotations.as_ref()),
    }
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn response(id: &Id, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Id, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A message as a log line shows it: its method, or its start.
fn describe(msg: &Value) -> String {
    match msg.get("method").and_then(Value::as_str) {
        Some(m) => m.to_owned(),
        None => msg.to_string().chars().take(80).collect(),
    }
}

fn is_web_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://"))
        && url.len() <= 4096
        && !url.contains(char::is_whitespace)
}

/// The standard theme variables from the page's own palette, light and dark in one value
/// (`light-dark()`), so a change of theme needs no new values.
fn style_variables() -> Value {
    const PALETTE: &[(&str, &str, &str)] = &[
        ("--color-background-primary", "#ffffff", "#171a23"),
        ("--color-background-secondary", "#f1f3f9", "#1e2230"),
        ("--color-background-tertiary", "#f6f7fb", "#0f1117"),
        ("--color-background-info", "#eef0ff", "#262a4a"),
        ("--color-background-danger", "#fdecea", "#3a1d1d"),
        ("--color-background-success", "#e7f6ef", "#12302a"),
        ("--color-background-warning", "#fff4e5", "#33260f"),
        ("--color-text-primary", "#1b1f2a", "#e6e8ef"),
        ("--color-text-secondary", "#667085", "#9aa3b5"),
        ("--color-text-info", "#1d6fd8", "#6cb0ff"),
        ("--color-text-danger", "#c0362c", "#ff7b72"),
        ("--color-text-success", "#12805c", "#3ccf91"),
        ("--color-text-warning", "#b25e09", "#f0a54a"),
        ("--color-border-primary", "#e3e6ef", "#2a2f3f"),
        ("--color-ring-primary", "#4f46e5", "#8b83ff"),
    ];
    let mut vars: serde_json::Map<String, Value> =
        PALETTE.iter().map(|(k, l, d)| ((*k).to_owned(), json!(format!("light-dark({l}, {d})")))).collect();
    for (k, v) in [
        ("--font-sans", "Inter, system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif"),
        ("--font-mono", "\"JetBrains Mono\", ui-monospace, Menlo, Consolas, monospace"),
        ("--border-radius-sm", "6px"),
        ("--border-radius-md", "10px"),
        ("--border-radius-lg", "14px"),
    ] {
        vars.insert(k.to_owned(), json!(v));
    }
    Value::Object(vars)
}
