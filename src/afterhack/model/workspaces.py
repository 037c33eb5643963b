"""Workspaces, their keys, and a workspace exported as data."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from afterhack.model.vocab import DiskState, ForgetRequests, KeyRole, UpdatesPolicy


class WorkspaceRow(TypedDict):
    id: str
    name: str
    revision: int
    created_at: int
    # How a newer statement by the same speaker is taken (docs/rules.md, rule 11): a
    # conflict for a reviewer, or it supersedes the older one at once.
    updates: UpdatesPolicy
    # How a speaker's request to forget is taken (docs/rules.md, rule 22): a request for a
    # reviewer, or applied at once.
    forget_requests: ForgetRequests


class WorkspaceDeletion(TypedDict):
    """A deleted workspace, as the registry remembers it: its id and times, nothing of what
    it held (its name went with it). ``disk`` is ``clean`` once FalkorDB's files on every
    node were rewritten after the graph was deleted."""

    id: str
    requested_at: int
    deleted_at: int | None  # None while the deletion is under way
    disk: DiskState
    disk_clean_at: int | None


class ApiKeyRow(TypedDict):
    id: str
    workspace_id: str
    role: KeyRole
    name: str
    created_at: int
    revoked_at: int | None


class NewApiKey(ApiKeyRow):
    key: str  # the secret: shown this once, stored only as its hash


# A property as FalkorDB stores it: a scalar or a list of them (no maps, no nulls).
Scalar = str | bool | int | float
Properties = dict[str, Scalar | list[Scalar]]


class ExportNode(TypedDict):
    labels: list[str]  # one label
    properties: Properties


class ExportEdge(TypedDict):
    type: str
    source: str  # node ids
    target: str
    properties: Properties


class GraphSnapshot(TypedDict):
    """Every node and edge of a workspace graph, sorted so equal graphs give equal lists."""

    nodes: list[ExportNode]
    edges: list[ExportEdge]


EXPORT_FORMAT = "afterhack-export/1"


class ExportDocument(GraphSnapshot):
    format: Literal["afterhack-export/1"]
    workspace: WorkspaceRow
