"""Whole-graph invariants of a workspace, checked from scratch (after crashes, load, fuzzing).

Returns a list of violations; an empty list means the workspace is consistent:

1. a decision in good standing has a current claim in every premise, and every decision it
   depends on is in good standing (no superseded claim left an un-rechecked dependent);
2. no open action (proposed/approved) requires a decision that is not in good standing;
3. a held action remembers the status to return to;
4. a superseded claim has the claim that replaced it; a claim is corrected at most once;
5. a reviewer's claim cites only its own correction's human fragment, never a document;
6. a document claim's quote is exactly the version text at its offsets;
7. the edges a correction's region is read through join the labels they are for
   (vocab.EDGE_ENDS: the region query does not check labels);
8. a conflict is a dispute over one fact: it joins claims of at least two statements on at
   least two sides, each claim once; an open one has at least two sides still held; one
   settled by what retired its sides has fewer (unless merged into another); a resolved
   one is resolved by one supersede correction, whose kept claim states one side, and no
   claim of another side is current; an open or dismissed one is resolved by none;
9. every claim's, decision's, action's and conflict's current status is the last entry of
   its status history, whose times are in order and begin at its creation (a node written
   before histories has neither list, store/history.py);
10. every node carries the shared label Node (lookups by id go through its index);
11. an erased claim keeps none of its words (its statement says when and by whom it was
    erased, its key and terms are empty of them, it has no vector) and names the applied
    erasure that took them; every claim an applied erasure names is erased;
12. a withheld claim names a waiting request and remembers the status it returns to.

``collateral`` compares two readings of every node's status and revision (``states``): what
changed outside the nodes a change was allowed to touch.
"""

from __future__ import annotations

import itertools
import json

from afterhack.model.sources import MESSAGE_SEPARATOR
from afterhack.model.vocab import EDGE_ENDS, GOOD_STANDING, OPEN_ACTION, SUPPORTING_CLAIM
from afterhack.store.client import Graph, Row
from afterhack.store.history import HISTORY_LABELS

_PAGE = 20000


async def _all(g: Graph, cypher: str) -> list[Row]:
    """Every row of a read, a page at a time (rows that stay in here: no record of their own)."""
    out: list[Row] = []
    skip = 0
    while True:
        rows = await g.read(cypher + " SKIP $skip LIMIT $limit", {"skip": skip, "limit": _PAGE})
        out.extend(rows)
        if len(rows) < _PAGE:
            return out
        skip += _PAGE


async def check_workspace(g: Graph) -> list[str]:
    v: list[str] = []
    for check in (_decisions, _actions, _claims, _conflicts, _check_histories, _shape,
                  _check_erasures):
        v += await check(g)
    return v


async def _decisions(g: Graph) -> list[str]:
    v: list[str] = []
    decisions = await _all(g, (
        "MATCH (d:Decision) RETURN d.id AS id, d.status AS status, "
        "[(d)-[u:USED_CLAIM]->(c:Claim) | {p: u.premise, s: c.status}] AS uses, "
        "[(d)-[:DEPENDS_ON]->(x:Decision) | x.status] AS ups ORDER BY d.id"))
    for d in decisions:
        if d["status"] not in GOOD_STANDING:
            continue
        premises: dict[str, bool] = {}
        for u in d["uses"]:
            premises[u["p"]] = premises.get(u["p"], False) or u["s"] in SUPPORTING_CLAIM
        lost = [p for p, ok in premises.items() if not ok]
        if lost:
            v.append(f"decision {d['id']} is {d['status']} but premise(s) {lost} have no "
                     "current claim")
        if not d["uses"]:
            v.append(f"decision {d['id']} is {d['status']} without any claim")
        if any(s not in GOOD_STANDING for s in d["ups"]):
            v.append(f"decision {d['id']} is {d['status']} but depends on a fallen decision")
    return v


async def _actions(g: Graph) -> list[str]:
    v: list[str] = []
    actions = await _all(g, (
        "MATCH (a:Action) RETURN a.id AS id, a.status AS status, a.held_from AS held_from, "
        "[(a)-[:REQUIRES]->(x:Decision) | x.status] AS ds ORDER BY a.id"))
    for a in actions:
        if a["status"] in OPEN_ACTION and any(s not in GOOD_STANDING for s in a["ds"]):
            v.append(f"action {a['id']} is {a['status']} on a decision not in good standing")
        if a["status"] == "held" and a["held_from"] not in OPEN_ACTION:
            v.append(f"action {a['id']} is held without a status to return to")
        if not a["ds"]:
            v.append(f"action {a['id']} requires no decision")
    return v


