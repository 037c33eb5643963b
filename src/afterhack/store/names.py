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

# Every property name the app writes in a workspace graph, registered with the types below
# (tests/test_store_quirks.py checks that a full journey adds no other).
PROPERTY_KEYS = (
    "actor", "at", "builds_on", "builds_on_skipped", "claim_id", "confidence",
    "confidence_kind", "content_hash", "created_at", "description", "detail", "dropped",
    "dropped_claim_ids", "end", "error", "evidence_quote", "extracted_by", "extraction",
    "finished_at", "fragment_id", "from_role", "held_from", "id", "key", "kind",
    "latest_version", "length", "model", "model_calls", "name", "origin_name", "origin_type",
    "outcome", "premise", "premise_order", "proposal", "quote_end", "quote_start", "ready",
    "reason", "replacement_id", "retrieved_claim_ids", "review_reason", "reviewer", "revision",
    "role", "run_id", "searched_claim_ids", "seq", "source_id", "start", "statement",
    "statement_key", "status", "subject_id", "summary", "task", "text", "title", "to_role",
    "tool_calls", "tool_log", "version", "version_id",
)

# Every relationship type a workspace graph holds. Each is registered when the graph is made
# (see workspaces.register_schema) and restore accepts only these.
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

# The labels at the two ends of the edges a correction's region is read through. Queries
# follow these edges without naming the labels (each label check costs FalkorDB a matrix
# operation), so a restore refuses an edge of these types between other labels.
EDGE_ENDS = {
    "USED_CLAIM": ("Decision", "Claim"),
    "DEPENDS_ON": ("Decision", "Decision"),
    "REQUIRES": ("Action", "Decision"),
}

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
    return bool(_CANONICAL_UUID.fullmatch(value))


def graph_name(workspace_id: str) -> str:
    """The graph of a workspace; raises ValueError for anything but a canonical UUID."""
    if not is_uuid(workspace_id):
        raise ValueError("not a workspace id")
    return "ws_" + workspace_id.replace("-", "")  # canonical: lowercase hex and dashes
