"""Per-request costs that benchmarks found and that must not come back unnoticed."""

from __future__ import annotations

import asyncio
import inspect
import re

from fastapi.routing import APIRoute
from starlette.routing import compile_path

from afterhack.api import deps
from afterhack.api.app import ROUTERS
from afterhack.api.security import API_PREFIX
from afterhack.store.client import Store


def test_dependencies_do_not_hop_threads() -> None:
    # FastAPI runs a plain `def` dependency in a worker thread: ~0.15 ms a hop, per request.
    for fn in (deps.get_settings, deps.get_services, deps.get_caller, deps.get_workspaces,
               deps.get_workspace, deps.get_workspace_ref):
        assert inspect.iscoroutinefunction(fn), fn.__name__


def test_store_parses_replies_with_hiredis(falkordb: str) -> None:
    # The pure-Python RESP parser cost about a third of a correction's store time.
    async def parser() -> str:
        store = Store(falkordb)
        try:
            await store.ping()
            [pool] = store._nodes.primaries()
            conn = await pool.acquire()
            try:
                return type(conn._parser).__module__
            finally:
                pool.release(conn)
        finally:
            await store.close()

    assert asyncio.run(parser()).startswith("hiredis")


def test_no_route_shadows_another() -> None:
    # Routes are matched in the order they are listed, and the hot ones are listed first
    # (api/app.py): a path of each route, its parameters filled with values no literal
    # segment uses, must match no route of the same method listed before it.
    api = [(API_PREFIX + route.path, set(route.methods or ())) for router in ROUTERS
           for route in router.routes if isinstance(route, APIRoute)]
    assert len(api) > 30
    patterns = [(compile_path(path)[0], methods) for path, methods in api]
    for i, (path, methods) in enumerate(api):
        concrete = re.sub(r"\{(\w+)(:\w+)?\}", lambda m: f"p-{m.group(1)}-0", path)
        assert patterns[i][0].match(concrete)
        earlier = [api[j][0] for j, (rx, ms) in enumerate(patterns[:i])
                   if ms & methods and rx.match(concrete)]
        assert earlier == [], f"{sorted(methods)} {path} is shadowed by {earlier}"
