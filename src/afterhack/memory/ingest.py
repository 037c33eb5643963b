"""Add a source, or a new version of one: read what it changes, extract its claims, plan the
one write, and commit it.

Extraction happens before anything is written (extraction.py). Each attempt then reads what
the version retires and the claims near the new ones (versions.py, checks.py), plans the
write from that without I/O (``source_write``, ``version_write``), and commits it as one
query: a failure at any point leaves nothing behind, and a write whose guard finds the
retired claims changed is planned again (``until_written``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from afterhack.config import Settings
from afterhack.errors import PayloadTooLarge, SourceKindMismatch, SourceNotFound, WorkspaceBusy
from afterhack.files.document import Place
from afterhack.memory import checks, disputes, versions
from afterhack.memory.extraction import (
    Extraction,
    FragmentPlan,
    content_hash,
    extraction_outcome,
    fragment_rows,
    plan_fragments,
    run_extraction,
)
from afterhack.memory.scope import Scope, until_written
from afterhack.model.calls import ModelCall
from afterhack.model.conflicts import PlannedConflict
from afterhack.model.sources import (
    ChecksOutcome,
    CreatedClaim,
    IngestResult,
    NewVersion,
    SameVersion,
    SourcePreview,
    SourceRow,
)
from afterhack.model.vocab import SourceKind
from afterhack.records.audit import audit_params
from afterhack.records.conflicts import settle
from afterhack.records.flags import flags
from afterhack.records.ids import new_id
from afterhack.rules.chunking import Span
from afterhack.store import claims as store_claims
from afterhack.store import source_writes
from afterhack.store import sources as store_sources
from afterhack.store.client import Graph
from afterhack.store.guard import guard_params
from afterhack.store.source_params import (
    NO_FILE,
    ClaimsWrite,
    FileFields,
    NewVersionWrite,
    SourceClaim,
    VersionWrite,
    VersionWritten,
)

_VERSION_ATTEMPTS = 4


@dataclass(frozen=True)
class Document:
    """A version's text and where it came from: pasted text, or a file read to text (with
    its ``places``, so each fragment keeps its page or heading, and its original, ``file``,
    kept on the version)."""

    text: str
    title: str | None = None
    origin_type: str = "document"
    origin_name: str | None = None
    kind: SourceKind = "text"
    places: Sequence[Place] | None = None
    file: FileFields | None = None


@dataclass
class Start:
    """What a version starts from: its document, the source it adds to (``existing``, None
    for a new source), the source's claims the new text no longer holds, and what was
    extracted from the new text."""

    doc: Document
    sid: str
    existing: SourceRow | None
    frags: list[FragmentPlan]
    ex: Extraction
    gone: list[SourceClaim] = field(default_factory=list)

    @property
    def new_source(self) -> bool:
        return self.existing is None


@dataclass
class Plan:
    """What an attempt found: what the version retires, the conflicts its claims raise, and
    every model call it took."""

    retire: versions.VersionPlan
    checks: checks.Checks
    calls: list[ModelCall]


def check_length(settings: Settings, text: str) -> None:
    """413 for a version's text over the source limit, whatever it was read from."""
    if len(text) > settings.max_source_chars:
        raise PayloadTooLarge(
            f"The source text is {len(text):,} characters; the limit is "
            f"{settings.max_source_chars:,} characters, which AFTERHACK_MAX_SOURCE_CHARS "
            "sets.", limit=settings.max_source_chars)


def no_checks() -> ChecksOutcome:
    return {"conflicts": [], "retired": [], "flag": [], "hold": [], "stay": [],
            "flagged": [], "held": []}


async def add_document(ws: Scope, doc: Document, *, source_id: str | None = None,
                       extract: bool = True, preview: bool = False) -> IngestResult:
    """Add a source, or (``source_id``) a new version of one: ``unchanged`` when its text is
    the latest version's. A new version retires what the source no longer says
    (versions.py); the new claims are checked against their neighbours (checks.py). With
    ``preview``, everything is worked out and nothing is written."""
    check_length(ws.settings, doc.text)
    existing: SourceRow | None = None
    gone: list[SourceClaim] = []
    seen_keys: set[str] = set()
    if source_id is not None:
        existing = await _text_source(ws.graph, source_id)
        if await store_sources.latest_hash(ws.graph, source_id) == content_hash(doc.text):
            return {"status": "unchanged",
                    "source": await store_sources.get_source(ws.graph, source_id),
                    **extraction_outcome(Extraction(), [], []), **no_checks()}
        current = await store_sources.current_claims(ws.graph, source_id)
        gone = versions.gone_from(current, doc.text)
        gone_ids = {c["id"] for c in gone}
        # A sentence the new version keeps keeps its claim (no churn); one it dropped
        # may come back reworded as a new claim.
        seen_keys = {c["statement_key"] for c in current if c["id"] not in gone_ids}
    frags = plan_fragments(doc.text, ws.settings.fragment_max_chars, doc.places)
    ex = Extraction()
    if extract:
        prose = [f for f in frags if f.extraction != "none"]
        ex = await run_extraction(ws.extractor, prose, seen_keys,
                                  ws.settings.max_claims_per_source)
    await ws.vectors.embed_claims(ws.graph, ex.kept, ex.calls)
    start = Start(doc=doc, sid=source_id or new_id(), existing=existing, frags=frags, ex=ex,
                  gone=gone)
    return await until_written(lambda: _attempt(ws, start, preview), _VERSION_ATTEMPTS,
                               "The claims this version retires kept changing; retry.")


