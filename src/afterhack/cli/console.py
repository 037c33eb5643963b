"""Rich renderings of API answers for the terminal (the CLI and the demo).

Pure functions from the JSON the HTTP API returns to rich renderables; nothing here talks
to the server.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

# An answer of the API as the client reads it: one of its records (afterhack.model).
JSON = Mapping[str, Any]

STATUS_STYLE = {
    "proposed": "cyan", "accepted": "green", "rejected": "red", "superseded": "dim strike",
    "draft": "green", "needs_review": "bold yellow", "approved": "green", "held": "bold yellow",
    "done": "green", "cancelled": "dim", "replace": "magenta", "retract": "magenta",
    "completed": "green", "failed": "red", "open": "bold red", "resolved": "green",
    "dismissed": "dim", "supersede": "magenta", "withheld": "bold yellow", "erased": "dim",
    "requested": "bold yellow", "applied": "green", "declined": "dim",
}


def status(value: str | None) -> Text:
    label = value or "-"
    return Text(f"[{label}]", style=STATUS_STYLE.get(label, ""))


def _line(*parts: str | Text) -> Text:
    return Text.assemble(*[(p, "") if isinstance(p, str) else p for p in parts])


# How a search found a claim, as the claims list prints it (the API's found_by.match).
FOUND_WORDS = {"words": "words", "meaning": "meaning", "both": "words+meaning",
               "neighbour": "next to"}


def found_text(found_by: JSON | None) -> str:
    """How a search hit was found, in a few words: "words", "meaning", "words+meaning", or
    "next to 1a2b3c4d" (the hit it follows in its source)."""
    if not found_by:
        return ""
    text = FOUND_WORDS.get(str(found_by.get("match")), str(found_by.get("match")))
    if found_by.get("match") == "neighbour" and found_by.get("neighbour_of"):
        text += f" {str(found_by['neighbour_of'])[:8]}"
    return text


def claim_line(hit: JSON) -> str:
    """A claim as the claims list prints it: id, status, how a search found it, statement."""
    how = found_text(hit.get("found_by"))
    return (f"{hit['id']}  {hit['status']:<10}  " + (f"{how:<16}  " if how else "")
            + str(hit["statement"]))


def origin_text(claim: JSON) -> str:
    origin = claim.get("origin") or {}
    if origin.get("type") == "human_correction":
        return f"{origin.get('name')} ({origin.get('type')})"
    title = origin.get("source_title") or origin.get("name") or "?"
    version = f", version {origin['version']}" if origin.get("version") else ""
    return f"{origin.get('type') or 'document'}: {title}{version}"


def _quote(claim: JSON) -> str:
    if (claim.get("origin") or {}).get("type") == "human_correction":
        evidence = claim.get("evidence") or []
        return str(evidence[0]["text"]) if evidence else str(claim.get("statement"))
    return str(claim.get("evidence_quote") or "")


def claim_card(claim: JSON, title: str, style: str = "") -> Panel:
    rows = Table.grid(padding=(0, 1))
    rows.add_column(style="bold", no_wrap=True)
    rows.add_column()
    rows.add_row("claim", Text(str(claim.get("statement"))))
    rows.add_row("status", status(claim.get("status")))
    rows.add_row("quote", Text(f"\u201c{_quote(claim)}\u201d", style="italic"))
    rows.add_row("origin", Text(origin_text(claim)))
    rows.add_row("confidence", Text(str(claim.get("confidence_kind"))))
    rows.add_row("id", Text(str(claim.get("id")), style="dim"))
    return Panel(rows, title=title, title_align="left", border_style=style or "blue")


def _file_line(source: JSON) -> Text | None:
    """A file source's name, type and size, from its latest version."""
    versions = source.get("versions") or []
    v = versions[-1] if versions else {}
    if not v.get("media_type"):
        return None
    return Text(f"file {v.get('file_name') or source.get('origin_name') or '?'}: "
                f"{v['media_type']}, {v.get('file_size')} bytes, {v.get('file_hash')}",
                style="dim")


