"""create_app(settings): the FastAPI app; its lifespan opens the store (and the embedded
FalkorDB) and runs the MCP endpoint mounted at /mcp."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from afterhack.api import errors, security
from afterhack.api.headers import HeaderLimit
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
    graph,
    health,
    keys,
    sources,
    workspaces,
)
from afterhack.config import Settings
from afterhack.mcpserver import mount_mcp
from afterhack.services import open_services

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_services(settings) as services, mcp.running():
            app.state.store = services.store
            app.state.embedded = services.embedded
            app.state.services = services
            # Everything loaded so far (the framework, the models, the schema) lives as long
            # as the app: out of the collector's sight, a collection walks only what
            # requests allocate.
            gc.freeze()
            yield

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
                       overrides={"/api/workspaces/restore": settings.max_restore_bytes})
    # Added later, so it runs earlier: no body is read before the caller is known, and
    # nothing at all before the Host and Origin are this server's (DNS rebinding).
    app.add_middleware(security.Authenticate, settings=settings)
    app.add_middleware(HostGuard, policy=HostPolicy(
        settings.host, settings.allowed_hosts, settings.allowed_origins,
        keys_on=security.keys_required(settings)))
    app.add_middleware(HeaderLimit, max_bytes=settings.max_header_bytes,
                       max_count=settings.max_headers)

    # Each module's routes straight onto the app: every level of included routers is
    # matched again per request, and that was a tenth of the app's CPU on a preview.
    # Routes are matched in order, one pattern at a time: the review's hot routes
    # (corrections, then claims) come right after the health checks. No route shadows
    # another whatever the order (tests/test_request_overhead.py checks).
    for module in (health, corrections, claims, workspaces, keys, backup, sources, agents,
                   decisions, graph, conflicts, embeddings):
        app.include_router(module.router, prefix="/api", responses=ERRORS)
    security.route_permissions(app)  # refuses to build an app with an unguarded route
    _document_security(app, settings)
    # The MCP tools at /mcp, sharing this app's store and model (see mcpserver/).
    mcp = mount_mcp(app, settings, lambda: app.state.services,
                    resolve_key=security.key_resolver(settings, lambda: app.state.store))
    _mount_ui(app)
    return app


def _document_security(app: FastAPI, settings: Settings) -> None:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                                 routes=app.routes)
            security.document(schema, app, settings)
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