async def _text_source(g: Graph, source_id: str) -> SourceRow:
    existing = await store_sources.find_source(g, source_id)
    if existing is None:
        raise SourceNotFound(source_id)
    if existing["kind"] == "conversation":
        raise SourceKindMismatch(
            "This source is a conversation: append messages to it "
            "(POST .../sources/{id}/messages).", source_id=source_id)
    return existing


async def _attempt(ws: Scope, start: Start, preview: bool) -> IngestResult | None:
    """Read, plan and write once; None when what the version retires changed meanwhile."""
    plan = await _plan(ws, start)
    if preview:
        return await preview_answer(ws.graph, start, plan)
    row: VersionWritten | None
    if start.existing is None:
        row = await source_writes.create_source(ws.graph, source_write(start, plan, ws.actor))
    else:
        row = await source_writes.add_version(
            ws.graph, version_write(start, start.existing, plan, ws.actor))
        if row is None:
            if await store_sources.find_source(ws.graph, start.sid) is None:
                raise SourceNotFound(start.sid)
            return None
    ws.vectors.notify(ws.graph)
    return await _answer(ws.graph, start, plan, row)


async def _plan(ws: Scope, start: Start) -> Plan:
    """What the version retires now, and the conflicts its claims raise with what the
    workspace holds now (both read afresh at each attempt)."""
    retire = versions.VersionPlan()
    if start.gone:
        retire = await versions.plan_retirement(ws.graph, ws.judge, source_id=start.sid,
                                                gone=start.gone, new_claims=start.ex.kept,
                                                policy=ws.policy)
    found = checks.Checks()
    if ws.judge is not None and start.ex.kept:
        found = await checks.check_new_claims(ws.graph, ws.judge, start.ex.kept,
                                              exclude=retire.retired_ids, vectors=ws.vectors)
    return Plan(retire=retire, checks=found,
                calls=[*start.ex.calls, *retire.calls, *found.calls])


def source_write(start: Start, plan: Plan, actor: str) -> VersionWrite:
    """The write of a version (a new source's first, or the text part of a new one): its
    fragments, its kept claims, the conflicts they raise and the audit event."""
    doc, ex, frags = start.doc, start.ex, start.frags
    version_id = new_id()
    return {
        "source_id": start.sid, "version_id": version_id, "kind": doc.kind,
        "title": doc.title, "origin_type": doc.origin_type,
        "origin_name": doc.origin_name or doc.title, "text": doc.text,
        "content_hash": content_hash(doc.text), "length": len(doc.text),
        "message_count": None, **(doc.file or NO_FILE),
        "fragments": fragment_rows(frags), "claims": ex.kept,
        **plan.checks.writes(),
        "model_calls": json.dumps([c.as_dict() for c in plan.calls]),
        **audit_params(
            "source.created" if start.new_source else "source.versioned", actor, start.sid,
            {"version_id": version_id, "claims": len(ex.kept), "dropped": dict(ex.dropped),
             "failed_fragments": sum(f.extraction == "failed" for f in frags),
             "retired": sorted(plan.retire.retired_ids),
             "flagged": sorted(plan.retire.out.flag), "held": sorted(plan.retire.out.hold)}),
    }


def version_write(start: Start, existing: SourceRow, plan: Plan,
                  actor: str) -> NewVersionWrite:
    """A new version's write: the version, and in the same guarded query the claims it
    retires, the relabel of that (flags and holds) and the conflicts it settles."""
    base = source_write(start, plan, actor)
    retire = plan.retire
    version_id = base["version_id"]
    name = f'version {existing["latest_version"] + 1} of "{start.doc.title or existing["title"]}"'
    return {
        **base, **guard_params(retire.snap.stamps()), "retire": retire.retire,
        "flags": flags(retire.out.flag, type="source_revised", source_id=start.sid,
                       version_id=version_id, retired=sorted(retire.retired_ids)),
        "holds": sorted(retire.out.hold), "audits": [],
        "settles": [settle([r["statement_key"] for r in retire.retire], "version",
                           version_id, f"No longer said in {name}", actor)]}


