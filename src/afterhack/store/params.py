"""Query parameters as the `CYPHER name=value ...` header FalkorDB reads in front of a query.

Values are written as the client library writes them (strings quoted and escaped, maps with
backquoted keys), except vectors: a ``Floats`` is written with seven significant digits, a
float32's precision, by one format call per number instead of the library's per-value type
dispatch, which was most of the cost of sending a 384-number vector.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from falkordb.helpers import stringify_param_value

_DIGITS = "{:.7g}".format


class Floats(list[float]):
    """A vector: sent with seven significant digits (what FalkorDB's vecf32 keeps anyway)."""


def _quoted(v: str) -> str:
    # As the client library quotes a string: backslashes and double quotes escaped.
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def param_text(value: Any) -> str:
    # The common types first, by exact type: an ingest's parameters are tens of thousands
    # of strings and numbers, and the library's per-value dispatch was a visible part of it.
    t = type(value)
    if t is str:
        return _quoted(value)
    if t is int or t is float:
        return str(value)
    if value is None:
        return "null"
    if t is Floats:
        return "[" + ",".join(map(_DIGITS, value)) + "]"
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            key = str(k)
            if not key or "`" in key:
                raise ValueError(f"not a Cypher map key: {key!r}")
            parts.append(f"`{key}`:{param_text(v)}")
        return "{" + ",".join(parts) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(map(param_text, value)) + "]"
    return str(stringify_param_value(value))


def params_header(params: Mapping[str, Any]) -> str:
    # Names are this package's constants, backquoted.
    return "CYPHER " + "".join(f"`{k}`={param_text(v)} " for k, v in params.items())
