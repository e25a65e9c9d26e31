//! A client of the relay's WebSocket that speaks exactly the page's protocol (`ClientMsg`
//! out, `ServerMsg` in), for tests and benchmarks that sit where the user sits: outside
//! the relay, on a real loopback socket with `TCP_NODELAY`, as browsers set it.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Playground;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The sending half: MCP frames and relay commands.
pub struct RelayTx(SplitSink<Ws, Message>);

/// The receiving half: what the relay forwards from the server, a message at a time (the
/// relay sends what it has at one time as one socket message, a burst).
pub struct RelayRx(SplitStream<Ws>, std::collections::VecDeque<String>);

/// The messages of one socket message of the relay, each as the text the relay wrote: a
/// burst (a JSON array of messages) split, a lone message as it came.
pub fn messages_of(text: &str) -> Result<Vec<String>> {
    if !text.starts_with('[') {
        return Ok(vec![text.to_owned()]);
    }
    let parts: Vec<&serde_json::value::RawValue> = serde_json::from_str(text)?;
    Ok(parts.into_iter().map(|p| p.get().to_owned()).collect())
}

/// Opens `/api/ws` with the relay's token and reads its `hello`.
pub async fn open(pg: &Playground) -> Result<(RelayTx, RelayRx)> {
    let url = format!("ws://{}/api/ws?token={}", pg.authority(), pg.token);
    open_url(&url).await
}

/// Opens a relay socket at `url` (which carries the token) and reads its `hello`.
pub async fn open_url(url: &str) -> Result<(RelayTx, RelayRx)> {
    // The last argument disables Nagle's algorithm on the client's socket.
    let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true).await?;
    let (tx, rx) = ws.split();
    let mut rx = RelayRx(rx, Default::default());
    let hello = rx.next_msg().await?;
    if hello["type"] != "hello" {
        bail!("the relay's first message is not hello: {hello}");
    }
    Ok((RelayTx(tx), rx))
}

impl RelayTx {
    /// Sends one relay command (`{"type": "connect", …}` and the like).
    pub async fn command(&mut self, msg: &Value) -> Result<()> {
        self.0.send(Message::text(msg.to_string())).await.context("the relay socket closed")
    }

    /// Forwards one MCP frame to the server.
    pub async fn frame(&mut self, frame: &str) -> Result<()> {
        self.command(&json!({"type": "send", "frame": frame})).await
    }

    /// Forwards several MCP frames, flushing the socket once.
    pub async fn frames(&mut self, frames: &[String]) -> Result<()> {
        for frame in frames {
            let msg = format!(r#"{{"type":"send","frame":{}}}"#, serde_json::to_string(frame)?);
            self.0.feed(Message::text(msg)).await.context("the relay socket closed")?;
        }
        self.0.flush().await.context("the relay socket closed")
    }
}

impl RelayRx {
    /// The next relay message as the relay wrote it.
    async fn next_text(&mut self) -> Result<String> {
        loop {
            if let Some(text) = self.1.pop_front() {
                return Ok(text);
            }
            match self.0.next().await {
                Some(Ok(Message::Text(t))) => self.1.extend(messages_of(&t)?),
                Some(Ok(Message::Close(_))) | None => bail!("the relay closed the socket"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.into()),
            }
        }
    }

    /// The next relay message, parsed.
    pub async fn next_msg(&mut self) -> Result<Value> {
        Ok(serde_json::from_str(&self.next_text().await?)?)
    }

    /// The next MCP frame the server sent, as the raw text the server wrote (echoes of our
    /// own frames and other relay messages are skipped; an error event or a closed
    /// upstream fails). Reads only what it needs of each envelope, so a benchmark does not
    /// charge the relay for its client's parsing.
    pub async fn next_in_raw(&mut self) -> Result<String> {
        #[derive(serde::Deserialize)]
        struct Envelope<'a> {
            #[serde(rename = "type")]
            kind: &'a str,
            direction: Option<&'a str>,
            #[serde(borrow)]
            frame: Option<std::borrow::Cow<'a, str>>,
            #[serde(borrow)]
            event: Option<EventHead<'a>>,
        }
        #[derive(serde::Deserialize)]
        struct EventHead<'a> {
            kind: &'a str,
        }
        loop {
            let text = self.next_text().await?;
            // Stamps of our own frames (and a frame the relay wrote of its own): known by
            // their first bytes, as the relay writes them.
            if text.starts_with(r#"{"type":"sent""#) || text.starts_with(r#"{"type":"message","direction":"out""#) {
                continue;
            }
            let env: Envelope = serde_json::from_str(&text)?;
            match (env.kind, env.direction, env.frame, env.event) {
                ("message", Some("in"), Some(frame), _) => return Ok(frame.into_owned()),
                ("event", _, _, Some(EventHead { kind: "error" | "closed" | "exited" })) => {
                    bail!("the relay reported {text}")
                }
                _ => continue,
            }
        }
    }

    /// The next MCP frame the server sent, parsed (see [`RelayRx::next_in_raw`]).
    pub async fn next_in(&mut self) -> Result<Value> {
        Ok(serde_json::from_str(&self.next_in_raw().await?)?)
    }

    /// Waits for the answer to request `id`, skipping notifications and other answers.
    pub async fn answer(&mut self, id: u64) -> Result<Value> {
        loop {
            let frame = self.next_in().await?;
            if frame.get("id").and_then(Value::as_u64) == Some(id) && frame.get("method").is_none() {
                return Ok(frame);
            }
        }
    }
}

/// A connected MCP session through the relay: a small sequential client.
pub struct Session {
    pub tx: RelayTx,
    pub rx: RelayRx,
    next_id: u64,
}

impl Session {
    /// Connects the relay to `target` (a `Target` in the page's JSON) and initializes.
    pub async fn start(pg: &Playground, target: Value) -> Result<Self> {
        let (mut tx, rx) = open(pg).await?;
        tx.command(&json!({"type": "connect", "target": target})).await?;
        let mut s = Self { tx, rx, next_id: 0 };
        let init = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "relay-test-client", "version": "1"}
        });
        let answer = tokio::time::timeout(Duration::from_secs(30), s.request("initialize", init))
            .await
            .context("no answer to initialize within 30 s")??;
        if answer.get("result").is_none() {
            bail!("initialize failed: {answer}");
        }
        s.tx.frame(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await?;
        Ok(s)
    }

    /// Sends a request and waits for its answer (the whole JSON-RPC response).
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.tx.frame(&frame.to_string()).await?;
        self.rx.answer(id).await
    }
}
