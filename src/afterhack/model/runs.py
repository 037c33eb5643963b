"""Agent runs: the Analyst's tools and what they return, the trail a run leaves, and the
run as it is read back."""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import JsonValue
from typing_extensions import TypedDict

from afterhack.model.calls import ModelCallRecord
from afterhack.model.decisions import ActionRecord, DecisionView
from afterhack.model.vocab import ClaimStatus, DecisionStatus, GateDropReason, RunStatus


class SearchHit(TypedDict):
    """What search_claims shows the Analyst: a candidate, not evidence yet."""

    claim_id: str
    statement: str
    status: ClaimStatus
    open_conflict_ids: list[str]  # the open conflicts its statement is in


class FragmentText(TypedDict):
    """A fragment behind a claim, as the Analyst reads it."""

    fragment_id: str
    text: str
    origin_type: str
    origin_name: str | None
    quote_start: int
    quote_end: int
    start: int
    end: int


class ClaimSources(TypedDict):
    claim_id: str
    status: ClaimStatus | Literal["not_found"]
    fragments: list[FragmentText]  # empty unless the claim is current


class ToolCallLog(TypedDict):
    """One tool call on the run's trail, with the claim ids it returned (or cited)."""

    name: str
    arguments: dict[str, JsonValue]
    claim_ids: list[str]
    backed_off: NotRequired[bool]  # search_claims: the phrase found nothing
    # A call that was not run: a tool the model made up (unknown_tool), or arguments it
    # cannot be run with (malformed_arguments, with what the model sent in raw_arguments).
    error: NotRequired[str]
    raw_arguments: NotRequired[str]


class Dropped(TypedDict):
    """A claim id the evidence gate dropped, and why."""

    claim_id: str
    reason: GateDropReason


class SkippedDecision(TypedDict):
    """A decision a run was asked to build on but could not: it was not in good standing."""

    decision_id: str
    status: DecisionStatus


class RunRecord(TypedDict):
    id: str
    task: str
    status: RunStatus
    model: str
    created_at: int
    finished_at: int | None
    model_calls: list[ModelCallRecord]
    error: str | None
    builds_on: list[str]
    builds_on_skipped: list[SkippedDecision]
    valid_at: int | None  # the time the task was about: its searches found the claims valid then


class HandoffRecord(TypedDict):
    id: str
    seq: int
    from_role: str
    to_role: str
    proposal: JsonValue  # what the role handed on, as the model wrote it
    searched_claim_ids: list[str]
    retrieved_claim_ids: list[str]
    dropped_claim_ids: list[str]
    dropped: list[Dropped]
    tool_calls: list[ToolCallLog]


class StoredRun(TypedDict):
    """A run, its trail, and the decisions it produced (at most one)."""

    run: RunRecord
    handoffs: list[HandoffRecord]
    decision_ids: list[str]


class RunSummary(TypedDict):
    id: str
    task: str
    status: RunStatus
    model: str
    created_at: int
    decision_ids: list[str]


class OpenRunState(TypedDict):
    """What the gate needs of a run an outside agent drives: its task, and what it saw."""

    id: str
    status: RunStatus
    task: str
    model: str
    created_at: int
    builds_on: list[str]
    builds_on_skipped: list[SkippedDecision]
    searched: list[str]
    retrieved: list[str]
    tool_log: list[ToolCallLog]


class RunView(TypedDict):
    run: RunRecord
    handoffs: list[HandoffRecord]
    decision: DecisionView | None
    actions: list[ActionRecord]


class OpenedRun(TypedDict):
    run_id: str
    status: Literal["open"]
    builds_on: list[str]
    builds_on_skipped: list[SkippedDecision]


class PremiseProposal(TypedDict):
    statement: str
    claim_ids: list[str]


class GatedProposal(TypedDict):
    """The Analyst's proposal as the gate left it: what the Coordinator is given."""

    answer: str
    claim_ids: list[str]
    premises: list[PremiseProposal]
    proposed_actions: list[str]


class EvidenceText(TypedDict):
    text: str
    origin_type: str
    origin_name: str | None


class ClaimEvidence(TypedDict):
    """A claim the Coordinator may rely on, with the text of its fragments."""

    claim_id: str
    statement: str
    fragments: list[EvidenceText]
