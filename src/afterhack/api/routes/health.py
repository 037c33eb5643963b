from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import ServicesDep, SettingsDep, StoreDep
from afterhack.wire.answers import Health, Pong

router = APIRouter(tags=["health"])


@router.get("/ping")
async def ping() -> Pong:
    """Touches nothing (no store, no settings): the floor of an HTTP request to the app."""
    return {"pong": True}


@router.get("/health")
async def health(store: StoreDep, settings: SettingsDep, services: ServicesDep) -> Health:
    reachable = await store.ping()
    # Never the gateway's address or key: only whether one is configured and the model name.
    return {
        "status": "ok" if reachable else "degraded",
        "falkordb": {"reachable": reachable,
                     "mode": "external" if settings.falkordb_url else "embedded"},
        "model": {"mode": "offline" if settings.offline_model else "gateway",
                  "name": services.model_name},
    }
