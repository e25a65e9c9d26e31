# Test MCP server for tasks (2025-11-25): raw JSON-RPC, because the pinned `mcp` package (2.3) has no task support.
"""A task server for the playground's tests, written with the standard library only.

The official `mcp` package pinned here (2.3) dropped the experimental tasks of
2025-11-25, so this server speaks the protocol itself. Its tools, each of which
must (or may) run as a task:

- `slow_report` (required): works through `steps` stages (300 ms each), then
  completes with a text report.
- `ask_color` (required): asks the user's favourite colour. The task goes to
  `input_required`; the question (`elicitation/create`, tied to the task by its
  related-task `_meta`) is sent while the client waits on `tasks/result`; the
  answer ends the task.
- `fail_task` (optional): the task fails; `tasks/result` answers the JSON-RPC
  error the call would have got.
- `never_ends` (required): keeps working; its TTL is 1.5 s whatever was asked,
  after which the task is deleted (`tasks/get` says it is not found).
- `changing_pace` (required): suggests polling every 300 ms, then every 900 ms,
  then completes with the intervals it suggested.

Tasks live as long as the process, across connections: `tasks/list`,
`tasks/get`, `tasks/result` and `tasks/cancel` work from a new connection over
HTTP.

With `--v2026` it also answers `server/discover` for 2026-07-28, where tasks are
the extension `io.modelcontextprotocol/tasks`: a client that declares it in a
request's `_meta` gets a task (`resultType: "task"`, flat); one that does not
gets `-32021` for a tool that needs a task; `tasks/get` carries the outcome
(`result` or `error`) and the questions (`inputRequests`), answered with
`tasks/update`; `tasks/cancel` is an acknowledgement; there is no `tasks/result`
and no `tasks/list`.

Usage:
    python3 tests/servers/python/task_server.py                     # stdio (default)
    python3 tests/servers/python/task_server.py streamable-http --port 0   # JSON answers only
    python3 tests/servers/python/task_server.py --v2026            # stdio, 2026-07-28 too
"""

from __future__ import annotations

import argparse
import datetime
import http.server
import json
import sys
import threading
import time
import uuid

RELATED = "io.modelcontextprotocol/related-task"
EXTENSION = "io.modelcontextprotocol/tasks"
V2026 = "2026-07-28"
OFFER_2026 = False
STEP_S = 0.3

TOOLS = [
    {
        "name": "slow_report",
        "description": "Works through a few stages as a task, then reports.",
        "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer", "minimum": 1, "default": 3}}},
        "execution": {"taskSupport": "required"},
    },
    {
        "name": "ask_color",
        "description": "Asks your favourite colour while its task waits for input.",
        "inputSchema": {"type": "object", "properties": {}},
        "execution": {"taskSupport": "required"},
    },
    {
        "name": "fail_task",
        "description": "A task that fails with a JSON-RPC error.",
        "inputSchema": {"type": "object", "properties": {}},
        "execution": {"taskSupport": "optional"},
    },
    {
        "name": "never_ends",
        "description": "A task that never ends; it is deleted when its 1.5 s TTL runs out.",
        "inputSchema": {"type": "object", "properties": {}},
        "execution": {"taskSupport": "required"},
    },
    {
        "name": "changing_pace",
        "description": "Suggests polling every 300 ms, then every 900 ms, then completes.",
        "inputSchema": {"type": "object", "properties": {}},
        "execution": {"taskSupport": "required"},
    },
]


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Task:
    def __init__(self, tool: str, args: dict, ttl_ms: int | None):
        self.id = uuid.uuid4().hex
        self.tool = tool
        self.args = args
        self.status = "working"
        self.message = "Starting"
        self.created = now_iso()
        self.created_at = time.monotonic()
        self.updated = self.created
        self.ttl = ttl_ms
        self.poll = 300
        self.result = None  # the `result` member, once completed
        self.error = None  # the `error` member, once failed
        self.question = None  # an elicitation waiting to be asked (2025-11-25)
        self.pending_question = None  # the same, listed by tasks/get until answered (2026-07-28)
        self.answer = None
        self.changed = threading.Condition()

    def view(self) -> dict:
        return {
            "taskId": self.id,
            "status": self.status,
            "statusMessage": self.message,
            "createdAt": self.created,
            "lastUpdatedAt": self.updated,
            "ttl": self.ttl,
            "pollInterval": self.poll,
        }

    def set(self, status: str, message: str, **fields) -> None:
        with self.changed:
            if self.status in ("completed", "failed", "cancelled"):
                return
            self.status = status
            self.message = message
            self.updated = now_iso()
            for k, v in fields.items():
                setattr(self, k, v)
            self.changed.notify_all()

    def view_2026(self) -> dict:
        """The task as 2026-07-28 shows it: flat, with its outcome or its questions."""
        out = {
            "taskId": self.id,
            "status": self.status,
            "statusMessage": self.message,
            "createdAt": self.created,
            "lastUpdatedAt": self.updated,
            "ttlMs": self.ttl,
            "pollIntervalMs": self.poll,
        }
        if self.status == "completed" and self.result is not None:
            out["result"] = self.result
        if self.status == "failed" and self.error is not None:
            out["error"] = self.error
        if self.status == "input_required" and self.pending_question is not None:
            out["inputRequests"] = {"color": {"method": "elicitation/create", "params": self.pending_question}}
        return out

    def ended(self) -> bool:
        return self.status in ("completed", "failed", "cancelled")

    def expired(self) -> bool:
        return self.ttl is not None and (time.monotonic() - self.created_at) * 1000 > self.ttl


