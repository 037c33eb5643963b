"""create_app(settings): the one ASGI app ``afterhack serve`` runs, composed of the two
transports over one set of services: the HTTP API under ``/api`` (and the UI at ``/``) and
the MCP tools at ``/mcp``.

The transports never import each other; this is the one place that knows both. The key
check of the HTTP API's middleware runs for ``/mcp`` too, and the MCP tools take the caller
it found (mcpserver/callers.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from afterhack.access import key_resolver
from afterhack.api.app import create_api
from afterhack.config import Settings
from afterhack.mcpserver.http import MCP_PATH, McpHttp, mount_mcp


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    mcp: McpHttp | None = None

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        assert mcp is not None
        async with mcp.running():
            yield

    app = create_api(settings, running=running, guarded=(MCP_PATH,))
    # The MCP tools share this app's store and model.
    mcp = mount_mcp(app, settings, lambda: app.state.services,
                    resolve_key=key_resolver(settings, lambda: app.state.store))
    return app
