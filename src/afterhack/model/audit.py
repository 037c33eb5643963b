"""The audit trail as it is read back."""

from __future__ import annotations

from typing import TypedDict

from pydantic import JsonValue


class AuditEntry(TypedDict):
    id: str
    kind: str  # "<subject>.<verb>", e.g. correction.applied
    actor: str
    at: int  # ms since the epoch
    subject_id: str
    detail: dict[str, JsonValue]  # each kind's own facts
