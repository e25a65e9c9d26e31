"""A web site, not an MCP server: every GET gets a page, every POST a 405 error page,
both as text/html (as a web server or a proxy answers a wrong URL). It prints the port it
got on loopback the way the other test servers do."""

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = b"<!DOCTYPE html><html><head><title>Welcome</title></head><body><h1>Welcome to our site</h1></body></html>"


class Site(BaseHTTPRequestHandler):
    def answer(self, status):
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def do_GET(self):
        self.answer(200)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.answer(405)

    def do_DELETE(self):
        self.answer(405)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
print(f"loopback: listening on 127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
