"""The offline model's Analyst and Coordinator: deterministic policies, no network.

The Analyst searches the task's words, retrieves the sources of every hit, and proposes the
current claims it could read, one premise per distinct fact. The Coordinator writes the
decision from them and proposes an action when the task asks for something to be done.
"""

from __future__ import annotations

import re
import time

from afterhack.agents.gate import default_premises
from afterhack.agents.tools import RunTools
from afterhack.llm.offline import NAME
from afterhack.model.calls import ModelCall
from afterhack.model.runs import ClaimEvidence, ClaimSources, GatedProposal
from afterhack.rules.evidence import statement_key

# A claim found by meaning alone is proposed only when no claim was found by the task's
# words, and only if it is about as near the task as the nearest claim: e5 puts related and
# unrelated sentences a few hundredths apart.
MEANING_MARGIN = 0.02

ACTION_VERBS = frozenset(
    "plan book order schedule prepare send draft arrange organise organize reserve buy hire "
    "notify contact write create update launch set confirm cancel move reschedule".split()
)


def asks_for_action(task: str) -> bool:
    words = re.findall(r"[^\W\d_]+", task.lower())
    return bool(words) and words[0] in ACTION_VERBS


def _matching(tools: RunTools, ids: list[str]) -> list[str]:
    """The hits that match the task: those found by its words; when none was, those found
    by meaning within MEANING_MARGIN of the nearest one (a paraphrase shares no word)."""
    by_words = [i for i in ids if i not in tools.found_by or tools.found_by[i]["text"]]
    if by_words:
        return by_words
    distances = [d for i in ids if (d := tools.found_by[i]["vector_distance"]) is not None]
    near = min(distances, default=0.0) + MEANING_MARGIN
    return [i for i in ids
            if (d := tools.found_by[i]["vector_distance"]) is not None and d <= near]


class OfflineAnalyst:
    name = NAME

    async def run(self, tools: RunTools, task: str,
                  max_rounds: int) -> tuple[object, list[ModelCall]]:
        # The recorded duration is the model's own time: the tools it calls are the
        # product's work, as they are for a gateway model (whose calls are timed alone).
        t0 = time.perf_counter()
        in_tools = 0.0
        t = time.perf_counter()
        hits = await tools.search_claims(task)
        in_tools += time.perf_counter() - t
        sources: list[ClaimSources] = []
        if hits:
            t = time.perf_counter()
            sources = await tools.get_claim_sources([h["claim_id"] for h in hits])
            in_tools += time.perf_counter() - t
        readable = _matching(tools, [s["claim_id"] for s in sources if s["fragments"]])
        statements = {h["claim_id"]: h["statement"] for h in hits}
        # One premise per distinct fact: copies of a statement are alternatives in one.
        premises = default_premises(readable, {
            i: (statement_key(statements[i]), statements[i]) for i in readable})
        proposal = {
            "answer": " ".join(statements[i] for i in readable),
            "claim_ids": readable,
            "premises": [{"statement": p.statement, "claim_ids": p.claim_ids}
                         for p in premises],
            "proposed_actions": [task] if asks_for_action(task) else [],
        }
        call = ModelCall("analyst", (time.perf_counter() - t0 - in_tools) * 1000, True,
                         detail={"rounds": 3 if hits else 2})
        return proposal, [call]


class OfflineCoordinator:
    name = NAME

    async def run(self, task: str, proposal: GatedProposal,
                  evidence: dict[str, ClaimEvidence]) -> tuple[object, ModelCall]:
        t0 = time.perf_counter()
        statements = [evidence[i]["statement"] for i in proposal["claim_ids"] if i in evidence]
        out = {
            # The question as asked, its "?" kept: two runs of it are told apart by their
            # time and run, never by a title cut short.
            "title": " ".join(task.split()) or "Decision",
            "summary": " ".join(statements),
            "claim_ids": proposal["claim_ids"],
            "premises": proposal["premises"],
            "actions": [{"description": a} for a in proposal["proposed_actions"]],
        }
        return out, ModelCall("coordinator", (time.perf_counter() - t0) * 1000, True)
