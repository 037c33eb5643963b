"""Streamable HTTP MCP on the app itself, at ``/mcp``.

Stateless: no protocol session lives in this process, and the runs the tools drive live in
the graph, so any app process behind a load balancer can answer any call.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from afterhack.access import key_resolver
from afterhack.config import Settings
from afterhack.mcpserver.callers import KeyResolver, http_caller
from afterhack.mcpserver.server import AfterhackMCP, ServicesProvider, create_mcp_server

MCP_PATH = "/mcp"


class McpHttp:
    """The ASGI endpoint for ``/mcp`` and the lifespan that runs its session manager."""

    def __init__(self, server: AfterhackMCP, host: str) -> None:
        self.server = server
        self.host = host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.server.session_manager.asgi_app(scope, receive, send)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        # A session manager runs once; building a fresh one per lifespan lets the same app
        # be started again (tests enter one app's lifespan more than once).
        # Host and Origin are checked for every route of the app, this one included, by one
        # guard (api/hosts.py), so the SDK's own copy of that check is off.
        self.server.streamable_http_app(
            streamable_http_path=MCP_PATH, stateless_http=True, json_response=True,
            host=self.host,
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
        async with self.server.session_manager.run():
            yield


def mount_mcp(app: Any, settings: Settings, services: ServicesProvider,
              resolve_key: KeyResolver | None = None) -> McpHttp:
    """Add ``/mcp`` to a Starlette/FastAPI app; run ``McpHttp.running()`` in its lifespan.

    The caller is whoever the app's key check left on ``request.state.caller``, else the
    bearer key resolved by ``resolve_key`` (default: settings' keys, see access.py).
    """
    resolve = resolve_key or key_resolver(settings, lambda: services().store)
    server = create_mcp_server(services, http_caller(resolve))
    endpoint = McpHttp(server, settings.host)
    app.router.routes.append(Route(MCP_PATH, endpoint=endpoint, include_in_schema=False))
    return endpoint