def _places(source: JSON) -> dict[str, str]:
    """A file's fragments by id, each with its PDF page or the heading it falls under."""
    out: dict[str, str] = {}
    for v in source.get("versions") or []:
        for f in v.get("fragments") or []:
            if f.get("page") is not None:
                out[str(f["id"])] = f"page {f['page']}"
            elif f.get("section"):
                out[str(f["id"])] = f"under \u201c{f['section']}\u201d"
    return out


def _said(c: JSON) -> str:
    return (f"{c['said_by']}, {_when(c.get('said_at'))}" if c.get("said_by") else "")


def source_claims(graph: JSON, source_id: str) -> list[JSON]:
    """The claims a source holds in a product graph, as the claims table prints them (id,
    statement, status): current ones first, each part by statement, as graph_tree lists
    them."""
    nodes = {n["id"]: n for n in graph.get("nodes") or []}
    held = [nodes[e["target"]] for e in graph.get("edges") or []
            if e["source"] == source_id and e["type"] == "SUPPORTS" and e["target"] in nodes]
    held.sort(key=lambda n: (n.get("status") not in ("proposed", "accepted"),
                             str(n.get("label")), n["id"]))
    return [{"id": n["id"], "statement": n.get("label"), "status": n.get("status")}
            for n in held]


# How many claims (and conflicts, and retired claims) a summary of an ingest prints; the
# rest are counted, and `--all` prints every one.
FIRST_CLAIMS = 5
FIRST_OTHERS = 3
# Up to this many claims a summary prints them all: a short text reads whole.
ALL_UP_TO = 10


def _claims_table(claims: list[JSON], *, said: bool = False,
                  places: dict[str, str] | None = None) -> Table:
    table = Table(show_header=True, header_style="bold", expand=False)
    table.add_column("claim id", style="dim", no_wrap=True)
    table.add_column("statement")
    if said:
        table.add_column("said by")
    if places:
        table.add_column("where")
    table.add_column("status")
    for c in claims:
        table.add_row(str(c["id"]), str(c["statement"]),
                      *([_said(c)] if said else []),
                      *([places.get(str(c.get("fragment_id")), "")] if places else []),
                      status(c.get("status")))
    return table


def _more(shown: int, total: int, noun: str, how: str) -> Text:
    return Text(f"\u2026 {total - shown:,} more {noun}{'' if total - shown == 1 else 's'}: "
                f"{how}", style="dim")


def _held_summary(head: RenderableType, source: JSON, held: list[JSON], every: bool,
                  again: str) -> RenderableType:
    """A text the memory already had: what it holds of it."""
    latest = source.get("latest_version")
    current = sum(1 for c in held if c.get("status") in ("proposed", "accepted"))
    said = Text(f"unchanged: the memory already holds this text (version {latest} of the "
                f"source) and {current} current claim{'' if current == 1 else 's'} from it"
                + (f", {len(held) - current} more no longer current"
                   if len(held) > current else "") + ":")
    shown = held if every or len(held) <= ALL_UP_TO else held[:FIRST_CLAIMS]
    parts: list[RenderableType] = [head, said,
                                   _claims_table(shown) if held else Text("(none)", style="dim")]
    if len(shown) < len(held):
        parts.append(_more(len(shown), len(held), "claim", f"`{again} --all` prints every one."))
    return Group(*parts)


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def kept_line(result: JSON) -> Text:
    """What an ingest kept and dropped, in one line with the totals: "6 claims kept, each
    with an exact quote; 2 dropped: quote not found 1, duplicate 1"."""
    kept = len(result.get("claims") or [])
    dropped = {k: v for k, v in (result.get("dropped") or {}).items() if v}
    text = (f"{_plural(kept, 'claim')} kept, each with an exact quote" if kept
            else "No claims kept")
    if dropped:
        text += (f"; {sum(dropped.values()):,} dropped: "
                 + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in dropped.items()))
    failed = result.get("failed_fragments") or []
    if failed:
        text += f"; {_plural(len(failed), 'fragment')} could not be read by the model"
    return Text(text, style="bold")


