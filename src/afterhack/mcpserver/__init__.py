"""afterhack's MCP server (official ``mcp`` SDK 2.x): the gated memory tools over stdio
and streamable HTTP. Not named ``mcp`` so it never shadows the SDK."""

from afterhack.mcpserver.callers import (
    LOCAL_ADMIN,
    CallerSource,
    KeyResolver,
    fixed_key_caller,
    http_caller,
)
from afterhack.mcpserver.http import MCP_PATH, McpHttp, mount_mcp
from afterhack.mcpserver.server import AfterhackMCP, create_mcp_server, error_result

__all__ = [
    "LOCAL_ADMIN",
    "MCP_PATH",
    "AfterhackMCP",
    "CallerSource",
    "KeyResolver",
    "McpHttp",
    "create_mcp_server",
    "error_result",
    "fixed_key_caller",
    "http_caller",
    "mount_mcp",
]
