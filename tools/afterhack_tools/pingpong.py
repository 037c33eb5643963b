"""How often one request steps back into a module it already left, on its way from the
route to FalkorDB and back.

    python -m afterhack_tools.pingpong

The app runs in this process (its own embedded FalkorDB under a temporary directory, the
offline model, no keys) and is called over its HTTP API through an in-process transport,
so every call of the request runs on this thread, where a profile hook sees it. Two
requests are traced: a file upload (a new version of a text file, which retires a claim a
decision uses) and a correction's apply (of the same statement in a second source, which
the decision uses too). A call counts when it goes from one of our modules into another one that
this request entered before and has since left (the module is not on the stack): that is a
module the code comes back to, not one it goes deeper into. Only the modules that do the
work count as its target: the domain's (memory, retrieval, agents) and the store's, but not
from one store module into another (a query is built from several), nor the store's
connection and reply modules (how a query travels: every query goes through them). A step
into the store that sends no query is counted apart: work that belongs in the domain.

Prints, for each request, the re-entries (calls), and the distinct modules re-entered and
the distinct pairs (from, to) they came by. With ``--repeat N``, also the CPU time this
process spends on each of N uploads, previews and applies, untraced (median and quartiles,
in ms): unlike wall time, it hardly moves with what else the machine runs, and FalkorDB's
own time (another process) is not in it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

from afterhack.app import create_app
from afterhack.config import Settings

# How a query travels (connections, routing, replies, deadlines): under every store call.
_PLUMBING = ("afterhack.store.client", "afterhack.store.resp", "afterhack.store.routing",
             "afterhack.store.reply", "afterhack.store.rows", "afterhack.store.deadlines",
             "afterhack.store.plancache", "afterhack.store.params")

FIRST = "The launch is planned for June 12. The venue is the Harbour Hall."
SECOND = "The launch is planned for June 19. The venue is the Harbour Hall."


def _module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__")
    if not isinstance(name, str) or not name.startswith("afterhack."):
        return None
    return None if name.startswith(_PLUMBING) else name


@dataclass
class Trace:
    """The modules entered so far, each re-entry (from, to), and each step into the store
    from outside it that sent no query (from, the store function)."""

    entered: set[str] = field(default_factory=set)
    reentries: Counter[tuple[str, str]] = field(default_factory=Counter)
    no_io: Counter[tuple[str, str]] = field(default_factory=Counter)
    round_trips: int = 0  # to FalkorDB
    # Frames seen called: a coroutine's frame is "called" again each time it resumes.
    _seen: set[FrameType] = field(default_factory=set)
    # Steps into the store under way: the frame, where it came from, whether it sent a query.
    _steps: list[tuple[FrameType, str, str, bool]] = field(default_factory=list)

    def hook(self, frame: FrameType, event: str, _arg: object) -> None:
        if event == "return":
            if self._steps and self._steps[-1][0] is frame and not _suspended(frame):
                _, came_from, fn, sent = self._steps.pop()
                if not sent:
                    self.no_io[(came_from, fn)] += 1
            return
        if event != "call" or frame in self._seen:
            return
        self._seen.add(frame)
        if (frame.f_globals.get("__name__") == "afterhack.store.client"
                and frame.f_code.co_name in _QUERIES):
            self._steps = [(f, c, step, True) for f, c, step, _ in self._steps]
            self.round_trips += frame.f_code.co_name == "round_trip"
        callee = _module(frame)
        caller = _module(frame.f_back) if frame.f_back is not None else None
        if callee is None:
            return
        if (caller is not None and caller != callee and callee in self.entered
                and _doing(callee) and not (_layer(caller) == _layer(callee) == "store")
                and callee not in _on_stack(frame.f_back)):
            self.reentries[(caller, callee)] += 1
        if (caller is not None and callee.startswith("afterhack.store.")
                and not caller.startswith("afterhack.store.")):
            self._steps.append((frame, caller, f"{callee}.{frame.f_code.co_name}", False))
        self.entered.add(callee)

    def report(self, what: str) -> str:
        modules = sorted({to for _, to in self.reentries})
        lines = [f"{what}: {sum(self.reentries.values())} re-entries of {len(modules)} "
                 f"modules by {len(self.reentries)} distinct paths; "
                 f"{sum(self.no_io.values())} steps into the store that sent no query; "
                 f"{self.round_trips} round trips to FalkorDB"]
        lines += [f"  re-entry {a} -> {b}: {n}" for (a, b), n in sorted(self.reentries.items())]
        lines += [f"  no query {a} -> {b}: {n}" for (a, b), n in sorted(self.no_io.items())]
        return "\n".join(lines)


# The layers that do a request's work: the domain (its use cases, retrieval, the agents) and
# the store. A call into a pure helper (model, records, rules, facts, files, temporal, llm)
# is not counted: using it again is not coming back.
_DOING = {"memory": "domain", "agents": "domain", "retrieval": "domain", "store": "store"}


def _layer(module: str) -> str | None:
    return _DOING.get(module.split(".")[1])


def _doing(module: str) -> bool:
    # A use case reads its workspace, settings and caller off its Scope: an attribute's read,
    # not a step anywhere.
    return _layer(module) is not None and module != "afterhack.memory.scope"


# What sends a query (or a command) to FalkorDB.
_QUERIES = frozenset({"read", "write", "run", "round_trip", "call"})


def _suspended(frame: FrameType) -> bool:
    """A coroutine's frame "returns" each time it awaits: it has not finished."""
    return bool(frame.f_code.co_flags & 0x80) and frame.f_lasti >= 0 and (
        frame.f_code.co_code[frame.f_lasti] == _YIELD_VALUE)