def _no_claims(conversation: bool) -> Text:
    what = "what was said" if conversation else "the text"
    return Text(f"No claim: nothing in {what} states a fact to keep (a question, say, states "
                "none).", style="dim")


def _conflict_parts(conflicts: list[JSON], every: bool) -> list[RenderableType]:
    """The conflicts an ingest raised: the open ones as the sources disagreeing, the ones
    settled at once (a speaker's newer statement under latest_wins) as settled."""
    parts: list[RenderableType] = []
    open_ = [k for k in conflicts if k.get("status") == "open"]
    closed = [k for k in conflicts if k.get("status") != "open"]
    if open_:
        parts.append(Text(f"{_plural(len(open_), 'conflict')} raised or joined and open: the "
                          "sources disagree (`afterhack conflicts` shows them)",
                          style="bold red"))
    parts += _some_conflicts(open_, every)
    if closed:
        parts.append(Text(f"{_plural(len(closed), 'conflict')} raised and settled at once: "
                          "the speaker's newer statement supersedes the older "
                          "(updates: latest_wins)", style="bold green"))
    parts += _some_conflicts(closed, every)
    return parts


def _some_conflicts(conflicts: list[JSON], every: bool) -> list[RenderableType]:
    if every:
        return [conflict_view(k) for k in conflicts if k.get("id")]
    shown = conflicts[:FIRST_OTHERS]
    parts: list[RenderableType] = [conflict_line(k) for k in shown]
    if len(shown) < len(conflicts):
        parts.append(_more(len(shown), len(conflicts), "conflict",
                           "`afterhack conflicts --all` lists every one."))
    return parts


# How many values a conflict's line names before it counts the rest.
LINE_SIDES = 3


def conflict_line(k: JSON) -> Text:
    """A conflict in one line: its status, its values (each as its first claim says it, and
    where that comes from), and its id."""
    sides = k.get("sides") or []
    named = " \u2260 ".join(
        f"\u201c{c.get('statement')}\u201d ({side_origin(c)})"
        for side in sides[:LINE_SIDES] for c in (side.get("claims") or [])[:1])
    more = (k.get("n_sides") or len(sides)) - min(len(sides), LINE_SIDES)
    if more > 0:
        named += f" \u2260 {_plural(more, 'more value')}"
    return _line("  ", status(k.get("status")), f" {named}",
                 Text(f"  ({k.get('id')})", style="dim"))


