"""create_api(settings): the HTTP API as a FastAPI app (and the UI's static files).

Its lifespan opens the services (the store, the embedded FalkorDB, the model); whatever
else must run as long as the app (the MCP endpoint, see afterhack/app.py) comes in
``running``. This package never imports the MCP transport.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from afterhack.access import keys_required
from afterhack.api import errors, security
from afterhack.api.accesslog import AccessLog, silence_uvicorn_access
from afterhack.api.deadlines import StoreBudget
from afterhack.api.headers import HeaderLimit, ResponseHeaders
from afterhack.api.hosts import HostGuard, HostPolicy
from afterhack.api.limits import BodyLimit
from afterhack.api.responses import ERRORS
from afterhack.api.routes import (
    agents,
    backup,
    claims,
    conflicts,
    corrections,
    decisions,
    embeddings,
    erasures,
    graph,
    health,
    keys,
    sources,
    workspaces,
)
from afterhack.config import Settings
from afterhack.runtime.services import open_services

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

# The collector's thresholds while the app serves. At Python's default (a young collection
# every 700 net allocations, an old one every 100 young) an ingest of a large source ran
# several collections of the whole heap, each walking what all earlier requests left
# alive. A young generation this size is collected a few times per large ingest, and the
# old one rarely (docs/decisions/0015-collector-thresholds.md).
GC_THRESHOLDS = (50_000, 20, 20)

# Routes are matched in order, one pattern at a time: the review's hot routes (corrections,
# then claims) come right after the health checks. No route shadows another whatever the
# order (tests/test_request_overhead.py checks).
ROUTERS = tuple(m.router for m in (health, corrections, claims, workspaces, keys, backup,
                                   sources, agents, decisions, graph, conflicts,
                                   embeddings, erasures))

Running = Callable[[], AbstractAsyncContextManager[None]]


def create_api(settings: Settings | None = None, *, running: Running | None = None,
               guarded: tuple[str, ...] = ()) -> FastAPI:
    """``running``: entered in the lifespan once the services are up; ``guarded``: path
    prefixes besides ``/api/`` whose callers the key check must know."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_services(settings) as services:
            app.state.store = services.store
            app.state.embedded = services.embedded
            app.state.services = services
            async with running() if running is not None else nullcontext():
                # Everything loaded so far (the framework, the models, the schema) lives
                # as long as the app: out of the collector's sight, a collection walks
                # only what requests allocate.
                gc.freeze()
                before = gc.get_threshold()
                gc.set_threshold(*GC_THRESHOLDS)
                try:
                    yield
                finally:
                    gc.set_threshold(*before)

    app = FastAPI(
        title="afterhack",
        version="0.1.0",
        summary="Agent memory that keeps the chain of because and repairs it.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    errors.install(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       overrides={"/api/workspaces/restore": (settings.max_restore_bytes,
                                                            "AFTERHACK_MAX_RESTORE_BYTES")},
                       file_paths=(security.API_PREFIX + "/workspaces/", "/sources/files"),
                       max_file_bytes=settings.max_file_bytes)
    # Added later, so it runs earlier: no body is read before the caller is known, and
    # nothing at all before the Host and Origin are this server's (DNS rebinding), on every
    # route the app serves, those the composition adds (MCP) included.
    app.add_middleware(security.Authenticate, settings=settings,
                       guarded=(security.API_PREFIX + "/", *guarded))
    # Around the key check too: it may read the store.
    app.add_middleware(StoreBudget)
    app.add_middleware(HostGuard, policy=HostPolicy(
        settings.host, settings.allowed_hosts, settings.allowed_origins,
        keys_on=keys_required(settings)))
    app.add_middleware(HeaderLimit, max_bytes=settings.max_header_bytes,
                       max_count=settings.max_headers)
    app.add_middleware(errors.RequestIds)
    # Around every answer of the middleware above: these headers on each.
    app.add_middleware(ResponseHeaders)
    # Outermost: every request, refused ones included, logged without what it carried.
    app.add_middleware(AccessLog)
    silence_uvicorn_access()

    # Refuses to build an app with an unguarded route.
    permissions = security.route_permissions(ROUTERS)
    for router in ROUTERS:
        app.include_router(router, prefix=security.API_PREFIX, responses=ERRORS)
    _document_security(app, permissions, keys_required(settings))
    _mount_ui(app)
    return app


def _document_security(app: FastAPI, permissions: security.Permissions, bearer: bool) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                                 routes=app.routes)
            security.document(schema, permissions, bearer=bearer)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _mount_ui(app: FastAPI) -> None:
    index = STATIC_DIR / "index.html"
    if not index.exists():
        return
    if (STATIC_DIR / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=STATIC_DIR / "assets"), name="assets")

    @app.get("/", include_in_schema=False)
    async def ui_index() -> FileResponse:
        return FileResponse(index)