async def _answer(g: Graph, start: Start, plan: Plan, row: VersionWritten) -> NewVersion:
    outcome = extraction_outcome(start.ex, start.frags, row["created"])
    outcome["model_calls"] = [c.as_dict() for c in plan.calls]
    return {"status": "created" if start.new_source else "versioned",
            "source": await store_sources.get_source(g, start.sid), "version": row["version"],
            **outcome,
            "conflicts": await disputes.written(g, row["raised"], plan.checks.touched_keys()),
            **await versions.report(g, plan.retire), "erasures": []}


async def preview_answer(g: Graph, start: Start, plan: Plan) -> SourcePreview:
    """What adding this source (or version) would do; nothing is written, and the ids shown
    for new claims are not kept."""
    ex = start.ex
    statements = {c["id"]: c["statement"] for c in ex.kept}
    rows = plan.checks.rows
    existing = await store_claims.find_claims(g, [r["old_id"] for r in rows])
    outcome = extraction_outcome(ex, start.frags, [])
    outcome["model_calls"] = [c.as_dict() for c in plan.calls]
    raised = {d["id"] for d in plan.checks.placed.disputes}
    joins = {pair: target[0] for pair, target in plan.checks.placed.target_of.items()
             if target[0] not in raised}
    planned: list[PlannedConflict] = [
        {"kind": r["kind"], "reason": r["reason"], "detected_by": r["detected_by"],
         "joins": joins.get((r["new_id"], r["old_id"])),
         "claims": [{"id": r["old_id"], "statement": existing[r["old_id"]]["statement"],
                     "source_id": existing[r["old_id"]]["source_id"]},
                    {"id": r["new_id"], "statement": statements[r["new_id"]],
                     "source_id": start.sid}]}
        for r in rows if r["old_id"] in existing]
    return {"status": "preview",
            "source": None if start.new_source else await store_sources.get_source(
                g, start.sid),
            **outcome, "conflicts": planned, **await versions.report(g, plan.retire)}


async def extract_pending(ws: Scope, source_id: str) -> SameVersion:
    """Re-run extraction on the latest version's fragments that failed or were skipped;
    the new claims are checked for conflicts like any others, and written in one query."""
    g = ws.graph
    pending = await store_sources.pending_fragments(g, source_id)
    if pending is None:
        raise SourceNotFound(source_id)
    frags = [FragmentPlan(id=f["id"], seq=f["seq"], span=Span(f["start"], f["end"]),
                          text=f["text"], speaker=f["speaker"], said_at=f["said_at"],
                          message_offset=f["message_index"], page=f["page"],
                          page_end=f["page_end"], section=f["section"])
             for f in pending["fragments"]]
    ex = Extraction()
    created: list[CreatedClaim] = []
    raised: list[str] = []
    found = checks.Checks()
    if frags:
        seen = await store_sources.existing_claim_keys(g, source_id)
        ex = await run_extraction(ws.extractor, frags, seen, ws.settings.max_claims_per_source)
        await ws.vectors.embed_claims(g, ex.kept, ex.calls)
        if ws.judge is not None and ex.kept:
            found = await checks.check_new_claims(g, ws.judge, ex.kept, vectors=ws.vectors)
        ex.calls += found.calls
        row = await source_writes.add_claims(
            g, claims_write(source_id, pending["version_id"], frags, ex, found, ws.actor))
        if row is None:
            raise WorkspaceBusy("Another extraction of this source is under way; retry.")
        created = row["created"]
        raised = list(row["raised"])
        ws.vectors.notify(g)
    return {"status": "extracted", "source": await store_sources.get_source(g, source_id),
            **extraction_outcome(ex, frags, created), **no_checks(),
            "conflicts": await disputes.written(g, raised, found.touched_keys())}


def claims_write(source_id: str, version_id: str, frags: list[FragmentPlan], ex: Extraction,
                 found: checks.Checks, actor: str) -> ClaimsWrite:
    """The write of claims extracted later from a version's pending fragments."""
    return {
        **found.writes(), "source_id": source_id, "version_id": version_id,
        "fragment_ids": [f.id for f in frags],
        "fragment_updates": [{"id": f.id, "extraction": f.extraction} for f in frags],
        "claims": ex.kept,
        **audit_params("source.extracted", actor, source_id, {
            "version_id": version_id, "claims": len(ex.kept), "dropped": dict(ex.dropped),
            "failed_fragments": sum(f.extraction == "failed" for f in frags)}),
    }
