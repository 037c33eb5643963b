"""The MCP tools driven through the SDK's own client, in this process."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client
from mcp.types import TextContent

from afterhack.access import Caller
from afterhack.mcpserver import LOCAL_ADMIN, AfterhackMCP, create_mcp_server
from afterhack.memory.workspaces import create_workspace
from afterhack.runtime.services import Services


def server_for(svc: Services, caller: Caller = LOCAL_ADMIN) -> AfterhackMCP:
    """The MCP server on ``svc``, every request made as ``caller``."""
    async def source(_request: Any) -> Caller:
        return caller

    return create_mcp_server(lambda: svc, source)


async def store_workspace(svc: Services, name: str = "mcp") -> str:
    """A new workspace, made in the store as the API makes one; its id."""
    return str((await create_workspace(svc.store, name, "test"))["id"])


async def call(c: Client, name: str, **args: Any) -> Any:
    """The tool's result, which must not be an error."""
    r = await c.call_tool(name, args)
    assert not r.is_error, r.content
    data = r.structured_content
    assert data is not None
    return data["result"] if set(data) == {"result"} else data


async def fail(c: Client, name: str, **args: Any) -> dict[str, Any]:
    """The tool's error, which must come in the canonical body, as text and structured."""
    r = await c.call_tool(name, args)
    assert r.is_error, r.structured_content
    first = r.content[0]
    assert isinstance(first, TextContent), first
    body = json.loads(first.text)
    assert body == r.structured_content and set(body["error"]) == {"code", "message", "details"}
    return dict(body["error"])
