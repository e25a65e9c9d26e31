# A stdio MCP server that answers `tools/call` with the exact bytes of the request line it
# read, so a test can see how the client wrote each number (`1` or `1.0`, `2.5`, `1000`).
# Plain Python on purpose: SDKs parse the JSON before a tool sees it.
import json
import sys

TOOL = {
    "name": "echo_bytes",
    "title": "Echo the request's bytes",
    "description": "Returns the tools/call request exactly as it arrived on stdin.",
    "annotations": {"readOnlyHint": True},
    "inputSchema": {
        "type": "object",
        "properties": {
            "count": {"type": "integer", "description": "An integer"},
            "ratio": {"type": "number", "description": "Any number"},
        },
    },
}


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n").decode("utf-8", "replace")
        message = json.loads(line)
        method = message.get("method")
        if "id" not in message:
            continue
        if method == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"],
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "echo-bytes", "version": "1.0.0"}}
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            # Prefixed, so the page shows the bytes as text rather than as a JSON tree.
            result = {"content": [{"type": "text", "text": "received: " + line}]}
        else:
            result = {}
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})


if __name__ == "__main__":
    main()
