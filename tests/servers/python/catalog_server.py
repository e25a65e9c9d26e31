# Test MCP server for the Resources and Prompts views: paged lists, media resources, templates of RFC 6570 level 4, completions, and prompts with image, audio and resource-link content.
"""A small MCP server built on the official `mcp` Python SDK (2.3, `MCPServer`).

What `@modelcontextprotocol/server-everything` lacks, so that the page is tried
on every content type:

- `resources/list` is paged, 10 a page: 24 notes (`catalog://note/1` …), an
  image (`image/png`), a sound (`audio/wav`) and a JSON document, some with
  annotations and an icon.
- `prompts/list` is paged, 5 a page: `picture` (an image and the assistant's
  answer), `sound` (audio), `linked` (a resource link) and fillers.
- Templates: `catalog://note/{id}` (completed from the notes' ids) and
  `catalog://search{?q,tags}` (a query; the SDK matches no exploded variable).
- Completions for the note template's `id` and the `picture` prompt's `color`.

Usage:
    python3 tests/servers/python/catalog_server.py                      # stdio (default)
    python3 tests/servers/python/catalog_server.py streamable-http --port 8765
"""

from __future__ import annotations

import base64
import struct
import zlib

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import AssistantMessage, UserMessage
from mcp_types import (
    Annotations,
    AudioContent,
    Completion,
    Icon,
    ImageContent,
    ListPromptsResult,
    ListResourcesResult,
    PromptReference,
    ResourceLink,
    ResourceTemplateReference,
)

import loopback

NOTES = 24
PAGE_RESOURCES = 10
PAGE_PROMPTS = 5
COLORS = ["red", "green", "blue", "gold"]
ICON = "data:image/svg+xml;base64," + base64.b64encode(
    b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#4f46e5"/></svg>'
).decode()


def png(rgb: tuple[int, int, int]) -> bytes:
    """A 2x2 PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * 2
    raw = zlib.compress(row * 2)
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def wav() -> bytes:
    """A tenth of a second of silence, 8 kHz mono 8-bit."""
    samples = b"\x80" * 800
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 8000, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
    return b"RIFF" + struct.pack("<I", len(body)) + body


def page(items: list, cursor: str | None, size: int) -> tuple[list, str | None]:
    start = int(cursor) if cursor and cursor.isdigit() else 0
    end = start + size
    return items[start:end], (str(end) if end < len(items) else None)


class CatalogServer(MCPServer):
    """`MCPServer`, its resource and prompt lists paged."""

    async def _handle_list_resources(self, ctx, params):
        items, after = page(await self.list_resources(), params.cursor if params else None, PAGE_RESOURCES)
        return ListResourcesResult(resources=items, next_cursor=after)

    async def _handle_list_prompts(self, ctx, params):
        items, after = page(await self.list_prompts(), params.cursor if params else None, PAGE_PROMPTS)
        return ListPromptsResult(prompts=items, next_cursor=after)


server = CatalogServer(
    name="python-catalog",
    title="Catalog",
    instructions="Test server for resources, templates, prompts and completions.",
    version="1.0.0",
)


def note_text(n: int) -> str:
    return f"Note {n}: the {n}th thing to remember."


for n in range(1, NOTES + 1):

    def make(n: int = n):
        annotations = Annotations(audience=["user"], priority=round(n / NOTES, 2)) if n % 6 == 0 else None
        icons = [Icon(src=ICON, mime_type="image/svg+xml", sizes=["16x16"])] if n == 1 else None

        @server.resource(
            f"catalog://note/{n}",
            name=f"note-{n}",
            title=f"Note {n}",
            mime_type="text/plain",
            annotations=annotations,
            icons=icons,
        )
        def note() -> str:
            return note_text(n)

    make()


@server.resource("catalog://image/dot.png", name="dot", title="A blue dot", mime_type="image/png")
def dot() -> bytes:
    return png((40, 90, 220))


@server.resource("catalog://audio/beep.wav", name="beep", title="A short sound", mime_type="audio/wav")
def beep() -> bytes:
    return wav()


@server.resource("catalog://data/numbers.json", name="numbers", title="Numbers", mime_type="application/json")
def numbers() -> str:
    return '{"primes": [2, 3, 5, 7], "answer": 42}'


@server.resource("catalog://note/{id}", name="note", title="A note by its number", mime_type="text/plain")
def note_by_id(id: str) -> str:
    if not id.isdigit() or not 1 <= int(id) <= NOTES:
        raise ValueError(f"no note {id}")
    return note_text(int(id))


@server.resource("catalog://search{?q,tags}", name="search", title="Search the notes", mime_type="text/plain")
def search(q: str = "", tags: str = "") -> str:
    return f"searched q={q!r} tags={tags!r}"


@server.prompt(name="picture", title="A picture", description="Shows a picture of a colour, and answers.")
def picture(color: str) -> list:
    rgb = {"red": (220, 40, 40), "green": (40, 180, 80), "blue": (40, 90, 220), "gold": (230, 180, 30)}
    data = base64.b64encode(png(rgb.get(color, (128, 128, 128)))).decode()
    return [
        UserMessage(ImageContent(type="image", data=data, mime_type="image/png")),
        UserMessage(f"What colour is this? (It is {color}.)"),
        AssistantMessage(f"It is {color}."),
    ]


@server.prompt(name="sound", title="A sound", description="Plays a short sound.")
def sound() -> list:
    data = base64.b64encode(wav()).decode()
    return [UserMessage(AudioContent(type="audio", data=data, mime_type="audio/wav"))]


@server.prompt(name="linked", title="A linked note", description="Points to a note instead of embedding it.")
def linked(number: str = "1") -> list:
    link = ResourceLink(type="resource_link", uri=f"catalog://note/{number}", name=f"note-{number}", mime_type="text/plain")
    return [UserMessage("Read the note linked below."), UserMessage(link)]


for i in range(1, 10):

    def filler(i: int = i):
        @server.prompt(name=f"filler-{i}", description=f"Filler prompt {i}, for paging.")
        def fill() -> str:
            return f"Filler {i}."

    filler()


@server.completion()
async def complete(ref, argument, context):
    if isinstance(ref, ResourceTemplateReference) and ref.uri == "catalog://note/{id}" and argument.name == "id":
        ids = [str(n) for n in range(1, NOTES + 1) if str(n).startswith(argument.value)]
        return Completion(values=ids, total=len(ids), has_more=False)
    if isinstance(ref, PromptReference) and ref.name == "picture" and argument.name == "color":
        return Completion(values=[c for c in COLORS if c.startswith(argument.value)])
    return None


if __name__ == "__main__":
    loopback.run(server, loopback.arguments(__doc__).parse_args())
