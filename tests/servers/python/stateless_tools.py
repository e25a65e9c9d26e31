# Test MCP server for the 2026-07-28 (stateless) revision: a resolver-driven elicitation, an x-mcp-header param, a cache hint and a tool with an invalid x-mcp-header.
"""A small MCP server built on the official `mcp` Python SDK (2.3, `MCPServer`).

The same tools serve every revision the SDK speaks, so tests can compare them:

- `greet` asks the user's name through a `Resolve(...)` resolver returning
  `Elicit[...]`. At 2026-07-28 the SDK answers the call with an
  `input_required` result and resumes when the client retries with
  `inputResponses`/`requestState`; at 2025-11-25 and before it sends
  `elicitation/create` in the middle of the call. A declined or cancelled form
  ends the call with a tool error.
- `regional_time` takes `region`, marked `x-mcp-header: Region`, and says
  whether the `Mcp-Param-Region` header (Streamable HTTP at 2026-07-28) carried
  the same value.
- `bad_header_mark` is listed with `x-mcp-header` on a `number` property, which
  the spec forbids; `MCPServer` refuses to register such a tool, so it is added
  to the raw tool list instead. A 2026 client leaves it out and says why.
- `tools/list` carries the cache hint `ttlMs` 300000, `cacheScope` public.

Usage:
    python3 tests/servers/python/stateless_tools.py                      # stdio (default)
    python3 tests/servers/python/stateless_tools.py streamable-http --port 8765
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.resolve import Elicit, Resolve
from mcp_types import Tool
from pydantic import BaseModel, Field

import loopback


class StatelessServer(MCPServer):
    """`MCPServer` whose tool list also holds one tool it would refuse to register."""

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        tools.append(
            Tool(
                name="bad_header_mark",
                description="Listed with x-mcp-header on a number, which the spec forbids; clients leave it out.",
                input_schema={
                    "type": "object",
                    "properties": {"amount": {"type": "number", "x-mcp-header": "Amount"}},
                    "required": ["amount"],
                },
            )
        )
        return tools


server = StatelessServer(
    name="python-stateless",
    title="Stateless tools",
    instructions="Test server for the 2026-07-28 revision: input-required rounds, x-mcp-header, cache hints.",
    version="1.0.0",
    cache_hints={"tools/list": CacheHint(ttl_ms=300_000, scope="public")},
)


class Name(BaseModel):
    """What the user is asked for."""

    name: str = Field(..., min_length=1, description="Your name")


def ask_name() -> Elicit[Name]:
    return Elicit("What is your name?", Name)


@server.tool()
def greet(who: Annotated[Name, Resolve(ask_name)]) -> str:
    """Ask the user for their name, then greet them."""
    return f"Hello, {who.name}!"


@server.tool()
def regional_time(
    region: Annotated[str, Field(description="Region to report on", json_schema_extra={"x-mcp-header": "Region"})],
    ctx: Context,
) -> str:
    """Echo the region, and whether the Mcp-Param-Region header carried it (HTTP at 2026-07-28)."""
    headers = ctx.headers
    if headers is None:
        return f"region {region}; no HTTP headers (stdio)"
    header = headers.get("mcp-param-region")
    if header is None:
        return f"region {region}; no Mcp-Param-Region header"
    verdict = "matches" if header == region else f"differs ({header!r})"
    return f"region {region}; Mcp-Param-Region header {verdict}"


def main() -> None:
    loopback.run(server, loopback.arguments("2026-07-28 test MCP server.").parse_args())


if __name__ == "__main__":
    main()
