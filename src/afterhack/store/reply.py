"""FalkorDB's replies, read into named types: a query's columns, rows and statistics; the
values of its compact format; the cluster's redirections and slot map.

``--compact`` replies carry every value as ``[type, value]`` and graph entities by numeric
ids of their labels, relationship types and property names; those names are looked up in
the graph's schema (``Schema``), which the store reads when a reply needs it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from afterhack.store.resp import ReplyError


class ValueType(IntEnum):
    """The type tag of a value in a compact reply."""

    UNKNOWN = 0
    NULL = 1
    STRING = 2
    INTEGER = 3
    BOOLEAN = 4
    DOUBLE = 5
    ARRAY = 6
    EDGE = 7
    NODE = 8
    PATH = 9
    MAP = 10
    POINT = 11
    VECTORF32 = 12
    DATETIME = 13
    DATE = 14
    TIME = 15
    DURATION = 16


@dataclass(frozen=True)
class Node:
    id: int
    labels: list[str]
    properties: dict[str, Any]


@dataclass(frozen=True)
class Edge:
    id: int
    relation: str
    src_node: int
    dest_node: int
    properties: dict[str, Any]


@dataclass(frozen=True)
class Path:
    nodes: list[Node]
    edges: list[Edge]


@dataclass(frozen=True)
class Schema:
    """A graph's names by id, as ``db.labels()``, ``db.relationshipTypes()`` and
    ``db.propertyKeys()`` list them."""

    labels: tuple[str, ...] = ()
    relationship_types: tuple[str, ...] = ()
    property_keys: tuple[str, ...] = ()


class NeedsSchema(Exception):
    """A reply names a label, type or property id that the schema at hand does not have."""


STAT_NAMES = {"Nodes created": "nodes_created", "Relationships created": "relationships_created",
              "Cached execution": "cached_execution", "Properties set": "properties_set",
              "Nodes deleted": "nodes_deleted"}


@dataclass(frozen=True)
class QueryReply:
    """A successful query's reply: column names, raw rows (decoded by ``decode``) and
    statistics."""

    columns: list[str]
    raw_rows: list[list[Any]]
    stats: dict[str, float] = field(default_factory=dict)

    @classmethod
    def parse(cls, reply: list[Any]) -> QueryReply:
        """Raises the ReplyError a query failed with at run time (it was rolled back)."""
        if reply and isinstance(reply[-1], ReplyError):
            raise reply[-1]
        if len(reply) == 1:
            return cls([], [], parse_stats(reply[0]))
        return cls([h[1] for h in reply[0]], reply[1], parse_stats(reply[-1]))

    def rows(self, schema: Schema | None = None) -> list[dict[str, Any]]:
        """The rows as dicts; raises NeedsSchema when a graph entity needs ``schema``."""
        cols = self.columns
        out: list[dict[str, Any]] = []
        for r in self.raw_rows:
            row: dict[str, Any] = {}
            # Strings, integers and nulls are most cells: kept inline (a reply of a page of
            # claims is read much faster than with a call per cell).
            for col, cell in zip(cols, r, strict=True):
                t = cell[0]
                if t in _AS_IS:
                    row[col] = cell[1]
                elif t == _NULL:
                    row[col] = None
                else:
                    row[col] = decode(cell, schema)
            out.append(row)
        return out


# The tags as plain ints: comparing an int with an IntEnum member costs a lookup per test.
_ARRAY = int(ValueType.ARRAY)
_BOOLEAN = int(ValueType.BOOLEAN)
_DATE = int(ValueType.DATE)
_DATETIME = int(ValueType.DATETIME)
_DOUBLE = int(ValueType.DOUBLE)
_DURATION = int(ValueType.DURATION)
_EDGE = int(ValueType.EDGE)
_INTEGER = int(ValueType.INTEGER)
_MAP = int(ValueType.MAP)
_NODE = int(ValueType.NODE)
_PATH = int(ValueType.PATH)
_POINT = int(ValueType.POINT)
_STRING = int(ValueType.STRING)
_TIME = int(ValueType.TIME)
_VECTORF32 = int(ValueType.VECTORF32)
_NULL = int(ValueType.NULL)
_AS_IS = frozenset((_STRING, _INTEGER))


def parse_stats(raw: list[str]) -> dict[str, float]:
    out = dict.fromkeys(STAT_NAMES.values(), 0.0)
    for line in raw:
        name, _, rest = line.partition(": ")
        key = STAT_NAMES.get(name)
        if key is not None:
            out[key] = float(rest.split(" ")[0])
    return out


def decode(cell: list[Any], schema: Schema | None = None) -> Any:
    """One ``[type, value]`` of a compact reply as a Python value."""
    t, v = cell
    if t in _AS_IS:
        return v
    if t == _NULL:
        return None
    if t == _MAP:  # key, [type, value], key, ...
        return {v[i]: decode(v[i + 1], schema) for i in range(0, len(v), 2)}
    if t == _ARRAY:
        return [decode(x, schema) for x in v]
    if t == _BOOLEAN:
        return v == "true"
    if t == _DOUBLE:
        return float(v)
    if t == _VECTORF32:
        return [float(x) for x in v]
    if t == _POINT:
        return {"latitude": float(v[0]), "longitude": float(v[1])}
    if t == _DATETIME:
        return dt.datetime.fromtimestamp(int(v), tz=dt.UTC)
    if t == _DATE:
        return dt.datetime.fromtimestamp(int(v), tz=dt.UTC).date()
    if t == _TIME:
        return dt.datetime.fromtimestamp(int(v), tz=dt.UTC).time()
    if t == _DURATION:
        return dt.timedelta(seconds=int(v))
    if t == _NODE:
        return _node(v, schema)
    if t == _EDGE:
        return _edge(v, schema)
    if t == _PATH:
        return Path(nodes=decode(v[0], schema), edges=decode(v[1], schema))
    raise ValueError(f"FalkorDB sent a value of unknown type {t}")


def _name(names: tuple[str, ...] | None, i: int) -> str:
    if names is None or i >= len(names):
        raise NeedsSchema
    return names[i]


def _props(raw: list[list[Any]], schema: Schema | None) -> dict[str, Any]:
    keys = schema.property_keys if schema else None
    return {_name(keys, k): decode([t, v], schema) for k, t, v in raw}


def _node(v: list[Any], schema: Schema | None) -> Node:
    node_id, label_ids, props = v
    labels = schema.labels if schema else None
    return Node(node_id, [_name(labels, i) for i in label_ids], _props(props, schema))


def _edge(v: list[Any], schema: Schema | None) -> Edge:
    edge_id, type_id, src, dst, props = v
    types = schema.relationship_types if schema else None
    return Edge(edge_id, _name(types, type_id), src, dst, _props(props, schema))


@dataclass(frozen=True)
class Redirect:
    """``MOVED slot host:port`` (the slot lives there now) or ``ASK`` (for this one command)."""

    ask: bool
    slot: int
    host: str
    port: int

    @classmethod
    def of(cls, err: ReplyError) -> Redirect | None:
        msg = str(err)
        kind, _, rest = msg.partition(" ")
        if kind not in ("MOVED", "ASK"):
            return None
        slot, _, address = rest.partition(" ")
        host, _, port = address.rpartition(":")
        return cls(kind == "ASK", int(slot), host, int(port))


# Error replies that mean "not now" rather than "not this": the server is loading, out of
# memory, a replica asked to write, or the cluster is re-forming after a failure.
TRANSIENT_PREFIXES = ("LOADING", "OOM", "READONLY", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN")


def is_transient(err: ReplyError | str) -> bool:
    return str(err).startswith(TRANSIENT_PREFIXES)


@dataclass(frozen=True)
class SlotRange:
    """One row of ``CLUSTER SLOTS``: a range of slots, its master and its replicas."""

    first: int
    last: int
    master: tuple[str, int]
    replicas: tuple[tuple[str, int], ...]

    @classmethod
    def parse_all(cls, reply: list[Any], seed_host: str) -> list[SlotRange]:
        out = []
        for first, last, *nodes in reply:
            addrs = tuple(_address(n, seed_host) for n in nodes)
            out.append(cls(int(first), int(last), addrs[0], addrs[1:]))
        return out


def _address(node: list[Any], seed_host: str) -> tuple[str, int]:
    # A node that does not know its own address reports "" (or "?"): it is the seed's.
    host = node[0] if node[0] not in ("", "?", None) else seed_host
    return str(host), int(node[1])


def info_fields(text: str) -> Mapping[str, str]:
    """``INFO`` or ``CLUSTER INFO`` text as a mapping of its ``name:value`` lines."""
    return dict(line.partition(":")[::2] for line in text.splitlines() if ":" in line)
