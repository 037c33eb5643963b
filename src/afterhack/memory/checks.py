"""Every new claim is checked against the current claims near it (docs/rules.md, rule 9).

Each new claim that could contradict anything (it has a value and a subject) is compared
with its top neighbours by search, by words and by meaning (retrieval/neighbours.py), never
with the whole graph, and a conversation's messages with the earlier messages of the same
batch; the judge (the offline detector, or the model's conflict judge) decides each pair.
The conflicts are written by the caller in the same query as what made the claims: an
ingest or a re-extraction, a conversation's messages, a correction's replacement, the kept
side of a resolution. The pairs that state the same fact in other words are linked in that
write too (SAME_FACT), so that a correction of either reaches the other. The vector worker
checks by meaning each claim it embeds (``check_by_meaning``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired

from typing_extensions import TypedDict

from afterhack import facts
from afterhack.llm.judge import Candidate, ConflictJudge, Subject
from afterhack.memory import disputes
from afterhack.memory.disputes import Placement, Stated
from afterhack.model.calls import ModelCall
from afterhack.model.writes import ConflictRow, LinkRow, RaiseRows
from afterhack.records.audit import audit_event
from afterhack.records.clock import now_ms
from afterhack.records.conflicts import conflict_row, pair_key
from afterhack.retrieval import neighbours, search
from afterhack.store import claims as store_claims
from afterhack.store import conflicts as store_conflicts
from afterhack.store.client import Graph
from afterhack.store.conflicts import Membership

if TYPE_CHECKING:
    from afterhack.retrieval.vectors import Vectors

# Who raises what the vector worker finds.
WORKER = "vector-worker"


class NewStatement(TypedDict):
    """A claim to check: a new one (store.sources.NewClaim is one), a correction's
    replacement, or the kept side of a resolution."""

    id: str
    statement: str
    key: str  # its statement key
    terms: str  # its search terms, space-separated, as the write stores them
    v: NotRequired[list[float]]  # its vector, when it has one already
    said_by: str | None  # a message's speaker and time (None for anything else)
    said_at: int | None


def stored_statement(claim_id: str, statement: str, key: str) -> NewStatement:
    """A claim to check that is not a message: a correction's replacement, the kept side of
    a resolution, a claim the worker has just embedded."""
    return NewStatement(id=claim_id, statement=statement, key=key, terms="", said_by=None,
                        said_at=None)


@dataclass
class Checks:
    """The pairs a batch of new claims disagrees with, where they go (the conflicts raised
    and joined: disputes.py), and what finding them cost."""

    rows: list[ConflictRow] = field(default_factory=list)
    # Pairs that state the same fact in other words (facts.same_fact), linked in the same
    # write: a correction of either reaches the other through them.
    links: list[LinkRow] = field(default_factory=list)
    calls: list[ModelCall] = field(default_factory=list)
    compared: int = 0
    # Every claim compared, and the open or dismissed conflicts their statements are in.
    stated: dict[str, Stated] = field(default_factory=dict)
    found: list[Membership] = field(default_factory=list)
    placed: Placement = field(default_factory=Placement)

    def place(self) -> None:
        """Where the pairs and links go (again, after a caller added pairs of its own)."""
        self.placed = disputes.place(self.rows, self.links, self.stated, self.found)

    def writes(self) -> RaiseRows:
        """What the write that adds the claims raises, joins and links."""
        return {"conflicts": self.placed.disputes, "members": self.placed.members,
                "links": self.links}

    def touched_keys(self) -> set[str]:
        """The statements of the claims that join a conflict and of those they were found
        against: what the write's answer shows of each conflict."""
        ids = {m["claim_id"] for m in self.placed.members} | {r["old_id"] for r in self.rows}
        return {self.stated[i].key for i in ids if i in self.stated}


@dataclass(frozen=True)
class _Side:
    """The other side of a candidate pair: a current claim found near the new one, or
    (within one conversation's messages) an earlier new claim."""

    id: str
    statement: str
    statement_key: str
    said: store_conflicts.Said | None  # known at once for a new claim; else read later
    by_meaning: bool = False  # found by meaning alone: its subject may share no word


