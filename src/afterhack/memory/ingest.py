"""Add a source: chunk it, extract claims per fragment, keep only verbatim-quoted ones, store.

Extraction happens before anything is written; the version, its fragments and the kept
claims are then written in one query, so a failure at any point leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from afterhack.config import Settings
from afterhack.errors import (
    GatewayError,
    GatewayInvalidOutput,
    PayloadTooLarge,
    SourceKindMismatch,
    SourceNotFound,
    WorkspaceBusy,
)
from afterhack.files.document import Place
from afterhack.llm.judge import ConflictJudge
from afterhack.memory import conflicts, versions
from afterhack.model.calls import CallDetail, ModelCall
from afterhack.model.conflicts import PlannedConflict
from afterhack.model.sources import (
    ChecksOutcome,
    CreatedClaim,
    DroppedExample,
    ExtractionOutcome,
    IngestResult,
    SameVersion,
    SourcePreview,
    SourceRow,
)
from afterhack.model.vocab import DropReason, FragmentExtraction, SourceKind, SupportPolicy
from afterhack.retrieval import search
from afterhack.rules import evidence
from afterhack.rules.chunking import Span, split_fragments
from afterhack.store import claims as store_claims
from afterhack.store import conflicts as store_conflicts
from afterhack.store import source_writes
from afterhack.store import sources as store_sources
from afterhack.store.audit import audit_params, now_ms
from afterhack.store.client import Graph
from afterhack.store.conflicts import settle
from afterhack.store.guard import Flag, guard_params
from afterhack.store.names import new_id, new_ids
from afterhack.store.source_params import (
    NO_FILE,
    ClaimsWrite,
    FileFields,
    NewClaim,
    NewFragment,
    SourceClaim,
    VersionWrite,
    VersionWritten,
)
from afterhack.temporal.validity import valid_time

if TYPE_CHECKING:
    from afterhack.retrieval.vectors import Vectors


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
    no fragment crosses from one place to the next, so each knows its page or heading."""
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
                                    section=place.section))
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


_VERSION_ATTEMPTS = 4


