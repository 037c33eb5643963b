"""What was said, by whom, when (docs/rules.md, rule 11): a conversation is a source whose
fragments are its messages.

A conversation's version holds the messages it added, joined by a blank line; each message
is one fragment (a long one is split at sentences into several, each carrying the message's
speaker, time and index), so a claim's quote lies inside one message, and the claim carries
who said it and when (``said_by``, ``said_at``; ``valid_from`` defaults to ``said_at``).
Appending messages writes a version of the new messages alone: the earlier ones are neither
written nor read again, so an append costs what its own messages cost, however long the
conversation has grown.

A new claim that gives another value for the same thing as a current one raises a conflict
(rule 9), marked with which side is newer and whether one speaker said both. In a workspace
whose ``updates`` is ``latest_wins``, a newer statement by the same speaker supersedes the
older one in the same write (conflicts.plan_latest_wins).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from afterhack.errors import SourceKindMismatch, SourceNotFound
from afterhack.facts import said
from afterhack.facts.lexicon import VERBS
from afterhack.memory import checks, conflicts, disputes, erasure_requests, versions
from afterhack.memory.extraction import (
    Extraction,
    FragmentPlan,
    content_hash,
    extraction_outcome,
    fragment_rows,
    run_extraction,
)
from afterhack.memory.ingest import Document, Plan, Start, check_length, preview_answer
from afterhack.memory.scope import Scope, until_written
from afterhack.model.erasures import ErasureRecord
from afterhack.model.sources import (
    MESSAGE_SEPARATOR,
    FragmentRow,
    IngestResult,
    NewVersion,
    SourceRow,
    SourceView,
    VersionView,
)
from afterhack.records.audit import audit_params
from afterhack.records.clock import now_ms
from afterhack.records.ids import new_id, new_ids
from afterhack.retrieval import search
from afterhack.rules import evidence
from afterhack.rules.chunking import Span, sentence_spans, split_fragments
from afterhack.store import source_writes
from afterhack.store import sources as store_sources
from afterhack.store.client import Graph
from afterhack.store.source_params import NO_FILE, MessagesWrite, MessagesWritten

SEPARATOR = MESSAGE_SEPARATOR
_ATTEMPTS = 4


@dataclass(frozen=True)
class Message:
    speaker: str
    text: str
    at: int  # when it was said (epoch ms): as given, or when it was received


def lay_out(messages: Sequence[Message], max_chars: int) -> tuple[str, list[FragmentPlan]]:
    """The version text (the messages joined by a blank line) and its fragments: each
    message's own text, split at sentences only when it is longer than a fragment."""
    parts: list[str] = []
    frags: list[FragmentPlan] = []
    pos = 0
    for i, m in enumerate(messages):
        if i:
            parts.append(SEPARATOR)
            pos += len(SEPARATOR)
        for s in split_fragments(m.text, max_chars):
            frags.append(FragmentPlan(
                id="", seq=len(frags), span=Span(pos + s.start, pos + s.end),
                text=m.text[s.start : s.end], speaker=m.speaker, said_at=m.at,
                message_offset=i))
        parts.append(m.text)
        pos += len(m.text)
    for f, fid in zip(frags, new_ids(len(frags)), strict=True):
        f.id = fid
    return "".join(parts), frags


@dataclass(frozen=True)
class Conversation:
    """Where messages go: the conversation ``source_id``, or a new one with this title and
    origin (under the id ``create_as`` when it is found by its title: of two requests
    racing to create it, one creates, the other appends)."""

    source_id: str | None = None
    title: str | None = None
    origin_type: str = "conversation"
    origin_name: str | None = None
    create_as: str | None = None


async def add_messages(ws: Scope, messages: Sequence[Message], to: Conversation, *,
                       extract: bool = True, preview: bool = False) -> IngestResult:
    """A new conversation or messages appended to one. Only these messages are read; their
    claims are checked for conflicts with the current claims (and with each other), and in
    a ``latest_wins`` workspace a speaker's newer statement supersedes their older one in
    the same write."""
    text, frags = lay_out(messages, ws.settings.fragment_max_chars)
    check_length(ws.settings, text)
    existing: SourceRow | None = None
    if to.source_id is not None:
        existing = await store_sources.find_source(ws.graph, to.source_id)
        if existing is None:
            raise SourceNotFound(to.source_id)
        if existing["kind"] != "conversation":
            raise SourceKindMismatch(
                "This source is not a conversation: send a new version of its text or file "
                "instead.", source_id=to.source_id, kind=existing["kind"])
    ex = Extraction()
    if extract:
        ex = await run_extraction(ws.extractor, frags, set(), ws.settings.max_claims_per_source)
        await lean_on_before(ws.graph, to.source_id, messages, frags, ex)
    await ws.vectors.embed_claims(ws.graph, ex.kept, ex.calls)
    doc = Document(text=text, title=to.title, origin_type=to.origin_type,
                   origin_name=to.origin_name, kind="conversation")
    start = Start(doc=doc, sid=to.source_id or to.create_as or new_id(), existing=existing,
                  frags=frags, ex=ex)
    return await until_written(lambda: _attempt(ws, start, messages, to, preview),
                               _ATTEMPTS, "What these messages supersede kept changing; retry.")


