"""Support semantics: which decisions still stand after a claim is corrected or a decision falls.

This is the well-founded relabel of a justification-based truth maintenance system, as a
pure function over a snapshot of the affected region:

* the region is every decision that uses the corrected claim (or depends on the fallen
  decision), plus everything that depends on those, at any depth;
* inside it, start with nothing in good standing and repeatedly admit a decision whose
  premises all hold and whose upstream decisions are all in good standing (outside the
  region they keep their status), until nothing changes;
* a premise holds if any one of its claims is current (or withheld by an erasure request
  that waits for a reviewer: what was decided on it is re-checked when the request is
  applied); under the ``independent`` policy a
  claim from the corrected claim's own source is not alternative support for it;
* a correction refutes a statement, not one copy: the corrected claims are every current
  claim with its statement key (its twins from other sources or other ingests), none of
  them supports another, and a premise holding some of them does not count claims from
  any of their sources;
* a decision already ``needs_review`` or ``rejected`` is never admitted (only a reviewer
  restores it); whatever is never admitted is flagged, so no cycle can prop itself up;
* an open action is held if any decision it requires fell.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from afterhack.model.region import (
    ActionInfo,
    DecisionInfo,
    FlagReason,
    PremiseLost,
    PremiseSupport,
    Snapshot,
    Use,
)
from afterhack.model.vocab import GOOD_STANDING, OPEN_ACTION, SUPPORTING_CLAIM, SupportPolicy


@dataclass
class Outcome:
    flag: dict[str, list[FlagReason]] = field(default_factory=dict)
    hold: dict[str, ActionInfo] = field(default_factory=dict)
    stay: dict[str, list[PremiseSupport]] = field(default_factory=dict)
    fallen: set[str] = field(default_factory=set)


# The claims a correction refutes, each with its source (None for a source-less claim).
Refuted = Mapping[str, str | None]
NOTHING_REFUTED: Refuted = {}


def holding_claims(d: DecisionInfo, premise_uses: list[Use], refuted: Refuted,
                   policy: SupportPolicy) -> list[str]:
    # Sources of the refuted claims this premise cites: a claim from one of them is not
    # independent support for the refuted statement.
    shared = {refuted[u.claim_id] for u in premise_uses if u.claim_id in refuted} - {None}
    out = []
    for u in premise_uses:
        if u.claim_id in refuted or u.status not in SUPPORTING_CLAIM:
            continue
        if policy == "independent" and u.source_id in shared:
            continue
        out.append(u.claim_id)
    return out


def relabel(snap: Snapshot, *, refuted: Refuted, policy: SupportPolicy,
            fallen_roots: frozenset[str] = frozenset()) -> Outcome:
    region = snap.decisions
    support: dict[str, list[PremiseSupport]] = {}
    lost: dict[str, list[PremiseLost]] = {}
    for d in region.values():
        support[d.id], lost[d.id] = [], []
        for premise, uses in d.premises().items():
            held = holding_claims(d, uses, refuted, policy)
            if held:
                support[d.id].append({"premise": premise, "claim_ids": held})
            else:
                lost[d.id].append({"type": "premise_lost", "premise": premise,
                                   "claim_ids": sorted(u.claim_id for u in uses)})

    def eligible(d: DecisionInfo) -> bool:
        return (d.id not in fallen_roots and d.status in GOOD_STANDING and not lost[d.id]
                and bool(d.uses))

    admitted: set[str] = set()
    changed = True
    while changed:
        changed = False
        for d in region.values():
            if d.id in admitted or not eligible(d):
                continue
            if all((u.decision_id in admitted) if u.decision_id in region
                   else (u.status in GOOD_STANDING) for u in d.ups):
                admitted.add(d.id)
                changed = True

    out = Outcome()
    out.fallen = set(region) - admitted
    for d in region.values():
        if d.id in admitted:
            out.stay[d.id] = support[d.id]
            continue
        if d.status not in GOOD_STANDING or d.id in fallen_roots:
            continue  # already fallen (or the decision being rejected): nothing to flag
        reasons: list[FlagReason] = [*lost[d.id]]
        reasons += [{"type": "upstream_fell", "decision_id": u.decision_id} for u in d.ups
                    if (u.decision_id not in admitted if u.decision_id in region
                        else u.status not in GOOD_STANDING)]
        out.flag[d.id] = reasons
    for a in snap.actions.values():
        # An action of the decision being rejected is cancelled by the rejection, not held.
        if (a.status in OPEN_ACTION and any(x in out.fallen for x in a.decision_ids)
                and not any(x in fallen_roots for x in a.decision_ids)):
            out.hold[a.id] = a
    return out