async def ingest_source(
    g: Graph,
    settings: Settings,
    extractor: Extractor,
    *,
    title: str | None,
    text: str,
    origin_type: str,
    origin_name: str | None,
    source_id: str | None,
    extract: bool,
    actor: str,
    judge: ConflictJudge | None = None,
    policy: SupportPolicy = "independent",
    preview: bool = False,
    vectors: Vectors | None = None,
    kind: SourceKind = "text",
    places: Sequence[Place] | None = None,
    file: FileFields = NO_FILE,
) -> IngestResult:
    """Add a source or a new version of one. With ``judge``, the new claims are checked for
    conflicts with their neighbours (conflicts.py); a new version retires what the source no
    longer says (versions.py). With ``preview``, everything is worked out and nothing is
    written. A file's text comes with its ``places`` (each fragment keeps its page or
    heading) and its original (``file``), kept on the version."""
    check_length(settings, text)
    digest = content_hash(text)
    seen_keys: set[str] = set()
    gone: list[SourceClaim] = []
    existing: SourceRow | None = None
    if source_id is not None:
        existing = await store_sources.find_source(g, source_id)
        if existing is None:
            raise SourceNotFound(source_id)
        if existing["kind"] == "conversation":
            raise SourceKindMismatch(
                "This source is a conversation: append messages to it "
                "(POST .../sources/{id}/messages).", source_id=source_id)
        if await store_sources.latest_hash(g, source_id) == digest:
            src = await store_sources.get_source(g, source_id)
            return {"status": "unchanged", "source": src,
                    **extraction_outcome(Extraction(), [], []),
                    **no_checks()}
        current = await store_sources.current_claims(g, source_id)
        gone = versions.gone_from(current, text)
        gone_ids = {c["id"] for c in gone}
        # A sentence the new version keeps keeps its claim (no churn); one it dropped
        # may come back reworded as a new claim.
        seen_keys = {c["statement_key"] for c in current if c["id"] not in gone_ids}

    frags = plan_fragments(text, settings.fragment_max_chars, places)
    ex = Extraction()
    if extract:
        ex = await run_extraction(extractor, frags, seen_keys, settings.max_claims_per_source)
    if vectors is not None:
        await vectors.embed_claims(g, ex.kept, ex.calls)

    new_source = source_id is None
    sid = source_id or new_id()
    for _ in range(_VERSION_ATTEMPTS):
        plan = versions.VersionPlan()
        if gone:
            plan = await versions.plan_retirement(g, judge, source_id=sid, gone=gone,
                                                  new_claims=ex.kept, policy=policy)
        checks = conflicts.Checks()
        if judge is not None and ex.kept:
            checks = await conflicts.check_new_claims(g, judge, ex.kept,
                                                      exclude=plan.retired_ids,
                                                      vectors=vectors)
        calls = [*ex.calls, *plan.calls, *checks.calls]
        if preview:
            return await preview_answer(g, ex, frags, plan, checks, calls, new_source, sid)
        version_id = new_id()
        params: VersionWrite = {
            "source_id": sid,
            "version_id": version_id,
            "kind": kind,
            "title": title,
            "origin_type": origin_type,
            "origin_name": origin_name or title,
            "text": text,
            "content_hash": digest,
            "length": len(text),
            "message_count": None,
            **file,
            "fragments": fragment_rows(frags),
            "claims": ex.kept,
            "conflicts": checks.rows,
            "links": checks.links,
            "model_calls": json.dumps([c.as_dict() for c in calls]),
            **audit_params(
                "source.created" if new_source else "source.versioned", actor, sid,
                {"version_id": version_id, "claims": len(ex.kept),
                 "dropped": dict(ex.dropped),
                 "failed_fragments": sum(f.extraction == "failed" for f in frags),
                 "retired": sorted(plan.retired_ids), "flagged": sorted(plan.out.flag),
                 "held": sorted(plan.out.hold)},
            ),
        }
        row: VersionWritten | None
        if new_source:
            row = await source_writes.create_source(g, params)
        else:
            flags: list[Flag] = [
                {"id": i, "reason": json.dumps({
                    "type": "source_revised", "source_id": sid, "version_id": version_id,
                    "retired": sorted(plan.retired_ids), "reasons": r})}
                for i, r in plan.out.flag.items()]
            version_name = (f'version {existing["latest_version"] + 1} of '
                            f'"{title or existing["title"]}"' if existing else "a new version")
            row = await source_writes.add_version(g, {
                **params, **guard_params(plan.snap.stamps()), "retire": plan.retire,
                "flags": flags, "holds": sorted(plan.out.hold), "audits": [],
                "settles": [settle([r["statement_key"] for r in plan.retire], "version",
                                   version_id, f"No longer said in {version_name}", actor)]})
            if row is None:
                if await store_sources.find_source(g, sid) is None:
                    raise SourceNotFound(sid)
                continue  # what it retires changed meanwhile: plan again
        if vectors is not None:
            vectors.notify(g)
        outcome = extraction_outcome(ex, frags, row["created"])
        outcome["model_calls"] = [c.as_dict() for c in calls]
        return {"status": "created" if new_source else "versioned",
                "source": await store_sources.get_source(g, sid), "version": row["version"],
                **outcome,
                "conflicts": await store_conflicts.get_conflicts(g, list(row["raised"])),
                **await versions.report(g, plan), "erasures": []}
    raise WorkspaceBusy("The claims this version retires kept changing; retry.")


def check_length(settings: Settings, text: str) -> None:
    """413 for a version's text over the source limit, whatever it was read from."""
    if len(text) > settings.max_source_chars:
        raise PayloadTooLarge(
            f"The source text is {len(text)} characters; the limit is "
            f"{settings.max_source_chars}.", limit=settings.max_source_chars)