class Tasks:
    """Every task of the process, by id."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_id: dict[str, Task] = {}

    def add(self, task: Task) -> None:
        with self.lock:
            self.by_id[task.id] = task

    def get(self, task_id: str) -> Task | None:
        with self.lock:
            task = self.by_id.get(task_id)
            if task is not None and task.expired():
                del self.by_id[task_id]
                return None
            return task

    def all(self) -> list[Task]:
        with self.lock:
            for tid in [t.id for t in self.by_id.values() if t.expired()]:
                del self.by_id[tid]
            return list(self.by_id.values())


TASKS = Tasks()


def run(task: Task) -> None:
    """The task's work, on a thread of its own."""
    if task.tool == "slow_report":
        steps = int(task.args.get("steps", 3) or 3)
        for i in range(steps):
            task.set("working", f"Stage {i + 1} of {steps}")
            time.sleep(STEP_S)
        text = f"Report after {steps} stages"
        task.set("completed", "Done", result={"content": [{"type": "text", "text": text}], "isError": False})
    elif task.tool == "ask_color":
        time.sleep(STEP_S)
        question = {
            "message": "What is your favourite colour?",
            "requestedSchema": {"type": "object", "properties": {"color": {"type": "string", "title": "Colour"}}, "required": ["color"]},
        }
        task.set("input_required", "Waiting for your favourite colour", question=question, pending_question=question)
        with task.changed:
            task.changed.wait_for(lambda: task.answer is not None or task.ended(), timeout=120)
        task.pending_question = None
        answer = task.answer or {}
        color = (answer.get("content") or {}).get("color", "none") if answer.get("action") == "accept" else "none"
        task.set("working", f"Painting it {color}")
        time.sleep(STEP_S)
        task.set("completed", "Done", result={"content": [{"type": "text", "text": f"Your colour: {color}"}], "isError": False})
    elif task.tool == "fail_task":
        time.sleep(STEP_S)
        task.set("failed", "The work broke", error={"code": -32603, "message": "the work broke halfway"})
    elif task.tool == "never_ends":
        while not task.ended() and not task.expired():
            task.set("working", "Still working")
            time.sleep(STEP_S)
    elif task.tool == "changing_pace":
        time.sleep(STEP_S)
        task.set("working", "Slower now", poll=900)
        time.sleep(3 * STEP_S)
        task.set("completed", "Done", result={"content": [{"type": "text", "text": "Suggested 300 ms, then 900 ms"}], "isError": False})


