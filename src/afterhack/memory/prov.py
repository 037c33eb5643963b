"""The provenance chain of a workspace as a W3C PROV-JSON document.

Entities: sources (and their versions, ``specializationOf`` the source, with a file's media
type, name, size and hash), fragments (a message's ``wasAttributedTo`` its speaker, with the
time it was said; a file's with its page or heading), claims,
corrections, decisions, actions and handoffs. Activities: each version's extraction, each
agent run, each correction. Agents: the models (software agents) and the reviewers (people).
A claim quotes its fragment (``wasDerivedFrom`` of type ``prov:Quotation``); a replacement is
a ``prov:Revision`` of the claim it supersedes. A retired claim ``wasInvalidatedBy`` what
retired it (the correction or conflict resolution that corrects it, or the extraction of the
new version that no longer says it) at the time its status history says it was retired;
claims, decisions, actions and conflicts carry that history (``ah:status_history``, JSON of
each status and the time it began). Built from an export snapshot only (no queries of its
own), so both views agree.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote

from afterhack.model.vocab import RETIRED_CLAIM
from afterhack.model.workspaces import ExportEdge, ExportNode, Properties, WorkspaceRow

NS = "urn:afterhack:"

# A PROV-JSON value: a string, number or boolean, or a typed literal ({"$", "type"}).
ProvValue = str | int | float | bool | dict[str, str]
ProvAttrs = dict[str, ProvValue]
# Records by kind (entity, activity, agent, used, ...) and identifier, after the prefixes.
ProvDocument = dict[str, dict[str, ProvAttrs] | dict[str, str]]


def _qname(value: str) -> dict[str, str]:
    return {"$": value, "type": "prov:QUALIFIED_NAME"}


def prov_time(ms: object) -> str | None:
    """Epoch ms as PROV writes a time."""
    return _time(ms)


def _time(ms: object) -> str | None:
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        return None
    dt = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def _history(p: Properties) -> str | None:
    """The node's status history as PROV can carry it (a string): JSON of [status, time]."""
    statuses, since = p.get("status_history"), p.get("status_since")
    if not isinstance(statuses, list) or not isinstance(since, list):
        return None
    return json.dumps([[s, _time(t)] for s, t in zip(statuses, since, strict=False)])


def _retired_at(p: Properties) -> object:
    """When a claim was retired: the first retired status of its history."""
    statuses, since = p.get("status_history"), p.get("status_since")
    if isinstance(statuses, list) and isinstance(since, list):
        return next((t for s, t in zip(statuses, since, strict=False)
                     if s in RETIRED_CLAIM), None)
    return p.get("created_at") if p.get("status") in RETIRED_CLAIM else None


def _clean(attrs: Mapping[str, object]) -> ProvAttrs:
    # PROV-JSON values are strings, numbers or booleans (a list would mean several values).
    return {k: v for k, v in attrs.items() if isinstance(v, str | int | float | bool | dict)}


class _Doc:
    """The document being written, and the labels of the export's nodes by id."""

    def __init__(self, label: dict[str, str]) -> None:
        self.records: dict[str, dict[str, ProvAttrs]] = {}
        self._ids = itertools.count(1)
        self.label = label

    def ent(self, i: str) -> str:
        return f"ah:{self.label[i].lower()}-{i}"

    def agent(self, kind: str, name: str) -> str:
        ident = _agent_id(kind, name)
        ptype = "prov:SoftwareAgent" if kind in ("model", "policy") else "prov:Person"
        self.record("agent", ident, {"prov:type": _qname(ptype), "prov:label": name})
        return ident

    def record(self, kind: str, ident: str, attrs: Mapping[str, object]) -> None:
        self.records.setdefault(kind, {})[ident] = _clean(attrs)

    def relation(self, kind: str, attrs: Mapping[str, object]) -> None:
        rel = {k: v for k, v in attrs.items() if v is not None}
        self.records.setdefault(kind, {})[f"_:{kind}{next(self._ids)}"] = _clean(rel)

    def document(self) -> ProvDocument:
        self.records.setdefault("entity", {})
        return {"prefix": {"ah": NS}, **self.records}


