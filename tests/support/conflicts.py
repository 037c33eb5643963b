"""A conflict as tests read it: a dispute over one fact, its claims side by side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def claims_of(conflict: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every claim a conflict (an answer's dict) lists, side after side."""
    return [c for side in conflict["sides"] for c in side["claims"]]


def statements_of(conflict: Mapping[str, Any]) -> set[str]:
    return {c["statement"] for c in claims_of(conflict)}


def ids_of(conflict: Mapping[str, Any]) -> set[str]:
    return {c["id"] for c in claims_of(conflict)}