async def _attempt(ws: Scope, start: Start, messages: Sequence[Message], to: Conversation,
                   preview: bool) -> IngestResult | None:
    """Read, plan and write once; None when what the policy supersedes changed meanwhile, or
    when another request created the conversation first (then this one appends). A message
    that asks to forget something its speaker said then raises an erasure request
    (memory/erasure_requests.py; in a workspace whose ``forget_requests`` is ``apply``, it is
    applied at once and the disk asked to forget it too)."""
    g, ex = ws.graph, start.ex
    found = checks.Checks()
    if ws.judge is not None and ex.kept:
        found = await checks.check_new_claims(g, ws.judge, ex.kept, within=True,
                                              vectors=ws.vectors)
    policy = conflicts.PolicyPlan()
    if ws.updates == "latest_wins" and found.rows:
        policy = await conflicts.plan_latest_wins(g, found, ex.kept, policy=ws.policy)
    report = versions.VersionPlan(retire=policy.report, snap=policy.snap, out=policy.out)
    plan = Plan(retire=report, checks=found, calls=[*ex.calls, *found.calls])
    if preview:
        return await preview_answer(g, start, plan)
    params = messages_write(start, plan, policy, len(messages), ws.actor)
    row: MessagesWritten | None
    if start.existing is None:
        row = await source_writes.create_conversation(g, params)
        if row is None and to.create_as is not None:
            start.existing = await store_sources.find_source(g, start.sid)
            # Another request created this conversation first: append to it instead.
            return None
    else:
        row = await source_writes.append_messages(g, params)
        if row is None and await store_sources.find_source(g, start.sid) is None:
            raise SourceNotFound(start.sid)
    if row is None:
        return None  # what the policy supersedes changed meanwhile: plan again
    ws.vectors.notify(g)
    asked = erasure_requests.requests_in(
        row["source_id"], row["first_message"], [(m.speaker, m.text) for m in messages],
        [(f.message_offset, f.id) for f in start.frags])
    raised = await erasure_requests.raise_requests(
        g, asked, vectors=ws.vectors, forget=ws.forget_requests, policy=ws.policy,
        after=ws.parts.disk().request) if asked else []
    return await _answer(g, start, plan, (params, row), raised)


def messages_write(start: Start, plan: Plan, policy: conflicts.PolicyPlan, count: int,
                   actor: str) -> MessagesWrite:
    """The write of a conversation's new version: its messages as fragments, their claims,
    the conflicts they raise and what the policy supersedes, guarded."""
    doc, ex, frags = start.doc, start.ex, start.frags
    version_id = new_id()
    return {
        "source_id": start.sid, "version_id": version_id, "kind": "conversation",
        "title": doc.title, "origin_type": doc.origin_type,
        "origin_name": doc.origin_name or doc.title, "text": doc.text,
        "content_hash": content_hash(doc.text), "length": len(doc.text),
        "message_count": count, **NO_FILE,
        "fragments": fragment_rows(frags), "claims": ex.kept,
        **plan.checks.writes(),
        "model_calls": json.dumps([c.as_dict() for c in plan.calls]),
        **policy.write(),
        **audit_params(
            "source.created" if start.new_source else "source.versioned", actor, start.sid,
            {"version_id": version_id, "claims": len(ex.kept), "messages": count,
             "dropped": dict(ex.dropped),
             "failed_fragments": sum(f.extraction == "failed" for f in frags),
             "superseded": sorted(r["id"] for r in policy.report),
             "flagged": sorted(policy.out.flag), "held": sorted(policy.out.hold)}),
    }


async def _answer(g: Graph, start: Start, plan: Plan,
                  written: tuple[MessagesWrite, MessagesWritten],
                  raised: list[ErasureRecord]) -> NewVersion:
    params, row = written
    out = extraction_outcome(start.ex, start.frags, row["created"])
    out["model_calls"] = [c.as_dict() for c in plan.calls]
    return {"status": "created" if start.new_source else "versioned",
            # An append answers with the version it wrote, not the whole conversation.
            "source": _written(params, row, start.frags, start.existing),
            "version": row["version"], **out,
            "conflicts": await disputes.written(g, row["raised"], plan.checks.touched_keys()),
            **await versions.report(g, plan.retire), "erasures": raised}