async def _claims(g: Graph) -> list[str]:
    v: list[str] = []
    claims = await _all(g, (
        "MATCH (c:Claim) RETURN c.id AS id, c.status AS status, "
        "c.confidence_kind AS kind, c.source_id AS source_id, "
        "size([(c)<-[s:SUPERSEDES]-(:Claim) | s]) AS n_replaced_by, "
        "size([(c)<-[k:CORRECTS]-(:Correction) | k]) AS n_corrections, "
        # Each comprehension names its own node: FalkorDB joins a name reused by a later
        # comprehension of the same projection, which then finds nothing.
        "[(c)-[:SUPPORTED_BY]->(f:SourceFragment) | f.origin_type] AS origins, "
        "[(c)-[:SUPPORTED_BY]->(sf:SourceFragment) | sf.source_id] AS fragment_sources "
        "ORDER BY c.id"))
    for c in claims:
        if c["status"] == "superseded" and c["n_replaced_by"] == 0:
            v.append(f"claim {c['id']} is superseded but nothing replaces it")
        if c["n_corrections"] > 1:
            v.append(f"claim {c['id']} was corrected {c['n_corrections']} times")
        if not c["origins"]:
            v.append(f"claim {c['id']} has no supporting fragment")
        if c["kind"] == "human_correction":
            if any(o != "human_correction" for o in c["origins"]):
                v.append(f"replacement claim {c['id']} cites a non-reviewer fragment")
            if any(s != c["source_id"] for s in c["fragment_sources"]):
                v.append(f"replacement claim {c['id']} cites another correction's fragment")
    owners = await _all(g, (
        "MATCH (rep:Claim {confidence_kind:'human_correction'})-[:SUPPORTED_BY]->"
        "(f:SourceFragment) RETURN rep.id AS id, "
        "[(f)<-[:HAS_FRAGMENT]-(k:Correction) | k.id] AS owners, "
        "[(rep)-[:SUPERSEDES]->(o:Claim) | o.id] AS replaces ORDER BY rep.id"))
    for o in owners:
        if len(o["owners"]) != 1:
            v.append(f"reviewer fragment of claim {o['id']} is not owned by one correction")
    quotes = await _all(g, (
        "MATCH (c:Claim)-[:SUPPORTED_BY]->(f:SourceFragment)<-[:HAS_FRAGMENT]-"
        "(ver:SourceVersion) RETURN c.id AS id, c.evidence_quote AS quote, "
        "c.quote_start AS s, c.quote_end AS e, ver.text AS text ORDER BY c.id"))
    for q in quotes:
        if q["text"] is None or q["text"][q["s"] : q["e"]] != q["quote"]:
            v.append(f"claim {q['id']}: quote is not the version text at its offsets")
    return v


async def _conflicts(g: Graph) -> list[str]:
    v: list[str] = []
    conflicts = await _all(g, (
        "MATCH (k:Conflict) RETURN k.id AS id, k.status AS status, "
        "k.kept_claim_id AS kept, k.settled_kind AS settled, "
        "[(k)-[e:BETWEEN]->(c:Claim) | [c.id, c.statement_key, coalesce(e.side, c.id)]] "
        "AS members, "
        "[(k)<-[:RESOLVES]-(r:Correction) | [r.kind, r.replacement_id]] AS resolutions "
        "ORDER BY k.id"))
    for k in conflicts:
        v += await _conflict(g, k)
    return v


async def _conflict(g: Graph, k: Row) -> list[str]:
    members = [tuple(m) for m in k["members"]]
    keys = [m[1] for m in members]
    side_of = {m[1]: m[2] for m in members}
    if (len(set(keys)) < 2 or len({m[2] for m in members}) < 2
            or len({m[0] for m in members}) != len(members)):
        return [f"conflict {k['id']} does not join claims of two statements on two sides"]
    held = {side_of[key] for key in set(keys) if await _current(g, key)}
    if k["status"] != "resolved":
        v = []
        if k["resolutions"]:
            v.append(f"conflict {k['id']} is {k['status']} but a correction resolves it")
        if k["settled"] is not None:
            v.append(f"conflict {k['id']} is {k['status']} but names what settled it")
        if k["status"] == "open" and len(held) < 2:
            v.append(f"conflict {k['id']} is open but fewer than two of its sides are held")
        return v
    if k["settled"] is not None:
        # Settled by what retired its other sides: at most one is still held.
        if k["resolutions"]:
            return [f"conflict {k['id']} is both settled and resolved by a correction"]
        live = {side_of[key] for key in set(keys) if await _alive(g, key)}
        if k["settled"] != "merged" and len(live) >= 2:
            return [f"conflict {k['id']} is settled but two of its sides are still current"]
        return []
    if len(k["resolutions"]) != 1 or k["resolutions"][0] != ["supersede", k["kept"]]:
        return [f"conflict {k['id']} is resolved without one supersede correction "
                "keeping its kept claim"]
    kept_key = (await g.read(
        "MATCH (c:Node {id:$id}) WHERE c:Claim RETURN c.statement_key AS k",
        {"id": k["kept"]})).scalar()
    if kept_key not in side_of:
        return [f"conflict {k['id']} kept a claim of no side"]
    others = {key for key in keys if side_of[key] != side_of[kept_key]}
    alive = [key for key in sorted(others) if await _alive(g, key)]
    if alive:
        return [f"conflict {k['id']} is resolved but a losing side is still current"]
    return []