class Connection:
    """One client: reads its messages, answers them; `send` writes one message to it."""

    def __init__(self, send):
        self.send = send
        self.next_id = 1000
        self.waiting: dict[int, Task] = {}

    def handle(self, msg: dict) -> dict | None:
        """The answer to `msg`, or None (a notification, a response, or an answer sent later)."""
        method = msg.get("method")
        mid = msg.get("id")
        if method is None:
            # The client's answer to a question of ours.
            task = self.waiting.pop(msg.get("id"), None)
            if task is not None:
                with task.changed:
                    task.answer = msg.get("result") or {"action": "cancel"}
                    task.changed.notify_all()
            return None
        if mid is None:
            return None
        params = msg.get("params") or {}
        try:
            result = self.dispatch(method, params, mid)
        except Refusal as r:
            return {"jsonrpc": "2.0", "id": mid, "error": {"code": r.code, "message": r.message}}
        if result is LATER:
            return None
        return {"jsonrpc": "2.0", "id": mid, "result": result}

    def dispatch(self, method: str, params: dict, mid):
        meta = params.get("_meta") or {}
        if meta.get("io.modelcontextprotocol/protocolVersion") == V2026:
            return self.dispatch_2026(method, params, meta)
        if method == "server/discover" and OFFER_2026:
            return {
                "resultType": "complete",
                "supportedVersions": [V2026],
                "capabilities": {"tools": {}, "extensions": {EXTENSION: {}}},
                "serverInfo": {"name": "python-tasks", "title": "Task server", "version": "1.0.0"},
            }
        if method == "initialize":
            return {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}},
                "serverInfo": {"name": "python-tasks", "title": "Task server", "version": "1.0.0"},
            }
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": TOOLS}
        if method == "tools/call":
            return self.call(params)
        if method == "tasks/list":
            return {"tasks": [t.view() for t in TASKS.all()]}
        task = TASKS.get(str(params.get("taskId")))
        if method in ("tasks/get", "tasks/result", "tasks/cancel") and task is None:
            raise Refusal(-32602, f"Failed to retrieve task: Task not found: {params.get('taskId')}")
        if method == "tasks/get":
            return task.view()
        if method == "tasks/cancel":
            if task.ended():
                raise Refusal(-32602, f"Cannot cancel a task that is already {task.status}")
            task.set("cancelled", "Cancelled by request")
            return task.view()
        if method == "tasks/result":
            threading.Thread(target=self.outcome, args=(task, mid), daemon=True).start()
            return LATER
        raise Refusal(-32601, f"Method not found: {method}")

    def dispatch_2026(self, method: str, params: dict, meta: dict):
        """2026-07-28: tasks are an extension the client declares on each request."""
        declared = EXTENSION in ((meta.get("io.modelcontextprotocol/clientCapabilities") or {}).get("extensions") or {})
        if method == "server/discover":
            return self.dispatch("server/discover", {}, None)
        if method == "subscriptions/listen":
            return LATER  # kept open, never answered: this server sends no notifications
        if method == "tools/list":
            tools = [{k: v for k, v in t.items() if k != "execution"} for t in TOOLS]
            return {"resultType": "complete", "tools": tools}
        if method in ("tasks/result", "tasks/list"):
            raise Refusal(-32601, f"Method not found: {method}")
        if method.startswith("tasks/") and not declared:
            raise Refusal(-32021, "Missing required client capability")
        if method == "tools/call":
            name = params.get("name")
            if not declared:
                raise Refusal(-32021, f"Tool {name} needs a task: declare {EXTENSION}")
            if not any(t["name"] == name for t in TOOLS):
                raise Refusal(-32602, f"Unknown tool: {name}")
            task = Task(name, params.get("arguments") or {}, 1500 if name == "never_ends" else 300000)
            TASKS.add(task)
            threading.Thread(target=run, args=(task,), daemon=True).start()
            return dict(task.view_2026(), resultType="task")
        task = TASKS.get(str(params.get("taskId")))
        if task is None:
            raise Refusal(-32602, f"Failed to retrieve task: Task not found: {params.get('taskId')}")
        if method == "tasks/get":
            return dict(task.view_2026(), resultType="complete")
        if method == "tasks/update":
            answer = (params.get("inputResponses") or {}).get("color")
            if answer is not None:
                with task.changed:
                    task.answer = answer
                    task.changed.notify_all()
            return {"resultType": "complete"}
        if method == "tasks/cancel":
            task.set("cancelled", "Cancelled by request")
            return {"resultType": "complete"}
        raise Refusal(-32601, f"Method not found: {method}")

    def call(self, params: dict):
        name = params.get("name")
        tool = next((t for t in TOOLS if t["name"] == name), None)
        if tool is None:
            raise Refusal(-32602, f"Unknown tool: {name}")
        asked = params.get("task")
        if asked is None:
            if tool["execution"]["taskSupport"] == "required":
                raise Refusal(-32601, f"Tool {name} requires task augmentation")
            if name == "fail_task":
                raise Refusal(-32603, "the work broke halfway")
            return {"content": [{"type": "text", "text": "done at once"}]}
        ttl = asked.get("ttl") if isinstance(asked, dict) else None
        if name == "never_ends":
            ttl = 1500
        task = Task(name, params.get("arguments") or {}, ttl)
        TASKS.add(task)
        threading.Thread(target=run, args=(task,), daemon=True).start()
        return {"task": task.view()}

    def outcome(self, task: Task, mid) -> None:
        """`tasks/result`: asks the task's question meanwhile, answers once it ended."""
        while True:
            with task.changed:
                task.changed.wait_for(lambda: task.ended() or task.question is not None or task.expired(), timeout=0.5)
                question, task.question = task.question, None
            if question is not None:
                self.next_id += 1
                self.waiting[self.next_id] = task
                params = dict(question, _meta={RELATED: {"taskId": task.id}})
                self.send({"jsonrpc": "2.0", "id": self.next_id, "method": "elicitation/create", "params": params})
            if task.ended() or task.expired():
                break
        meta = {"_meta": {RELATED: {"taskId": task.id}}}
        if task.error is not None:
            answer = {"jsonrpc": "2.0", "id": mid, "error": task.error}
        elif task.result is not None:
            answer = {"jsonrpc": "2.0", "id": mid, "result": dict(task.result, **meta)}
        else:
            answer = {"jsonrpc": "2.0", "id": mid, "error": {"code": -32603, "message": f"the task is {task.status}"}}
        self.send(answer)