async def lean_on_before(g: Graph, source_id: str | None, messages: Sequence[Message],
                         frags: Sequence[FragmentPlan], ex: Extraction) -> None:
    """A message that opens on a pronoun ("It lands at 9:15 now.") is read with what its
    speaker said last: the claim it opens with says what the pronoun stands for ("My flight
    lands at 9:15 now."), its quote unchanged, when every number and name of the statement so
    written is still in the quote (rule 1); otherwise it stays as extracted."""
    first = {f.id: f for f in frags if f.message_offset is not None
             and (f.seq == 0 or frags[f.seq - 1].message_offset != f.message_offset)}
    for i, c in enumerate(ex.kept):
        f = first.get(c["fragment_id"])
        if f is None or c["quote_start"] != f.span.start or f.speaker is None:
            continue
        if not said.FOLLOW_UP.match(c["statement"]):
            continue
        earlier = [m.text for m in messages[: f.message_offset] if m.speaker == f.speaker]
        before = earlier[-1] if earlier else (
            await store_sources.last_said(g, source_id, f.speaker) if source_id else None)
        subject = _subject_of(before) if before else None
        if subject is None:
            continue
        pronoun = said.FOLLOW_UP.match(c["statement"])
        assert pronoun is not None
        statement = subject + c["statement"][pronoun.end():]
        if evidence.missing_from_quote(statement, c["quote"]):
            continue
        ex.kept[i] = {**c, "statement": statement, "key": evidence.statement_key(statement),
                      "terms": search.joined_terms(statement)}


def _subject_of(text: str) -> str | None:
    """What the last sentence of a message that names its subject is about."""
    for span in reversed(sentence_spans(text)):
        sentence = text[span.start:span.end].strip()
        if sentence and not said.FOLLOW_UP.match(sentence):
            return said.subject_phrase(sentence, verbs=VERBS)
    return None


def _written(p: MessagesWrite, row: MessagesWritten, frags: Sequence[FragmentPlan],
             before: SourceRow | None) -> SourceView:
    """The conversation with the version just written, as a read of it would answer: built
    from the write itself, so an append reads nothing back."""
    version_id = p["version_id"]
    fragments: list[FragmentRow] = [{
        "version_id": version_id, "id": f.id, "seq": f.seq, "text": f.text,
        "start": f.span.start, "end": f.span.end, "extraction": f.extraction,
        "speaker": f.speaker, "said_at": f.said_at,
        "message_index": row["first_message"] + (f.message_offset or 0),
        "page": None, "page_end": None, "section": None} for f in frags]
    version: VersionView = {
        "id": version_id, "version": row["version"], "content_hash": p["content_hash"],
        "created_at": row["created_at"], "length": p["length"], "text": p["text"],
        "media_type": None, "file_size": None, "file_hash": None, "file_name": None,
        "fragments": fragments}
    return {
        "id": row["source_id"], "kind": "conversation",
        "title": p["title"] if before is None else p["title"] or before["title"],
        "origin_type": before["origin_type"] if before else p["origin_type"],
        "origin_name": before["origin_name"] if before else p["origin_name"],
        "created_at": before["created_at"] if before else row["created_at"],
        "revision": row["revision"], "latest_version": row["latest_version"],
        "message_count": row["message_count"], "versions": [version]}


# Conversations made by their title (remember) take an id derived from it, so two requests
# racing to make the same one make one.
_BY_TITLE = uuid.UUID("5f0c7a3e-6b1d-4c59-9e8e-36a4f1d2c0b7")


def conversation_id(title: str) -> str:
    return str(uuid.uuid5(_BY_TITLE, title))


async def remember(ws: Scope, conversation: str, messages: Sequence[Message]) -> IngestResult:
    """Messages recorded in the conversation with this title: appended to the oldest one,
    or to a new one when there is none."""
    found = await store_sources.find_conversation(ws.graph, conversation)
    to = (Conversation(title=conversation, create_as=conversation_id(conversation))
          if found is None else Conversation(source_id=found["id"], title=conversation))
    return await add_messages(ws, messages, to)


def received(at: int | None, now: int | None = None) -> int:
    """A message's time: as given, or when it was received."""
    if at is not None:
        return at
    return now if now is not None else now_ms()