def _agent_id(kind: str, name: str) -> str:
    return f"ah:{kind}-{quote(name, safe='')}"


@dataclass(frozen=True)
class _Links:
    """What the edges say about a node that its own record needs."""

    run_of_decision: dict[str, str]  # decision -> the run that produced it
    correction_of_claim: dict[str, str]  # a reviewer's claim -> the correction that wrote it
    corrected_by: dict[str, str]  # a corrected claim -> the correction


def to_prov(workspace: WorkspaceRow, nodes: list[ExportNode],
            edges: list[ExportEdge]) -> ProvDocument:
    by_id = {str(n["properties"]["id"]): n for n in nodes}
    d = _Doc({i: n["labels"][0] for i, n in by_id.items()})
    links = _Links(
        run_of_decision={e["target"]: e["source"] for e in edges if e["type"] == "PRODUCED"},
        correction_of_claim={r: i for i, n in by_id.items() if d.label[i] == "Correction"
                             and isinstance(r := n["properties"].get("replacement_id"), str)},
        corrected_by={e["target"]: e["source"] for e in edges if e["type"] == "CORRECTS"})
    for i, n in by_id.items():
        _node(d, i, n["properties"], links)
    _edges(d, edges, by_id, links.run_of_decision)
    return d.document()


def _node(d: _Doc, i: str, p: Properties, links: _Links) -> None:
    """The node's own record (an entity, or a run's activity), and its relations to agents."""
    lab, ent = d.label[i], d.ent
    common = {"prov:type": _qname(f"ah:{lab}"), "ah:created_at": _time(p.get("created_at")),
              "ah:status_history": _history(p)}
    if lab == "Source":
        d.record("entity", ent(i), {**common, "prov:label": p.get("title") or "",
                                    "ah:kind": p.get("kind") or "text",
                                    "ah:origin_type": p.get("origin_type"),
                                    "ah:origin_name": p.get("origin_name")})
    elif lab == "SourceVersion":
        _version(d, i, p, common)
    elif lab == "SourceFragment":
        d.record("entity", ent(i), {**common, "prov:value": p.get("text", ""),
                                    "ah:start": p.get("start"), "ah:end": p.get("end"),
                                    "ah:origin_type": p.get("origin_type"),
                                    "ah:origin_name": p.get("origin_name"),
                                    "ah:speaker": p.get("speaker"),
                                    "ah:said_at": _time(p.get("said_at")),
                                    "ah:message_index": p.get("message_index"),
                                    "ah:page": p.get("page"),
                                    "ah:page_end": p.get("page_end"),
                                    "ah:section": p.get("section")})
        speaker = p.get("speaker")
        if isinstance(speaker, str) and speaker:
            # A message is its speaker's, as a document is its author's.
            d.relation("wasAttributedTo", {"prov:entity": ent(i),
                                           "prov:agent": d.agent("speaker", speaker)})
    elif lab == "Claim":
        d.record("entity", ent(i), {**common, "prov:value": p.get("statement", ""),
                                    "ah:status": p.get("status"),
                                    "ah:evidence_quote": p.get("evidence_quote"),
                                    "ah:quote_start": p.get("quote_start"),
                                    "ah:quote_end": p.get("quote_end"),
                                    "ah:confidence": p.get("confidence"),
                                    "ah:confidence_kind": p.get("confidence_kind"),
                                    "ah:said_by": p.get("said_by"),
                                    "ah:said_at": _time(p.get("said_at"))})
        _claim_origin(d, i, p, links.correction_of_claim)
        _claim_end(d, i, p, links.corrected_by)
    elif lab == "Correction":
        _correction(d, i, p)
    elif lab == "Decision":
        d.record("entity", ent(i), {**common, "prov:label": p.get("title", ""),
                                    "ah:summary": p.get("summary"),
                                    "ah:status": p.get("status")})
    elif lab == "Action":
        d.record("entity", ent(i), {**common, "prov:value": p.get("description", ""),
                                    "ah:status": p.get("status")})
    elif lab == "Handoff":
        d.record("entity", ent(i), {**common, "ah:from_role": p.get("from_role"),
                                    "ah:to_role": p.get("to_role")})
    elif lab == "AgentRun":
        _run(d, i, p)


