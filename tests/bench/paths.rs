//! The three ways a `tools/call` reaches the same stdio server, each from a client outside
//! the program under test: straight to the server's stdin (the floor), through this relay's
//! WebSocket as the page speaks it, and through the official inspector's HTTP API as its
//! page speaks it. Each path is a frame sender plus a stream of the server's frames.

use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use tests::{Playground, relay};

/// Sends frames toward the server; cheap to clone.
#[derive(Clone)]
pub enum Sender {
    Queue(mpsc::UnboundedSender<String>),
    /// The inspector answers each POST only once the server answered, so every request in
    /// flight needs a POST of its own.
    Inspector {
        http: reqwest::Client,
        base: String,
        token: Arc<str>,
        session: Arc<str>,
    },
}

impl Sender {
    pub fn send(&self, frame: String) -> Result<()> {
        match self {
            Sender::Queue(q) => q.send(frame).map_err(|_| anyhow::anyhow!("the path is closed")),
            Sender::Inspector { http, base, token, session } => {
                let body = format!(r#"{{"sessionId":"{session}","message":{frame}}}"#);
                let req = http
                    .post(format!("{base}/api/mcp/send"))
                    .header("x-mcp-remote-auth", format!("Bearer {token}"))
                    .header("content-type", "application/json")
                    .body(body);
                tokio::spawn(async move {
                    if let Err(e) = req.send().await.and_then(|r| r.error_for_status()) {
                        tests::say(&format!("inspector send failed: {e}"));
                    }
                });
                Ok(())
            }
        }
    }
}

/// What a benchmark needs of a frame: the same small read on every path.
#[derive(serde::Deserialize)]
struct Head {
    id: Option<u64>,
    method: Option<serde::de::IgnoredAny>,
    result: Option<serde::de::IgnoredAny>,
}

/// An answer: its id, whether it is a result, and its text.
pub struct Answer {
    pub id: Option<u64>,
    pub ok: bool,
    pub text: String,
}

/// One way to the server, connected and initialized.
pub struct CallPath {
    pub name: &'static str,
    pub tx: Sender,
    /// Every frame the server sent, as text.
    pub rx: mpsc::UnboundedReceiver<String>,
    /// The process whose memory is the cost of this path (none for the floor).
    pub pids: Vec<u32>,
    next_id: u64,
    _keep: Box<dyn std::any::Any + Send>,
}

impl CallPath {
    /// The next id; ids never repeat on a path.
    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Sends a request and waits for its answer.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.id();
        self.tx.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string())?;
        self.answer(id).await
    }

    /// Waits for the answer to `id`, dropping whatever else arrives.
    pub async fn answer(&mut self, id: u64) -> Result<Value> {
        loop {
            let frame = self.next_answer().await?;
            if frame.id == Some(id) {
                return Ok(serde_json::from_str(&frame.text)?);
            }
        }
    }

    /// The next answer to any request (notifications and server requests are skipped).
    pub async fn next_answer(&mut self) -> Result<Answer> {
        loop {
            let text = tokio::time::timeout(Duration::from_secs(60), self.rx.recv())
                .await
                .with_context(|| format!("{}: no answer within 60 s", self.name))?
                .with_context(|| format!("{}: the path closed", self.name))?;
            let head: Head = serde_json::from_str(&text)?;
            if head.method.is_none() {
                return Ok(Answer { id: head.id, ok: head.result.is_some(), text });
            }
        }
    }

    async fn initialize(mut self) -> Result<Self> {
        let init = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "mcp-playground-bench", "version": "1"}
        });
        let answer = self.request("initialize", init).await?;
        if answer.get("result").is_none() {
            bail!("{}: initialize failed: {answer}", self.name);
        }
        self.tx.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into())?;
        Ok(self)
    }
}

/// The server process straight on stdin and stdout: what no relay can beat.
pub async fn direct(node: &Path, server: &[String]) -> Result<CallPath> {
    let mut cmd = tokio::process::Command::new(node);
    cmd.args(server).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).kill_on_drop(true);
    #[allow(clippy::disallowed_methods, reason = "the benchmark's floor talks to the server itself")]
    let mut child = cmd.spawn().context("starting the server for the direct path")?;
    let mut stdin = child.stdin.take().expect("piped");
    let stdout = child.stdout.take().expect("piped");
    let (tx, mut queue) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        // What queued up goes out in one write, as the relay writes to a server.
        let mut buf = Vec::new();
        while let Some(frame) = queue.recv().await {
            buf.clear();
            buf.extend_from_slice(frame.as_bytes());
            buf.push(b'\n');
            while let Ok(more) = queue.try_recv() {
                buf.extend_from_slice(more.as_bytes());
                buf.push(b'\n');
            }
            if stdin.write_all(&buf).await.is_err() {
                break;
            }
        }
    });
    let (frames, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if frames.send(line).is_err() {
                break;
            }
        }
    });
    let path =
        CallPath { name: "direct stdio", tx: Sender::Queue(tx), rx, pids: vec![], next_id: 0, _keep: Box::new(child) };
    path.initialize().await
}

