# Test MCP server protected by OAuth 2.1: the Python SDK's own authorization server and resource server in one process, with an approval page.
"""A small MCP server behind OAuth 2.1, built on the official `mcp` Python SDK (2.3, `MCPServer`).

The SDK serves the OAuth side itself (`auth_server_provider=` plus
`auth=AuthSettings(...)`); this file only supplies the in-memory provider and
the approval page. One process, one port P, is both the authorization server
(issuer `http://127.0.0.1:P`) and the resource server (`http://127.0.0.1:P/mcp`):

- `GET /.well-known/oauth-protected-resource/mcp`: RFC 9728 metadata.
- `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata.
- `POST /register`: RFC 7591 dynamic client registration.
- `GET /authorize` (PKCE S256 required): answers an HTML page titled
  "Approve access" naming the client and the scopes, with an Approve button
  (`#approve`, posts to `/approve`) and a Deny button (`#deny`, posts to
  `/deny`); nothing is approved by itself. Approve redirects (302) to the
  client's `redirect_uri` with `code`, `state` and `iss` (RFC 9207); Deny with
  `error=access_denied`, `state` and `iss`.
- `POST /token`: `authorization_code` (PKCE checked by the SDK) and
  `refresh_token` (refresh tokens rotate; the old one stops working).
- `POST /revoke`: RFC 7009 revocation.
- `/mcp`: Streamable HTTP; without a valid bearer token carrying `mcp:tools`
  it answers 401 with `WWW-Authenticate: Bearer ..., resource_metadata="..."`.

Tools: `whoami` (the client id and scopes of the caller's token) and `echo`.

Access tokens are opaque random strings prefixed `pyat_` and expire after
`--token-ttl` seconds (default 3600); refresh tokens are prefixed `pyrt_`,
authorization codes `pyac_`, so a test can look for leaks of them. Each hit
on an OAuth endpoint (and each refused `/mcp` request) is logged to stderr as
`oauth: METHOD PATH STATUS`, without query strings or any secret.

Usage:
    python3 tests/servers/python/oauth_server.py --port 8766
    python3 tests/servers/python/oauth_server.py --port 8766 --token-ttl 5
"""

from __future__ import annotations

import argparse
import html
import secrets
import sys
import time
from dataclasses import dataclass

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer

from loopback import listen, serve
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SCOPE = "mcp:tools"
CODE_TTL = 300  # seconds an authorization code stays valid
PENDING_TTL = 600  # seconds an approval page stays answerable
CONSENT_MARK = "/authorize/pending/"  # where the provider "redirects"; the front turns it into the page
OAUTH_PATHS = ("/.well-known/", "/authorize", "/approve", "/deny", "/token", "/register", "/revoke")


@dataclass
class Pending:
    """An authorization request waiting for Approve or Deny."""

    client: OAuthClientInformationFull
    params: AuthorizationParams
    scopes: list[str]
    expires_at: float