def _version(d: _Doc, i: str, p: Properties, common: Mapping[str, object]) -> None:
    # A file's metadata; its bytes stay in the export (file_data), not in PROV.
    d.record("entity", d.ent(i), {**common, "ah:version": p.get("version"),
                                  "ah:content_hash": p.get("content_hash"),
                                  "ah:media_type": p.get("media_type"),
                                  "ah:file_name": p.get("file_name"),
                                  "ah:file_size": p.get("file_size"),
                                  "ah:file_hash": p.get("file_hash")})
    act = f"ah:extraction-{i}"
    t = _time(p.get("created_at"))
    d.record("activity", act, {"prov:type": _qname("ah:Extraction"),
                               "prov:startTime": t, "prov:endTime": t})
    d.relation("used", {"prov:activity": act, "prov:entity": d.ent(i), "prov:time": t})


def _run(d: _Doc, i: str, p: Properties) -> None:
    d.record("activity", d.ent(i), {"prov:type": _qname("ah:AgentRun"),
                                    "prov:label": p.get("task", ""),
                                    "prov:startTime": _time(p.get("created_at")),
                                    "prov:endTime": _time(p.get("finished_at")),
                                    "ah:status": p.get("status")})
    model = p.get("model")
    if isinstance(model, str) and model:
        d.relation("wasAssociatedWith", {"prov:activity": d.ent(i),
                                         "prov:agent": d.agent("model", model)})


def _claim_origin(d: _Doc, i: str, p: Properties, correction_of_claim: dict[str, str]) -> None:
    ent, agent, label = d.ent, d.agent, d.label
    if p.get("confidence_kind") == "human_correction":
        corr = correction_of_claim.get(i)
        if corr is not None:
            d.relation("wasGeneratedBy", {"prov:entity": ent(i),
                                          "prov:activity": f"ah:correcting-{corr}",
                                          "prov:time": _time(p.get("created_at"))})
        return
    version = p.get("version_id")
    if isinstance(version, str) and label.get(version) == "SourceVersion":
        d.relation("wasGeneratedBy", {"prov:entity": ent(i),
                                      "prov:activity": f"ah:extraction-{version}",
                                      "prov:time": _time(p.get("created_at"))})
    extracted_by = p.get("extracted_by")
    if isinstance(extracted_by, str):
        model = agent("model", extracted_by)
        d.relation("wasAttributedTo", {"prov:entity": ent(i), "prov:agent": model})
        if isinstance(version, str) and label.get(version) == "SourceVersion":
            d.relation("wasAssociatedWith", {"prov:activity": f"ah:extraction-{version}",
                                             "prov:agent": model})


def _claim_end(d: _Doc, i: str, p: Properties, corrected_by: dict[str, str]) -> None:
    """A retired claim was invalidated when its history says, by what retired it. (A
    re-extracted copy of a corrected mistake is born invalid, by nothing of its own.)"""
    ent, label = d.ent, d.label
    at = _retired_at(p)
    if at is None:
        return
    activity: str | None = None
    version = p.get("retired_by")
    if i in corrected_by:
        activity = f"ah:correcting-{corrected_by[i]}"
    elif isinstance(version, str) and label.get(version) == "SourceVersion":
        activity = f"ah:extraction-{version}"
    d.relation("wasInvalidatedBy", {"prov:entity": ent(i), "prov:activity": activity,
                                    "prov:time": _time(at)})


