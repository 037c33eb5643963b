"""Claim extraction through the model gateway (the Extractor of ingest.py).

This only asks and checks the shape; whether each quote is really in the fragment is
decided afterwards by ingest.check_candidates, for every extractor alike.
"""

from __future__ import annotations

from pydantic import JsonValue

from afterhack.errors import GatewayInvalidOutput
from afterhack.llm.gateway import Gateway
from afterhack.llm.prompts import (
    EXTRACTION_SCHEMA,
    EXTRACTION_SCHEMA_NAME,
    EXTRACTION_SYSTEM,
    EXTRACTION_USER,
)
from afterhack.model.calls import ModelCall
from afterhack.model.chat import ChatMessage


def extraction_messages(fragment: str) -> list[ChatMessage]:
    return [
        {"role": "system", "content": EXTRACTION_SYSTEM},
        {"role": "user", "content": EXTRACTION_USER.format(fragment=fragment)},
    ]


class GatewayExtractor:
    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.name = gateway.model

    async def extract(self, fragment: str) -> tuple[list[JsonValue], ModelCall]:
        data, call = await self.gateway.complete_json(
            "extractor", extraction_messages(fragment), EXTRACTION_SCHEMA_NAME, EXTRACTION_SCHEMA
        )
        claims = data.get("claims")
        if not isinstance(claims, list):
            raise GatewayInvalidOutput("The extractor's answer has no list of claims.",
                                       role="extractor")
        return claims, call
