//! A bare JSON-RPC client for the wire tests: newline-delimited JSON over an in-memory
//! pipe, every read bounded by a timeout so a broken server fails fast instead of hanging.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf},
    task::JoinHandle,
};

/// Long enough for a loaded CI machine, short enough that a hung server fails fast.
const WAIT: Duration = Duration::from_secs(10);

pub(super) struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    write: WriteHalf<DuplexStream>,
    next_id: u64,
    server: JoinHandle<crate::error::Result<()>>,
}

impl Client {
    /// Starts a server on one end of a pipe and completes the `initialize` handshake.
    pub(super) async fn connect() -> Self {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        let server = tokio::spawn(crate::demo::serve(server_read, server_write));
        let (read, write) = tokio::io::split(client_end);
        let mut client = Self { lines: BufReader::new(read).lines(), write, next_id: 0, server };
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "demo-test", "version": "0"},
                }),
            )
            .await;
        let result = &init.response["result"];
        assert_eq!(result["protocolVersion"], "2025-06-18", "{result}");
        assert_eq!(result["serverInfo"]["name"], "mcp-playground-demo");
        assert_eq!(result["serverInfo"]["title"], "MCP Playground demo server");
        assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
        assert!(result["instructions"].is_string());
        client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        client
    }

    /// Closes the server's input, as when stdin closes; returns what `serve` returned once
    /// the server has also closed its output.
    pub(super) async fn close(mut self) -> crate::error::Result<()> {
        let shutdown = self.write.shutdown();
        tokio::time::timeout(WAIT, shutdown).await.expect("shutdown timed out").expect("shutdown failed");
        let served = tokio::time::timeout(WAIT, self.server).await.expect("the server did not stop");
        let rest = tokio::time::timeout(WAIT, self.lines.next_line()).await.expect("no end of output");
        assert_eq!(rest.expect("read failed"), None, "the server's output should end");
        served.expect("the server task panicked")
    }

    pub(super) async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        let write = self.write.write_all(line.as_bytes());
        tokio::time::timeout(WAIT, write).await.expect("write timed out").expect("write failed");
    }

    pub(super) async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("no message from the server in time")
            .expect("read failed")
            .expect("the server closed the pipe");
        serde_json::from_str(&line).expect("the server sent invalid JSON")
    }

    /// Sends a request without waiting for its response; returns its id.
    pub(super) async fn start_request(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(request).await;
        id
    }

    /// Sends a request and reads up to its response, keeping what arrived before it.
    pub(super) async fn request(&mut self, method: &str, params: Value) -> Exchange {
        let id = self.start_request(method, params).await;
        let mut before = Vec::new();
        loop {
            let message = self.recv().await;
            if message["id"] == id && message.get("method").is_none() {
                return Exchange { before, response: message };
            }
            before.push(message);
        }
    }

    /// Everything the server sends until it has been quiet for `quiet`.
    pub(super) async fn drain(&mut self, quiet: Duration) -> Vec<Value> {
        let mut messages = Vec::new();
        while let Ok(line) = tokio::time::timeout(quiet, self.lines.next_line()).await {
            let line = line.expect("read failed").expect("the server closed the pipe");
            messages.push(serde_json::from_str(&line).expect("the server sent invalid JSON"));
        }
        messages
    }

    pub(super) async fn call(&mut self, tool: &str, arguments: Value) -> Exchange {
        self.request("tools/call", json!({"name": tool, "arguments": arguments})).await
    }

    pub(super) async fn tool_names(&mut self) -> Vec<String> {
        let list = self.request("tools/list", json!({})).await.response;
        let tools = list["result"]["tools"].as_array().expect("tools array").clone();
        tools.iter().map(|tool| tool["name"].as_str().unwrap_or("?").to_owned()).collect()
    }
}

pub(super) struct Exchange {
    /// Messages (notifications) that arrived before the response.
    pub(super) before: Vec<Value>,
    pub(super) response: Value,
}

impl Exchange {
    pub(super) fn result(&self) -> &Value {
        assert!(self.response.get("error").is_none(), "unexpected error: {}", self.response);
        &self.response["result"]
    }

    pub(super) fn text(&self, index: usize) -> &str {
        let item = &self.result()["content"][index];
        assert_eq!(item["type"], "text", "{item}");
        item["text"].as_str().unwrap_or_default()
    }
}
