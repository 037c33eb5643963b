"""What each stored node and edge may carry, and of which type: the shape an export has and
a restore accepts (anything else is refused before a write, backup.check_export).

A property the app starts writing must be added here, or exports that carry it will not
restore (tests/test_backup.py round-trips every kind of node the app writes).
"""

from __future__ import annotations

from typing import Literal

from afterhack.model.vocab import (
    ACTION_STATUSES,
    CLAIM_STATUSES,
    CONFIDENCE_KINDS,
    CONFLICT_KINDS,
    CONFLICT_STATUSES,
    CORRECTION_NODE_KINDS,
    DECISION_STATUSES,
    DISK_STATES,
    ERASURE_KINDS,
    ERASURE_STATUSES,
    FORGET_REQUESTS,
    OPEN_ACTION,
    RESOLUTIONS,
    RUN_STATUSES,
    SETTLED_KINDS,
    SOURCE_KINDS,
    UPDATES_POLICIES,
)

PropType = Literal["str", "int", "number", "bool", "str_list", "number_list", "int_list"]

_CREATED: dict[str, PropType] = {"id": "str", "created_at": "int"}
# Every status the node has had and when each began (store/history.py).
_HISTORY: dict[str, PropType] = {"status_history": "str_list", "status_since": "int_list"}

NODE_PROPERTIES: dict[str, dict[str, PropType]] = {
    "Workspace": {**_CREATED, "name": "str", "revision": "int", "ready": "bool",
                  "updates": "str", "forget_requests": "str"},
    "Source": {**_CREATED, "title": "str", "origin_type": "str", "origin_name": "str",
               "revision": "int", "latest_version": "int", "kind": "str", "messages": "int"},
    # A file's original is kept on its version (base64 in file_data: decisions/0026).
    "SourceVersion": {**_CREATED, "version": "int", "text": "str", "content_hash": "str",
                      "length": "int", "model_calls": "str", "first_message": "int",
                      "media_type": "str", "file_size": "int", "file_hash": "str",
                      "file_name": "str", "file_data": "str",
                      # Counts the erasures that changed its text (none: absent).
                      "revision": "int"},
    "SourceFragment": {**_CREATED, "seq": "int", "text": "str", "start": "int", "end": "int",
                       "origin_type": "str", "origin_name": "str", "source_id": "str",
                       "version_id": "str", "extraction": "str", "error": "str",
                       "speaker": "str", "said_at": "int", "message_index": "int",
                       "page": "int", "page_end": "int", "section": "str",
                       "revision": "int"},
    "Claim": {**_CREATED, **_HISTORY, "statement": "str", "statement_key": "str",
              "evidence_quote": "str",
              "quote_start": "int", "quote_end": "int", "status": "str",
              "confidence": "number", "confidence_kind": "str", "revision": "int",
              "source_id": "str", "version_id": "str", "fragment_id": "str",
              "extracted_by": "str", "retired_by": "str", "valid_from": "int",
              "valid_until": "int", "said_by": "str", "said_at": "int",
              # Its search terms; its vector is derived and never exported (store/export.py).
              "terms": "str_list",
              # The erasure that took its words, or the request that withholds it, when and
              # by whom; a withheld claim's status before (docs/rules.md, rule 22).
              "erasure_id": "str", "erasure_at": "int", "erasure_by": "str",
              "withheld_from": "str"},
    "Correction": {**_CREATED, "claim_id": "str", "key": "str", "statement": "str",
                   "reason": "str", "reviewer": "str", "kind": "str",
                   "replacement_id": "str", "outcome": "str"},
    "Conflict": {**_CREATED, **_HISTORY, "key": "str", "status": "str", "kind": "str",
                 "reason": "str",
                 "detected_by": "str", "revision": "int", "resolved_at": "int",
                 "resolved_by": "str", "resolution": "str", "kept_claim_id": "str",
                 "correction_id": "str", "resolution_key": "str", "dismiss_reason": "str",
                 "newer_claim_id": "str", "same_speaker": "bool",
                 "settled_kind": "str", "settled_id": "str", "settled_note": "str",
                 # A dispute over one fact: the values it has held and its claims.
                 "n_sides": "int", "n_claims": "int"},
    "AgentRun": {**_CREATED, "task": "str", "status": "str", "model": "str",
                 "finished_at": "int", "model_calls": "str", "error": "str",
                 "builds_on": "str_list", "builds_on_skipped": "str", "started_by": "str",
                 "valid_at": "int",
                 "searched_claim_ids": "str_list", "retrieved_claim_ids": "str_list",
                 "tool_log": "str_list"},
    "Handoff": {**_CREATED, "seq": "int", "from_role": "str", "to_role": "str",
                "proposal": "str", "searched_claim_ids": "str_list",
                "retrieved_claim_ids": "str_list", "dropped_claim_ids": "str_list",
                "dropped": "str", "tool_calls": "str"},
    "Decision": {**_CREATED, **_HISTORY, "title": "str", "summary": "str", "status": "str",
                 "revision": "int", "run_id": "str", "premise_order": "str",
                 "review_reason": "str", "support_history": "str_list",
                 "support_until": "int_list"},
    "Action": {**_CREATED, **_HISTORY, "description": "str", "status": "str", "revision": "int",
               "held_from": "str"},
    "AuditEvent": {"id": "str", "kind": "str", "actor": "str", "at": "int",
                   "subject_id": "str", "detail": "str"},
    # No erased words here, nor a hash of them (docs/rules.md, rule 22).
    "Erasure": {**_CREATED, "status": "str", "kind": "str", "source_id": "str",
                "version_id": "str", "message_index": "int", "claim_id": "str",
                "request_id": "str", "reason": "str", "requested_by": "str",
                "requested_at": "int", "applied_by": "str", "applied_at": "int",
                "declined_by": "str", "declined_at": "int", "key": "str", "counts": "str",
                "claim_ids": "str_list", "flagged": "str_list", "held": "str_list",
                "conflicts": "str_list", "disk": "str", "disk_clean_at": "int",
                "revision": "int"},
}