def source_summary(result: JSON, held: list[JSON] | None = None, *, every: bool = True,
                   again: str = "afterhack ingest FILE") -> RenderableType:
    """What an ingest did: the totals (kept, dropped by reason, conflicts, retired), then the
    claims kept; without ``every``, the first few of each and how many more, with the command
    (``again`` and --all) that prints every one. For a text the memory already had
    (``held``, the source's claims), what it holds of it."""
    source = result.get("source") or {}
    conversation = source.get("kind") == "conversation"
    # A conversation takes a version per append: to a reader its messages were appended.
    said = ("appended" if conversation and result.get("status") == "versioned"
            else result.get("status"))
    head = _line(Text("Conversation " if conversation else "Source ", style="bold"),
                 str(source.get("title")),
                 Text(f"  ({said}, id {source.get('id')})", style="dim"))
    if held is not None:
        return _held_summary(head, source, held, every, again)
    parts: list[RenderableType] = [head]
    file_line = _file_line(source)
    if file_line is not None:
        parts.append(file_line)
    claims = list(result.get("claims") or [])
    parts.append(kept_line(result))
    why = ("  (the same speaker said otherwise since)" if conversation
           else "  (the new version no longer says it)")
    retired = list(result.get("retired") or [])
    if retired:
        parts.append(Text(f"{_plural(len(retired), 'claim')} retired", style="bold yellow"))
    for r in retired if every else retired[:FIRST_OTHERS]:
        parts.append(_line(Text("retired ", style="bold yellow"), status(r.get("status")),
                           f" {r.get('statement')}", Text(why, style="dim")))
    if not every and len(retired) > FIRST_OTHERS:
        parts.append(_more(FIRST_OTHERS, len(retired), "retired claim",
                           f"`{again} --all` prints every one."))
    if result.get("flagged") or result.get("held"):
        parts.append(Text(f"flagged decisions: {len(result.get('flagged') or [])}, "
                          f"held actions: {len(result.get('held') or [])}", style="yellow"))
    for e in result.get("erasures") or []:
        n = len(e.get("claim_ids") or [])
        done = ("applied at once (the workspace applies such requests)"
                if e.get("status") == "applied" else
                f"{n} claim(s) withheld until a reviewer decides: `afterhack forget "
                f"requests`")
        parts.append(Text(f"{e.get('requested_by')} asked to forget something they said: "
                          f"{done}  ({e.get('id')})", style="bold yellow"))
    parts += _conflict_parts(list(result.get("conflicts") or []), every)
    if not claims:
        parts.append(_no_claims(conversation))
        return Group(*parts)
    shown = claims if every or len(claims) <= ALL_UP_TO else claims[:FIRST_CLAIMS]
    if len(shown) < len(claims):
        parts.append(Text(f"The first {len(shown)} of {len(claims):,}:", style="bold"))
    parts.append(_claims_table(shown, said=conversation, places=_places(source)))
    if len(shown) < len(claims):
        parts.append(_more(len(shown), len(claims), "claim",
                           f"`{again} --all` prints every one (the file again is "
                           "\u201cunchanged\u201d and lists what it holds); "
                           "`afterhack claims WORDS` finds one."))
    return Group(*parts)


def claim_place(claim: JSON) -> str:
    """Where a claim was read: its source's title and, for a file, the PDF page or the heading
    it falls under; for a message, who said it; for a reviewer's claim, the correction."""
    origin = claim.get("origin") or {}
    if origin.get("type") == "human_correction":
        return "a reviewer\u2019s correction"
    evidence = (claim.get("evidence") or [{}])[0]
    title = evidence.get("source_title") or origin.get("source_title") or "?"
    if evidence.get("page") is not None:
        return f"{title}, page {evidence['page']}"
    if evidence.get("section"):
        return f"{title}, under \u201c{evidence['section']}\u201d"
    if evidence.get("speaker"):
        return f"{title}, said by {evidence['speaker']}"
    return str(title)


def decision_view(decision: JSON | None, actions: Iterable[JSON] = (),
                  places: Mapping[str, str] | None = None) -> RenderableType:
    """A decision, its premises each with the claims it cites (and, given ``places``, where
    each was read: claim_place), the decisions it builds on and its actions."""
    if decision is None:
        return Text("No decision.", style="yellow")
    tree = Tree(_line(Text("Decision ", style="bold"), status(decision.get("status")), " ",
                      str(decision.get("title")), Text(f"  ({decision.get('id')})", style="dim")))
    if decision.get("summary"):
        tree.add(Text(f"summary: {decision['summary']}", style="italic"))
    for p in decision.get("premises") or []:
        branch = tree.add(Text(f"premise: {p.get('premise')}", style="bold"))
        for c in p.get("claims") or []:
            where = (places or {}).get(str(c.get("id")))
            branch.add(_line("cites ", status(c.get("status")), " ", str(c.get("statement")),
                             Text(f"  \u2014 {where}" if where else "", style="cyan"),
                             Text(f"  ({c.get('id')})", style="dim")))
    for up in decision.get("depends_on") or []:
        tree.add(_line("depends on ", status(up.get("status")), " ", str(up.get("title"))))
    for a in actions:
        tree.add(_line(Text("action ", style="bold"), status(a.get("status")), " ",
                       str(a.get("description")), Text(f"  ({a.get('id')})", style="dim")))
    return tree


