# A hostile MCP server over stdio (newline-delimited JSON-RPC), one misbehaviour per mode:
#
#   python3 hostile.py MODE [TAG]
#
# Every mode offers the tool `echo` ({"text": ...} back as text), which always behaves, so a
# test can check that the session still works after the misbehaviour; the tool `trap`
# misbehaves as MODE says. TAG is ignored: tests put a unique word on the command line to
# find the process (and any it started) in /proc afterwards.
#
#   echo              no misbehaviour at all (the load test's server)
#   many-tools        tools/list answers 10,010 tools at once, in one line (no paging)
#   many-tools-paged  the same 10,010 tools in pages of 500 (21 pages, opaque cursors)
#   crash-mid-call    trap: a line on stderr, then exit 3 without answering
#   crash-with-child  trap: starts a child that keeps stdout open and ignores SIGTERM, then
#                     exits 3: the relay must end the whole group, not just the leader
#   never-answers     trap is never answered, not even after notifications/cancelled
#   duplicate-ids     trap is answered twice (the second answer says "second")
#   stray-ids         before trap's answer: answers to ids never asked (a number, a string,
#                     null) and a response with neither result nor error
#   half-line         trap, first call: half a JSON line and a newline, then the answer;
#                     second call: half a line without a newline, then exit 0
#   request-mid-call  trap: asks the client roots/list (with the very id of the pending
#                     call) and sampling/createMessage, and answers the call only once both
#                     were answered, saying what came back
#   bad-schemas       tools whose inputSchema is missing, a string, null, an array,
#                     {"type":"string"}, a broken $ref, a $ref to itself through allOf
#   huge-answer       trap answers 40 MiB of text, over the default limit of 32 MiB
#   noise             before every answer: a line that is not JSON, an empty line, bytes
#                     that are not UTF-8, an empty batch, a notification nobody knows
#
# Standard library only, on purpose: the server must be able to say what no SDK would.
import json
import os
import subprocess
import sys

HUGE = 40 * 1024 * 1024
MANY = 10010
PAGE = 500

ECHO = {"name": "echo", "description": "Says the text back.",
        "inputSchema": {"type": "object", "required": ["text"],
                        "properties": {"text": {"type": "string"}}}}
TRAP = {"name": "trap", "description": "Misbehaves as the server's mode says.",
        "inputSchema": {"type": "object", "properties": {}}}

BAD_SCHEMAS = [
    {"name": "no_schema", "description": "inputSchema is missing"},
    {"name": "schema_is_string", "inputSchema": "object"},
    {"name": "schema_is_null", "inputSchema": None},
    {"name": "schema_is_array", "inputSchema": [{"type": "object"}]},
    {"name": "schema_of_a_string", "inputSchema": {"type": "string"}},
    {"name": "broken_ref", "inputSchema": {
        "type": "object", "properties": {"x": {"$ref": "#/$defs/nowhere"}}}},
    {"name": "self_ref_all_of", "inputSchema": {
        "type": "object", "allOf": [{"$ref": "#"}], "properties": {"y": {"type": "integer"}}}},
]


