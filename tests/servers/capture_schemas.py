# Captures the tool lists (input/output schemas) of the pinned test MCP servers into shared/testdata/schemas/*.json.
"""Capture real tool schemas from the test MCP servers over stdio.

For each server this script spawns the process, performs the MCP handshake
(`initialize`, `notifications/initialized`), pages through `tools/list`
following every `nextCursor`, and writes

    shared/testdata/schemas/<server>.json
    {"server": "<name>", "source": "<package@version>", "tools": [...]}

with each tool object exactly as the server sent it, in the order received.
Requests the server sends to the client (roots/list, ping, sampling,
elicitation) are answered so the server never waits on us.

Standard library only (Python 3.11+). Run from anywhere:

    python3 tests/servers/capture_schemas.py              # all servers
    python3 tests/servers/capture_schemas.py server-filesystem   # just one

Exits non-zero with a message on the first failure.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
NODE_MODULES = HERE / "node_modules"
OUT_DIR = REPO / "shared" / "testdata" / "schemas"

PROTOCOL_VERSION = "2025-06-18"
REQUEST_TIMEOUT_S = 20.0  # per request
SERVER_DEADLINE_S = 90.0  # whole session with one server
MAX_PAGES = 100  # guards against a server that never stops returning a cursor

CLIENT_INFO = {"name": "mcp-playground-schema-capture", "version": "1.0.0"}


class CaptureError(Exception):
    """A failure that aborts the capture with a message for the user."""


@dataclass
class ServerSpec:
    name: str
    source: str
    argv: list[str]
    capabilities: dict[str, Any]
    env: dict[str, str] = field(default_factory=dict)


def npm_version(package: str) -> str:
    pkg_json = NODE_MODULES / package / "package.json"
    try:
        return json.loads(pkg_json.read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError) as exc:
        raise CaptureError(
            f"cannot read the version of {package} from {pkg_json} ({exc}); "
            f"run `npm ci` in {HERE.relative_to(REPO)}"
        ) from exc


def npm_entry(package: str) -> str:
    entry = NODE_MODULES / package / "dist" / "index.js"
    if not entry.is_file():
        raise CaptureError(f"{entry} is missing; run `npm ci` in {HERE.relative_to(REPO)}")
    return str(entry)


def python_version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError as exc:
        raise CaptureError(
            f"Python package {dist!r} is not installed; run "
            f"`pip install -r {(HERE / 'python' / 'requirements.txt').relative_to(REPO)}`"
        ) from exc


def build_specs(fs_root: str) -> list[ServerSpec]:
    everything = "@modelcontextprotocol/server-everything"
    filesystem = "@modelcontextprotocol/server-filesystem"
    return [
        ServerSpec(
            name="server-everything",
            source=f"{everything}@{npm_version(everything)}",
            argv=["node", npm_entry(everything), "stdio"],
            # server-everything registers some tools only when the client
            # declares the matching capability; declare them all so it lists
            # every tool it has (url elicitation and task-based requests too).
            capabilities={
                "roots": {},
                "sampling": {},
                "elicitation": {"form": {}, "url": {}},
                "tasks": {
                    "requests": {
                        "sampling": {"createMessage": {}},
                        "elicitation": {"create": {}},
                    }
                },
            },
        ),
        ServerSpec(
            name="server-filesystem",
            source=f"{filesystem}@{npm_version(filesystem)}",
            argv=["node", npm_entry(filesystem), fs_root],
            capabilities={},
        ),
        ServerSpec(
            name="python-pydantic",
            source=(
                f"tests/servers/python/pydantic_tools.py "
                f"(mcp@{python_version('mcp')}, pydantic@{python_version('pydantic')})"
            ),
            argv=[sys.executable, str(HERE / "python" / "pydantic_tools.py")],
            capabilities={},
            env={"PYTHONUNBUFFERED": "1"},
        ),
    ]


class StdioSession:
    """A JSON-RPC session with one server process over newline-delimited stdio."""

    def __init__(self, spec: ServerSpec, stderr_file: Any) -> None:
        self.spec = spec
        self.next_id = 1
        self.inbox: queue.Queue[Any] = queue.Queue()
        env = dict(os.environ)
        env.update(spec.env)
        try:
            self.proc = subprocess.Popen(
                spec.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr_file,
                cwd=str(REPO),
                env=env,
            )
        except OSError as exc:
            raise CaptureError(f"{spec.name}: cannot start {spec.argv[0]!r}: {exc}") from exc
        self.reader = threading.Thread(target=self._read_stdout, daemon=True)
        self.reader.start()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").strip()
            if not line:
                continue
            try:
                self.inbox.put(json.loads(line))
            except ValueError:
                self.inbox.put(CaptureError(f"{self.spec.name}: non-JSON line on stdout: {line[:200]!r}"))
        self.inbox.put(None)  # EOF

    def _write(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise CaptureError(f"{self.spec.name}: server closed its stdin ({exc})") from exc

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)

    def request(self, method: str, params: dict[str, Any], deadline: float) -> Any:
        request_id = self.next_id
        self.next_id += 1
        self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        until = min(deadline, time.monotonic() + REQUEST_TIMEOUT_S)
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0:
                raise CaptureError(f"{self.spec.name}: timed out waiting for the reply to {method}")
            try:
                message = self.inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                code = self.proc.poll()
                raise CaptureError(
                    f"{self.spec.name}: server closed stdout before replying to {method}"
                    + (f" (exit code {code})" if code is not None else "")
                )
            if isinstance(message, Exception):
                raise message
            if not isinstance(message, dict):
                raise CaptureError(f"{self.spec.name}: unexpected JSON-RPC message: {message!r}"[:300])
            if "method" in message:
                self._handle_server_message(message)
                continue
            if message.get("id") != request_id:
                continue  # a late reply to something else; not ours
            if "error" in message:
                raise CaptureError(f"{self.spec.name}: {method} failed: {json.dumps(message['error'])}")
            if "result" not in message:
                raise CaptureError(f"{self.spec.name}: reply to {method} has no result: {message!r}"[:300])
            return message["result"]

    def _handle_server_message(self, message: dict[str, Any]) -> None:
        """Answer server-to-client requests; ignore notifications."""
        if "id" not in message:
            return
        method = message["method"]
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "roots/list":
            reply["result"] = {"roots": []}
        elif method == "ping":
            reply["result"] = {}
        elif method == "elicitation/create":
            reply["result"] = {"action": "decline"}
        else:
            reply["error"] = {"code": -32601, "message": f"capture client does not handle {method}"}
        self._write(reply)

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=3)


def capture(spec: ServerSpec) -> list[dict[str, Any]]:
    deadline = time.monotonic() + SERVER_DEADLINE_S
    with tempfile.TemporaryFile() as stderr_file:
        session = StdioSession(spec, stderr_file)
        try:
            init = session.request(
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": spec.capabilities,
                    "clientInfo": CLIENT_INFO,
                },
                deadline,
            )
            if "tools" not in init.get("capabilities", {}):
                raise CaptureError(f"{spec.name}: server does not declare the tools capability")
            session.notify("notifications/initialized")

            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            for _ in range(MAX_PAGES):
                params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
                page = session.request("tools/list", params, deadline)
                page_tools = page.get("tools")
                if not isinstance(page_tools, list):
                    raise CaptureError(f"{spec.name}: tools/list result has no tools array")
                tools.extend(page_tools)
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            else:
                raise CaptureError(f"{spec.name}: tools/list still paging after {MAX_PAGES} pages")
            return tools
        except CaptureError as exc:
            stderr_file.seek(0)
            tail = stderr_file.read().decode("utf-8", errors="replace")[-2000:]
            if tail.strip():
                raise CaptureError(f"{exc}\n--- {spec.name} stderr (tail) ---\n{tail}") from None
            raise
        finally:
            session.close()


def write_corpus(spec: ServerSpec, tools: list[dict[str, Any]]) -> Path:
    if not tools:
        raise CaptureError(f"{spec.name}: server listed no tools")
    names = [t.get("name") for t in tools]
    if len(set(names)) != len(names):
        raise CaptureError(f"{spec.name}: duplicate tool names in tools/list: {names}")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / f"{spec.name}.json"
    doc = {"server": spec.name, "source": spec.source, "tools": tools}
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("servers", nargs="*", help="server names to capture (default: all)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="mcp-capture-fs-") as fs_root:
        try:
            specs = build_specs(fs_root)
            known = {s.name for s in specs}
            unknown = [n for n in args.servers if n not in known]
            if unknown:
                raise CaptureError(f"unknown server(s) {unknown}; known: {sorted(known)}")
            for spec in specs:
                if args.servers and spec.name not in args.servers:
                    continue
                tools = capture(spec)
                if fs_root in json.dumps(tools):
                    raise CaptureError(f"{spec.name}: tool list mentions the temporary directory {fs_root}")
                path = write_corpus(spec, tools)
                print(f"{spec.name}: {len(tools)} tools -> {path.relative_to(REPO)}")
        except CaptureError as exc:
            print(f"capture_schemas: error: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
