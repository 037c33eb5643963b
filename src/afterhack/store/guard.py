"""The guard every repair write starts with, and the flags and holds it writes.

The write is guarded: it re-checks, inside the query, every revision and count the repair
was computed from (model/region.Stamps: each decision of the region and how many decisions
and actions hang off it, their actions, the claims they cite, the decisions they build on).
If anything moved, the query writes nothing and returns no row, so the caller answers 409
instead of repairing from a stale picture. FalkorDB runs each query atomically, so a crash
leaves all or nothing.
"""

from __future__ import annotations

from typing import TypedDict

from afterhack.model.region import DecisionStamp, Stamps
from afterhack.store.history import change
from afterhack.store.rows import of

# The counts the guard re-checks of each decision, by DecisionStamp's field: a new one is
# declared in the stamp and here, and the guard below follows.
_COUNTS = {
    "n_dependents": "size([(gd)<-[e:DEPENDS_ON]-(:Decision) | e])",
    "n_actions": "size([(gd)<-[r:REQUIRES]-(:Action) | r])",
}
assert ("id", "revision", *_COUNTS) == DecisionStamp._fields


class StampRow(TypedDict):
    id: str
    revision: int


class DecisionStampRow(StampRow):
    n_dependents: int
    n_actions: int


_DECISION_STAMP = of(DecisionStampRow)


class GuardParams(TypedDict):
    g_decisions: list[DecisionStampRow]
    g_actions: list[StampRow]
    g_claims: list[StampRow]
    g_ups: list[StampRow]


def guard_params(stamps: Stamps) -> GuardParams:
    """The stamps as the guard's parameters."""
    return GuardParams(
        # Field by field from the stamp, so a count added to it reaches the guard by itself.
        g_decisions=[_DECISION_STAMP.one(d._asdict()) for d in stamps.decisions],
        g_actions=[{"id": k, "revision": v} for k, v in stamps.actions.items()],
        g_claims=[{"id": k, "revision": v} for k, v in stamps.claims.items()],
        g_ups=[{"id": k, "revision": v} for k, v in stamps.upstream.items()],
    )


# Each list must match entirely, or the WHERE leaves no row and nothing is written.
GUARD = f"""
CALL {{
  UNWIND $g_decisions AS want
  MATCH (gd:Node {{id: want.id}}) WHERE gd:Decision
  WITH gd, want, {", ".join(f"{expr} AS {name}" for name, expr in _COUNTS.items())}
  WHERE gd.revision = want.revision{"".join(f" AND {name} = want.{name}" for name in _COUNTS)}
  RETURN count(gd) AS ok_decisions
}}
CALL {{
  UNWIND $g_actions AS want
  MATCH (ga:Node {{id: want.id}}) WHERE ga:Action AND ga.revision = want.revision
  RETURN count(ga) AS ok_actions
}}
CALL {{
  UNWIND $g_claims AS want
  MATCH (gc:Node {{id: want.id}}) WHERE gc:Claim AND gc.revision = want.revision
  RETURN count(gc) AS ok_claims
}}
CALL {{
  UNWIND $g_ups AS want
  MATCH (gu:Node {{id: want.id}}) WHERE gu:Decision AND gu.revision = want.revision
  RETURN count(gu) AS ok_ups
}}
WITH ok_decisions, ok_actions, ok_claims, ok_ups
WHERE ok_decisions = size($g_decisions) AND ok_actions = size($g_actions)
  AND ok_claims = size($g_claims) AND ok_ups = size($g_ups)
"""


# Flags and holds computed from the guarded snapshot ($flags, $holds: a Repair), at $now.
FLAG_AND_HOLD = """
WITH *
CALL {
  UNWIND $flags AS f
  MATCH (fd:Node {id: f.id}) WHERE fd:Decision
  SET """ + change("fd", "'needs_review'") + """, fd.revision = fd.revision + 1,
      fd.review_reason = f.reason
  RETURN count(fd) AS n_flagged
}
CALL {
  UNWIND $holds AS h
  MATCH (ha:Node {id: h}) WHERE ha:Action
  SET ha.held_from = ha.status, """ + change("ha", "'held'") + """,
      ha.revision = ha.revision + 1
  RETURN count(ha) AS n_held
}
"""



# The other current claims of the statements a correction reaches must be exactly those
# previewed: no new copy ingested, none changed or newly used since ($guard_keys: the
# corrected statement's key and those of the claims stating it in other words; $claim_id;
# $guard_rows: [id, revision, users] of each). Put after GUARD.
TWINS_GUARD = """
CALL {
  UNWIND $guard_keys AS gk
  MATCH (tw:Node {statement_key: gk})
  WHERE tw:Claim AND tw.status IN ['proposed', 'accepted'] AND tw.id <> $claim_id
  WITH tw, size([(tw)<-[tu:USED_CLAIM]-(:Decision) | tu]) AS n_tw_users
  RETURN collect([tw.id, tw.revision, n_tw_users]) AS twin_state
}
WITH twin_state
WHERE size(twin_state) = size($guard_rows) AND all(x IN twin_state WHERE x IN $guard_rows)
"""
