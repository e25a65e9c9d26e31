//! Lets demo tools return results that rmcp's typed model cannot express (a content item of
//! an unknown type, a result without `content`) by rewriting rmcp's output on its way out.
//!
//! Such a tool returns a [`placeholder`]: an ordinary result that carries the wanted wire
//! result in `structuredContent` and a marker in `_meta`. [`forward`] copies rmcp's
//! newline-delimited JSON-RPC to the real output and swaps each marked result for the one
//! it carries; every other line passes through byte for byte.

use rmcp::model::{CallToolResult, ContentBlock, MetaObject};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The `_meta` key that marks a placeholder result; its value names the [`Rewrite`].
pub(super) const MARKER: &str = "mcp-playground/rewrite";

/// The marker as a JSON object key. Its quotes would be escaped inside a JSON string, so
/// a line without this text holds no marked result and is passed on without parsing.
const MARKER_KEY: &str = "\"mcp-playground/rewrite\"";

/// A buffer that grew past this for one huge line is let go rather than kept around.
const KEEP_CAPACITY: usize = 1 << 20;

/// Why a result is rewritten; the marker's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Rewrite {
    /// A content item of a type no spec defines.
    UnknownContent,
    /// The early-draft shape: `toolResult` and no `content`.
    LegacyResult,
}

impl Rewrite {
    const ALL: [Self; 2] = [Self::UnknownContent, Self::LegacyResult];

    fn as_str(self) -> &'static str {
        match self {
            Self::UnknownContent => "unknown-content",
            Self::LegacyResult => "legacy-result",
        }
    }
}

/// A result that [`forward`] replaces on the wire with `wire_result`, verbatim.
pub(super) fn placeholder(rewrite: Rewrite, wire_result: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text("placeholder for a rewritten result")]);
    result.structured_content = Some(wire_result);
    let mut meta = MetaObject::new();
    meta.0.insert(MARKER.to_owned(), rewrite.as_str().into());
    result.meta = Some(meta);
    result
}

/// The line with its marked result replaced, or `None` when it is to be passed on as is.
/// A trailing newline is kept if the line had one.
pub(super) fn rewrite_line(line: &[u8]) -> Option<Vec<u8>> {
    if !std::str::from_utf8(line).is_ok_and(|text| text.contains(MARKER_KEY)) {
        return None;
    }
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let result = message.get_mut("result")?;
    let kind = result.get("_meta")?.get(MARKER)?.as_str()?;
    let Some(rewrite) = Rewrite::ALL.into_iter().find(|rewrite| rewrite.as_str() == kind) else {
        tracing::warn!(kind, "unknown rewrite marker; passing the result on unchanged");
        return None;
    };
    *result = result.get_mut("structuredContent")?.take();
    tracing::debug!(?rewrite, "rewrote a placeholder result");
    let mut out = serde_json::to_vec(&message).ok()?;
    if line.ends_with(b"\n") {
        out.push(b'\n');
    }
    Some(out)
}

/// Copies newline-delimited messages from `from` to `to`, rewriting marked results and
/// flushing after every line, until `from` ends; then shuts `to` down. Lines may be tens
/// of megabytes long (large images), so their length is not capped.
pub(super) async fn forward<R, W>(from: R, mut to: W) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from = BufReader::with_capacity(64 * 1024, from);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from.read_until(b'\n', &mut line).await? == 0 {
            break;
        }
        match rewrite_line(&line) {
            Some(rewritten) => to.write_all(&rewritten).await?,
            None => to.write_all(&line).await?,
        }
        to.flush().await?;
        if line.capacity() > KEEP_CAPACITY {
            line = Vec::new();
        }
    }
    to.shutdown().await
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The line rmcp writes for `result` in answer to request 7.
    fn response_line(result: &impl serde::Serialize) -> String {
        let line = json!({"jsonrpc": "2.0", "id": 7, "result": result}).to_string();
        format!("{line}\n")
    }

    #[test]
    fn marked_results_are_replaced_by_what_they_carry() {
        let legacy = json!({"toolResult": {"answer": 42}});
        let line = response_line(&placeholder(Rewrite::LegacyResult, legacy.clone()));
        assert!(line.contains(MARKER_KEY), "{line}");
        let rewritten = rewrite_line(line.as_bytes()).expect("a marked line is rewritten");
        let text = String::from_utf8(rewritten).unwrap();
        assert_eq!(text, format!("{}\n", json!({"jsonrpc": "2.0", "id": 7, "result": legacy})));
        assert!(!text.contains(MARKER), "{text}");

        let unknown = json!({"content": [{"type": "hologram"}]});
        let line = response_line(&placeholder(Rewrite::UnknownContent, unknown.clone()));
        let without_newline = line.trim_end().as_bytes();
        let rewritten: Value = serde_json::from_slice(&rewrite_line(without_newline).unwrap()).unwrap();
        assert_eq!(rewritten["result"], unknown);
        assert!(!rewrite_line(without_newline).unwrap().ends_with(b"\n"));
    }

    #[test]
    fn other_lines_are_left_alone() {
        let lines = [
            // The marker's name as text (its quotes escaped), and as a key outside `_meta`.
            response_line(&CallToolResult::success(vec![ContentBlock::text("\"mcp-playground/rewrite\"")])),
            response_line(&json!({"structuredContent": {MARKER: "legacy-result"}, "content": []})),
            // A marker whose value names no rewrite.
            response_line(&json!({"_meta": {MARKER: "no-such-rewrite"}, "structuredContent": {}})),
            // A request from the server, and something that is not JSON.
            format!("{}\n", json!({"jsonrpc": "2.0", "method": "x", "params": {"_meta": {MARKER: "legacy-result"}}})),
            "not json \"mcp-playground/rewrite\"\n".to_owned(),
        ];
        for line in lines {
            assert_eq!(rewrite_line(line.as_bytes()), None, "{line}");
        }
    }

    #[tokio::test]
    async fn forward_copies_unmarked_lines_byte_for_byte() {
        let marked = response_line(&placeholder(Rewrite::LegacyResult, json!({"toolResult": 1})));
        let huge = format!("{{\"jsonrpc\": \"2.0\",  \"id\":1,\"result\":{{\"x\":\"{}\"}}}}\n", "A".repeat(3 << 20));
        let input = format!("{huge}{marked}{{\"odd\" :  [1, 2 ]}}\n\n{{\"last\": \"no newline\"}}");
        let mut output = Vec::new();
        forward(input.as_bytes(), &mut output).await.expect("forwarding in memory cannot fail");
        let expected = format!(
            "{huge}{}\n{{\"odd\" :  [1, 2 ]}}\n\n{{\"last\": \"no newline\"}}",
            r#"{"jsonrpc":"2.0","id":7,"result":{"toolResult":1}}"#
        );
        assert!(output == expected.as_bytes(), "{}", String::from_utf8_lossy(&output[huge.len()..]));
    }

    #[tokio::test]
    async fn forward_ends_when_the_writer_side_closes() {
        let (mut server_side, forwarded) = tokio::io::duplex(64);
        let (mut client_side, out) = tokio::io::duplex(1024);
        let task = tokio::spawn(forward(forwarded, out));
        server_side.write_all(b"{\"a\":1}\n").await.unwrap();
        drop(server_side);
        task.await.unwrap().unwrap();
        let mut received = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut client_side, &mut received).await.unwrap();
        assert_eq!(received, "{\"a\":1}\n");
    }
}
