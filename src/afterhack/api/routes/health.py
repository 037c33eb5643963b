from __future__ import annotations

from fastapi import APIRouter

from afterhack.api.deps import ServicesDep, SettingsDep
from afterhack.wire.answers import Health, Pong

router = APIRouter(tags=["health"])


@router.get("/ping")
async def ping() -> Pong:
    """Touches nothing (no store, no settings): the floor of an HTTP request to the app."""
    return {"pong": True}


# Health answers within a second whatever FalkorDB is doing: its ping gets this long.
HEALTH_PROBE_S = 0.5


@router.get("/health")
async def health(settings: SettingsDep, services: ServicesDep) -> Health:
    probe = await services.store.probe(HEALTH_PROBE_S)
    watch = services.watch
    reason = probe.reason
    if watch.reason == "restarting" and not probe.answering:
        reason = watch.reason
    embedded = services.embedded
    # Never the gateway's address or key: only whether one is configured and the model name.
    return {
        "status": "ok" if probe.answering else "degraded",
        "falkordb": {"reachable": probe.answering,
                     "mode": "external" if settings.falkordb_url else "embedded",
                     "reason": reason,
                     "restarts": embedded.restarts if embedded is not None else 0,
                     "stuck_restarts": watch.stuck_restarts},
        "model": {"mode": "offline" if settings.offline_model else "gateway",
                  "name": services.model_name},
    }
