# A minimal MCP server for benchmarks: answers initialize and tools/list, then sends N
# notifications/message lines as fast as it can, and waits for stdin to close.
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
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
            send({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": []}})
            for i in range(count):
                send({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "info", "logger": "flood", "data": f"message {i}"}})
            sys.stdout.flush()
        elif "id" in message:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            sys.stdout.flush()


if __name__ == "__main__":
    main()