def cited_ids(view: JSON) -> list[str]:
    """The claims a run's decision cites, once each, in the order its premises list them."""
    decision = view.get("decision") or {}
    ids = [str(c["id"]) for p in decision.get("premises") or [] for c in p.get("claims") or []]
    return list(dict.fromkeys(ids))


def run_view(view: JSON, places: Mapping[str, str] | None = None) -> RenderableType:
    parts: list[RenderableType] = [decision_view(view.get("decision"), view.get("actions") or [],
                                                 places)]
    dropped = [d for h in view.get("handoffs") or [] for d in h.get("dropped") or []]
    if dropped:
        parts.append(Text("dropped by the evidence gate: " + ", ".join(
            f"{d['claim_id']} ({d['reason']})" for d in dropped), style="yellow"))
    return Group(*parts)


def _reason(r: JSON, titles: dict[str, str]) -> str:
    if r.get("type") == "premise_lost":
        return f"its premise \u201c{r.get('premise')}\u201d lost its last current claim"
    up = titles.get(str(r.get("decision_id")))
    return (f"the decision it builds on, \u201c{up}\u201d, fell" if up
            else "a decision it builds on is no longer in good standing")


def impact_view(preview: JSON, title: str = "Impact of correcting this claim") -> RenderableType:
    """The flag / hold / stay lists of a correction preview (or of get_impact), in words."""
    flagged = preview.get("flag") or []
    held = preview.get("hold") or []
    stays = preview.get("stay") or []
    tree = Tree(Text(title, style="bold"))
    if not (flagged or held or stays):
        tree.add(Text("Nothing depended on this claim: no decision or action changes.",
                      style="green"))
        return tree
    titles = {str(f.get("decision_id")): str(f.get("title")) for f in flagged}
    flag = tree.add(Text("decisions flagged needs_review", style="yellow"))
    for f in flagged:
        why = "; ".join(_reason(r, titles) for r in f.get("reasons") or [])
        flag.add(_line(status(f.get("status")), f" {f.get('title')}",
                       Text(f"  because {why}", style="dim")))
    hold = tree.add(Text("actions held", style="yellow"))
    for h in held:
        hold.add(_line(status(h.get("status")), f" {h.get('description')}"))
    stay = tree.add(Text("decisions that stay supported", style="green"))
    for s in stays:
        stay.add(Text(str(s.get("title"))))
    for branch, items in ((flag, flagged), (hold, held), (stay, stays)):
        if not items:
            branch.add(Text("(none)", style="dim"))
    return tree


def also_states_view(preview: JSON) -> RenderableType | None:
    """The other claims a correction reaches: copies of the statement, and claims that state
    the same fact in other words (each with its quote, source and the value read), marked
    when left out."""
    items = preview.get("also_states_this") or []
    if not items:
        return None
    tree = Tree(Text("Corrected with it", style="bold"))
    copies = [a for a in items if not a.get("in_other_words")]
    if copies:
        branch = tree.add(Text("also states this", style="yellow"))
        for a in copies:
            branch.add(_line(f"\u201c{a.get('evidence_quote') or a.get('statement')}\u201d",
                             Text(f"  {a.get('source_title') or '?'}  ({a.get('claim_id')})",
                                  style="dim")))
    words = [a for a in items if a.get("in_other_words")]
    if words:
        branch = tree.add(Text("also says this, in other words", style="yellow"))
        for a in words:
            v = a.get("value_read") or {}
            left = a.get("left_out")
            branch.add(_line(
                Text("left out: " if left else "", style="bold magenta"),
                f"\u201c{a.get('evidence_quote') or a.get('statement')}\u201d",
                Text(f"  {a.get('source_title') or '?'}; says {v.get('value')} "
                     f"(\u201c{v.get('in_other')}\u201d)  ({a.get('claim_id')})",
                     style="dim")))
        if any(not a.get("left_out") for a in words):
            tree.add(Text("Leave one out with --leave CLAIM_ID: it then stands in an open "
                          "conflict with the correction.", style="dim"))
    return tree