def write(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def send(message):
    write(json.dumps(message, separators=(",", ":")).encode() + b"\n")


def answer(id, result):
    send({"jsonrpc": "2.0", "id": id, "result": result})


def text(id, words):
    answer(id, {"content": [{"type": "text", "text": words}]})


def many_tool(i):
    return {"name": f"tool_{i:05}", "description": f"Tool number {i} of {MANY}",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}


def tools(mode, cursor):
    if mode in ("many-tools", "many-tools-paged"):
        every = [ECHO] + [many_tool(i) for i in range(1, MANY)]
        if mode == "many-tools":
            return {"tools": every}
        start = int(cursor[len("page-"):]) if cursor else 0
        result = {"tools": every[start:start + PAGE]}
        if start + PAGE < MANY:
            result["nextCursor"] = f"page-{start + PAGE}"
        return result
    if mode == "bad-schemas":
        return {"tools": [ECHO] + BAD_SCHEMAS}
    return {"tools": [ECHO, TRAP]}


class Server:
    def __init__(self, mode):
        self.mode = mode
        self.traps = 0
        # request-mid-call: the call held back, and what the client answered so far.
        self.held = None
        self.asked = {}

    def handle(self, message):
        method = message.get("method")
        id = message.get("id")
        if method is None:
            self.client_answered(message)
            return
        if id is None:
            return
        if self.mode == "noise":
            write(b"this is not JSON\n\n\xff\xfe not UTF-8 either\n[]\n")
            send({"jsonrpc": "2.0", "method": "notifications/nobody_knows", "params": {"x": 1}})
        if method == "initialize":
            answer(id, {"protocolVersion": message["params"]["protocolVersion"],
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "hostile", "version": "1.0.0"}})
        elif method == "tools/list":
            answer(id, tools(self.mode, (message.get("params") or {}).get("cursor")))
        elif method == "tools/call":
            params = message.get("params") or {}
            name = params.get("name")
            arguments = params.get("arguments")
            if name == "echo":
                text(id, str((arguments or {}).get("text")))
            elif name == "trap":
                self.traps += 1
                self.trap(id)
            else:
                text(id, f"called {name} with {json.dumps(arguments, sort_keys=True)}")
        else:
            answer(id, {})

    def trap(self, id):
        mode = self.mode
        if mode == "crash-mid-call":
            sys.stderr.write("hostile: crashing on purpose\n")
            sys.stderr.flush()
            os._exit(3)
        elif mode == "crash-with-child":
            # The child shares the process group and holds stdout open.
            subprocess.Popen([sys.executable, "-c",
                              "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(300)"]
                             + sys.argv[1:])
            os._exit(3)
        elif mode == "never-answers":
            return
        elif mode == "duplicate-ids":
            text(id, "first")
            text(id, "second")
        elif mode == "stray-ids":
            answer(424242, {"content": [{"type": "text", "text": "stray number"}]})
            answer("never-asked", {"content": [{"type": "text", "text": "stray string"}]})
            send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "stray null"}})
            send({"jsonrpc": "2.0", "id": 434343})
            text(id, "the real answer")
        elif mode == "half-line":
            whole = json.dumps({"jsonrpc": "2.0", "id": id, "result": {
                "content": [{"type": "text", "text": "whole"}]}}).encode()
            if self.traps == 1:
                write(whole[:len(whole) // 2] + b"\n")
                text(id, "after half a line")
            else:
                write(whole[:len(whole) // 2])
                os._exit(0)
        elif mode == "request-mid-call":
            self.held = id
            self.asked = {id: None, "srv-sampling": None}
            send({"jsonrpc": "2.0", "id": id, "method": "roots/list"})
            send({"jsonrpc": "2.0", "id": "srv-sampling", "method": "sampling/createMessage", "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                "maxTokens": 10}})
        elif mode == "huge-answer":
            body = b'{"jsonrpc":"2.0","id":' + json.dumps(id).encode() + \
                b',"result":{"content":[{"type":"text","text":"' + b"x" * HUGE + b'"}]}}\n'
            write(body)
        else:
            text(id, "trap did nothing in this mode")

    def client_answered(self, message):
        id = message.get("id")
        if self.held is None or id not in self.asked:
            return
        if "result" in message:
            self.asked[id] = "result " + json.dumps(message["result"], sort_keys=True)
        else:
            self.asked[id] = "error " + str((message.get("error") or {}).get("code"))
        if all(v is not None for v in self.asked.values()):
            roots, sampling = self.asked[self.held], self.asked["srv-sampling"]
            held, self.held = self.held, None
            text(held, f"roots: {roots}; sampling: {sampling}")


def main():
    server = Server(sys.argv[1] if len(sys.argv) > 1 else "")
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if isinstance(message, dict):
            server.handle(message)


if __name__ == "__main__":
    main()
