"""One call to a language model, as the run or the source version records it.

The adapters (llm/, agents/llm.py, the offline models) make these; ingest and agent runs
store them. Neither side imports the other for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired

from typing_extensions import TypedDict

from afterhack.model.vocab import ModelRole, ResponseFormat


class CallDetail(TypedDict, total=False):
    """What else is worth keeping about a call; each adapter fills in its own."""

    fragment_seq: int  # extraction: which fragment of the version
    attempts: int  # complete_json: asked again after a reply that was no JSON object
    response_format: ResponseFormat
    finish_reason: str  # a failed JSON call: "length" when the token limit cut the answer
    tool_calls: int  # chat_tools: how many tool calls the turn asked for
    rounds: int  # the offline Analyst: its tool rounds
    statements: int  # the offline conflict judge: statements it read
    pairs: int  # the offline conflict judge: pairs it decided
    pair: int  # the gateway conflict judge: which candidate pair this call was about
    verdict: str  # the gateway conflict judge: the model's verdict, as it gave it
    overruled: bool  # ... and the offline reading did not allow it (llm/judge.py)
    texts: int  # embeddings: how many texts were embedded
    model: str  # embeddings: the model that made the vectors
    purpose: str  # embeddings: "conflict_check" for new statements a check compares by meaning,
    # "meaning" for the words the offline detector compares (llm/meaning.py)


class ModelCallRecord(TypedDict):
    """A call as stored (JSON on the run or the version): absent fields were not known."""

    role: ModelRole
    duration_ms: float
    ok: bool
    prompt_tokens: NotRequired[int]
    completion_tokens: NotRequired[int]
    error: NotRequired[str]
    detail: NotRequired[CallDetail]


@dataclass
class ModelCall:
    role: ModelRole
    duration_ms: float
    ok: bool
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    error: str | None = None
    detail: CallDetail = field(default_factory=lambda: CallDetail())

    def as_dict(self) -> ModelCallRecord:
        out = ModelCallRecord(role=self.role, duration_ms=self.duration_ms, ok=self.ok)
        if self.prompt_tokens is not None:
            out["prompt_tokens"] = self.prompt_tokens
        if self.completion_tokens is not None:
            out["completion_tokens"] = self.completion_tokens
        if self.error is not None:
            out["error"] = self.error
        if self.detail:
            out["detail"] = self.detail
        return out
