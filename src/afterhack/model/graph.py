"""The workspace drawn as a graph: the product view a person reads and the internal one."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from afterhack.model.vocab import (
    ActionStatus,
    ClaimStatus,
    ConfidenceKind,
    ConflictKind,
    ConflictStatus,
    CorrectionNodeKind,
    DecisionStatus,
)
from afterhack.model.workspaces import Properties, Scalar

# What the product view's edges mean: provenance runs left to right, source to action.
# CONFLICTS: between claims of two sides of an open conflict, the newest value to each
# other one (the UI draws it dashed).
ProductEdgeType = Literal["SUPPORTS", "REPLACES", "CORRECTS", "INFORMS", "ENABLES",
                          "CONFLICTS"]
ProductNodeType = Literal["source", "correction", "claim", "decision", "action"]


class SourceNodeRow(TypedDict):
    id: str
    title: str | None
    origin_type: str
    latest_version: int


class ClaimNodeRow(TypedDict):
    id: str
    statement: str
    status: ClaimStatus
    confidence_kind: ConfidenceKind
    source_id: str
    revision: int
    replaces: list[str]


class CorrectionNodeRow(TypedDict):
    id: str
    statement: str
    kind: CorrectionNodeKind
    reviewer: str
    claim_id: str
    claim_ids: list[str]  # every claim it corrects: the one named and its twins
    replacement_id: str | None


class ConflictMember(TypedDict):
    claim_id: str
    side: str  # the side (value) the claim is on


class ConflictEdgeRow(TypedDict):
    id: str
    kind: ConflictKind
    reason: str
    status: ConflictStatus
    members: list[ConflictMember]  # its claims (that had joined it at the moment)


class DecisionNodeRow(TypedDict):
    id: str
    title: str
    status: DecisionStatus
    revision: int
    created_at: int
    run_id: str | None  # the agent run that made it: the same question asked twice differs
    claim_ids: list[str]
    depends_on: list[str]


class ActionNodeRow(TypedDict):
    id: str
    description: str
    status: ActionStatus
    revision: int
    held_from: ActionStatus | None
    decision_ids: list[str]


class ProductRows(TypedDict):
    sources: list[SourceNodeRow]
    claims: list[ClaimNodeRow]
    corrections: list[CorrectionNodeRow]
    conflicts: list[ConflictEdgeRow]
    decisions: list[DecisionNodeRow]
    actions: list[ActionNodeRow]


class InternalNodeRow(TypedDict):
    id: str
    label: str
    props: Properties


class InternalEdgeRow(TypedDict):
    source: str
    target: str
    type: str
    props: Properties


class InternalRows(TypedDict):
    nodes: list[InternalNodeRow]
    edges: list[InternalEdgeRow]


# What a node of either view carries besides its label: properties by name.
NodeData = dict[str, Scalar | list[Scalar] | None]


class ViewNode(TypedDict):
    id: str
    type: str  # a ProductNodeType, or in the internal view the node's label
    label: str
    status: str | None
    data: NodeData


class ViewEdge(TypedDict):
    id: str
    source: str
    target: str
    type: str  # a ProductEdgeType, or in the internal view the edge's type
    # The internal view's: the edge's properties; a CONFLICTS edge's: {conflict_id, kind,
    # reason, status}.
    data: NotRequired[Properties]


# What a graph read counts: the product view's kinds, or every stored node in the internal one.
CountedKind = Literal["source", "correction", "claim", "decision", "action", "node"]


class KindTotal(TypedDict):
    """How many nodes of one kind the view draws, out of how many the workspace holds."""

    type: CountedKind
    drawn: int
    total: int


class GraphView(TypedDict):
    view: Literal["product", "internal"]
    nodes: list[ViewNode]
    edges: list[ViewEdge]
    truncated: bool  # a kind of node reached the limit: there is more
    totals: list[KindTotal]  # per kind; total is counted only where the limit was reached


# What the time control marks on the workspace's history (store/asof_graph.timeline).
TimelineKind = Literal["source_added", "source_versioned", "run", "correction",
                       "conflict_raised", "conflict_resolved", "conflict_dismissed"]


class TimelineEvent(TypedDict):
    at: int  # epoch ms
    kind: TimelineKind
    subject_id: str | None  # the source, run, corrected claim or conflict
    label: str | None  # its title, task, corrected statement or reason


class Timeline(TypedDict):
    events: list[TimelineEvent]
    now: int  # the time of the read: the right end of the time control
