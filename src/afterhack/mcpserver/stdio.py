"""``afterhack mcp``: the tools over stdio, for agents that launch the server themselves.

It opens the same FalkorDB the app uses. The embedded one's data dir is locked by a running
``afterhack serve``, so next to a running server point ``AFTERHACK_FALKORDB_URL`` at that
server's FalkorDB (the URL is in ``<data_dir>/falkordb.url``) or use ``/mcp`` over HTTP.
"""

from __future__ import annotations

import os

from afterhack.access import key_resolver
from afterhack.config import Settings
from afterhack.mcpserver.callers import KeyResolver, fixed_key_caller
from afterhack.mcpserver.server import create_mcp_server
from afterhack.runtime.services import open_services


async def serve_stdio(settings: Settings, resolve_key: KeyResolver | None = None) -> None:
    key = os.environ.get("AFTERHACK_API_KEY") or None
    async with open_services(settings) as services:
        # The key check the HTTP API runs, workspace keys and rate limit included.
        resolve = resolve_key or key_resolver(settings, lambda: services.store)
        caller = fixed_key_caller(resolve, key)
        server = create_mcp_server(lambda: services, caller)
        await server.run_stdio_async()