_YIELD_VALUE = __import__("dis").opmap["YIELD_VALUE"]


def _on_stack(frame: FrameType | None) -> set[str]:
    out = set()
    while frame is not None:
        if (m := _module(frame)) is not None:
            out.add(m)
        frame = frame.f_back
    return out


async def _traced(what: str, send: Any) -> httpx.Response:
    trace = Trace()
    sys.setprofile(trace.hook)
    try:
        r: httpx.Response = await send()
    finally:
        sys.setprofile(None)
    r.raise_for_status()
    print(trace.report(what))
    return r


async def _cpu_ms(request: Awaitable[httpx.Response]) -> tuple[float, httpx.Response]:
    """The request's answer, and the CPU time this process spent on it (a coroutine does
    nothing until it is awaited, here)."""
    t0 = time.process_time()
    r = await request
    took = (time.process_time() - t0) * 1000
    r.raise_for_status()
    return took, r


async def _repeated(c: httpx.AsyncClient, base: str, source_id: str, n: int) -> None:
    """CPU ms of this process per upload (a new version of the file each time), per preview
    and per apply (each of a claim just added, which the first run's decision does not use:
    the same small region every time)."""
    took: dict[str, list[float]] = {"file upload": [], "correction preview": [],
                                    "correction apply": []}
    for i in range(n):
        text = f"The launch is planned for June {10 + i % 15}. The venue is hall {i}."
        ms, _ = await _cpu_ms(c.post(
            f"{base}/sources/files", files={"file": ("plan.txt", text.encode(), "text/plain")},
            data={"source_id": source_id}))
        took["file upload"].append(ms)
        added = (await c.post(f"{base}/sources", json={
            "title": f"budget {i}", "text": f"The budget of line {i} is {100 + i} euros."})
                 ).raise_for_status().json()
        claim = added["claims"][0]["id"]
        fix = f"The budget of line {i} is {200 + i} euros."
        ms, r = await _cpu_ms(c.post(f"{base}/claims/{claim}/corrections/preview",
                                     json={"statement": fix}))
        took["correction preview"].append(ms)
        rev = r.json()["revisions"]
        ms, _ = await _cpu_ms(c.post(f"{base}/claims/{claim}/corrections", json={
            "statement": fix, "claim_revision": rev["claim_revision"],
            "impact_token": rev["impact_token"]}))
        took["correction apply"].append(ms)
    for what, values in took.items():
        q1, q2, q3 = statistics.quantiles(values, n=4)
        print(f"{what}: CPU {q2:.2f} ms per request (quartiles {q1:.2f} to {q3:.2f}, n={n})")


async def _journey(c: httpx.AsyncClient, repeat: int) -> None:
    ws = (await c.post("/api/workspaces", json={"name": "pingpong"})).raise_for_status().json()
    base = f"/api/workspaces/{ws['id']}"
    files = {"file": ("plan.txt", FIRST.encode(), "text/plain")}
    src = (await c.post(f"{base}/sources/files", files=files)).raise_for_status().json()
    copy = (await c.post(f"{base}/sources", json={"title": "copy", "text": FIRST})
            ).raise_for_status().json()
    (await c.post(f"{base}/agent-runs", json={"task": "Plan the launch event"})
     ).raise_for_status()
    claim = next(x for x in copy["claims"] if "June 12" in x["statement"])
    # Warm: the first of each request imports and caches what later ones reuse.
    warm = {"file": ("plan.txt", FIRST.encode(), "text/plain")}
    await c.post(f"{base}/sources/files", files=warm, data={"source_id": src["source"]["id"]})
    await _traced("file upload (a new version retiring a used claim)", lambda: c.post(
        f"{base}/sources/files", files={"file": ("plan.txt", SECOND.encode(), "text/plain")},
        data={"source_id": src["source"]["id"]}))
    fix = "The launch is planned for July 1."
    preview = (await c.post(f"{base}/claims/{claim['id']}/corrections/preview",
                            json={"statement": fix})).raise_for_status().json()
    await _traced("correction apply (a used claim with a copy)", lambda: c.post(
        f"{base}/claims/{claim['id']}/corrections",
        json={"statement": fix, "claim_revision": preview["revisions"]["claim_revision"],
              "impact_token": preview["revisions"]["impact_token"]}))
    if repeat:
        await _repeated(c, base, src["source"]["id"], repeat)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=0,
                        help="Also time N uploads, previews and applies (CPU of this process).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="afterhack-pingpong-") as d:
        settings = Settings(_env_file=None, data_dir=Path(d), falkordb_url=None,  # type: ignore[call-arg]
                            openai_base_url=None, admin_key=None, require_keys=False,
                            embeddings=False, conflict_checks=True)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                await _journey(c, args.repeat)


if __name__ == "__main__":
    asyncio.run(main())