def no_checks() -> ChecksOutcome:
    return {"conflicts": [], "retired": [], "flag": [], "hold": [], "stay": [],
            "flagged": [], "held": []}


async def preview_answer(g: Graph, ex: Extraction, frags: list[FragmentPlan],
                         plan: versions.VersionPlan, checks: conflicts.Checks,
                         calls: list[ModelCall], new_source: bool,
                         sid: str) -> SourcePreview:
    """What adding this source (or version) would do; nothing is written, and the ids shown
    for new claims are not kept."""
    statements = {c["id"]: c["statement"] for c in ex.kept}
    existing = await store_claims.find_claims(g, [r["old_id"] for r in checks.rows])
    outcome = extraction_outcome(ex, frags, [])
    outcome["model_calls"] = [c.as_dict() for c in calls]
    planned: list[PlannedConflict] = [
        {"kind": r["kind"], "reason": r["reason"], "detected_by": r["detected_by"],
         "claims": [{"id": r["old_id"], "statement": existing[r["old_id"]]["statement"],
                     "source_id": existing[r["old_id"]]["source_id"]},
                    {"id": r["new_id"], "statement": statements[r["new_id"]],
                     "source_id": sid}]}
        for r in checks.rows if r["old_id"] in existing]
    return {"status": "preview",
            "source": None if new_source else await store_sources.get_source(g, sid),
            **outcome, "conflicts": planned, **await versions.report(g, plan)}


async def extract_pending(g: Graph, settings: Settings, extractor: Extractor, *,
                          source_id: str, actor: str,
                          judge: ConflictJudge | None = None,
                          vectors: Vectors | None = None) -> SameVersion:
    """Re-run extraction on the latest version's fragments that failed or were skipped;
    the new claims are checked for conflicts like any others."""
    pending = await store_sources.pending_fragments(g, source_id)
    if pending is None:
        raise SourceNotFound(source_id)
    frags = [FragmentPlan(id=f["id"], seq=f["seq"], span=Span(f["start"], f["end"]),
                          text=f["text"], speaker=f["speaker"], said_at=f["said_at"],
                          message_offset=f["message_index"], page=f["page"],
                          section=f["section"]) for f in pending["fragments"]]
    ex = Extraction()
    created: list[CreatedClaim] = []
    raised: list[str] = []
    if frags:
        seen = await store_sources.existing_claim_keys(g, source_id)
        ex = await run_extraction(extractor, frags, seen, settings.max_claims_per_source)
        if vectors is not None:
            await vectors.embed_claims(g, ex.kept, ex.calls)
        checks = conflicts.Checks()
        if judge is not None and ex.kept:
            checks = await conflicts.check_new_claims(g, judge, ex.kept, vectors=vectors)
        ex.calls += checks.calls
        write: ClaimsWrite = {
            "conflicts": checks.rows, "links": checks.links,
            "source_id": source_id, "version_id": pending["version_id"],
            "fragment_ids": [f.id for f in frags],
            "fragment_updates": [{"id": f.id, "extraction": f.extraction} for f in frags],
            "claims": ex.kept,
            **audit_params("source.extracted", actor, source_id, {
                "version_id": pending["version_id"], "claims": len(ex.kept),
                "dropped": dict(ex.dropped),
                "failed_fragments": sum(f.extraction == "failed" for f in frags)}),
        }
        row = await source_writes.add_claims(g, write)
        if row is None:
            raise WorkspaceBusy("Another extraction of this source is under way; retry.")
        created = row["created"]
        raised = list(row["raised"])
        if vectors is not None:
            vectors.notify(g)
    return {"status": "extracted", "source": await store_sources.get_source(g, source_id),
            **extraction_outcome(ex, frags, created), **no_checks(),
            "conflicts": await store_conflicts.get_conflicts(g, raised)}
