"""The region a correction (or a rejection) affects, as the store reads it and the relabel
(support.py) judges it: every decision in it whole, with its premises, the decisions it
builds on and its actions, and each revision the apply guard re-checks.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Use:
    claim_id: str
    premise: str
    status: str
    source_id: str | None
    revision: int


@dataclass(frozen=True)
class Up:
    decision_id: str
    status: str
    revision: int


@dataclass(frozen=True)
class ActionInfo:
    id: str
    description: str
    status: str
    revision: int
    decision_ids: tuple[str, ...]  # those of the region: only they can fall
    n_required: int  # how many decisions it requires, in the region or not


@dataclass
class DecisionInfo:
    id: str
    title: str
    status: str
    revision: int
    uses: list[Use]
    ups: list[Up]
    action_ids: list[str]
    n_dependents: int

    def premises(self) -> dict[str, list[Use]]:
        groups: dict[str, list[Use]] = {}
        for u in self.uses:
            groups.setdefault(u.premise, []).append(u)
        return groups


@dataclass
class Snapshot:
    decisions: dict[str, DecisionInfo]
    actions: dict[str, ActionInfo]
