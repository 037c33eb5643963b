"""Extraction: a version's text in fragments, each fragment's candidate claims from the
model, and the quote rules that keep a claim only with an exact quote of its fragment
(docs/rules.md, rule 1). Nothing here writes: what is kept goes into the version's one write
(ingest.py, conversations.py)."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from afterhack.errors import GatewayError, GatewayInvalidOutput
from afterhack.files.document import Place
from afterhack.model.calls import CallDetail, ModelCall
from afterhack.model.sources import CreatedClaim, DroppedExample, ExtractionOutcome
from afterhack.model.vocab import DropReason, FragmentExtraction
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_ids
from afterhack.retrieval import search
from afterhack.rules import evidence
from afterhack.rules.chunking import Span, split_fragments
from afterhack.store.source_params import NewClaim, NewFragment
from afterhack.temporal.validity import valid_time


class Extractor(Protocol):
    name: str

    async def extract(self, fragment: str) -> tuple[Sequence[object], ModelCall]:
        """Raw candidate claims for one fragment (a model's output: anything, until the quote
        rules have read it); raises GatewayError when the call fails."""
        ...


@dataclass
class FragmentPlan:
    id: str
    seq: int
    span: Span
    text: str
    extraction: FragmentExtraction = "skipped"
    error: str | None = None
    # A message's fragment: who said it, when, and its place among the version's messages
    # (claims from it carry the speaker and time, and a sentence is a duplicate only
    # within its own message: the same words said again later were said again).
    speaker: str | None = None
    said_at: int | None = None
    message_offset: int | None = None
    # A file's fragment: where it stands in the original.
    page: int | None = None
    page_end: int | None = None
    section: str | None = None
    # The model answered, but with nothing usable: why, as a drop reason.
    unusable: DropReason | None = None

    @property
    def scope(self) -> str:
        return "" if self.message_offset is None else f"{self.message_offset}\x1f"


@dataclass
class Extraction:
    kept: list[NewClaim] = field(default_factory=list)
    dropped: Counter[DropReason] = field(default_factory=Counter)
    dropped_examples: list[DroppedExample] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)


_MAX_EXAMPLES = 50


def content_hash(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _drop(ex: Extraction, reason: DropReason, item: object, frag: FragmentPlan) -> None:
    ex.dropped[reason] += 1
    if len(ex.dropped_examples) < _MAX_EXAMPLES:
        example: DroppedExample = {"reason": reason, "fragment_seq": frag.seq}
        if isinstance(item, dict):
            statement, quote = item.get("statement"), item.get("evidence_quote")
            if isinstance(statement, str):
                example["statement"] = statement[:500]
            if isinstance(quote, str):
                example["evidence_quote"] = quote[:500]
        ex.dropped_examples.append(example)


def check_candidates(
    ex: Extraction,
    frag: FragmentPlan,
    raw: Sequence[object],
    seen_keys: set[str],
    extracted_by: str,
    max_claims: int,
) -> None:
    """Apply the quote rules to one fragment's raw output, appending kept claims to ex."""
    ids = new_ids(len(raw))
    now = now_ms()
    for n, item in enumerate(raw):
        statement = item.get("statement") if isinstance(item, dict) else None
        quote = item.get("evidence_quote") if isinstance(item, dict) else None
        if not isinstance(statement, str) or not isinstance(quote, str) or not statement.strip():
            _drop(ex, "invalid_output", item, frag)
            continue
        if "\x00" in statement or "\x00" in quote:
            _drop(ex, "invalid_output", item, frag)
            continue
        # The quote stays as the file has it; the statement is read as one line, without
        # the line breaks (and runs of spaces) of the file it was copied from.
        statement = evidence.one_line(statement)
        at = evidence.locate_quote(frag.text, quote)
        if at is None:
            _drop(ex, "quote_not_found", item, frag)
            continue
        # A statement that is its quote carries every name and number of it by definition
        # (the offline model's claims, and many a model's): skip the token comparison.
        if statement != evidence.one_line(quote) and evidence.missing_from_quote(statement,
                                                                                  quote):
            _drop(ex, "statement_not_in_quote", item, frag)
            continue
        key = evidence.statement_key(statement)
        if frag.scope + key in seen_keys:
            _drop(ex, "duplicate", item, frag)
            continue
        if len(ex.kept) >= max_claims:
            _drop(ex, "over_limit", item, frag)
            continue
        seen_keys.add(frag.scope + key)
        start = frag.span.start + at
        # What someone said holds from when they said it, unless they said from when.
        valid_from, valid_until = valid_time(
            statement, now if frag.said_at is None else frag.said_at)
        if valid_from is None:
            valid_from = frag.said_at
        ex.kept.append({
            "id": ids[n],
            "fragment_id": frag.id,
            "statement": statement,
            "key": key,
            "terms": search.joined_terms(statement),
            "quote": quote,
            "quote_start": start,
            "quote_end": start + len(quote),
            "confidence": 1.0,
            "extracted_by": extracted_by,
            "valid_from": valid_from,
            "valid_until": valid_until,
            "said_by": frag.speaker,
            "said_at": frag.said_at,
        })