async def _alive(g: Graph, key: str) -> int:
    return int((await g.read(
        "MATCH (c:Node {statement_key:$k}) WHERE c:Claim "
        "AND c.status IN ['proposed','accepted'] RETURN count(c) AS n", {"k": key})).scalar()
        or 0)


async def _shape(g: Graph) -> list[str]:
    """Edges between the labels they are for, and the shared label on every node."""
    v: list[str] = []
    for kind, (start, end) in EDGE_ENDS.items():
        stray = (await g.read(
            f"MATCH (a)-[e:{kind}]->(b) WHERE NOT (a:{start} AND b:{end}) "
            "RETURN count(e) AS n")).scalar()
        if stray:
            v.append(f"{stray} {kind} edges do not join a {start} to a {end}")
    unlabelled = (await g.read("MATCH (n) WHERE NOT n:Node RETURN count(n) AS n")).scalar()
    if unlabelled:
        v.append(f"{unlabelled} nodes lack the shared label Node")
    return v


async def _check_erasures(g: Graph) -> list[str]:
    v: list[str] = []
    erasures = {r["id"]: r for r in await _all(g, (
        "MATCH (e:Erasure) RETURN e.id AS id, e.status AS status, e.claim_ids AS claims "
        "ORDER BY e.id"))}
    claims = await _all(g, (
        "MATCH (c:Claim) WHERE c.status IN ['erased', 'withheld'] OR c.erasure_id IS NOT NULL "
        "RETURN c.id AS id, c.status AS status, c.statement AS statement, "
        "c.statement_key AS key, c.terms AS terms, c.embedding IS NOT NULL AS vector, "
        "c.erasure_id AS erasure, c.withheld_from AS withheld_from ORDER BY c.id"))
    for c in claims:
        e = erasures.get(c["erasure"] or "")
        if c["status"] == "erased":
            if (not (c["statement"] or "").startswith("Erased on ")
                    or c["key"] != f"erased:{c['id']}" or c["terms"] or c["vector"]):
                v.append(f"claim {c['id']} is erased but keeps words, terms or a vector")
            if e is None or e["status"] != "applied":
                v.append(f"claim {c['id']} is erased but names no applied erasure")
        elif c["status"] == "withheld":
            if e is None or e["status"] != "requested":
                v.append(f"claim {c['id']} is withheld but names no waiting request")
            if c["withheld_from"] not in ("proposed", "accepted"):
                v.append(f"claim {c['id']} is withheld without a status to return to")
        else:
            v.append(f"claim {c['id']} is {c['status']} but names an erasure")
    status = {c["id"]: c["status"] for c in claims}
    for e in erasures.values():
        if e["status"] == "applied":
            v += [f"erasure {e['id']} names claim {i}, which is not erased"
                  for i in e["claims"] or [] if status.get(i) != "erased"]
    return v


async def _current(g: Graph, key: str) -> int:
    """Claims of a statement still held: current, or withheld while a request waits."""
    return int((await g.read(
        "MATCH (c:Node {statement_key:$k}) WHERE c:Claim "
        "AND c.status IN ['proposed','accepted','withheld'] RETURN count(c) AS n",
        {"k": key})).scalar() or 0)