# How many earlier messages' claims of the same batch one claim is compared with.
_WITHIN = 3


def _earlier(new: Sequence[NewStatement], subjects: Sequence[Subject]) -> list[list[_Side]]:
    """For each new claim, the earlier new claims of the batch that hold its subject's words
    (all of them, or one of a subject of a word or two, as the neighbour search reads
    them), the latest first: a conversation's messages compared with each other. The
    earlier claims are found through their terms (an index built as the batch is read), so
    a long batch costs what its matches cost, not its length squared."""
    terms = [set(c["terms"].split()) for c in new]
    holding: dict[str, list[int]] = {}  # term -> the claims so far that hold it, in order
    out: list[list[_Side]] = []
    for i, (c, subject) in enumerate(zip(new, subjects, strict=True)):
        found: list[_Side] = []
        want = set(search.claim_terms(" ".join(subject))) if subject is not None else set()
        if want:
            candidates: Iterator[int]
            if len(want) > 2:
                rarest = min(want, key=lambda t: len(holding.get(t, ())))
                candidates = (j for j in reversed(holding.get(rarest, []))
                              if want <= terms[j])
            else:
                # Any of a short subject's words: their lists merged, the latest first.
                candidates = heapq.merge(*(reversed(holding.get(t, [])) for t in want),
                                         reverse=True)
            last = -1
            for j in candidates:
                d = new[j]
                if j == last or d["key"] == c["key"]:
                    continue
                last = j
                found.append(_Side(d["id"], d["statement"], d["key"], store_conflicts.Said(
                    id=d["id"], said_by=d["said_by"], said_at=d["said_at"],
                    created_at=now_ms())))
                if len(found) == _WITHIN:
                    break
        out.append(found)
        for t in terms[i]:
            holding.setdefault(t, []).append(i)
    return out


async def check_new_claims(g: Graph, judge: ConflictJudge, new: Sequence[NewStatement], *,
                           exclude: Iterable[str] = (), within: bool = False,
                           vectors: Vectors | None = None) -> Checks:
    """Compare each new claim with its nearest current claims, by words and by meaning
    (neighbours.py; with ``vectors``, the new statements are embedded for it); ``exclude``
    names claims that are not to count (those a new version of their source retires, those
    a correction supersedes). With ``within`` (a conversation's messages), each is also
    compared with the claims of the earlier messages of the same batch, which are not
    stored yet."""
    out = Checks()
    subjects, out.calls = await judge.subjects([c["statement"] for c in new])
    checkable = [(c, s) for c, s in zip(new, subjects, strict=True) if s is not None]
    pairs: dict[str, tuple[NewStatement, _Side]] = {}
    if within:
        for c, sides in zip(new, _earlier(new, subjects), strict=True):
            for side in sides:
                pairs.setdefault(pair_key(c["key"], side.statement_key), (c, side))
    if checkable:
        vecs: list[list[float] | None] = [None] * len(checkable)
        if vectors is not None:
            vecs = await vectors.for_checks(g, [c["statement"] for c, _ in checkable],
                                            [c.get("v") for c, _ in checkable], out.calls)
        found = await neighbours.nearest(
            g, [neighbours.Probe(subject=s, key=c["key"], vector=v)
                for (c, s), v in zip(checkable, vecs, strict=True)],
            max_distance=vectors.max_distance if vectors is not None else None,
            exclude=set(exclude))
        for (c, _), near in zip(checkable, found, strict=True):
            for n in near:
                pairs.setdefault(pair_key(c["key"], n.statement_key), (c, _Side(
                    n.id, n.statement, n.statement_key, None, by_meaning=not n.by_words)))
    if not pairs:
        return out
    # Who said a stored side is part of what it says when it speaks in the first person.
    old = await store_conflicts.said(g, sorted({
        h.id for c, h in pairs.values() if h.said is None and facts.speaks_of_self(h.statement)}))
    out.links = same_fact_links(pairs.values(), old)
    for c, h in pairs.values():
        out.stated[c["id"]] = Stated(c["statement"], c["key"], c["said_by"])
        out.stated[h.id] = Stated(h.statement, h.statement_key, _said_by(h.said or old.get(h.id)))
    # A pair both in one open or dismissed conflict is not judged again.
    out.found = await store_conflicts.memberships(g, [s.key for s in out.stated.values()])
    held = disputes.by_key(out.found)
    todo = [(k, c, h) for k, (c, h) in pairs.items()
            if not disputes.shared(held, c["key"], h.statement_key)]
    out.compared = len(todo)
    if not todo:
        out.place()
        return out
    verdicts, calls = await judge.judge([
        Candidate(a=h.statement, b=c["statement"], by_meaning=h.by_meaning,
                  speakers=_speakers(c, h, old)) for _, c, h in todo])
    out.calls += calls
    found_pairs = [(k, c, h, j) for (k, c, h), j in zip(todo, verdicts, strict=True)
                   if j.verdict == "contradicts" and j.kind is not None]
    old |= await store_conflicts.said(g, [h.id for _, _, h, _ in found_pairs
                                          if h.said is None and h.id not in old])
    now = now_ms()
    for k, c, h, j in found_pairs:
        assert j.kind is not None
        newer, same = _newer_and_speaker(c, h.said or old.get(h.id), now)
        out.rows.append(conflict_row(k, j.kind, j.reason, judge.name, c["id"], h.id,
                                     newer=newer, same_speaker=same))
    out.place()
    return out


