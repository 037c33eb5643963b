"""Rich renderings of erasure answers for the terminal (``afterhack forget``): what a
preview says goes and is repaired, an applied erasure, and the requests waiting for review.

Pure functions from the JSON the HTTP API returns to rich renderables, as console.py's;
nothing here talks to the server (what the answers name by id only, a source's title, a
withheld claim's statement, is passed in).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from rich.tree import Tree

from afterhack.cli.console import JSON, impact_view, status


def _line(*parts: str | Text) -> Text:
    return Text.assemble(*[(p, "") if isinstance(p, str) else p for p in parts])


def _when(ms: object) -> str:
    if not isinstance(ms, int | float):
        return "?"
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _source(titles: Mapping[str, str], source_id: object) -> str:
    title = titles.get(str(source_id))
    return f"\u201c{title}\u201d" if title else f"source {source_id}"


def erasure_preview_view(preview: JSON, what: str,
                         titles: Mapping[str, str]) -> RenderableType:
    """What an erasure would take (texts, messages, claims, a reviewer's texts, other
    records repeating the words) and repair (decisions flagged, actions held, decisions that
    stay, conflicts that close). ``what`` says the target in words; ``titles`` names the
    sources by id."""
    goes = preview.get("goes") or {}
    tree = Tree(_line(Text("Erase ", style="bold red"), what))
    versions = goes.get("versions") or []
    messages = goes.get("messages") or []
    claims = goes.get("claims") or []
    corrections = goes.get("corrections") or []
    records = int(goes.get("records") or 0)
    if not (versions or messages or claims or corrections or records):
        tree.add(Text("Nothing left to erase: no text holds these words any more.",
                      style="green"))
        return tree
    texts = tree.add(Text("texts that lose words (each span becomes [erased])",
                          style="yellow"))
    for v in versions:
        file = "; its original file goes too" if v.get("file") else ""
        texts.add(Text(f"{_source(titles, v.get('source_id'))}, version {v.get('version')}: "
                       f"{_plural(int(v.get('spans') or 0), 'span')}{file}"))
    if not versions:
        texts.add(Text("(none)", style="dim"))
    if messages:
        said = tree.add(Text("messages", style="yellow"))
        for m in messages:
            who = f", said by {m['speaker']}" if m.get("speaker") else ""
            said.add(Text(f"{_source(titles, m.get('source_id'))} message "
                          f"{m.get('message_index')}{who}"))
    erased = tree.add(Text("claims erased (each reads \u201cErased on \u2026, by \u2026\u201d)",
                           style="yellow"))
    for c in claims:
        used = int(c.get("used_by") or 0)
        erased.add(_line(status(c.get("status")), f" {c.get('statement')}",
                         Text(f"  cited by {_plural(used, 'decision')}  ({c.get('id')})"
                              if used else f"  ({c.get('id')})", style="dim")))
    if not claims:
        erased.add(Text("(none)", style="dim"))
    if corrections:
        tree.add(Text(f"reviewer corrections whose text loses the words: "
                      f"{', '.join(str(x) for x in corrections)}", style="yellow"))
    if records:
        tree.add(Text(f"other records that repeat the words (runs, decisions, audit "
                      f"events, \u2026): {records}, the words in each replaced by [erased]",
                      style="yellow"))
    parts: list[RenderableType] = [tree, impact_view(preview, "What rested on it")]
    closes = preview.get("closes") or []
    if closes:
        closing = Tree(Text("conflicts that close (a side of each is erased)", style="bold"))
        for k in closes:
            closing.add(Text(f"{k.get('kind')}: {k.get('reason')}  ({k.get('id')})"))
        parts.append(closing)
    return Group(*parts)


def _counts(counts: JSON | None) -> str:
    if not counts:
        return "nothing counted"
    c = counts
    files = f"{_plural(c['files'], 'original file')} gone, " if c["files"] else ""
    return (f"{_plural(c['spans'], 'span')} in {_plural(c['versions'], 'version')}, "
            f"{_plural(c['messages'], 'message')}, {_plural(c['claims'], 'claim')} erased, "
            f"{files}{_plural(c['records'], 'other record')} scrubbed; flagged decisions: "
            f"{c['flagged']}, held actions: {c['held']}, conflicts closed: {c['conflicts']}")


def disk_text(record: JSON, *, waited: bool = False) -> Text:
    """Where FalkorDB's files stand: still to be rewritten, or clean (since when)."""
    if record.get("disk") == "clean":
        return Text(f"disk: clean since {_when(record.get('disk_clean_at'))} (FalkorDB's "
                    "files no longer hold the words)", style="green")
    if record.get("disk") == "pending":
        return Text("disk: pending (FalkorDB's files are still being rewritten; `afterhack "
                    "forget requests --status applied` shows when they are clean)"
                    if waited else "disk: pending (FalkorDB's files are being rewritten; "
                    "--wait-disk waits for it)", style="yellow")
    return Text("disk: -", style="dim")


def erasure_view(result: JSON, *, waited: bool = False) -> RenderableType:
    """An applied erasure: its record, what it reached, and where the disk stands
    (``waited``: the apply waited for the disk)."""
    e = result["erasure"]
    head = _line(Text(f"Erasure {result.get('status')}", style="bold"),
                 Text(f"  ({e.get('id')})", style="dim"))
    by = Text(f"by {e.get('applied_by') or '?'} on {_when(e.get('applied_at'))}"
              + (f"; why: {e['reason']}" if e.get("reason") else ""))
    return Group(head, by, Text(_counts(e.get("counts"))), disk_text(e, waited=waited))


def request_view(record: JSON, claims: Sequence[JSON], titles: Mapping[str, str]
                 ) -> RenderableType:
    """One erasure or request as the list shows it: who asked (or applied) and when, the
    message that asked, and the claims it withholds or erased."""
    t = record.get("target") or {}
    when = record.get("requested_at") or record.get("applied_at") or record.get("created_at")
    who = record.get("requested_by") or record.get("applied_by") or "?"
    where = (f"  in {_source(titles, t['source_id'])} message {t['message_index']}"
             if t.get("kind") == "request" and t.get("source_id") is not None
             and t.get("message_index") is not None else "")
    kind = "" if t.get("kind") == "request" else f"  {t.get('kind')}"
    tree = Tree(_line(str(record.get("id")), "  ", status(record.get("status")),
                      f"{kind}  asked by {who}, {_when(when)}" if record.get("requested_by")
                      else f"{kind}  by {who}, {_when(when)}", where))
    held = {"requested": "withholds", "applied": "erased"}.get(str(record.get("status")),
                                                               "named")
    for c in claims:
        tree.add(_line(f"{held} ", status(c.get("status")), f" {c.get('statement')}",
                       Text(f"  ({c.get('id')})", style="dim")))
    if record.get("status") == "applied":
        tree.add(disk_text(record, waited=True))
    if record.get("status") == "declined":
        tree.add(Text(f"declined by {record.get('declined_by')} on "
                      f"{_when(record.get('declined_at'))}", style="dim"))
    return tree
