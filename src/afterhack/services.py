"""What a request needs besides the store: the model (offline or gateway) and settings."""

from __future__ import annotations

from dataclasses import dataclass

from afterhack.config import Settings
from afterhack.ingest import Extractor
from afterhack.llm.offline import OfflineExtractor
from afterhack.store.client import Store


@dataclass
class Services:
    settings: Settings
    store: Store
    extractor: Extractor

    @property
    def model_name(self) -> str:
        return self.extractor.name


def build_services(settings: Settings, store: Store) -> Services:
    return Services(settings=settings, store=store, extractor=OfflineExtractor())
