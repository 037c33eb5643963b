"""Commands about a graph rather than queries in it: its constraints and the memory it
takes. Labels and property names are constants of store/names.py, never user input."""

from __future__ import annotations

from typing import TypedDict

from afterhack.store.client import QueryFailed, Store
from afterhack.store.resp import ReplyError


class Constraint(TypedDict):
    type: str
    label: str
    properties: list[str]
    entitytype: str
    status: str  # UNDER CONSTRUCTION, OPERATIONAL or FAILED


async def list_constraints(store: Store, graph: str) -> list[Constraint]:
    rows = await store.run(
        graph, "CALL db.constraints() YIELD type, label, properties, entitytype, status "
        "RETURN type AS type, label AS label, properties AS properties, "
        "entitytype AS entitytype, status AS status", read_only=True, primary=True)
    return [Constraint(type=r["type"], label=r["label"], properties=list(r["properties"]),
                       entitytype=r["entitytype"], status=r["status"]) for r in rows]


async def create_unique_constraint(store: Store, graph: str, label: str, prop: str) -> None:
    """A unique constraint on ``label.prop`` (with the range index it needs); built by the
    server in the background (``list_constraints`` tells when it is operational)."""
    # Sent as a command, not a query: "already indexed" is expected here, not logged.
    try:
        reply = await store.command(graph, "GRAPH.QUERY", graph,
                                    f"CREATE INDEX FOR (n:{label}) ON (n.{prop})", "--compact")
        if reply and isinstance(reply[-1], ReplyError):
            raise QueryFailed(str(reply[-1]))
    except QueryFailed as exc:
        if "already indexed" not in str(exc):
            raise
    try:
        await store.command(graph, "GRAPH.CONSTRAINT", "CREATE", graph, "UNIQUE", "NODE",
                            label, "PROPERTIES", 1, prop)
    except QueryFailed as exc:
        if "already" not in str(exc).lower():
            raise


async def memory_usage(store: Store, graph: str) -> int:
    """Bytes FalkorDB reports for one graph (GRAPH.MEMORY USAGE), 0 when unknown."""
    reply = await store.command(graph, "GRAPH.MEMORY", "USAGE", graph, read=True)
    # A flat [name, value, ...] list; the unit is megabytes.
    pairs = dict(zip(reply[::2], reply[1::2], strict=False))
    mb = pairs.get("total_graph_sz_mb")
    return int(float(mb) * 1024 * 1024) if mb is not None else 0