def settled_text(k: JSON) -> Text | None:
    """How a conflict closed by something else was settled, in words."""
    by = k.get("settled_by")
    if not by:
        return None
    what = {"correction": "a correction", "resolution": "resolving conflict "
            f"{by.get('id')}", "version": "a new version of a source",
            "erasure": "an erasure", "merged": f"joining conflict {by.get('id')}"}.get(
                str(by.get("kind")), str(by.get("kind")))
    return Text(f"settled by {what}: {by.get('note')}", style="green")


def _when(ms: object, fmt: str = "%Y-%m-%d %H:%M UTC") -> str:
    if not isinstance(ms, int | float):
        return "?"
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime(fmt)


def decided_at(ms: object) -> str:
    """When a decision was made, to the second: the same question asked twice in a minute
    still reads as two."""
    return _when(ms, "%Y-%m-%d %H:%M:%S UTC")


def _speakers(k: JSON) -> str:
    every = "both" if (k.get("n_sides") or 2) <= 2 else "every value"
    if k.get("same_speaker") is True:
        return f" One speaker said {every}."
    if k.get("same_speaker") is False:
        return " More than one speaker."
    return ""


def claims_of(k: JSON) -> list[JSON]:
    """Every claim a conflict lists, side after side (the newest value first)."""
    return [c for side in k.get("sides") or [] for c in side.get("claims") or []]


REVIEWER = "Workspace reviewer correction"


def side_origin(c: JSON) -> str:
    """Where a conflict's claim comes from: its source's title, or the reviewer's correction
    that wrote it (which is no source)."""
    if c.get("source_id") is None and c.get("correction_id"):
        return REVIEWER
    return str(c.get("source_title") or "?")


def conflict_view(k: JSON) -> RenderableType:
    """One conflict, a dispute over one fact: each value a side, the newest first, with its
    claims, each with its quote, source and date (who said it, for a message), the newest
    word marked."""
    n_sides = k.get("n_sides") or len(k.get("sides") or [])
    title = _line(Text("Conflict ", style="bold"), status(k.get("status")),
                  f" {k.get('kind')}: {n_sides} values for one fact.{_speakers(k)}",
                  Text(f"  ({k.get('id')})", style="dim"))
    table = Table(show_header=True, header_style="bold", expand=True, title=title)
    table.add_column("value")
    table.add_column("claim")
    table.add_column("quote", style="italic")
    table.add_column("source")
    for side in k.get("sides") or []:
        for i, c in enumerate(side.get("claims") or []):
            newest = " (newest)" if c.get("id") == k.get("newer_claim_id") else ""
            when = (f"said by {c['said_by']}, {_when(c.get('said_at'))}" if c.get("said_by")
                    else _when(c.get("source_added_at") or c.get("created_at")))
            table.add_row(
                (str(side.get("value")) if i == 0 else "") + newest,
                _line(status(c.get("status")), f" {c.get('statement')}",
                      Text(f"\n{c.get('id')}", style="dim")),
                f"\u201c{c.get('evidence_quote') or ''}\u201d",
                # A conversation's versions are its appends, not what a reader counts: a
                # message is told by who said it and when.
                side_origin(c) + (f", version {c['version']}"
                                  if c.get("version") and not c.get("said_by") else "")
                + f"\n{when}")
    notes = [t for t in (settled_text(k), _partial(k)) if t is not None]
    if notes:
        table.caption = Text("\n").join(notes)
    return table


def _partial(k: JSON) -> Text | None:
    """What an answer that lists part of a large dispute leaves out, and how to see it."""
    if k.get("complete", True):
        return None
    shown = len(claims_of(k))
    return Text(f"{shown} of its {k.get('n_claims')} claims shown here; `afterhack "
                f"conflicts` lists them all.", style="dim")


