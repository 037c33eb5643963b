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


# Facts no two of which are one, whatever their words' vectors say (checked against the
# offline embedding: each pair is read as about two things), each given a day in June: a
# memo saying June 12 and a later one June 19 make one dispute per fact.
JUNE_FACTS = ("The office in Berlin opens on June {}.", "The board meeting is on June {}.",
              "The product launch is planned for June {}.", "The annual audit is due on June {}.",
              "The summer party takes place on June {}.")


def june_memo(n: int, day: int) -> str:
    """The first ``n`` of JUNE_FACTS, each on ``day``."""
    return " ".join(f.format(day) for f in JUNE_FACTS[:n])
