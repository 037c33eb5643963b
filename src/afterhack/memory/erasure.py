"""Erasure (docs/rules.md, rule 22): preview exactly what goes and what is repaired, then
apply it as one guarded write.

A target names texts and spans of them (a source's versions whole, one version, one
message's fragments, the span a claim quotes, every message of a speaker, every place an
exact string was written). The plan is worked out here, in Python, from what the store
reads (functional core; store/erasure_reads.py and store/erasures.py are the shell):

* each text loses its spans, each replaced by the marker (rules/redaction.py), and every
  fragment and quote of it moves to its new offsets, so what was not erased still slices
  its version exactly (the plan reads only the fragments a span cuts and the claims
  quoting them; the apply query moves the rest of the version by the spans' deltas);
* a claim whose quote reaches into an erased span is erased: its words go (statement,
  quote, search terms, vector), it reads "Erased on ..., by ...", and what rested on it is
  re-checked exactly as for a retraction (rules/support.py);
* every open conflict with an erased side that it leaves with fewer than two values
  stated closes, naming the erasure (a dispute over more goes on, reworded);
* every other record that repeated an erased string (a run's task or proposal, a
  decision's title, an audit event's detail) has it replaced by the marker.

The preview's impact token is a digest of ids, revisions and positions, never of words:
it and the apply's key (the record's identity) hold nothing a guess could be checked
against (docs/decisions/0037-erasure-markers-and-erased-claims.md).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pydantic_core import to_json

from afterhack.errors import (
    AfterhackError,
    ClaimNotFound,
    ErasureClosed,
    InvalidRequest,
    MessageNotFound,
    NothingToErase,
    SourceNotFound,
    StaleErasurePreview,
    VersionNotFound,
)
from afterhack.memory import repair
from afterhack.memory.extraction import content_hash
from afterhack.model.erasures import (
    ClosingConflict,
    ErasedClaim,
    ErasureCounts,
    ErasureGoes,
    ErasurePreview,
    ErasureRecord,
    ErasureTarget,
    GoingMessage,
    GoingVersion,
    TargetRef,
)
from afterhack.model.region import Snapshot
from afterhack.model.vocab import ApplyStatus, SupportPolicy
from afterhack.model.writes import Flag
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.conflicts import conflict_detail
from afterhack.records.ids import new_id
from afterhack.rules import redaction
from afterhack.rules.redaction import MARKER, Redacted, Span
from afterhack.rules.support import Outcome, relabel
from afterhack.store import erasure_reads as reads
from afterhack.store import erasure_records as records
from afterhack.store import erasure_words as words
from afterhack.store import erasures as store
from afterhack.store import repair as store_repair
from afterhack.store.client import Graph
from afterhack.store.erasure_reads import (
    ClaimPlace,
    ContainedClaim,
    ContainerRow,
    FragmentPart,
    OpenConflictRow,
    Wanted,
)
from afterhack.store.erasure_records import ErasureRow
from afterhack.store.erasures import (
    ClosedConflict,
    ErasedClaimWrite,
    ErasureWrite,
    MovedFragment,
    MovedQuote,
    NewText,
    PremiseRewrite,
    Shift,
)

log = logging.getLogger("afterhack")

# What a transport passes to be told an erasure was written: the disk rewrite is asked for
# (runtime/scrub_standin.py until the disk scrubber is wired).
AfterErasure = Callable[[], object]


def target_ref(t: ErasureTarget) -> TargetRef:
    """The target as a record may keep it: ids only (a speaker or a string is words)."""
    return {"kind": t["kind"], "source_id": t["source_id"], "version_id": t["version_id"],
            "message_index": t["message_index"], "claim_id": t["claim_id"],
            "request_id": t["request_id"]}


@dataclass
class Plan:
    """Everything an erasure does, worked out before anything is written."""

    target: ErasureTarget
    containers: list[ContainerRow] = field(default_factory=list)
    redacted: dict[str, Redacted] = field(default_factory=dict)
    claims: list[ContainedClaim] = field(default_factory=list)
    erased: list[ContainedClaim] = field(default_factory=list)
    text_versions: list[str] = field(default_factory=list)
    text_reviewer: list[str] = field(default_factory=list)
    text_claims: list[str] = field(default_factory=list)
    conflicts: list[OpenConflictRow] = field(default_factory=list)
    snap: Snapshot = field(default_factory=lambda: Snapshot(decisions={}, actions={}))
    out: Outcome = field(default_factory=Outcome)
    nd_records: list[str] = field(default_factory=list)
    nd_all: list[str] = field(default_factory=list)
    records: int = 0
    request: ErasureRow | None = None
    token: str = ""
    # The fragments of the claims the target names outright, by version: read besides
    # those a span cuts.
    forced_fragments: dict[str, set[str]] = field(default_factory=dict)

    @property
    def changed(self) -> list[ContainerRow]:
        return [c for c in self.containers if self.redacted[c["id"]].changed]

    @property
    def empty(self) -> bool:
        return not self.changed and not self.erased


# ----------------------------------------------------------------------------- planning


async def _resolve(g: Graph, t: ErasureTarget, p: Plan
                   ) -> tuple[dict[str, list[Span]], dict[str, list[Span]], set[str]]:
    """The spans the target names, by version and by reviewer fragment, and the claims it
    names outright (a claim, a request's claims, the claims whose words hold a string)."""
    versions: dict[str, list[Span]] = {}
    reviewer: dict[str, list[Span]] = {}
    forced: set[str] = set()
    whole = Span(0, 2**62)  # clipped to each fragment
    kind = t["kind"]
    if kind in ("source", "version", "message"):
        assert t["source_id"] is not None
        if kind == "message":
            assert t["message_index"] is not None
            hits = await reads.message_fragments(g, t["source_id"], t["message_index"])
            if hits is None:
                raise SourceNotFound(t["source_id"])
            if not hits:
                raise MessageNotFound(str(t["message_index"]),
                                      "No message with that index in this conversation.")
            for h in hits:
                versions.setdefault(h["version_id"], []).append(Span(h["start"], h["end"]))
            return versions, reviewer, forced
        refs = await reads.source_versions(g, t["source_id"])
        if refs is None:
            raise SourceNotFound(t["source_id"])
        ids = [r["version_id"] for r in refs]
        if kind == "version":
            if t["version_id"] not in ids:
                raise VersionNotFound(t["version_id"])
            ids = [t["version_id"]] if t["version_id"] is not None else []
        return {i: [whole] for i in ids}, reviewer, forced
    if kind == "speaker":
        assert t["speaker"] is not None
        for h in await reads.speaker_fragments(g, t["speaker"]):
            versions.setdefault(h["version_id"], []).append(Span(h["start"], h["end"]))
        return versions, reviewer, forced
    if kind == "text":
        assert t["text"] is not None
        held = await reads.holding(g, t["text"])
        p.text_versions, p.text_reviewer = held["versions"], held["reviewer_fragments"]
        p.text_claims = held["claims"]
        versions = {i: [] for i in held["versions"]}  # occurrences found once loaded
        reviewer = {i: [] for i in held["reviewer_fragments"]}
        forced = set(held["claims"])
    elif kind == "claim":
        assert t["claim_id"] is not None
        forced = {t["claim_id"]}
    else:  # a request: the claims it withholds
        assert t["request_id"] is not None
        p.request = await records.get_row(g, t["request_id"])
        if p.request["status"] != "requested":
            raise ErasureClosed(erasure_id=t["request_id"], status=p.request["status"])
        forced = set(await records.withheld_by(g, t["request_id"]))
    places = await reads.claim_places(g, sorted(forced))
    if kind == "claim" and not places:
        raise ClaimNotFound(t["claim_id"])
    _place(places, kind == "text", versions, reviewer, p.forced_fragments)
    return versions, reviewer, forced


def _place(places: Sequence[ClaimPlace], text: bool, versions: dict[str, list[Span]],
           reviewer: dict[str, list[Span]], fragments: dict[str, set[str]]) -> None:
    """The texts of the claims a target names, and (but for a string, whose spans are its
    occurrences) the span each one's quote covers."""
    whole = Span(0, 2**62)  # clipped to the reviewer's fragment
    for c in places:
        if c["status"] == "erased":
            continue
        if c["reviewer_fragment_id"] is not None:
            reviewer.setdefault(c["reviewer_fragment_id"], [])
            if not text:
                reviewer[c["reviewer_fragment_id"]].append(whole)
        elif c["version_id"] is not None:
            versions.setdefault(c["version_id"], [])
            fragments.setdefault(c["version_id"], set()).add(c["fragment_id"])
            if not text:
                versions[c["version_id"]].append(Span(c["quote_start"], c["quote_end"]))


async def _containers(g: Graph, p: Plan, versions: dict[str, list[Span]],
                      reviewer: dict[str, list[Span]]
                      ) -> tuple[list[ContainerRow], list[ContainedClaim]]:
    """The texts the erasure cuts, each with only the fragments it reads: those a span
    (named, or an occurrence of the string) reaches into, and those of the claims the
    target names; and every claim quoting them. The rest of a version only moves, and the
    apply query moves it (store/erasures.py)."""
    text = p.target["text"]
    rows = await reads.version_texts(g, sorted(versions))
    wanted: list[Wanted] = []
    for r in rows:
        spans = versions[r["id"]] + (redaction.occurrences(r["text"], text)
                                     if text is not None else [])
        wanted.append({"version_id": r["id"],
                       "spans": [[x.start, x.end] for x in redaction.merge(spans)],
                       "ids": sorted(p.forced_fragments.get(r["id"], ()))})
    fragments = await reads.fragments_over(g, wanted)
    claims = await reads.claims_on(g, [f["id"] for f in fragments])
    out = [ContainerRow(
        kind="version", id=r["id"], text=r["text"], revision=r["revision"],
        n_claims=r["n_claims"], source_id=r["source_id"], source_kind=r["source_kind"],
        version=r["version"], has_file=r["has_file"], correction_id=None,
        fragments=sorted((FragmentPart(id=f["id"], start=f["start"], end=f["end"],
                                       speaker=f["speaker"],
                                       message_index=f["message_index"])
                          for f in fragments if f["version_id"] == r["id"]),
                         key=lambda f: (f["start"], f["end"])),
        n_fragments=r["n_fragments"]) for r in rows]
    boxes, quoting = await reads.reviewer_containers(g, sorted(reviewer))
    return out + boxes, claims + quoting


def _pieces(container: ContainerRow, spans: Sequence[Span], text: str | None) -> list[Span]:
    """The spans of a text to replace: those named, or every place ``text`` stands, cut at
    its fragments' bounds; a piece that is the marker already stays."""
    wanted = list(spans)
    if text is not None:
        wanted += redaction.occurrences(container["text"], text)
    frags = [Span(f["start"], f["end"]) for f in container["fragments"]]
    old = container["text"]
    return [s for s in redaction.clip(wanted, frags) if old[s.start:s.end] != MARKER]


async def plan(g: Graph, target: ErasureTarget, *, policy: SupportPolicy) -> Plan:
    """What erasing ``target`` does now."""
    p = Plan(target=target)
    versions, reviewer, forced = await _resolve(g, target, p)
    p.containers, p.claims = await _containers(g, p, versions, reviewer)
    text = target["text"]
    for c in p.containers:
        spans = (versions if c["kind"] == "version" else reviewer).get(c["id"], [])
        p.redacted[c["id"]] = redaction.redact(c["text"], _pieces(c, spans, text))
    p.erased = [c for c in p.claims if c["status"] != "erased" and (
        c["id"] in forced or p.redacted[c["container_id"]].touches(c["quote_start"],
                                                                   c["quote_end"]))]
    erased_ids = sorted(c["id"] for c in p.erased)
    # Every string that goes: what the spans held, and the erased claims' own words.
    # Every string that goes: what the spans held, and the erased claims' own words; but a
    # statement another claim still states (a copy in a source the erasure leaves) is still
    # the memory's, and so is a span that held no more than its quote.
    held = await reads.keys_held(g, sorted({q["statement_key"] for q in p.erased
                                            if q["statement_key"]}), erased_ids)
    kept = {s for q in p.erased if q["statement_key"] in held
            for s in (q["statement"], q["evidence_quote"], q["statement_key"])}
    gone: list[str | None] = []
    for box in p.changed:
        gone += [x for x in p.redacted[box["id"]].erased() if x not in kept]
    for q in p.erased:
        if q["statement_key"] not in held:
            gone += [q["statement"], q["evidence_quote"], q["statement_key"]]
    p.nd_all = redaction.needles([text]) if text is not None else []
    p.nd_records = redaction.needles([*gone, text])
    p.conflicts = await reads.open_conflicts_of(g, erased_ids)
    p.snap = await store_repair.load_region(
        g, await store_repair.decisions_using(g, erased_ids))
    p.out = relabel(p.snap, refuted={c["id"]: c["source_id"] for c in p.erased},
                    policy=policy)
    p.records = await words.count_records(g, p.nd_records, p.nd_all)
    p.token = _token(p)
    return p


def _token(p: Plan) -> str:
    """A digest of what the plan read: ids, revisions, counts and positions of spans, never
    a word."""
    stamps = p.snap.stamps()
    t = p.target
    payload = (
        [t["kind"], t["source_id"], t["version_id"], t["message_index"], t["claim_id"],
         t["request_id"]],
        [[c["kind"], c["id"], c["revision"], c["n_claims"],
          [[s.start, s.end] for s in p.redacted[c["id"]].spans]] for c in p.containers],
        sorted([c["id"], c["revision"], c["status"], c["n_users"]] for c in p.erased),
        [[k["id"], k["revision"]] for k in p.conflicts],
        [v for stamp in stamps.decisions for v in stamp],
        stamps.actions, stamps.claims, stamps.upstream,
        p.text_versions, p.text_reviewer, p.text_claims,
        [p.request["id"], p.request["revision"]] if p.request is not None else None)
    return "era_" + hashlib.sha256(to_json(payload)).hexdigest()[:32]


def erasure_key(target: ErasureTarget, token: str) -> str:
    """The identity of one apply, so a repeat is recognised: the target's ids and the token
    the preview gave (neither holds a word)."""
    raw = json.dumps([*target_ref(target).values(), token]).encode()
    return "erk_" + hashlib.sha256(raw).hexdigest()[:32]


def _counts(p: Plan) -> ErasureCounts:
    changed = p.changed
    fragments = 0
    messages: set[tuple[str | None, int]] = set()
    for c in changed:
        r = p.redacted[c["id"]]
        for f in c["fragments"]:
            if r.touches(f["start"], f["end"]):
                fragments += 1
                if f["message_index"] is not None:
                    messages.add((c["source_id"], f["message_index"]))
    return {
        "sources": len({c["source_id"] for c in changed if c["kind"] == "version"}),
        "versions": sum(c["kind"] == "version" for c in changed),
        "messages": len(messages), "fragments": fragments,
        "spans": sum(len(p.redacted[c["id"]].spans) for c in changed),
        "claims": len(p.erased), "files": sum(c["has_file"] for c in changed),
        "records": p.records, "flagged": len(p.out.flag), "held": len(p.out.hold),
        "conflicts": len(_closing(p))}


def _goes(p: Plan) -> ErasureGoes:
    changed = p.changed
    versions: list[GoingVersion] = []
    messages: list[GoingMessage] = []
    for c in changed:
        r = p.redacted[c["id"]]
        if c["kind"] == "version":
            assert c["source_id"] is not None and c["version"] is not None
            versions.append({"source_id": c["source_id"], "version_id": c["id"],
                             "version": c["version"], "spans": len(r.spans),
                             "file": c["has_file"]})
        seen: set[int] = set()
        for f in c["fragments"]:
            i = f["message_index"]
            if i is not None and i not in seen and r.touches(f["start"], f["end"]):
                seen.add(i)
                assert c["source_id"] is not None
                messages.append({"source_id": c["source_id"], "message_index": i,
                                 "speaker": f["speaker"]})
    claims: list[ErasedClaim] = [
        {"id": c["id"], "statement": c["statement"], "status": c["status"],
         "source_id": c["source_id"], "used_by": c["n_users"]}
        for c in sorted(p.erased, key=lambda c: c["id"])]
    return {"versions": versions, "messages": sorted(messages, key=lambda m: (
                m["source_id"], m["message_index"])),
            "claims": claims,
            "corrections": sorted(c["correction_id"] for c in changed
                                  if c["correction_id"] is not None),
            "records": p.records}


async def preview_erasure(g: Graph, target: ErasureTarget, *, policy: SupportPolicy
                          ) -> ErasurePreview:
    """What erasing ``target`` would remove and repair now, and the token apply sends
    back."""
    p = await plan(g, target, policy=policy)
    return {
        "target": target_ref(target), "goes": _goes(p), "counts": _counts(p),
        **await repair.describe(g, p.snap, p.out),
        "closes": [ClosingConflict(id=k["id"], kind=k["kind"], reason=k["reason"])
                   for k in _closing(p)],
        "impact_token": p.token,
    }


# ----------------------------------------------------------------------------- applying


def erased_note(at: int, by: str) -> str:
    """What an erased claim says in place of its words."""
    when = datetime.fromtimestamp(at / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"Erased on {when}, by {by}."


def _moves(p: Plan, note: str) -> tuple[list[NewText], list[MovedFragment], list[MovedQuote],
                                         list[ErasedClaimWrite]]:
    texts: list[NewText] = []
    fragments: list[MovedFragment] = []
    moved: list[MovedQuote] = []
    erased: list[ErasedClaimWrite] = []
    erased_ids = {c["id"] for c in p.erased}
    for c in p.containers:
        r = p.redacted[c["id"]]
        if c["kind"] == "version" and r.changed:
            texts.append({"id": c["id"], "text": r.text, "length": len(r.text),
                          "content_hash": content_hash(r.text), "drop_file": c["has_file"]})
        if not r.changed:
            continue
        for f in c["fragments"]:
            start, end = r.range(f["start"], f["end"])
            touched = r.touches(f["start"], f["end"])
            if touched or (start, end) != (f["start"], f["end"]):
                fragments.append({"id": f["id"], "start": start, "end": end,
                                  "text": r.text[start:end] if touched else None})
    by_container = {c["id"]: p.redacted[c["id"]] for c in p.containers}
    for q in p.claims:
        r = by_container[q["container_id"]]
        start, end = r.range(q["quote_start"], q["quote_end"])
        if q["id"] in erased_ids:
            erased.append({"id": q["id"], "statement": note, "quote": r.text[start:end],
                           "quote_start": start, "quote_end": end})
        elif r.touches(q["quote_start"], q["quote_end"]) or (start, end) != (
                q["quote_start"], q["quote_end"]):
            # An erased claim of an earlier erasure whose quote reaches into a new span
            # takes the new slice; any other claim only moves.
            moved.append({"id": q["id"], "quote_start": start, "quote_end": end,
                          "quote": r.text[start:end]
                          if r.touches(q["quote_start"], q["quote_end"]) else None})
    return texts, fragments, moved, erased


def _shifts(p: Plan) -> list[Shift]:
    """Each cut version's spans with what each one's marker moves the text after it by: the
    apply query moves every fragment and quote the plan did not read (none of them touches
    a span) by these; those it read, it writes where ``_moves`` put them. A version the
    plan read whole (erased whole) has nothing left to move."""
    out: list[Shift] = []
    for c in p.changed:
        if c["kind"] != "version" or len(c["fragments"]) >= c["n_fragments"]:
            continue
        spans = p.redacted[c["id"]].spans
        out.append({"version_id": c["id"], "after": spans[0].end,
                    "spans": [[x.start, x.end, len(MARKER) - (x.end - x.start)]
                              for x in spans]})
    return out


async def _premises(g: Graph, p: Plan) -> tuple[list[PremiseRewrite], dict[str, str]]:
    """The decisions of the region whose premises were named with erased words, named
    again (apart: rules/redaction.rename_apart); and every name that changed."""
    if not p.snap.decisions or not p.nd_records:
        return [], {}
    out: list[PremiseRewrite] = []
    renamed: dict[str, str] = {}
    nd = p.nd_records
    for w in await reads.decision_words(g, sorted(p.snap.decisions)):
        d = p.snap.decisions[w["id"]]
        order: list[str] = json.loads(w["premise_order"] or "[]")
        names = [*order, *(u.premise for u in d.uses)]
        renames = redaction.rename_apart(names, nd)
        texts = [w["premise_order"] or "", *(w["support_history"] or []),
                 w["review_reason"] or ""]
        if not renames and not any(redaction.holds_any(x, nd) for x in texts):
            continue
        renamed.update(renames)
        out.append({
            "decision_id": d.id,
            "uses": [[u.claim_id, renames.get(u.premise, u.premise)] for u in d.uses],
            "premise_order": (redaction.scrub_json(w["premise_order"], nd, renames)
                              if w["premise_order"] is not None else None),
            "support_history": ([redaction.scrub_json(x, nd, renames)
                                 for x in w["support_history"]]
                                if w["support_history"] is not None else None),
            "review_reason": (redaction.scrub_json(w["review_reason"], nd, renames)
                              if w["review_reason"] is not None else None)})
    return out, renamed


async def apply_erasure(g: Graph, target: ErasureTarget, *, impact_token_seen: str,
                        reason: str | None, actor: str, policy: SupportPolicy
                        ) -> tuple[ApplyStatus, ErasureRecord]:
    """Apply what the preview showed, in one guarded write; the same apply again is
    ``already_applied`` (and re-checks what rested on the erased claims)."""
    key = erasure_key(target, impact_token_seen)
    existing = await records.find_by_key(g, key)
    if existing is not None:
        return "already_applied", await _again(g, existing, policy=policy, actor=actor)
    p = await plan(g, target, policy=policy)
    if p.token != impact_token_seen:
        raise StaleErasurePreview(seen={"impact_token": impact_token_seen},
                                  current={"impact_token": p.token})
    if p.empty and p.request is None:
        # A request whose claims something else erased meanwhile is still applied: it is
        # answered, with nothing left to erase.
        raise NothingToErase()
    now = now_ms()
    erasure_id = p.request["id"] if p.request is not None else new_id()
    note = erased_note(now, actor)
    texts, fragments, moved, erased = _moves(p, note)
    premises, renamed = await _premises(g, p)
    nd_any = redaction.needles([*p.nd_records, *p.nd_all])
    erased_ids = sorted(c["id"] for c in p.erased)
    flags: list[Flag] = [
        {"id": i, "reason": redaction.scrub_json(json.dumps({
            "type": "erasure", "erasure_id": erasure_id,
            "claim_ids": sorted({u.claim_id for u in p.snap.decisions[i].uses}
                                & set(erased_ids)),
            "reasons": r}), nd_any, renamed)}
        for i, r in p.out.flag.items()]
    counts = _counts(p)
    clean_reason = redaction.scrub(reason, nd_any) if reason is not None else None
    close_note = "A side of it was erased."
    closing = _closing(p)
    write: ErasureWrite = {
        "now": now, "actor": actor, "marker": MARKER,
        "erasure": {
            "id": erasure_id, "kind": target["kind"], "source_id": target["source_id"],
            "version_id": target["version_id"], "message_index": target["message_index"],
            "claim_id": target["claim_id"], "request_id": target["request_id"],
            "reason": clean_reason, "key": key, "counts": json.dumps(counts),
            "claim_ids": erased_ids, "flagged": sorted(p.out.flag),
            "held": sorted(p.out.hold), "conflicts": [k["id"] for k in closing]},
        "g_versions": [{"id": c["id"], "revision": c["revision"], "n_claims": c["n_claims"]}
                       for c in p.containers if c["kind"] == "version"],
        "g_reviewer": [{"id": c["id"], "revision": c["revision"], "n_claims": c["n_claims"]}
                       for c in p.containers if c["kind"] == "reviewer"],
        "g_claims": [{"id": c["id"], "revision": c["revision"], "n_users": c["n_users"]}
                     for c in p.erased],
        "g_conflicts": [{"id": k["id"], "revision": k["revision"]} for k in p.conflicts],
        "text": target["text"], "text_versions": p.text_versions,
        "text_reviewer": p.text_reviewer, "text_claims": p.text_claims,
        "versions": texts, "shifts": _shifts(p), "fragments": fragments, "moved": moved,
        "erased": erased,
        "corrections": sorted(c["correction_id"] for c in p.changed
                              if c["correction_id"] is not None),
        "close": [_closed(k) for k in closing], "close_note": close_note,
        "reword": [_closed(k) for k in p.conflicts if k not in closing],
        "close_detail": json.dumps({"settled_by": {"kind": "erasure", "id": erasure_id,
                                                   "note": close_note}}, sort_keys=True),
        "premises": premises, "flags": flags, "holds": sorted(p.out.hold),
        "nd_records": p.nd_records, "nd_all": p.nd_all,
        "audits": [audit_event("erasure.applied", actor, erasure_id, {
            "kind": target["kind"], "counts": counts, "claims": erased_ids,
            "flagged": sorted(p.out.flag), "held": sorted(p.out.hold),
            "conflicts": [k["id"] for k in closing]}, at=now)],
    }
    if not await store.apply(g, p.snap.stamps(), write):
        winner = await records.find_by_key(g, key)
        if winner is not None:
            return "already_applied", await _again(g, winner, policy=policy, actor=actor)
        raise StaleErasurePreview(seen={"impact_token": impact_token_seen})
    await _forget_slow_queries(g)
    return "applied", await records.get_erasure(g, erasure_id)


async def _forget_slow_queries(g: Graph) -> None:
    """The erasure is written; FalkorDB's in-memory log of slow queries may still hold the
    words as a query's parameters. A failure to empty it is logged, not answered: the
    erasure stands."""
    try:
        await store.forget_slow_queries(g)
    except AfterhackError as exc:
        log.warning("erasure applied, but the slow-query log was not emptied: %s", exc.code)


def _closing(p: Plan) -> list[OpenConflictRow]:
    """The open conflicts the erasure settles: those it leaves with fewer than two values
    anybody still states (a dispute over more values goes on without the erased one)."""
    return [k for k in p.conflicts if k["live_sides"] < 2]


def _closed(k: OpenConflictRow) -> ClosedConflict:
    """A conflict said again without the values its reason read."""
    reason = f"Its sides gave different values ({k['kind']}); a side was erased."
    old, new = (k["claim_ids"] + ["", ""])[:2]
    return {"id": k["id"], "reason": reason,
            "raised_detail": conflict_detail(k["kind"], reason, new, old)}


async def _again(g: Graph, erasure_id: str, *, policy: SupportPolicy, actor: str
                 ) -> ErasureRecord:
    """An erasure applied before, with the dependency check run again on its claims."""
    found = await records.get_erasure(g, erasure_id)
    if found["claim_ids"]:
        await repair.recheck_claims(g, found["claim_ids"], policy=policy, actor=actor)
    return found


async def get_erasure(g: Graph, erasure_id: str) -> ErasureRecord:
    """An erasure, or a request, as recorded (ErasureNotFound when there is none)."""
    return await records.get_erasure(g, erasure_id)


def check_target(t: ErasureTarget) -> None:
    """A target names exactly one kind of thing, with what that kind needs (the wire
    checks the shape; this is the domain's own check for callers that skip it)."""
    if t["kind"] == "text" and (t["text"] is None or len(t["text"]) < redaction.MIN_NEEDLE
                                or not t["text"].strip()):
        raise InvalidRequest(f"An erased string has at least {redaction.MIN_NEEDLE} "
                             "characters, not all of them spaces.", field="text")