def conflicts_view(listed: JSON) -> RenderableType:
    items = listed.get("items") or []
    if not items:
        return Text("No conflicts.", style="green")
    return Group(*(conflict_view(k) for k in items))


def resolution_preview_view(preview: JSON) -> RenderableType:
    """What a conflict resolution would do: the claims superseded, then flag / hold / stay."""
    parts: list[RenderableType] = [conflict_view(preview["conflict"])]
    if preview.get("resolution") == "dismiss":
        parts.append(Text("Dismiss: every value stays current, and no pair of these claims "
                          "is raised again.", style="bold"))
        return Group(*parts)
    listed = claims_of(preview["conflict"])
    kept: JSON = next((c for c in listed if c.get("id") == preview.get("keep")), {})
    parts.append(_line(Text("Keep ", style="bold green"), str(kept.get("statement"))))
    sides = {c.get("id"): c for c in listed}
    titles = {c.get("source_id"): c.get("source_title") for c in sides.values()}
    for x in preview.get("supersede") or []:
        side = sides.get(x.get("claim_id")) or {**x,
                                                "source_title": titles.get(x.get("source_id"))}
        parts.append(_line(Text("Supersede ", style="bold red"), str(x.get("statement")),
                           Text(f"  from {side_origin(side)}  ({x.get('claim_id')})",
                                style="dim")))
    parts.append(impact_view(preview, "Impact of keeping it"))
    return Group(*parts)


def resolution_view(result: JSON) -> RenderableType:
    k = result["conflict"]
    parts: list[RenderableType] = [
        _line(Text(f"Resolution {result.get('status')}: ", style="bold"), status(k["status"]))]
    if result.get("kept"):
        parts.append(claim_card(result["kept"], "Kept: its own source is the evidence",
                                "green"))
    parts.append(Text(f"superseded claims: {len(result.get('superseded') or [])}, "
                      f"flagged decisions: {len(result.get('flagged') or [])}, "
                      f"held actions: {len(result.get('held') or [])}"))
    for cid in result.get("settled") or []:
        parts.append(Text(f"settled by this resolution: conflict {cid}", style="green"))
    return Group(*parts)


def correction_view(result: JSON) -> RenderableType:
    """Before/after cards of an applied correction, then what it flagged and held."""
    parts: list[RenderableType] = [
        Text(f"Correction {result.get('status')}", style="bold"),
        claim_card(result["old_claim"], "Before: the claim that was wrong", "red"),
    ]
    if result.get("replacement"):
        parts.append(claim_card(result["replacement"], "After: the reviewer's correction",
                                "green"))
    else:
        parts.append(Text("Retracted: no replacement claim.", style="magenta"))
    also = result.get("also_corrected") or []
    if also:
        parts.append(Text(f"corrected with it: {len(also)} other claim(s) stating the same",
                          style="yellow"))
    parts.append(Text(f"flagged decisions: {len(result.get('flagged') or [])}, "
                      f"held actions: {len(result.get('held') or [])}"))
    for cid in result.get("settled") or []:
        parts.append(Text(f"settled by this correction: conflict {cid}", style="green"))
    for k in result.get("conflicts") or []:
        others = "; ".join(f"\u201c{o.get('statement')}\u201d ({o.get('source_title') or '?'})"
                           for o in k.get("other") or [])
        parts.append(Text(f"open conflict with the correction ({k.get('kind')}): {others}",
                          style="bold yellow"))
    return Group(*parts)


def _open_conflicts(tree: Tree, graph: JSON, nodes: dict[str, JSON]) -> None:
    """The graph's open conflicts under their own heading (none: no heading)."""
    disputes = [e for e in graph.get("edges") or [] if e["type"] == "CONFLICTS"
                and (e.get("data") or {}).get("status") == "open"
                and e["source"] in nodes and e["target"] in nodes]
    if disputes:
        open_ = tree.add(Text("Open conflicts", style="bold underline"))
        for e in disputes:
            data = e.get("data") or {}
            open_.add(_line(Text("conflict ", style="bold"), status("open"),
                            f" \u201c{nodes[e['source']].get('label')}\u201d \u2260 "
                            f"\u201c{nodes[e['target']].get('label')}\u201d",
                            Text(f"  {data.get('reason')}  ({data.get('conflict_id')})",
                                 style="dim")))


