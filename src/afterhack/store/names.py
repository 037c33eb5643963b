"""Graph names, and the property names and indexes every workspace graph holds.

A graph name is derived only from a server-generated UUID, so no request can name or
pick a graph; anything that is not a canonical UUID never reaches FalkorDB. Node labels and
edge types are part of the vocabulary (model/vocab.py).
"""

from __future__ import annotations

from afterhack.model.ids import is_uuid

REGISTRY_GRAPH = "afterhack_registry"

# Every property name the app writes in a workspace graph, registered with the edge types
# (workspaces.register_schema; tests/test_store_quirks.py checks a journey adds no other).
PROPERTY_KEYS = (
    "actor", "applied_at", "applied_by", "at", "builds_on", "builds_on_skipped",
    "claim_id", "claim_ids", "confidence", "confidence_kind", "conflicts", "content_hash",
    "correction_id", "counts", "created_at", "declined_at", "declined_by", "description",
    "detail", "detected_by", "disk", "disk_clean_at", "dismiss_reason", "dropped",
    "dropped_claim_ids", "embedding", "embedding_dim", "embedding_model", "end",
    "erasure_at", "erasure_by", "erasure_id", "error", "evidence_quote", "extracted_by",
    "extraction", "file_data", "file_hash", "file_name", "file_size", "finished_at",
    "first_message", "flagged", "forget_requests", "fragment_id", "from_role", "held",
    "held_from", "id", "kept_claim_id", "key", "kind", "latest_version", "length",
    "media_type", "message_index", "messages", "model", "model_calls", "n_claims",
    "n_sides", "name",
    "newer_claim_id", "origin_name", "origin_type", "outcome", "page", "page_end", "premise",
    "premise_order", "proposal", "quote_end", "quote_start", "ready", "reason",
    "replacement_id", "request_id", "requested_at", "requested_by", "resolution",
    "resolution_key", "resolved_at", "resolved_by", "retired_by", "retrieved_claim_ids",
    "review_reason", "reviewer", "revision", "role", "run_id", "said_at", "said_by",
    "same_speaker", "searched_claim_ids", "section", "seq", "settled_id", "settled_kind",
    "settled_note", "side", "source_id", "speaker", "start", "statement", "statement_key",
    "status", "status_history", "status_since", "subject_id", "summary",
    "support_history", "support_until", "task", "terms", "text", "title", "to_role",
    "tool_calls", "tool_log", "updates", "valid_at", "valid_from", "valid_until",
    "vector_pending", "version", "version_id", "withheld_from",
)

# Every node of a workspace graph carries this label beside its own (vocab.NodeLabel), and
# the graph's one index is on it: `id` (unique) and the properties below. An index per
# label costs FalkorDB about 100 KiB even when empty, so one for all of them is what keeps
# an empty workspace small. A lookup by id is written
# `(c:Node {id: $id}) WHERE c:Claim`: an index scan, then a filter on the label, as fast as
# an index on Claim itself; `(c:Claim:Node {id: $id})` would check the label with a matrix
# traversal instead, a little slower (tools/afterhack_tools/bench/idlookup.py).
NODE = "Node"
# A claim's search terms (a list: the index holds each element), the claims still waiting
# for their vector (see store/vectors.py), and the status a list of claims and its count
# start from (store/claims.list_claims), are among them.
NODE_RANGE_INDEXED = ("statement_key", "key", "terms", "vector_pending", "status")


def graph_name(workspace_id: str) -> str:
    """The graph of a workspace; raises ValueError for anything but a canonical UUID."""
    if not is_uuid(workspace_id):
        raise ValueError("not a workspace id")
    return "ws_" + workspace_id.replace("-", "")  # canonical: lowercase hex and dashes
