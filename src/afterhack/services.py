"""What a request needs besides the store: the model (offline or gateway) and settings."""

from __future__ import annotations

from dataclasses import dataclass

from afterhack.config import Settings
from afterhack.ingest import Extractor
from afterhack.llm.extraction import GatewayExtractor
from afterhack.llm.gateway import Gateway
from afterhack.llm.offline import OfflineExtractor
from afterhack.store.client import Store


@dataclass
class Services:
    settings: Settings
    store: Store
    extractor: Extractor
    # None with the offline model; agents use its chat_tools / complete_json.
    gateway: Gateway | None = None

    @property
    def model_name(self) -> str:
        return self.extractor.name

    async def aclose(self) -> None:
        if self.gateway is not None:
            await self.gateway.aclose()


def build_services(settings: Settings, store: Store) -> Services:
    if settings.offline_model:
        return Services(settings=settings, store=store, extractor=OfflineExtractor())
    gateway = Gateway(settings)
    return Services(settings=settings, store=store, extractor=GatewayExtractor(gateway),
                    gateway=gateway)