/// This relay, driven over its WebSocket exactly as the page drives it.
pub async fn relay(pg: Arc<Playground>, node: &Path, server: &[String]) -> Result<CallPath> {
    let (mut ws_tx, mut ws_rx) = relay::open(&pg).await?;
    let target = json!({"transport": "stdio", "command": node, "args": server});
    ws_tx.command(&json!({"type": "connect", "target": target})).await?;
    let (tx, mut queue) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        // What queued up goes out in one flush, as a browser's socket would send it.
        while let Some(frame) = queue.recv().await {
            let mut batch = vec![frame];
            while let Ok(more) = queue.try_recv() {
                batch.push(more);
            }
            if ws_tx.frames(&batch).await.is_err() {
                break;
            }
        }
    });
    let (frames, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok(frame) = ws_rx.next_in_raw().await {
            if frames.send(frame).is_err() {
                break;
            }
        }
    });
    let pids = vec![pg.pid()];
    let path = CallPath { name: "this relay", tx: Sender::Queue(tx), rx, pids, next_id: 0, _keep: Box::new(pg) };
    path.initialize().await
}

/// One event of the inspector's stream: `{"type": "message", "data": FRAME}`.
#[derive(serde::Deserialize)]
struct SseEvent<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(borrow)]
    data: &'a serde_json::value::RawValue,
}

/// The official inspector (v2: one server for its page and its API) on loopback.
pub struct Inspector {
    child: std::process::Child,
    pub base: String,
    pub token: String,
}

impl Inspector {
    /// Starts the inspector's web launcher with the given Node and waits for its health check.
    pub fn start(node: &Path, dir: &Path, node_server: &Path, server: &[String]) -> Result<Self> {
        let launcher = dir.join("node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
        if !launcher.is_file() {
            bail!("{} is missing", launcher.display());
        }
        let free = || -> Result<u16> { Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port()) };
        let (port, sandbox, origin) = (free()?, free()?, free()?);
        let token = format!("bench-{}", std::process::id());
        let home = std::env::temp_dir().join(format!("mcp-playground-bench-inspector-{}", std::process::id()));
        std::fs::create_dir_all(&home)?;
        let node_dir = node.parent().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        let mut cmd = std::process::Command::new(node);
        cmd.arg(launcher)
            .arg("--web")
            .arg(node_server)
            .args(server)
            .env("PATH", format!("{node_dir}:{}", std::env::var("PATH").unwrap_or_default()))
            .env("HOME", &home)
            .env("HOST", "127.0.0.1")
            .env("CLIENT_PORT", port.to_string())
            .env("MCP_SANDBOX_PORT", sandbox.to_string())
            .env("MCP_APP_ORIGIN_PORT", origin.to_string())
            .env("MCP_AUTO_OPEN_ENABLED", "false")
            .env("MCP_INSPECTOR_API_TOKEN", &token)
            .env("MCP_INSPECTOR_SECRET_STORE", "memory")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[allow(clippy::disallowed_methods, reason = "the benchmark runs the official inspector")]
        let child = cmd.spawn().context("starting the inspector")?;
        let me = Self { child, base: format!("http://127.0.0.1:{port}"), token };
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if started.elapsed() > Duration::from_secs(60) {
                bail!("the inspector did not listen on port {port} within 60 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(me)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A session of the inspector's API with its own server process.
    pub async fn path(self: &Arc<Self>, node: &Path, server: &[String]) -> Result<CallPath> {
        let http = reqwest::Client::builder().tcp_nodelay(true).pool_max_idle_per_host(64).build()?;
        let auth = format!("Bearer {}", self.token);
        let config = json!({"config": {"type": "stdio", "command": node, "args": server}});
        let answer = http
            .post(format!("{}/api/mcp/connect", self.base))
            .header("x-mcp-remote-auth", &auth)
            .header("content-type", "application/json")
            .body(config.to_string())
            .send()
            .await?
            .error_for_status()?
            .text()
            .await?;
        let answer: Value = serde_json::from_str(&answer).context("the inspector's connect answer")?;
        let session = answer["sessionId"].as_str().context("the inspector gave no sessionId")?.to_owned();
        let events = http
            .get(format!("{}/api/mcp/events?sessionId={session}", self.base))
            .header("x-mcp-remote-auth", &auth)
            .send()
            .await?
            .error_for_status()?;
        let (frames, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut body = events.bytes_stream();
            let mut buf = Vec::new();
            while let Some(Ok(chunk)) = body.next().await {
                buf.extend_from_slice(&chunk);
                while let Some(end) = buf.windows(2).position(|w| w == b"\n\n") {
                    let event: Vec<u8> = buf.drain(..end + 2).collect();
                    for line in String::from_utf8_lossy(&event).lines() {
                        let Some(data) = line.strip_prefix("data: ") else { continue };
                        let Ok(ev) = serde_json::from_str::<SseEvent>(data) else { continue };
                        if ev.kind == "message" && frames.send(ev.data.get().to_owned()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let tx = Sender::Inspector {
            http,
            base: self.base.clone(),
            token: self.token.as_str().into(),
            session: session.as_str().into(),
        };
        let pids = vec![self.pid()];
        let path = CallPath { name: "official inspector", tx, rx, pids, next_id: 0, _keep: Box::new(self.clone()) };
        path.initialize().await
    }
}

impl Drop for Inspector {
    fn drop(&mut self) {
        let pgid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(pgid, nix::sys::signal::Signal::SIGTERM);
        let _ = self.child.wait();
    }
}