def _correction(d: _Doc, i: str, p: Properties) -> None:
    ent, agent, label = d.ent, d.agent, d.label
    act = f"ah:correcting-{i}"
    t = _time(p.get("created_at"))
    d.record("entity", ent(i), {"prov:type": _qname("ah:Correction"),
                                "prov:value": p.get("statement") or "",
                                "ah:kind": p.get("kind"), "ah:reason": p.get("reason"),
                                "ah:created_at": t})
    d.record("activity", act, {"prov:type": _qname("ah:Correcting"),
                               "prov:startTime": t, "prov:endTime": t})
    d.relation("wasGeneratedBy", {"prov:entity": ent(i), "prov:activity": act, "prov:time": t})
    claim = p.get("claim_id")
    if isinstance(claim, str) and claim in label:
        d.relation("used", {"prov:activity": act, "prov:entity": ent(claim), "prov:time": t})
    reviewer = p.get("reviewer")
    if isinstance(reviewer, str) and reviewer:
        # A workspace's latest_wins resolves as the reviewer 'policy': software, not a person.
        who = (agent("policy", "latest_wins")
               if reviewer == "policy" and p.get("kind") == "supersede"
               else agent("reviewer", reviewer))
        d.relation("wasAssociatedWith", {"prov:activity": act, "prov:agent": who})
        d.relation("wasAttributedTo", {"prov:entity": ent(i), "prov:agent": who})


def _edges(d: _Doc, edges: list[ExportEdge], by_id: dict[str, ExportNode],
           run_of_decision: dict[str, str]) -> None:
    ent, label = d.ent, d.label
    for e in edges:
        s, t, typ, p = e["source"], e["target"], e["type"], e["properties"]
        if typ == "HAS_VERSION":
            d.relation("specializationOf", {"prov:specificEntity": ent(t),
                                            "prov:generalEntity": ent(s)})
        elif typ == "HAS_FRAGMENT" and label[s] == "SourceVersion":
            d.relation("wasDerivedFrom", {"prov:generatedEntity": ent(t),
                                          "prov:usedEntity": ent(s)})
        elif typ == "HAS_FRAGMENT" and label[s] == "Correction":
            d.relation("wasGeneratedBy", {"prov:entity": ent(t),
                                          "prov:activity": f"ah:correcting-{s}"})
        elif typ == "SUPPORTED_BY":
            d.relation("wasDerivedFrom", {"prov:generatedEntity": ent(s),
                                          "prov:usedEntity": ent(t),
                                          "prov:type": _qname("prov:Quotation"),
                                          "ah:role": p.get("role")})
        elif typ == "SUPERSEDES":
            d.relation("wasDerivedFrom", {"prov:generatedEntity": ent(s),
                                          "prov:usedEntity": ent(t),
                                          "prov:type": _qname("prov:Revision"),
                                          "ah:reason": p.get("reason")})
        elif typ == "USED_CLAIM":
            d.relation("wasDerivedFrom", {"prov:generatedEntity": ent(s),
                                          "prov:usedEntity": ent(t),
                                          "ah:premise": p.get("premise")})
            run = run_of_decision.get(s)
            if run is not None:
                d.relation("used", {"prov:activity": ent(run), "prov:entity": ent(t)})
        elif typ in ("DEPENDS_ON", "REQUIRES"):
            d.relation("wasDerivedFrom", {"prov:generatedEntity": ent(s),
                                          "prov:usedEntity": ent(t), "ah:via": typ})
        elif typ == "PRODUCED":
            d.relation("wasGeneratedBy", {"prov:entity": ent(t), "prov:activity": ent(s),
                                          "prov:time": _time(by_id[t]["properties"]
                                                             .get("created_at"))})
        elif typ == "HAS_HANDOFF":
            d.relation("wasGeneratedBy", {"prov:entity": ent(t), "prov:activity": ent(s)})
