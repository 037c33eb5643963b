"""The moment a read is taken at: now, or as of an earlier time (docs/rules.md, rule 10).
Every view is one query text built from the pieces below, so its read now and its read as
of a time cannot drift apart.

Now, each piece is the plain property (``c.status``) or nothing at all, so a read now is
the cheap query it would be without history. As of a time (the parameter ``$as_of``, epoch
ms), each piece reads what store/history.py keeps:

- a node created after the time did not exist then (``exists``);
- its status is the one its history says it had then (``status``, ``status_in``), and a
  held action's ``held_from`` is read from there too;
- a source's latest version is the last of its versions made by then;
- an edge added by a later change is recognised by that change: a claim replaced
  (SUPERSEDES) only once it was retired, so such an edge counts only when its target was
  retired then (``retired``), a correction only once it was made, a conflict only once it
  was raised (their nodes' own existence), a claim of a conflict only once it joined it
  (``joined``).

A view builds its text once per kind of moment (``At``: ``NOW`` or ``THEN``), so its text is
the same on every call and FalkorDB's cached plan is reused
(docs/decisions/0025-one-text-for-now-and-as-of.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from afterhack.store.cypher import RETIRED
from afterhack.store.history import (
    HISTORY_LABELS,
    changed_since,
    held_from_at,
    history_expr,
    index_at,
    since_expr,
    status_at,
    status_at_in,
)


def _has_history(var: str) -> str:
    """A condition: the node is of a label whose status is kept with its history."""
    return " OR ".join(f"{var}:{label}" for label in HISTORY_LABELS)


def where(*conditions: str) -> str:
    """A WHERE clause (with the space before it) of the conditions that are not empty;
    nothing when none is."""
    kept = [c for c in conditions if c]
    return " WHERE " + " AND ".join(kept) if kept else ""


def both(*conditions: str) -> str:
    """The conditions that are not empty, joined by AND (after a WHERE with others)."""
    return "".join(f" AND {c}" for c in conditions if c)


@dataclass(frozen=True)
class At:
    """The Cypher pieces of one kind of moment: now, or as of ``$as_of``."""

    now: bool

    def exists(self, var: str) -> str:
        """A condition: the node existed at the moment (empty now: every node does)."""
        return "" if self.now else f"{var}.created_at <= $as_of"

    def existed(self, var: str) -> str:
        """``exists`` for a node of any label (an audit event's time is its ``at``)."""
        return "" if self.now else f"coalesce({var}.created_at, {var}.at) <= $as_of"

    def status(self, var: str) -> str:
        """The node's status at the moment (null as of a time before it existed)."""
        return f"{var}.status" if self.now else status_at(var)

    def status_in(self, var: str, statuses: str) -> str:
        """A condition: the node existed with a status in the list ``statuses``."""
        return f"{var}.status IN {statuses}" if self.now else status_at_in(var, statuses)

    def match_status(self, var: str, label: str, statuses: str) -> str:
        """A MATCH of the nodes of ``label`` that existed at the moment with a status in
        ``statuses``, ending in a WHERE that more conditions may follow (`` AND ...``).
        Now, the status index (on the shared label Node) finds them; a status then is in
        no index, so as of a time the label's own nodes are read (through Node, every node
        of the graph would be)."""
        if self.now:
            return f"MATCH ({var}:Node) WHERE {var}:{label} AND {var}.status IN {statuses}"
        return f"MATCH ({var}:{label}) WHERE {status_at_in(var, statuses)}"

    def joined(self, edge: str) -> str:
        """A condition: the claim an edge ``edge`` of a conflict joins had joined it at the
        moment (empty now). An edge without its time (a pair raised before conflicts were
        disputes) is as old as its conflict, which the read checks for itself."""
        return "" if self.now else f"coalesce({edge}.at, 0) <= $as_of"

    def held_from(self, var: str) -> str:
        """What a held action would return to, at the moment."""
        return f"{var}.held_from" if self.now else held_from_at(var)

    def changed_since(self, var: str) -> str:
        """Whether the node's status changed after the moment (never, now)."""
        return "false" if self.now else changed_since(var)

    def latest_version(self, var: str) -> str:
        """A source's latest version at the moment: its versions are numbered from 1."""
        return (f"{var}.latest_version" if self.now else
                f"size([({var})-[:HAS_VERSION]->(sv:SourceVersion) "
                "WHERE sv.created_at <= $as_of | sv])")

    def retired(self, status: str) -> str:
        """A condition on the target of a SUPERSEDES edge, given its status at the moment:
        the edge counts only once the target was retired (empty now: every edge stands)."""
        return "" if self.now else f"{status} IN {RETIRED}"

    def edge_counts(self, edge: str, target: str) -> str:
        """A condition on any edge ``edge`` to ``target``: a SUPERSEDES edge counts only
        once its target was retired (``retired``)."""
        return "" if self.now else (
            f"(type({edge}) <> 'SUPERSEDES' OR {self.retired(status_at(target))})")

    def history_index(self, var: str) -> str:
        """A WITH (with the space before it) of the index in its history of the node's
        status at the moment (``i``) for the internal view; nothing now (the node's own
        lists are its history)."""
        return "" if self.now else (
            f" WITH {var}, CASE WHEN {_has_history(var)} "
            f"THEN {index_at(var)} END AS i")

    def history(self, var: str) -> str:
        """The columns ``history`` and ``since``: the node's status history up to the
        moment, where ``history_index`` found one; null now."""
        if self.now:
            return "null AS history, null AS since"
        return (f"CASE WHEN i IS NULL THEN NULL ELSE {history_expr(var)}[..i + 1] END "
                "AS history, "
                f"CASE WHEN i IS NULL THEN NULL ELSE {since_expr(var)}[..i + 1] END AS since")


NOW = At(now=True)
THEN = At(now=False)


@dataclass(frozen=True)
class Moment:
    """A read's moment: now (``as_of`` None), or as of that time (epoch ms)."""

    as_of: int | None = None

    @property
    def at(self) -> At:
        return NOW if self.as_of is None else THEN

    @property
    def now(self) -> bool:
        return self.as_of is None

    def params(self, **others: Any) -> dict[str, Any]:
        """The query's parameters: ``others`` and, as of a time, ``as_of``."""
        return others if self.as_of is None else {**others, "as_of": self.as_of}