def _said_by(said: store_conflicts.Said | None) -> str | None:
    return None if said is None else said["said_by"]


def _with_speaker(c: NewStatement, said: Mapping[str, store_conflicts.Said]) -> NewStatement:
    """A stored claim to check, with its speaker when that was read."""
    known = said.get(c["id"])
    return c if known is None else {**c, "said_by": known["said_by"]}


def _newer_and_speaker(new: NewStatement, old: store_conflicts.Said | None,
                       now: int) -> tuple[str | None, bool | None]:
    """Which side of a pair is newer (by when each was said, or for a claim not said in a
    conversation, when it was added: a new one now; said at one moment, the one that takes
    the other back: "Correction: ...") and whether one speaker said both."""
    if old is None:
        return new["id"], None
    said_at, said_by = new["said_at"], new["said_by"]
    t_new = said_at if said_at is not None else now
    t_old = old["said_at"] if old["said_at"] is not None else old["created_at"]
    newer = new["id"] if t_new > t_old else old["id"] if t_old > t_new else None
    if newer is None and facts.read(new["statement"], said_by).takes_back:
        newer = new["id"]
    same = None if said_by is None or old["said_by"] is None else said_by == old["said_by"]
    return newer, same


def _speakers(c: NewStatement, h: _Side,
              said: Mapping[str, store_conflicts.Said]) -> facts.Speakers:
    """Who said each side, as far as it is known: the stored side's speaker is read only
    when it speaks in the first person (``said``)."""
    return _said_by(h.said or said.get(h.id)), c["said_by"]


def same_fact_links(pairs: Iterable[tuple[NewStatement, _Side]],
                    said: Mapping[str, store_conflicts.Said]) -> list[LinkRow]:
    """The pairs that state the same fact in other words, by the offline reading (whatever
    the judge: what a correction reaches must not depend on a model's answer)."""
    return [LinkRow(new_id=c["id"], old_id=h.id) for c, h in pairs
            if facts.same_fact(h.statement, c["statement"], _speakers(c, h, said)) is not None]


