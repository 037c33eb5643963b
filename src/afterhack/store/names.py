"""Graph names and the labels every workspace graph holds.

A graph name is derived only from a server-generated UUID, so no request can name or
pick a graph; anything that is not a canonical UUID never reaches FalkorDB.
"""

from __future__ import annotations

import re
import uuid

REGISTRY_GRAPH = "afterhack_registry"

_CANONICAL_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

# Every node label with an `id`; each gets a unique constraint (and its range index).
ID_LABELS = (
    "Workspace",
    "Source",
    "SourceVersion",
    "SourceFragment",
    "Claim",
    "Correction",
    "AgentRun",
    "Handoff",
    "Decision",
    "Action",
    "AuditEvent",
)

# Every relationship type a workspace graph holds. Each is registered when the graph is made
# (see workspaces.register_relationship_types) and restore accepts only these.
RELATIONSHIP_TYPES = (
    "HAS_VERSION",
    "HAS_FRAGMENT",
    "SUPPORTED_BY",
    "CORRECTS",
    "SUPERSEDES",
    "HAS_HANDOFF",
    "PRODUCED",
    "USED_CLAIM",
    "DEPENDS_ON",
    "REQUIRES",
)

# Extra range indexes that queries filter on (beyond id).
RANGE_INDEXES = (
    ("Claim", "statement_key"),
    ("Claim", "status"),
    ("AuditEvent", "at"),
    ("Correction", "key"),
)

CURRENT_CLAIM = ("proposed", "accepted")
GOOD_STANDING = ("draft", "accepted")


def new_id() -> str:
    return str(uuid.uuid4())


def is_uuid(value: str) -> bool:
    return bool(_CANONICAL_UUID.match(value))


def graph_name(workspace_id: str) -> str:
    """The graph of a workspace; raises ValueError for anything but a canonical UUID."""
    if not is_uuid(workspace_id):
        raise ValueError("not a workspace id")
    return "ws_" + uuid.UUID(workspace_id).hex
