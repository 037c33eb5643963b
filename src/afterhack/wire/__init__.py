"""What crosses the wire, whichever transport carries it: the HTTP API (``api/``) and the MCP
tools (``mcpserver/``) both speak these shapes and neither imports the other.

- ``errors``: the canonical error body, ``{"error": {"code", "message", "details"}}``;
- ``request_id``: the id of the request being served, which an internal error's answer
  and the log lines written while serving it carry;
- ``inputs``: request bodies and the validation every user string goes through;
- the answers, one module per concept (``workspaces``, ``sources``, ``claims``, ``runs``,
  ``corrections``, ``graph``): ``TypedDict``s, so a domain result is checked against them
  by mypy and costs nothing at run time; the OpenAPI document, and from it the UI's types
  (web/src/apiTypes.ts), are generated from them.
"""
