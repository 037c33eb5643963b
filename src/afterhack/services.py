"""What a request needs besides the store: the model (offline or gateway) and settings."""

from __future__ import annotations

from dataclasses import dataclass

from afterhack.agents.llm import GatewayAnalyst, GatewayCoordinator
from afterhack.agents.offline import OfflineAnalyst, OfflineCoordinator
from afterhack.agents.run import Analyst, Coordinator
from afterhack.config import Settings
from afterhack.ingest import Extractor
from afterhack.llm.extraction import GatewayExtractor
from afterhack.llm.gateway import Gateway
from afterhack.llm.offline import OfflineExtractor
from afterhack.store.client import Store
from afterhack.support import Policy


@dataclass
class Services:
    settings: Settings
    store: Store
    extractor: Extractor
    analyst: Analyst
    coordinator: Coordinator
    # None with the offline model.
    gateway: Gateway | None = None

    @property
    def model_name(self) -> str:
        return self.extractor.name

    @property
    def policy(self) -> Policy:
        policy: Policy = "any" if self.settings.support_policy == "any" else "independent"
        return policy

    async def aclose(self) -> None:
        if self.gateway is not None:
            await self.gateway.aclose()


def build_services(settings: Settings, store: Store) -> Services:
    if settings.offline_model:
        return Services(settings=settings, store=store, extractor=OfflineExtractor(),
                        analyst=OfflineAnalyst(), coordinator=OfflineCoordinator())
    gateway = Gateway(settings)
    return Services(settings=settings, store=store, extractor=GatewayExtractor(gateway),
                    analyst=GatewayAnalyst(gateway), coordinator=GatewayCoordinator(gateway),
                    gateway=gateway)
