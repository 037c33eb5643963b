"""The region a correction (or a rejection) affects, as the store reads it and the relabel
(support.py) judges it: every decision in it whole, with its premises, the decisions it
builds on and its actions, and the revisions and counts the apply guard re-checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from typing_extensions import TypedDict

from afterhack.model.vocab import ActionStatus, ClaimStatus, DecisionStatus


class Use(NamedTuple):
    """A decision's use of a claim under a premise (a USED_CLAIM edge and its claim)."""

    claim_id: str
    status: ClaimStatus
    revision: int
    premise: str
    source_id: str | None


class Up(NamedTuple):
    """A decision the region's decision builds on (a DEPENDS_ON edge and its target)."""

    decision_id: str
    status: DecisionStatus
    revision: int


class ActionInfo(NamedTuple):
    id: str
    description: str
    status: ActionStatus
    revision: int
    decision_ids: tuple[str, ...]  # those of the region: only they can fall
    n_required: int  # how many decisions it requires, in the region or not


@dataclass
class DecisionInfo:
    id: str
    title: str
    status: DecisionStatus
    revision: int
    uses: list[Use]  # sorted by premise, then claim
    ups: list[Up]  # sorted by decision
    action_ids: list[str]  # one per REQUIRES edge, sorted
    n_dependents: int  # DEPENDS_ON edges into it

    def premises(self) -> dict[str, list[Use]]:
        groups: dict[str, list[Use]] = {}
        for u in self.uses:
            groups.setdefault(u.premise, []).append(u)
        return groups


class Twin(TypedDict):
    """A current claim with the same statement key as the claim a region was read for: a
    correction refutes it too (docs/rules.md, rule 4)."""

    id: str
    status: ClaimStatus
    revision: int
    source_id: str | None
    n_users: int


class RegionClaim(TypedDict):
    """The claim a region was read for, how many decisions use it (all are in it), and its
    twins (whose users are all in it too)."""

    id: str
    status: ClaimStatus
    revision: int
    source_id: str | None
    statement: str
    statement_key: str | None
    n_users: int
    twins: list[Twin]
    # The statements of current claims a check found to state its fact (or a twin's) in
    # other words: a correction of it lists them (docs/rules.md, rule 4).
    same_fact_keys: list[str]


class DecisionStamp(NamedTuple):
    """What the guard re-checks of a decision of the region: its revision, and the edges
    at it that no revision covers (a new dependent or action changes no property of it)."""

    id: str
    revision: int
    n_dependents: int
    n_actions: int


@dataclass(frozen=True)
class Stamps:
    """Every revision and count the relabel of a region read, each in id order. The apply
    guard re-checks all of them; the impact token is their digest."""

    decisions: tuple[DecisionStamp, ...]
    # Revision by id, of each action of the region, each claim its decisions use, and each
    # decision outside it that one of them builds on.
    actions: dict[str, int]
    claims: dict[str, int]
    upstream: dict[str, int]


@dataclass
class Snapshot:
    decisions: dict[str, DecisionInfo]
    actions: dict[str, ActionInfo]

    def stamps(self) -> Stamps:
        claims: dict[str, int] = {}
        ups: dict[str, int] = {}
        for d in self.decisions.values():
            for u in d.uses:
                claims[u.claim_id] = u.revision
            for up in d.ups:
                if up.decision_id not in self.decisions:
                    ups[up.decision_id] = up.revision
        return Stamps(
            # In DecisionStamp's order, positionally: this runs on every preview.
            decisions=tuple(sorted(
                DecisionStamp(d.id, d.revision, d.n_dependents, len(d.action_ids))
                for d in self.decisions.values())),
            actions=dict(sorted((a.id, a.revision) for a in self.actions.values())),
            claims=dict(sorted(claims.items())),
            upstream=dict(sorted(ups.items())),
        )


class PremiseLost(TypedDict):
    type: Literal["premise_lost"]
    premise: str
    claim_ids: list[str]  # every claim it had, none of them current now


class UpstreamFell(TypedDict):
    type: Literal["upstream_fell"]
    decision_id: str


# Why the relabel flags a decision, one entry per reason.
FlagReason = PremiseLost | UpstreamFell


class PremiseSupport(TypedDict):
    """A premise of a decision that stays, and the claims it still stands on."""

    premise: str
    claim_ids: list[str]
