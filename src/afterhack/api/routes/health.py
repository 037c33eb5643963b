from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from afterhack.api import responses as out
from afterhack.api.deps import ServicesDep, SettingsDep, StoreDep

router = APIRouter(tags=["health"])


@router.get("/ping")
async def ping() -> dict[str, bool]:
    """Touches nothing (no store, no settings): the floor of an HTTP request to the app."""
    return {"pong": True}


@router.get("/health", response_model=out.Health)
async def health(store: StoreDep, settings: SettingsDep, services: ServicesDep) -> dict[str, Any]:
    reachable = await store.ping()
    # Never the gateway's address or key: only whether one is configured and the model name.
    return {
        "status": "ok" if reachable else "degraded",
        "falkordb": {"reachable": reachable,
                     "mode": "external" if settings.falkordb_url else "embedded"},
        "model": {"mode": "offline" if settings.offline_model else "gateway",
                  "name": services.model_name},
    }
