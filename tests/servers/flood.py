# A minimal MCP server for benchmarks: answers initialize and tools/list, then sends N
# notifications/message lines as fast as it can, and waits for stdin to close.
# `flood.py N --tools T` lists T tools (in pages of 1,000) instead of none.
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")


def tool(i):
    return {"name": f"tool_{i:05}", "title": f"Tool number {i}",
            "description": f"Benchmark tool {i}: takes a query and a limit.",
            "annotations": {"readOnlyHint": i % 2 == 0},
            "inputSchema": {"type": "object", "required": ["query"], "properties": {
                "query": {"type": "string", "description": "What to look for"},
                "limit": {"type": "integer", "minimum": 1, "default": 10}}}}


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    tools = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--tools" else 0
    page = 1000
    flooded = False
    for line in sys.stdin:
        message = json.loads(line)
        method = message.get("method")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "flood", "version": "1.0.0"}}})
            sys.stdout.flush()
        elif method == "tools/list":
            start = int((message.get("params") or {}).get("cursor") or 0)
            listed = [tool(i) for i in range(start, min(start + page, tools))]
            result = {"tools": listed}
            if start + page < tools:
                result["nextCursor"] = str(start + page)
            send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            if flooded:
                sys.stdout.flush()
                continue
            flooded = True
            for i in range(count):
                send({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "info", "logger": "flood", "data": f"message {i}"}})
            sys.stdout.flush()
        elif "id" in message:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            sys.stdout.flush()


if __name__ == "__main__":
    main()
