"""The words a workspace graph's records hold (docs/rules.md, rule 22): which properties
of which labels hold what people or models wrote, and the query clauses that replace an
erased string there by the marker, inside an erasure's one write, or count where it stands.
"""

from __future__ import annotations

from collections.abc import Sequence

from afterhack.store.client import Graph

# The properties of each label that hold words people or models wrote, and so may repeat an
# erased string. Everything else a node carries is an id, a status or kind from the
# vocabulary, a time, a number or a hash the erasure rewrites itself (tests/test_erasures.py
# checks that every string property of store/properties.py is one or the other).
RECORD_TEXT: dict[str, tuple[str, ...]] = {
    "Correction": ("statement", "reason", "reviewer"),
    "Conflict": ("reason", "settled_note", "dismiss_reason", "resolved_by"),
    "AgentRun": ("task", "error", "model_calls", "builds_on_skipped", "tool_log"),
    "Handoff": ("proposal", "dropped", "tool_calls"),
    "Decision": ("title", "summary", "premise_order", "review_reason", "support_history"),
    "Action": ("description",),
    "AuditEvent": ("detail",),
    "Erasure": ("reason",),
}
# The same for what sources hold. Their texts and quotes are rewritten by the plan, span by
# span, so offsets stay exact; these are the rest of their words.
SOURCE_TEXT: dict[str, tuple[str, ...]] = {
    "Source": ("title", "origin_name"),
    "SourceVersion": ("model_calls", "file_name"),
    "SourceFragment": ("origin_name", "speaker", "section", "error"),
    "Claim": ("said_by", "terms"),
}
# Rewritten by the plan itself: a string found in one of these that the plan did not
# expect makes the apply stale.
PLANNED_TEXT: dict[str, tuple[str, ...]] = {
    "SourceVersion": ("text",),
    "SourceFragment": ("text",),
    "Claim": ("statement", "evidence_quote", "statement_key"),
}
EDGE_TEXT: dict[str, tuple[str, ...]] = {"USED_CLAIM": ("premise",)}
# Lists of strings among them.
LISTS = frozenset({("AgentRun", "tool_log"), ("Decision", "support_history"),
                   ("Claim", "terms")})


def _holds(var: str, prop: str, listed: bool) -> str:
    if listed:
        return f"any(t IN {var}.{prop} WHERE t CONTAINS x)"
    return f"{var}.{prop} CONTAINS x"


def _condition(var: str, label: str, props: Sequence[str], needles: str) -> str:
    held = " OR ".join(_holds(var, p, (label, p) in LISTS) for p in props)
    return f"any(x IN {needles} WHERE {held})"


def _replaced(expr: str, needles: str) -> str:
    return f"reduce(s = {expr}, x IN {needles} | replace(s, x, $marker))"


def _assignments(var: str, label: str, props: Sequence[str], needles: str) -> str:
    out = []
    for p in props:
        if (label, p) in LISTS:
            out.append(f"{var}.{p} = [t IN {var}.{p} | {_replaced('t', needles)}]")
        else:
            out.append(f"{var}.{p} = {_replaced(f'{var}.{p}', needles)}")
    return ", ".join(out)


def _scrub_plan() -> list[tuple[str, str, Sequence[str], str]]:
    """(name, label or edge type, properties, needles parameter) of each scrub step."""
    steps: list[tuple[str, str, Sequence[str], str]] = []
    for label, props in RECORD_TEXT.items():
        steps.append((f"n_{label.lower()}", label, props, "$nd_records"))
    for label, props in SOURCE_TEXT.items():
        steps.append((f"n_{label.lower()}", label, props, "$nd_all"))
    return steps


def _scrub_clauses() -> tuple[str, list[str]]:
    """Every scrub step as a CALL of the apply query, and the names of their counts."""
    parts: list[str] = []
    names: list[str] = []
    for name, label, props, needles in _scrub_plan():
        held = _condition("sn", label, props, needles)
        parts.append(
            f"WITH *\nCALL {{\n  MATCH (sn:{label}) WHERE {held}\n"
            f"  SET {_assignments('sn', label, props, needles)}\n"
            f"  RETURN count(sn) AS {name}\n}}\n")
        names.append(name)
    for etype, props in EDGE_TEXT.items():
        name = f"e_{etype.lower()}"
        parts.append(
            f"WITH *\nCALL {{\n  MATCH ()-[se:{etype}]->() "
            f"WHERE {_condition('se', etype, props, '$nd_records')}\n"
            f"  SET {_assignments('se', etype, props, '$nd_records')}\n"
            f"  RETURN count(se) AS {name}\n}}\n")
        names.append(name)
    return "".join(parts), names


SCRUB, SCRUB_COUNTS = _scrub_clauses()


def _count_query() -> str:
    parts = []
    for _name, label, props, needles in _scrub_plan():
        parts.append(f"MATCH (sn:{label}) WHERE {_condition('sn', label, props, needles)} "
                     "RETURN count(sn) AS n")
    for etype, props in EDGE_TEXT.items():
        parts.append(f"MATCH ()-[se:{etype}]->() "
                     f"WHERE {_condition('se', etype, props, '$nd_records')} "
                     "RETURN count(se) AS n")
    return " UNION ALL ".join(parts)


_COUNT_RECORDS = _count_query()


async def count_records(g: Graph, nd_records: list[str], nd_all: list[str]) -> int:
    """How many records (besides what the plan rewrites itself) hold an erased string."""
    if not nd_records and not nd_all:
        return 0
    rows = await g.read(_COUNT_RECORDS, {"nd_records": nd_records, "nd_all": nd_all})
    return sum(int(r["n"]) for r in rows)