async def check_by_meaning(g: Graph, judge: ConflictJudge, claim_ids: Sequence[str], *,
                           actor: str = WORKER) -> list[str]:
    """Compare claims whose vectors were just written with the current claims nearest them
    in meaning (their own vectors, read where they are stored), and raise the conflicts in
    one write: what the worker does after each batch it embeds, so that a claim checked at
    its ingest by words alone (a batch too large to embed in the request, a claim whose
    vector was pending) is compared by meaning too. Pairs in one open or dismissed conflict
    are not judged again; the judge's calls are recorded on an audit event. Returns the
    conflicts raised or joined."""
    found = await store_claims.current_statements(g, list(claim_ids))
    if not found:
        return []
    subjects, calls = await judge.subjects([c["statement"] for c in found])
    checkable = [c for c, s in zip(found, subjects, strict=True) if s is not None]
    if not checkable:
        return []
    near = await neighbours.by_meaning(
        g, [neighbours.Probe(subject=(), key=c["statement_key"], claim_id=c["id"])
            for c in checkable])
    pairs: dict[str, tuple[NewStatement, _Side]] = {}
    for c, rows_near in zip(checkable, near, strict=True):
        for r in rows_near[: neighbours.TOP_K]:
            if r["statement_key"] == c["statement_key"]:
                continue
            pairs.setdefault(pair_key(c["statement_key"], r["statement_key"]), (
                stored_statement(c["id"], c["statement"], c["statement_key"]),
                _Side(r["id"], r["statement"], r["statement_key"], None, by_meaning=True)))
    if not pairs:
        return []
    selves = await store_conflicts.said(g, sorted(
        {i for c, h in pairs.values() for i, st in ((c["id"], c["statement"]),
                                                    (h.id, h.statement))
         if facts.speaks_of_self(st)}))
    links = same_fact_links(((_with_speaker(c, selves), h) for c, h in pairs.values()),
                            selves)
    stated: dict[str, Stated] = {}
    for one, h in pairs.values():
        stated[one["id"]] = Stated(one["statement"], one["key"],
                                   _said_by(selves.get(one["id"])))
        stated[h.id] = Stated(h.statement, h.statement_key, _said_by(selves.get(h.id)))
    held = await store_conflicts.memberships(g, [s.key for s in stated.values()])
    by_key = disputes.by_key(held)
    todo = [(k, c, h) for k, (c, h) in pairs.items()
            if not disputes.shared(by_key, c["key"], h.statement_key)]
    rows: list[ConflictRow] = []
    if todo:
        verdicts, judged = await judge.judge([
            Candidate(a=h.statement, b=c["statement"], by_meaning=True,
                      speakers=_speakers(_with_speaker(c, selves), h, selves))
            for _, c, h in todo])
        calls += judged
        contradicting = [(k, c, h, j) for (k, c, h), j in zip(todo, verdicts, strict=True)
                         if j.verdict == "contradicts" and j.kind is not None]
        said = await store_conflicts.said(
            g, sorted({x for _, c, h, _ in contradicting for x in (c["id"], h.id)}))
        for k, side, h, j in contradicting:
            assert j.kind is not None
            mine = said.get(side["id"])
            if mine is not None:
                # Both are stored: each is as old as when it was said, or else added.
                side = {**side, "said_by": mine["said_by"], "said_at": (
                    mine["said_at"] if mine["said_at"] is not None else mine["created_at"])}
            newer, same = _newer_and_speaker(side, said.get(h.id), now_ms())
            rows.append(conflict_row(k, j.kind, j.reason, judge.name, side["id"], h.id,
                                     newer=newer, same_speaker=same))
    if not rows and not links:
        return []
    placed = disputes.place(rows, links, stated, held)
    now = now_ms()
    audits = [audit_event("conflicts.checked_by_meaning", actor, checkable[0]["id"], {
        "claims": len(checkable), "compared": len(todo), "raised": len(placed.disputes),
        "joined": len(placed.members), "same_fact": len(links),
        "model_calls": [c.as_dict() for c in calls]}, at=now)]
    return await store_conflicts.raise_conflicts(g, {
        "conflicts": placed.disputes, "members": placed.members, "links": links, "now": now,
        "audit_actor": actor, "audits": audits})
