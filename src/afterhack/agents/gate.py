"""The evidence gate: a search hit is not evidence by itself.

A claim may be cited only if, in this run, a search returned it AND its source fragments
were retrieved. The gate runs in code on whatever the model returns, so an invented id, an
id remembered from another run, or a claim whose sources were never read is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from afterhack.model.runs import Dropped
from afterhack.model.vocab import GateDropReason

NO_ANSWER_TITLE = "No source-backed answer yet"
DEFAULT_PREMISE = "main"
_MAX_PREMISES = 20
_MAX_ACTIONS = 10
_MAX_TEXT = 2000


@dataclass
class Evidence:
    """What one run has seen; never shared between runs."""

    searched: dict[str, None] = field(default_factory=dict)  # ordered set
    retrieved: dict[str, None] = field(default_factory=dict)

    def saw(self, ids: list[str]) -> None:
        self.searched.update(dict.fromkeys(ids))

    def read(self, ids: list[str]) -> None:
        self.retrieved.update(dict.fromkeys(ids))

    def allowed(self) -> list[str]:
        return [i for i in self.searched if i in self.retrieved]


@dataclass
class Premise:
    statement: str
    claim_ids: list[str]


@dataclass
class Gated:
    answer: str
    claim_ids: list[str]
    premises: list[Premise]
    actions: list[str]
    dropped: list[Dropped]

    @property
    def empty(self) -> bool:
        return not self.claim_ids


def _reason(claim_id: str, ev: Evidence) -> GateDropReason:
    if claim_id not in ev.searched:
        return "not_searched"
    return "not_retrieved"


def _ids(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str)]


def _text(value: object, default: str = "") -> str:
    return value.strip()[:_MAX_TEXT] if isinstance(value, str) and value.strip() else default


# A claim's statement key and statement, for grouping claims into premises.
Statements = Mapping[str, tuple[str, str]]


def default_premises(cited: list[str], statements: Statements) -> list[Premise]:
    """One premise per distinct fact (docs/rules.md, rule 5): claims with the same statement key are
    alternatives within one premise, named by its statement; every other claim is a premise
    of its own, so a decision rests on all the distinct facts it cites."""
    groups: dict[str, Premise] = {}
    for c in cited:
        key, statement = statements.get(c, (c, DEFAULT_PREMISE))
        if key not in groups:
            groups[key] = Premise(_text(statement, DEFAULT_PREMISE)[:500], [])
        groups[key].claim_ids.append(c)
    return list(groups.values())


def gate(output: object, ev: Evidence, *, actions_key: str,
         statements: Statements | None = None) -> Gated:
    """Filter a proposal (or a Coordinator's output) down to what this run may cite.

    Premises keep only allowed claims; a premise left empty is dropped. With no premises
    given, the cited claims are grouped one premise per distinct fact (``statements``: the
    statement key and statement of each allowed claim).
    """
    out = output if isinstance(output, dict) else {}
    allowed = set(ev.allowed())
    dropped: dict[str, GateDropReason] = {}
    raw_invalid = 0

    def keep(ids: list[str]) -> list[str]:
        kept = []
        for i in ids:
            if i in allowed:
                kept.append(i)
            else:
                dropped.setdefault(i, _reason(i, ev))
        return list(dict.fromkeys(kept))

    claim_ids = keep(_ids(out.get("claim_ids")))
    premises: list[Premise] = []
    raw_premises = out.get("premises")
    if isinstance(raw_premises, list):
        for p in raw_premises[:_MAX_PREMISES]:
            if not isinstance(p, dict):
                raw_invalid += 1
                continue
            ids = keep(_ids(p.get("claim_ids")))
            if ids:
                premises.append(Premise(_text(p.get("statement"), f"premise {len(premises) + 1}"),
                                        ids))
    cited = list(dict.fromkeys(claim_ids + [i for p in premises for i in p.claim_ids]))
    if not premises and cited:
        premises = default_premises(cited, statements or {})
    actions: list[str] = []
    raw_actions = out.get(actions_key)
    if isinstance(raw_actions, list):
        for a in raw_actions[:_MAX_ACTIONS]:
            desc = a.get("description") if isinstance(a, dict) else a
            if _text(desc):
                actions.append(_text(desc))
    return Gated(
        answer=_text(out.get("answer") or out.get("summary")),
        claim_ids=cited,
        premises=unique_premise_labels(premises),
        actions=actions,
        dropped=[{"claim_id": k, "reason": v} for k, v in dropped.items()],
    )


def unique_premise_labels(premises: list[Premise]) -> list[Premise]:
    """Premises are grouped by label on the graph, so two premises must not share one."""
    seen: dict[str, int] = {}
    out = []
    for p in premises:
        n = seen.get(p.statement, 0)
        seen[p.statement] = n + 1
        out.append(Premise(p.statement if n == 0 else f"{p.statement} ({n + 1})", p.claim_ids))
    return out