async def run_extraction(
    extractor: Extractor,
    frags: list[FragmentPlan],
    seen_keys: set[str],
    max_claims: int,
) -> Extraction:
    ex = Extraction()

    async def one(f: FragmentPlan) -> tuple[FragmentPlan, Sequence[object] | None]:
        t0 = time.perf_counter()
        try:
            raw, call = await extractor.extract(f.text)
        except GatewayError as exc:
            # A failed call carries no ModelCall; its time (to the refusal or the timeout)
            # is still the model's, and belongs in the record.
            f.extraction, f.error = "failed", exc.code
            detail: CallDetail = {"fragment_seq": f.seq}
            if isinstance(exc, GatewayInvalidOutput):
                cut = exc.details.get("finish_reason") == "length"
                f.unusable = "cut_at_max_tokens" if cut else "invalid_output"
                if cut:
                    detail["finish_reason"] = "length"
            ex.calls.append(ModelCall("extractor", (time.perf_counter() - t0) * 1000, False,
                                      error=exc.code, detail=detail))
            return f, None
        call.detail["fragment_seq"] = f.seq
        ex.calls.append(call)
        f.extraction = "done"
        return f, raw

    # Calls run concurrently (the model layer bounds them); results are checked in
    # fragment order so duplicates resolve the same way on every run.
    results = await asyncio.gather(*(one(f) for f in frags))
    for f, raw in sorted(results, key=lambda r: r[0].seq):
        if raw is not None:
            check_candidates(ex, f, raw, seen_keys, extractor.name, max_claims)
        elif f.unusable is not None:
            # The model answered, but with nothing usable: count it like a malformed claim.
            _drop(ex, f.unusable, None, f)
    return ex


def plan_fragments(text: str, max_chars: int,
                   places: Sequence[Place] | None = None) -> list[FragmentPlan]:
    """The fragments of a version's text. With ``places`` (a file's: they tile the text),
    no fragment crosses from one place to the next, so each knows its page or heading; a
    place that is no prose (a table of contents, a running header) gives fragments that are
    kept and not extracted (``none``)."""
    if places is None:
        spans = split_fragments(text, max_chars)
        ids = new_ids(len(spans))
        return [FragmentPlan(id=ids[i], seq=i, span=s, text=text[s.start : s.end])
                for i, s in enumerate(spans)]
    out: list[FragmentPlan] = []
    for place in places:
        for s in split_fragments(text[place.start : place.end], max_chars):
            span = Span(place.start + s.start, place.start + s.end)
            out.append(FragmentPlan(id="", seq=len(out), span=span,
                                    text=text[span.start : span.end], page=place.page,
                                    page_end=place.page_end, section=place.section,
                                    extraction="none" if place.aside else "skipped"))
    for f, i in zip(out, new_ids(len(out)), strict=True):
        f.id = i
    return out


def fragment_rows(frags: list[FragmentPlan]) -> list[NewFragment]:
    rows: list[NewFragment] = []
    for f in frags:
        row: NewFragment = {"id": f.id, "seq": f.seq, "text": f.text, "start": f.span.start,
                            "end": f.span.end, "extraction": f.extraction}
        if f.speaker is not None and f.said_at is not None and f.message_offset is not None:
            row["speaker"] = f.speaker
            row["said_at"] = f.said_at
            row["message_offset"] = f.message_offset
        if f.page is not None:
            row["page"] = f.page
        if f.page_end is not None:
            row["page_end"] = f.page_end
        if f.section is not None:
            row["section"] = f.section
        rows.append(row)
    return rows


def extraction_outcome(ex: Extraction, frags: list[FragmentPlan],
             created: list[CreatedClaim]) -> ExtractionOutcome:
    """The part of an ingest's answer about extraction: what was kept, dropped and failed.

    ``created`` lists only claims that did not start as 'proposed' (a re-ingested mistake)."""
    status_by_id = {c["id"]: c["status"] for c in created}
    return {
        "claims": [
            {"id": c["id"], "statement": c["statement"], "evidence_quote": c["quote"],
             "quote_start": c["quote_start"], "quote_end": c["quote_end"],
             "fragment_id": c["fragment_id"], "status": status_by_id.get(c["id"], "proposed"),
             "valid_from": c["valid_from"], "valid_until": c["valid_until"],
             "said_by": c["said_by"], "said_at": c["said_at"]}
            for c in ex.kept
        ],
        "dropped": dict(ex.dropped),
        "dropped_examples": ex.dropped_examples,
        "failed_fragments": [{"fragment_id": f.id, "seq": f.seq, "error": f.error}
                             for f in frags if f.extraction == "failed"],
        "model_calls": [c.as_dict() for c in ex.calls],
    }
