"""The audit trail as it is read back."""

from __future__ import annotations

from pydantic import JsonValue
from typing_extensions import TypedDict


class AuditEntry(TypedDict):
    id: str
    kind: str  # "<subject>.<verb>", e.g. correction.applied
    actor: str
    at: int  # ms since the epoch
    subject_id: str
    detail: dict[str, JsonValue]  # each kind's own facts