EDGE_PROPERTIES: dict[str, dict[str, PropType]] = {
    "SUPPORTED_BY": {"role": "str"},
    "USED_CLAIM": {"premise": "str"},
    "SUPERSEDES": {"reason": "str"},
    "SAME_FACT": {},
    # A claim of a conflict: the side (value) it is on, named by that side's first claim,
    # and when it joined (neither, on a pair raised before conflicts were disputes).
    "BETWEEN": {"side": "str", "at": "int"},
}

# Properties whose value (or for a list, each of its values) must come from a fixed set.
VALUES: dict[tuple[str, str], tuple[str, ...]] = {
    ("Claim", "status"): CLAIM_STATUSES,
    ("Claim", "status_history"): CLAIM_STATUSES,
    ("Decision", "status_history"): DECISION_STATUSES,
    ("Action", "status_history"): ACTION_STATUSES,
    ("Conflict", "status_history"): CONFLICT_STATUSES,
    ("Claim", "confidence_kind"): CONFIDENCE_KINDS,
    ("Decision", "status"): DECISION_STATUSES,
    ("Action", "status"): ACTION_STATUSES,
    ("Action", "held_from"): tuple(s for s in ACTION_STATUSES if s in OPEN_ACTION),
    ("Correction", "kind"): CORRECTION_NODE_KINDS,
    ("Conflict", "status"): CONFLICT_STATUSES,
    ("Conflict", "kind"): CONFLICT_KINDS,
    ("Conflict", "resolution"): RESOLUTIONS,
    ("Conflict", "settled_kind"): SETTLED_KINDS,
    ("AgentRun", "status"): RUN_STATUSES,
    ("Source", "kind"): SOURCE_KINDS,
    ("Workspace", "updates"): UPDATES_POLICIES,
    ("Workspace", "forget_requests"): FORGET_REQUESTS,
    ("Claim", "withheld_from"): tuple(s for s in CLAIM_STATUSES if s in ("proposed",
                                                                         "accepted")),
    ("Erasure", "status"): ERASURE_STATUSES,
    ("Erasure", "kind"): ERASURE_KINDS,
    ("Erasure", "disk"): DISK_STATES,
}

# Without these a node is not what the app reads back (a claim without a status is neither
# current nor retired): a restore refuses a node that lacks one.
REQUIRED: dict[str, tuple[str, ...]] = {
    "Workspace": ("name", "revision"),
    "Claim": ("statement", "evidence_quote", "status", "revision", "confidence",
              "confidence_kind"),
    "Decision": ("title", "status", "revision"),
    "Action": ("description", "status", "revision"),
    "Correction": ("kind",),
    "Conflict": ("key", "status", "kind", "revision"),
    "AgentRun": ("task", "status"),
    "Erasure": ("status", "kind"),
}


def type_ok(kind: PropType, value: object) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str_list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "int_list":
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)
    return isinstance(value, list) and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in value)
