"""Status history: every status a claim, decision, action or conflict has had, and when.

A node carries two parallel lists, ``status_history`` (each status it has had, oldest first)
and ``status_since`` (the time each began, epoch ms; a status ends where the next begins).
Every write of a status goes through ``born`` (in a CREATE) or ``change`` (in a SET), which
write the status and its history in the same clause of the same query: a change without its
history, or a history without its change, cannot be written.

The status a node had at time T is the last entry whose time is at or before T (so of two
changes in the same millisecond, the later one in the list is what a read at that
millisecond sees); a node created after T did not exist at T.

Graphs written before histories existed have nodes without the lists. They are read as
"this status since the node was created" (``history_expr``), and their first change writes
that reading down before appending to it, so no migration is needed and none can be half
done. (What such a node went through before the upgrade is not known.)
"""

from __future__ import annotations

from afterhack.model.vocab import NodeLabel

# The labels whose status is kept with its history.
HISTORY_LABELS: tuple[NodeLabel, ...] = ("Claim", "Decision", "Action", "Conflict")


def history_expr(var: str) -> str:
    """The node's history, or for a node written before histories, its status alone."""
    return f"coalesce({var}.status_history, [{var}.status])"


def since_expr(var: str) -> str:
    return f"coalesce({var}.status_since, [{var}.created_at])"


def born(status: str, now: str = "$now") -> str:
    """The map entries of a CREATE that give a new node its first status."""
    return f"status: {status}, status_history: [{status}], status_since: [{now}]"


def change(var: str, status: str, now: str = "$now") -> str:
    """The SET items that change a node's status and append it to its history.

    Put them in the same SET clause as the node's other changes: FalkorDB evaluates every
    item of one SET against the node as it was, so ``status`` may read other properties
    being changed in the same clause (a held action's ``held_from``). Times never go back:
    a change stamped earlier than the last one (clocks of two app processes disagreeing)
    takes the last one's time, so the history stays in order.
    """
    since = since_expr(var)
    return (f"{var}.status_history = {history_expr(var)} + [{status}], "
            f"{var}.status_since = {since} + "
            f"[CASE WHEN {since}[-1] > {now} THEN {since}[-1] ELSE {now} END], "
            f"{var}.status = {status}")


def index_at(var: str, t: str = "$as_of") -> str:
    """The index in the history of the status the node had at ``t``; null if it did not
    exist yet. (Counting the entries at or before ``t`` reads one list, not two: the
    cheapest form measured; a node without the lists has its one entry.)"""
    return (f"CASE WHEN {var}.created_at > {t} THEN null "
            f"WHEN {var}.status_since IS NULL THEN 0 "
            f"WHEN {var}.status_since[0] > {t} THEN null "
            f"ELSE size([x IN {var}.status_since WHERE x <= {t}]) - 1 END")


def status_at(var: str, t: str = "$as_of") -> str:
    """The status the node had at ``t``; null if it did not exist yet."""
    return (f"CASE WHEN {var}.created_at > {t} THEN null "
            f"WHEN {var}.status_since IS NULL THEN {var}.status "
            f"WHEN {var}.status_since[0] > {t} THEN null "
            f"ELSE {var}.status_history[size([x IN {var}.status_since WHERE x <= {t}]) - 1] END")


def status_at_in(var: str, statuses: str, t: str = "$as_of") -> str:
    """A WHERE condition: the node existed at ``t`` with a status in the list ``statuses``.

    Most nodes have not changed since ``t`` (or have no history, written before them): for
    them the current status is the answer, and the history is read only for the others. A
    filter over many nodes written this way, with no CASE and no coalesce, ran several
    times faster than one CASE over the whole history."""
    return (f"({var}.created_at <= {t} AND ((({var}.status_since IS NULL "
            f"OR {var}.status_since[-1] <= {t}) AND {var}.status IN {statuses}) "
            f"OR ({var}.status_since[-1] > {t} AND {var}.status_history[size([x IN "
            f"{var}.status_since WHERE x <= {t}]) - 1] IN {statuses})))")


def held_from_at(var: str, t: str = "$as_of") -> str:
    """What a held action would return to, as it was at ``t``: the status before it was
    held (null unless it was held then)."""
    i = index_at(var, t)
    return (f"CASE WHEN {status_at(var, t)} = 'held' AND {i} > 0 "
            f"THEN {var}.status_history[{i} - 1] END")


def changed_since(var: str, t: str = "$as_of") -> str:
    """Whether the node's status changed after ``t``."""
    return f"coalesce({var}.status_since[-1] > {t}, false)"