def graph_tree(graph: JSON, title: str = "Workspace") -> Tree:
    """The workspace once over: each source (or reviewer correction) with the claims it holds,
    the open conflicts between claims, then each decision once with the claims it cites, the
    decisions it builds on and the actions that require it. Empty sections say so."""
    nodes = {n["id"]: n for n in graph.get("nodes") or []}
    out: dict[str, list[tuple[str, str]]] = {}
    into: dict[str, list[tuple[str, str]]] = {}
    for e in graph.get("edges") or []:
        if e["source"] in nodes and e["target"] in nodes:
            out.setdefault(e["source"], []).append((e["type"], e["target"]))
            into.setdefault(e["target"], []).append((e["type"], e["source"]))

    def of_type(kind: str) -> list[JSON]:
        return sorted((n for n in nodes.values() if n["type"] == kind),
                      key=lambda n: (str(n.get("label")),
                                     (n.get("data") or {}).get("created_at") or 0, n["id"]))

    def label(n: JSON, *, with_id: bool = True) -> Text:
        text = _line(Text(f"{n['type']} ", style="bold"), status(n.get("status")), " ",
                     str(n.get("label")))
        if n["type"] == "decision":
            text.append(f"  {decided_at((n.get('data') or {}).get('created_at'))}", style="dim")
        if with_id:
            text.append(f"  ({n['id']})", style="dim")
        for kind, other in out.get(n["id"], []):
            if kind == "REPLACES":
                text.append(f"  replaces \u201c{nodes[other].get('label')}\u201d",
                            style="magenta")
        return text

    def section(tree: Tree, name: str, items: list[JSON]) -> Tree:
        branch = tree.add(Text(name, style="bold underline"))
        if not items:
            branch.add(Text("(none)", style="dim"))
        return branch

    tree = Tree(Text(title, style="bold"))
    sources = section(tree, "Sources", of_type("source"))
    for src in of_type("source"):
        branch = sources.add(_line(Text("source ", style="bold"), str(src.get("label")),
                                   Text(f"  ({src['id']})", style="dim")))
        claims = [nodes[t] for k, t in out.get(src["id"], []) if k == "SUPPORTS"]
        for c in sorted(claims, key=lambda n: str(n.get("label"))):
            branch.add(label(c))
        if not claims:
            branch.add(Text("(no claims)", style="dim"))
    corrections = of_type("correction")
    if corrections:
        fixes = tree.add(Text("Reviewer corrections", style="bold underline"))
        for k in corrections:
            branch = fixes.add(_line(Text("correction ", style="bold"),
                                     "Workspace reviewer correction: ", str(k.get("label")),
                                     Text(f"  ({k['id']})", style="dim")))
            for kind, t in out.get(k["id"], []):
                if kind == "SUPPORTS":
                    branch.add(label(nodes[t]))
    _open_conflicts(tree, graph, nodes)
    decisions = section(tree, "Decisions", of_type("decision"))
    for d in of_type("decision"):
        branch = decisions.add(label(d))
        for kind, src_id in into.get(d["id"], []):
            other = nodes[src_id]
            if kind == "INFORMS" and other["type"] == "claim":
                branch.add(_line("cites ", status(other.get("status")), " ",
                                 str(other.get("label"))))
            elif kind == "INFORMS" and other["type"] == "decision":
                branch.add(_line("builds on ", status(other.get("status")), " ",
                                 str(other.get("label"))))
        for kind, t in out.get(d["id"], []):
            if kind == "ENABLES":
                branch.add(label(nodes[t]))
    return tree
