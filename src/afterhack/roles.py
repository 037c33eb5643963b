"""Who may do what. One table, checked by the HTTP API and the MCP tools alike.

Roles belong to keys: ``admin`` (the key from the environment, or the single local user
when keys are off), and per-workspace ``reader``, ``agent`` and ``reviewer`` keys.
"""

from __future__ import annotations

from typing import Literal

from afterhack.errors import Forbidden

Permission = Literal[
    "read",            # any GET inside a workspace
    "add_source",      # add sources and versions, re-run extraction
    "run_agent",       # start agent runs (HTTP or MCP)
    "review",          # review decisions, move actions along
    "correct",         # preview and apply corrections
    "erase",           # preview, apply and decline erasures (docs/rules.md, rule 22)
    "manage",          # create workspaces, keys; export, restore, delete
]

PERMISSIONS: dict[str, frozenset[Permission]] = {
    "reader": frozenset({"read"}),
    "agent": frozenset({"read", "add_source", "run_agent"}),
    "reviewer": frozenset({"read", "add_source", "run_agent", "review", "correct", "erase"}),
    "admin": frozenset({"read", "add_source", "run_agent", "review", "correct", "erase",
                        "manage"}),
}


def allows(role: str, permission: Permission) -> bool:
    return permission in PERMISSIONS.get(role, frozenset())


def require(role: str, permission: Permission) -> None:
    if not allows(role, permission):
        raise Forbidden(f"A {role} key cannot {permission.replace('_', ' ')}.",
                        role=role, permission=permission)
