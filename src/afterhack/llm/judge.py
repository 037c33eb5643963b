"""Conflict judges: given candidate pairs of statements, which contradict.

The offline judge is the deterministic detector (the facts package). The gateway judge asks
the model once per pair, reasoning before the verdict; only ``contradicts`` raises a
conflict, and an answer of the wrong shape counts as no verdict for that pair (the claims
are stored either way). To bound model calls, the gateway only sees pairs the detector's
reading says could disagree: the same type of value on both sides, with different values,
about subjects that share a word or that search found near in meaning.

A model's verdict stands only where the detector's reading allows it, and the call says when
it was overruled. ``contradicts`` needs the reading to agree (two values of one subject that
cannot both hold), except on a pair found by meaning alone whose subjects share no word,
where the reading has found a kind of value that differs and whether the two subjects are
one is what the model was asked. So a model may clear a pair the detector would flag, and
flag beyond it only such pairs: one that answers ``contradicts`` to everything raises no
more conflicts than the detector plus those, instead of one per candidate pair.
``same_fact`` cannot hold of a candidate pair, whose values the reading found to differ: the
detector's verdict stands instead, so a model that answers ``same_fact`` to everything
clears nothing either.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from afterhack import facts
from afterhack.errors import GatewayError
from afterhack.facts import Judgement
from afterhack.facts.values import same_value
from afterhack.llm.gateway import Gateway
from afterhack.llm.meaning import WordMeaning
from afterhack.llm.offline import NAME as OFFLINE_NAME
from afterhack.llm.prompts import JUDGE_SCHEMA, JUDGE_SCHEMA_NAME, JUDGE_SYSTEM, JUDGE_USER
from afterhack.model.calls import ModelCall
from afterhack.model.chat import ChatMessage
from afterhack.model.vocab import CONFLICT_KINDS, VERDICTS, ModelRole, as_word

ROLE: ModelRole = "conflict_judge"


@dataclass(frozen=True)
class Candidate:
    """Two statements to compare: a new claim's and a current one's."""

    a: str
    b: str
    source_a: str | None = None
    source_b: str | None = None
    # Found by meaning alone: the two may share no word of their subjects.
    by_meaning: bool = False
    # Who said each (a message's speaker; None for a document): whom "I" and "my" name.
    speakers: facts.Speakers = facts.NOBODY

    def readings(self) -> tuple[facts.Reading, facts.Reading]:
        return facts.read(self.a, self.speakers[0]), facts.read(self.b, self.speakers[1])


# The words of a statement's subject, to search its neighbours with; None when the statement
# carries no value of a type that can differ (nothing to contradict).
Subject = tuple[str, ...] | None


def subject_of(statement: str) -> Subject:
    r = facts.read(statement)
    return r.search_words if facts.checkable(r) else None


class ConflictJudge(Protocol):
    name: str

    async def subjects(self, statements: Sequence[str]) -> tuple[list[Subject],
                                                                  list[ModelCall]]:
        """What each statement is about, and the model calls that took."""
        ...

    async def judge(self, pairs: Sequence[Candidate]) -> tuple[list[Judgement],
                                                                 list[ModelCall]]:
        """One judgement per pair, in order, and the model calls it took."""
        ...


class OfflineJudge:
    """The deterministic detector, recorded as one model call per batch: reading statements
    into values and subjects is its work, as deciding pairs is. With ``meaning``, the words
    two statements do not share are compared by meaning (their vectors asked first, recorded
    as the embedder's call)."""

    name = OFFLINE_NAME

    def __init__(self, meaning: WordMeaning | None = None) -> None:
        self.meaning = meaning

    async def subjects(self, statements: Sequence[str]) -> tuple[list[Subject],
                                                                  list[ModelCall]]:
        t0 = time.perf_counter()
        out = [subject_of(s) for s in statements]
        return out, [ModelCall(ROLE, (time.perf_counter() - t0) * 1000, True,
                               detail={"statements": len(statements)})]

    async def judge(self, pairs: Sequence[Candidate]) -> tuple[list[Judgement],
                                                                 list[ModelCall]]:
        t0 = time.perf_counter()
        readings = [p.readings() for p in pairs]
        read_s = time.perf_counter() - t0
        # The embedder's own call says how long the vectors took.
        known, calls = await _meaning(self.meaning, readings)
        t1 = time.perf_counter()
        out = [facts.judge(ra, rb, known) for ra, rb in readings]
        own_ms = (read_s + time.perf_counter() - t1) * 1000
        return out, [ModelCall(ROLE, own_ms, True, detail={"pairs": len(pairs)}), *calls]


async def _meaning(meaning: WordMeaning | None,
                   readings: Sequence[tuple[facts.Reading, facts.Reading]]
                   ) -> tuple[facts.Meaning | None, list[ModelCall]]:
    """The vectors the detector may compare for these pairs, asked in one call."""
    if meaning is None:
        return None, []
    texts = [t for ra, rb in readings for t in facts.meaning_texts(ra, rb)]
    if not texts:
        return None, []
    return await meaning.known(texts)


def plausible(a: str, b: str, by_meaning: bool = False,
              speakers: facts.Speakers = facts.NOBODY) -> bool:
    """Whether a pair is worth a model call: a shared type of value that differs, about
    subjects with a word in common, or found near in meaning (the subjects may be worded
    with no word in common: the model judges whether they are the same thing)."""
    ra, rb = facts.read(a, speakers[0]), facts.read(b, speakers[1])
    if ra.groups.keys().isdisjoint(rb.groups.keys()):
        return False
    if not (ra.frame & rb.frame) and not by_meaning:
        return False
    return facts.judge(ra, rb).verdict != "same_fact" and _some_value_differs(ra, rb)


def _some_value_differs(ra: facts.Reading, rb: facts.Reading) -> bool:
    """Whether a kind of value both give has, on one side, a value the other side does not
    (two statements whose values all agree restate each other, whatever their subjects)."""
    for g, left in ra.groups.items():
        right = rb.groups.get(g)
        if not right:
            continue
        for x in left:
            compared = [same_value(x, y) for y in right]
            if any(c is not None for c in compared) and not any(compared):
                return True
    return False


def judgement_from(data: dict[str, Any]) -> Judgement:
    verdict = data.get("verdict")
    kind = data.get("kind")
    reasoning = data.get("reasoning")
    if verdict not in VERDICTS:
        return Judgement("compatible", None, "The judge gave no verdict.")
    text = reasoning.strip()[:2000] if isinstance(reasoning, str) and reasoning.strip() \
        else "The judge gave no reasoning."
    if verdict != "contradicts":
        return Judgement(as_word(VERDICTS, verdict), None, text)
    return Judgement("contradicts", as_word(CONFLICT_KINDS, kind)
                     if kind in CONFLICT_KINDS else "other", text)


class GatewayJudge:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.name = gateway.model

    async def subjects(self, statements: Sequence[str]) -> tuple[list[Subject],
                                                                  list[ModelCall]]:
        # The detector's reading picks what to search and what to ask about: product work
        # here, no model call.
        return [subject_of(s) for s in statements], []

    async def _one(self, p: Candidate) -> tuple[Judgement, ModelCall]:
        messages: list[ChatMessage] = [
            {"role": "system", "content": JUDGE_SYSTEM},
            {"role": "user", "content": JUDGE_USER.format(
                a=p.a, b=p.b, source_a=p.source_a or "a source",
                source_b=p.source_b or "another source")},
        ]
        t0 = time.perf_counter()
        try:
            data, call = await self.gateway.complete_json(ROLE, messages, JUDGE_SCHEMA_NAME,
                                                          JUDGE_SCHEMA)
        except GatewayError as exc:
            # A judge that fails raises nothing: the claims are stored, the pair unjudged.
            return (Judgement("compatible", None, f"The judge failed ({exc.code})."),
                    ModelCall(ROLE, (time.perf_counter() - t0) * 1000, False, error=exc.code))
        return judgement_from(data), call

    async def judge(self, pairs: Sequence[Candidate]) -> tuple[list[Judgement],
                                                                 list[ModelCall]]:
        out: list[Judgement] = [Judgement("compatible", None, "not a candidate")] * len(pairs)
        asked = [i for i, p in enumerate(pairs)
                 if plausible(p.a, p.b, p.by_meaning, p.speakers)]
        results = await asyncio.gather(*(self._one(pairs[i]) for i in asked))
        calls: list[ModelCall] = []
        for i, (j, call) in zip(asked, results, strict=True):
            call.detail["pair"] = i
            if call.ok:
                call.detail["verdict"] = j.verdict
            out[i] = _allowed(j, pairs[i], call)
            calls.append(call)
        return out, calls


def _allowed(j: Judgement, pair: Candidate, call: ModelCall) -> Judgement:
    """The model's judgement where the offline reading allows it, else the reading's own."""
    if j.verdict == "compatible":
        return j
    reading = facts.judge(*pair.readings())
    if j.verdict == "contradicts" and (reading.verdict == "contradicts"
                                       or _worded_apart(pair)):
        return j
    call.detail["overruled"] = True
    if j.verdict == "contradicts":
        return Judgement("compatible", None, _NOT_BACKED + j.reason[:1500])
    # same_fact, of two statements whose values the reading found to differ.
    return Judgement(reading.verdict, reading.kind, _DIFFER + reading.reason,
                     reading.value_kind)


def _worded_apart(pair: Candidate) -> bool:
    """A pair found by meaning whose subjects share no word: ``plausible`` has found a kind
    of value that differs, and whether the two subjects are one is the model's to say (the
    reading cannot). Subjects that share a word the reading can tell apart itself."""
    ra, rb = pair.readings()
    return pair.by_meaning and not (ra.frame & rb.frame)


_NOT_BACKED = ("The judge said these contradict, but the offline reading finds no two values "
               "of one subject that cannot both hold, so no conflict is raised. The judge "
               "said: ")
_DIFFER = ("The judge said these state the same fact, but their values differ; the offline "
           "reading's verdict stands: ")
