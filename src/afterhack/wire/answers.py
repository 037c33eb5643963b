"""The answers only the transports give: pages of records, and the service's own health.
(The pages the domain builds, with a cursor, are records: model/pages.py.)

Every other answer is a record of afterhack.model, sent as the domain returns it; these wrap
records in a page or say how the service is. They are TypedDicts like the records, so a
route's return type is its OpenAPI response schema (and, generated from it, the UI's type).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypeAliasType, TypedDict

from afterhack.memory.prov import ProvDocument
from afterhack.model.workspaces import ApiKeyRow


class Pong(TypedDict):
    pong: Literal[True]


class FalkorDBHealth(TypedDict):
    reachable: bool
    mode: Literal["embedded", "external"]
    # Why not reachable: not_answering (connected but silent, e.g. frozen), unreachable,
    # loading, restarting, error; None when reachable.
    reason: str | None
    # Times the app started its embedded FalkorDB again since it started: after an exit,
    # and (stuck_restarts, counted in both) after it stopped answering while alive.
    restarts: int
    stuck_restarts: int


class ModelHealth(TypedDict):
    # Never the gateway's address or key: only whether one is configured, and its model.
    mode: Literal["offline", "gateway"]
    name: str


class Health(TypedDict):
    status: Literal["ok", "degraded"]
    falkordb: FalkorDBHealth
    model: ModelHealth


class ApiKeyList(TypedDict):
    items: list[ApiKeyRow]  # never the keys themselves


# An export in the ``prov`` format: the W3C's document, whose fields are the standard's.
ProvExport = TypeAliasType("ProvExport", Annotated[ProvDocument, Field(
    description="W3C PROV-JSON: a prefix map, then records by kind (entity, activity, "
                "agent, wasDerivedFrom, used, ...) and by identifier.")])
