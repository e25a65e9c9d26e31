"""Serving a test server's ASGI app on 127.0.0.1, on the port asked for or, with 0, on one
the system picks: the socket is bound and listening before its port is announced on stdout
as `loopback: listening on 127.0.0.1:PORT`, so the test harness never guesses a free port."""

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
