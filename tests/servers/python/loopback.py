"""Serving a test server's ASGI app on 127.0.0.1, on the port asked for or, with 0, on one
the system picks: the socket is bound and listening before its port is announced on stdout
as `loopback: listening on 127.0.0.1:PORT`, so the test harness never guesses a free port."""

import argparse
import socket

import uvicorn


def listen(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1:`port` (0: any free port), announced."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    print(f"loopback: listening on 127.0.0.1:{sock.getsockname()[1]}", flush=True)
    return sock


def serve(app, port: int | socket.socket, **options) -> None:
    """Serves `app` on `port` (or on a socket from `listen`) until the process ends."""
    sock = port if isinstance(port, socket.socket) else listen(port)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", **options)).run(sockets=[sock])


def arguments(description: str) -> argparse.ArgumentParser:
    """The test servers' command line: `[stdio|streamable-http] [--port N]`, more to add."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "transport",
        nargs="?",
        default="stdio",
        choices=["stdio", "streamable-http"],
        help="transport to serve on (default: stdio)",
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port for streamable-http (binds 127.0.0.1; 0 picks one and says which)"
    )
    return parser


def run(server, args: argparse.Namespace, wrap=lambda app: app) -> None:
    """Runs an MCP server as `args` say: over stdio, or its Streamable HTTP app (`wrap`ped)."""
    if args.transport == "stdio":
        server.run()
    else:
        serve(wrap(server.streamable_http_app()), args.port)
