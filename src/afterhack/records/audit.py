"""Audit events, made before the write that records them in the same query."""

from __future__ import annotations

import json
from collections.abc import Mapping

from afterhack.model.writes import AuditEvent, AuditParams
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id


def audit_params(kind: str, actor: str, subject_id: str,
                 detail: Mapping[str, object]) -> AuditParams:
    return {
        "audit_id": new_id(),
        "audit_kind": kind,
        "audit_actor": actor,
        "audit_subject": subject_id,
        "audit_detail": json.dumps(detail, ensure_ascii=False, sort_keys=True),
        "now": now_ms(),
    }


def audit_event(kind: str, actor: str, subject_id: str, detail: Mapping[str, object],
                at: int | None = None) -> AuditEvent:
    return {
        "id": new_id(),
        "kind": kind,
        "actor": actor,
        "subject_id": subject_id,
        "detail": json.dumps(detail, ensure_ascii=False, sort_keys=True),
        "at": at if at is not None else now_ms(),
    }