class Refusal(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


LATER = object()


def serve_stdio() -> None:
    lock = threading.Lock()

    def send(msg: dict) -> None:
        with lock:
            sys.stdout.write(json.dumps(msg) + "\n")
            sys.stdout.flush()

    conn = Connection(send)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        answer = conn.handle(msg)
        if answer is not None:
            send(answer)


class Handler(http.server.BaseHTTPRequestHandler):
    """Streamable HTTP with plain JSON answers (no streams): enough for every request but
    `tasks/result` of a task that asks a question (that needs a stream; use stdio)."""

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        try:
            msg = json.loads(self.rfile.read(length))
        except json.JSONDecodeError:
            return self.reply(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "not JSON"}})
        later: list[dict] = []
        done = threading.Event()

        def send(m: dict) -> None:
            later.append(m)
            done.set()

        answer = Connection(send).handle(msg)
        if answer is None and msg.get("method") == "tasks/result" and msg.get("id") is not None:
            done.wait(timeout=120)
            answer = later[0] if later else None
        if answer is None:
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.reply(200, answer)

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_DELETE = do_GET

    def reply(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_args) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transport", nargs="?", default="stdio", choices=["stdio", "streamable-http"])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--v2026", action="store_true", help="answer server/discover for 2026-07-28 too")
    args = parser.parse_args()
    global OFFER_2026
    OFFER_2026 = args.v2026
    if args.transport == "stdio":
        serve_stdio()
        return
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    # Bound and listening: the port is said the way the other test servers say it.
    print(f"loopback: listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