class InMemoryProvider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    """The SDK's provider protocol, keeping clients, codes and tokens in memory."""

    def __init__(self, issuer: str, resource: str, token_ttl: int):
        self.issuer = issuer
        self.resource = resource
        self.token_ttl = token_ttl
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.pending: dict[str, Pending] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.pair: dict[str, str] = {}  # access token -> refresh token issued with it, and back

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info
        name = client_info.client_name or "no name"
        print(f"oauth: registered client {client_info.client_id} ({name})", file=sys.stderr, flush=True)

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        if params.resource is not None and params.resource.rstrip("/") != self.resource.rstrip("/"):
            raise AuthorizeError(
                error="invalid_target", error_description=f"unknown resource; this server is {self.resource}"
            )
        scopes = params.scopes or (client.scope.split() if client.scope else [SCOPE])
        now = time.time()
        for key in [k for k, p in self.pending.items() if p.expires_at < now]:
            del self.pending[key]
        request_id = secrets.token_urlsafe(24)
        self.pending[request_id] = Pending(client, params, scopes, now + PENDING_TTL)
        return f"{self.issuer}{CONSENT_MARK}{request_id}"

    def decide(self, request_id: str, approved: bool) -> str | None:
        """The redirect answering a pending request, or None when it is unknown or expired."""
        pending = self.pending.pop(request_id, None)
        if pending is None or pending.expires_at < time.time():
            return None
        redirect_uri = str(pending.params.redirect_uri)
        if not approved:
            return construct_redirect_uri(
                redirect_uri,
                error="access_denied",
                error_description="The user denied access",
                state=pending.params.state,
                iss=self.issuer,
            )
        code = "pyac_" + secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=pending.scopes,
            expires_at=time.time() + CODE_TTL,
            client_id=pending.client.client_id or "",
            code_challenge=pending.params.code_challenge,
            redirect_uri=pending.params.redirect_uri,
            redirect_uri_provided_explicitly=pending.params.redirect_uri_provided_explicitly,
            resource=self.resource,
            subject="test-user",
        )
        return construct_redirect_uri(redirect_uri, code=code, state=pending.params.state, iss=self.issuer)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], subject: str | None) -> OAuthToken:
        access = "pyat_" + secrets.token_urlsafe(32)
        refresh = "pyrt_" + secrets.token_urlsafe(32)
        self.access[access] = AccessToken(
            token=access,
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + self.token_ttl,
            resource=self.resource,
            subject=subject,
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=self.resource, subject=subject
        )
        self.pair[access] = refresh
        self.pair[refresh] = access
        return OAuthToken(access_token=access, expires_in=self.token_ttl, scope=" ".join(scopes), refresh_token=refresh)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)  # one use only
        return self._issue(authorization_code.client_id, authorization_code.scopes, authorization_code.subject)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        # Rotate: the old refresh token goes; the access token issued with it lives until it expires.
        self.refresh.pop(refresh_token.token, None)
        self.pair.pop(self.pair.pop(refresh_token.token, ""), None)
        return self._issue(refresh_token.client_id, scopes, refresh_token.subject)

    async def load_access_token(self, token: str) -> AccessToken | None:
        access = self.access.get(token)
        if access is not None and access.expires_at is not None and access.expires_at < time.time():
            self.access.pop(token, None)
            return None
        return access

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        other = self.pair.pop(token.token, None)
        for key in (token.token, other):
            if key is not None:
                self.access.pop(key, None)
                self.refresh.pop(key, None)
                self.pair.pop(key, None)


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Approve access</title>
<style>
body {{ font-family: sans-serif; max-width: 32em; margin: 3em auto; }}
form {{ display: inline; }}
button {{ font-size: 1em; padding: .4em 1.2em; margin-right: .5em; }}
</style>
</head>
<body>
<h1>Approve access</h1>
<p><strong id="client-name">{client_name}</strong> asks to use this MCP server.</p>
<p>Scopes requested:</p>
<ul id="scopes">{scopes}</ul>
<form method="post" action="/approve">
<input type="hidden" name="request" value="{request_id}">
<button id="approve" type="submit">Approve</button>
</form>
<form method="post" action="/deny">
<input type="hidden" name="request" value="{request_id}">
<button id="deny" type="submit">Deny</button>
</form>
</body>
</html>
"""

PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "X-Frame-Options": "DENY",
}


def approval_page(provider: InMemoryProvider, request_id: str) -> HTMLResponse:
    pending = provider.pending[request_id]
    return HTMLResponse(
        PAGE.format(
            client_name=html.escape(pending.client.client_name or pending.client.client_id or "unnamed client"),
            scopes="".join(f"<li>{html.escape(scope)}</li>" for scope in pending.scopes),
            request_id=html.escape(request_id),
        ),
        headers=PAGE_HEADERS,
    )


class OAuthFront:
    """ASGI wrapper: logs OAuth endpoint hits, and answers `/authorize` with the approval page.

    The SDK's `/authorize` handler validates the request, calls the provider's
    `authorize` and redirects to the URL it returns. The provider returns a
    `CONSENT_MARK` URL; this wrapper swaps that redirect for the page itself,
    so `/authorize` answers the page while the SDK keeps all the checks.
    """

    def __init__(self, app: ASGIApp, provider: InMemoryProvider):
        self.app = app
        self.provider = provider
        self.mark = (provider.issuer + CONSENT_MARK).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        status = 0
        swapped: str | None = None

        async def front_send(message: Message) -> None:
            nonlocal status, swapped
            if message["type"] == "http.response.start":
                status = message["status"]
                location = dict(message.get("headers", [])).get(b"location", b"")
                if path == "/authorize" and status == 302 and location.startswith(self.mark):
                    swapped = location[len(self.mark) :].decode()
                    return
            elif swapped is not None:
                return  # the body of the swallowed redirect
            await send(message)

        await self.app(scope, receive, front_send)
        if swapped is not None:
            page = approval_page(self.provider, swapped)
            status = page.status_code
            await page(scope, receive, send)
        if path.startswith(OAUTH_PATHS) or (path == "/mcp" and status in (401, 403)):
            print(f"oauth: {scope['method']} {path} {status}", file=sys.stderr, flush=True)


def build(port: int, token_ttl: int) -> tuple[MCPServer, InMemoryProvider]:
    # Given as strings, the URLs keep their exact spelling: the issuer without a trailing slash,
    # as RFC 8414 and RFC 9207 compare issuers as plain strings.
    settings = AuthSettings.model_validate(
        {
            "issuer_url": f"http://127.0.0.1:{port}",
            "resource_server_url": f"http://127.0.0.1:{port}/mcp",
            "validate_token_resource": True,
            "required_scopes": [SCOPE],
            "client_registration_options": ClientRegistrationOptions(
                enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
            ),
            "revocation_options": RevocationOptions(enabled=True),
        }
    )
    issuer = str(settings.issuer_url)
    provider = InMemoryProvider(issuer, str(settings.resource_server_url), token_ttl)
    server = MCPServer(
        name="python-oauth",
        title="OAuth-protected tools",
        instructions="Test server behind OAuth 2.1: whoami reports the caller's token, echo echoes.",
        version="1.0.0",
        auth_server_provider=provider,
        auth=settings,
    )

    @server.tool()
    def whoami() -> str:
        """Say which OAuth client and scopes the caller's access token carries."""
        token = get_access_token()
        if token is None:
            return "no access token"
        return f"client_id={token.client_id} scopes={' '.join(token.scopes)}"

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    async def decision(request: Request, approved: bool) -> Response:
        form = await request.form()
        request_id = form.get("request")
        target = provider.decide(request_id, approved) if isinstance(request_id, str) else None
        if target is None:
            return HTMLResponse(
                "<!DOCTYPE html><title>Approve access</title><p>Unknown or expired authorization request.</p>",
                status_code=400,
                headers=PAGE_HEADERS,
            )
        return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})

    # For tests: every access token issued so far expires now, so a test needs no clock of
    # its own to see a client refresh one (it waits on nothing).
    @server.custom_route("/test/expire-tokens", methods=["POST"])
    async def expire_tokens(request: Request) -> Response:
        past = int(time.time()) - 1
        for token in provider.access.values():
            token.expires_at = past
        print(f"oauth: expired {len(provider.access)} access tokens", file=sys.stderr, flush=True)
        return Response(status_code=204)

    @server.custom_route("/approve", methods=["POST"])
    async def approve(request: Request) -> Response:
        return await decision(request, True)

    @server.custom_route("/deny", methods=["POST"])
    async def deny(request: Request) -> Response:
        return await decision(request, False)

    return server, provider


def main() -> None:
    parser = argparse.ArgumentParser(description="OAuth-protected test MCP server (Streamable HTTP).")
    parser.add_argument("--port", type=int, default=8766, help="port to serve on (binds 127.0.0.1; 0 picks one and says which)")
    parser.add_argument("--token-ttl", type=int, default=3600, help="access token lifetime in seconds (default 3600)")
    args = parser.parse_args()
    # The socket first: the URLs the server names carry the port it really got.
    sock = listen(args.port)
    server, provider = build(sock.getsockname()[1], args.token_ttl)
    app = OAuthFront(server.streamable_http_app(host="127.0.0.1"), provider)
    serve(app, sock, access_log=False)


if __name__ == "__main__":
    main()
