# Test MCP server for tool icons (2025-11-25 `icons`): data: icons, icons served by this same process over http on loopback, an oversized one, one that is no image, and an SVG.
"""Tool icons for the playground's tests, on the official `mcp` Python SDK (2.3).

Tools, each declaring icons (their behaviour is a plain echo):

- `data_icon`: a `data:` PNG for light themes and a `data:` SVG for dark ones;
- `web_icon`: `http://127.0.0.1:PORT/icon.png` (32x32), served by this process;
- `svg_icon`: `http://127.0.0.1:PORT/icon.svg`, an SVG holding a script (an `<img>`
  never runs it);
- `big_icon`: `http://127.0.0.1:PORT/big.png`, 400 KB (over the relay's limit);
- `page_icon`: `http://127.0.0.1:PORT/page.html`, served as `text/html`.

Usage:
    python3 tests/servers/python/icons_tools.py streamable-http --port 0
"""

from __future__ import annotations

import base64

from mcp.server.mcpserver import MCPServer
from mcp_types import Icon, Tool
from starlette.requests import Request
from starlette.responses import Response

import loopback

# A 1x1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><script>window.owned=1</script><rect width="16" height="16" fill="#4f46e5"/></svg>'

# Where this process serves its icons, known once it listens.
BASE = {"url": ""}


class IconServer(MCPServer):
    """`MCPServer` whose tools declare icons at the address it listens on."""

    async def list_tools(self) -> list[Tool]:
        base = BASE["url"]
        icons = {
            "data_icon": [
                Icon(src="data:image/png;base64," + base64.b64encode(PNG).decode(), mime_type="image/png", sizes=["16x16"], theme="light"),
                Icon(src="data:image/svg+xml;base64," + base64.b64encode(SVG).decode(), mime_type="image/svg+xml", sizes=["any"], theme="dark"),
            ],
            "web_icon": [Icon(src=f"{base}/icon.png", mime_type="image/png", sizes=["32x32"])],
            "svg_icon": [Icon(src=f"{base}/icon.svg", mime_type="image/svg+xml")],
            "big_icon": [Icon(src=f"{base}/big.png", mime_type="image/png")],
            "page_icon": [Icon(src=f"{base}/page.html", mime_type="image/png")],
        }
        tools = await super().list_tools()
        for tool in tools:
            tool.icons = icons.get(tool.name)
        return tools


server = IconServer(name="python-icons", title="Icon tools", version="1.0.0")


def register(name: str) -> None:
    def tool(text: str) -> str:
        return text

    tool.__name__ = name
    tool.__doc__ = f"Echo the text ({name.replace('_', ' ')})."
    server.tool(name=name)(tool)


for name in ["data_icon", "web_icon", "svg_icon", "big_icon", "page_icon"]:
    register(name)


@server.custom_route("/icon.png", methods=["GET"])
async def icon_png(_: Request) -> Response:
    return Response(PNG, media_type="image/png")


@server.custom_route("/icon.svg", methods=["GET"])
async def icon_svg(_: Request) -> Response:
    return Response(SVG, media_type="image/svg+xml")


@server.custom_route("/big.png", methods=["GET"])
async def big_png(_: Request) -> Response:
    return Response(PNG + bytes(400 * 1024), media_type="image/png")


@server.custom_route("/page.html", methods=["GET"])
async def page_html(_: Request) -> Response:
    return Response(b"<p>not an image</p>", media_type="text/html")


def main() -> None:
    args = loopback.arguments("Tool icons test MCP server.").parse_args()
    if args.transport == "stdio":
        server.run()
        return
    sock = loopback.listen(args.port)
    BASE["url"] = f"http://127.0.0.1:{sock.getsockname()[1]}"
    loopback.serve(server.streamable_http_app(), sock)


if __name__ == "__main__":
    main()