async def _check_histories(g: Graph) -> list[str]:
    v: list[str] = []
    rows = await _all(g, (
        "MATCH (n) WHERE " + " OR ".join(f"n:{label}" for label in HISTORY_LABELS) + " "
        "RETURN n.id AS id, n.status AS status, n.created_at AS created_at, "
        "n.status_history AS history, n.status_since AS since, "
        "n.support_history AS support, n.support_until AS support_until ORDER BY n.id"))
    for n in rows:
        history, since = n["history"], n["since"]
        if len(n["support"] or []) != len(n["support_until"] or []):
            v.append(f"{n['id']}: its support history and its times differ in length")
        if history is None and since is None:
            continue
        if history is None or since is None or not history or len(history) != len(since):
            v.append(f"{n['id']}: its status history and its times differ in length")
            continue
        if history[-1] != n["status"]:
            v.append(f"{n['id']} is {n['status']} but its history ends {history[-1]}")
        if since[0] != n["created_at"]:
            v.append(f"{n['id']}: its history does not begin when it was created")
        if any(a > b for a, b in itertools.pairwise(since)):
            v.append(f"{n['id']}: its status history is out of order")
    return v


async def check_sources(g: Graph) -> list[str]:
    """Every source version is whole: its fragments tile its text exactly (in seq order,
    from 0 to its length, each fragment's text the slice at its offsets; a conversation's
    messages apart, each gap the blank line between two), and it holds as
    many claims as the audit event written with it says were kept. (For sources added
    through the API; the bulk loader writes no audit events.)"""
    v: list[str] = []
    versions = await _all(g, (
        "MATCH (s:Source)-[:HAS_VERSION]->(ver:SourceVersion) "
        "RETURN s.id AS source_id, ver.id AS id, ver.text AS text, "
        "s.kind = 'conversation' AS conversation, "
        "[(ver)-[:HAS_FRAGMENT]->(f:SourceFragment) | {seq: f.seq, start: f.start, "
        "  end: f.end, text: f.text, message: f.message_index}] AS frags, "
        "size([(ver)-[:HAS_FRAGMENT]->(:SourceFragment)<-[k:SUPPORTED_BY]-(:Claim) | k]) "
        "AS n_claims ORDER BY ver.id"))
    kept: dict[str, int] = {}
    for e in await _all(g, (
            "MATCH (e:AuditEvent) WHERE e.kind IN ['source.created', 'source.versioned'] "
            "RETURN e.detail AS detail ORDER BY e.id")):
        detail = json.loads(e["detail"] or "{}")
        kept[detail.get("version_id", "")] = int(detail.get("claims", -1))
    sources_without_version = await _all(g, (
        "MATCH (s:Source) WITH s, size([(s)-[h:HAS_VERSION]->(:SourceVersion) | h]) AS n "
        "WHERE n = 0 RETURN s.id AS id ORDER BY s.id"))
    v += [f"source {r['id']} has no version" for r in sources_without_version]
    for ver in versions:
        frags = sorted(ver["frags"], key=lambda f: f["seq"])
        text = ver["text"] or ""
        pos = 0
        message = None
        for f in frags:
            # A conversation's messages are joined by a blank line that no fragment covers.
            gap = (MESSAGE_SEPARATOR if ver["conversation"] and pos and f["message"] != message
                   else "")
            if (f["start"] != pos + len(gap) or text[pos : f["start"]] != gap
                    or text[f["start"] : f["end"]] != f["text"]):
                v.append(f"version {ver['id']}: fragment {f['seq']} does not tile its text")
                break
            pos, message = f["end"], f["message"]
        else:
            if pos != len(text) or (text and not frags):
                v.append(f"version {ver['id']}: fragments cover {pos} of {len(text)} chars")
        if ver["id"] not in kept:
            v.append(f"version {ver['id']} has no audit event")
        elif kept[ver["id"]] != ver["n_claims"]:
            v.append(f"version {ver['id']} holds {ver['n_claims']} claims, "
                     f"its audit says {kept[ver['id']]}")
    return v


async def states(g: Graph) -> dict[str, tuple[str, int]]:
    """Every claim's, decision's, action's and conflict's status and revision."""
    rows = await _all(g, (
        "MATCH (n) WHERE n:Claim OR n:Decision OR n:Action OR n:Conflict "
        "RETURN n.id AS id, n.status AS status, n.revision AS revision ORDER BY n.id"))
    return {r["id"]: (r["status"], r["revision"]) for r in rows}


def collateral(before: dict[str, tuple[str, int]], after: dict[str, tuple[str, int]],
               allowed: set[str]) -> list[str]:
    """Nodes outside ``allowed`` whose status or revision changed, or that disappeared."""
    v = []
    for node, state in sorted(before.items()):
        if node in allowed:
            continue
        if node not in after:
            v.append(f"{node} disappeared")
        elif after[node] != state:
            v.append(f"{node} changed from {state} to {after[node]}")
    return v
