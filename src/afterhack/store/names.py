"""Graph names, and the property names and indexes every workspace graph holds.

A graph name is derived only from a server-generated UUID, so no request can name or
pick a graph; anything that is not a canonical UUID never reaches FalkorDB. Node labels and
edge types are part of the vocabulary (model/vocab.py).
"""

from __future__ import annotations

import re
import uuid

from afterhack.model.vocab import NodeLabel

REGISTRY_GRAPH = "afterhack_registry"

_CANONICAL_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

# Every property name the app writes in a workspace graph, registered with the edge types
# (workspaces.register_schema; tests/test_store_quirks.py checks a journey adds no other).
PROPERTY_KEYS = (
    "actor", "at", "builds_on", "builds_on_skipped", "claim_id", "confidence",
    "confidence_kind", "content_hash", "correction_id", "created_at", "description",
    "detail", "detected_by", "dismiss_reason", "dropped", "dropped_claim_ids", "end",
    "embedding", "embedding_dim", "embedding_model", "error", "evidence_quote",
    "extracted_by", "extraction", "finished_at", "fragment_id",
    "from_role", "held_from", "id", "kept_claim_id", "key", "kind", "latest_version",
    "length", "model", "model_calls", "name", "origin_name", "origin_type", "outcome",
    "premise", "premise_order", "proposal", "quote_end", "quote_start", "ready", "reason",
    "replacement_id", "resolution", "resolution_key", "resolved_at", "resolved_by",
    "retired_by", "retrieved_claim_ids", "review_reason", "reviewer", "revision", "role",
    "run_id", "searched_claim_ids", "seq", "source_id", "start", "statement",
    "statement_key", "status", "status_history", "status_since", "subject_id", "summary",
    "task", "terms", "text", "title", "to_role", "tool_calls", "tool_log", "valid_at",
    "valid_from", "valid_until", "vector_pending", "version", "version_id",
)

# Extra range indexes that queries filter on (beyond id).
RANGE_INDEXES: tuple[tuple[NodeLabel, str], ...] = (
    ("Claim", "statement_key"),
    ("Claim", "status"),
    # A claim's search terms (a list: the index holds each element), and the claims still
    # waiting for their vector (see store/vectors.py).
    ("Claim", "terms"),
    ("Claim", "vector_pending"),
    ("AuditEvent", "at"),
    ("Correction", "key"),
    ("Conflict", "key"),
    ("Conflict", "status"),
)


def new_id() -> str:
    return str(uuid.uuid4())


def is_uuid(value: str) -> bool:
    return bool(_CANONICAL_UUID.fullmatch(value))


def graph_name(workspace_id: str) -> str:
    """The graph of a workspace; raises ValueError for anything but a canonical UUID."""
    if not is_uuid(workspace_id):
        raise ValueError("not a workspace id")
    return "ws_" + workspace_id.replace("-", "")  # canonical: lowercase hex and dashes
