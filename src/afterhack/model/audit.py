"""The audit trail as it is read back."""

from __future__ import annotations

from typing import Any, TypedDict


class AuditEntry(TypedDict):
    id: str
    kind: str  # "<subject>.<verb>", e.g. correction.applied
    actor: str
    at: int  # ms since the epoch
    subject_id: str
    detail: dict[str, Any]  # each kind's own facts, as JSON
