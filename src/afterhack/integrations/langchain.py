"""A LangChain retriever over the memory: ``AfterhackRetriever``.

Each Document is one current claim: its statement is the page content, and its metadata
says where it comes from (the source, the exact quote and its code-point offsets, the page
or heading, who said it and when), its status and the open conflicts it is in, so a chain
can cite the quote and see a disputed fact as disputed. Install with
``pip install 'afterhack[langchain]'``.
"""

from __future__ import annotations

import asyncio
from typing import Any

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError("AfterhackRetriever needs LangChain: pip install 'afterhack[langchain]'"
                      ) from exc
from pydantic import Field, SecretStr

from afterhack.client import DEFAULT_URL, AsyncClient, Client
from afterhack.model.claims import ClaimView
from afterhack.model.vocab import SearchMode

# Metadata values are plain JSON (strings, numbers, lists, maps): a Document is serialised
# by the vector stores and caches it is handed to.


def claim_metadata(claim: ClaimView) -> dict[str, Any]:
    """What a Document says of the claim behind it."""
    evidence = claim["evidence"][0] if claim["evidence"] else None
    origin = claim["origin"]
    return {
        "claim_id": claim["id"],
        "source_id": evidence["source_id"] if evidence else claim["source_id"],
        "source_title": (evidence["source_title"] if evidence
                         else origin["source_title"] if origin else None),
        "origin_type": evidence["origin_type"] if evidence else None,
        "quote": claim["evidence_quote"],
        "quote_start": claim["quote_start"],
        "quote_end": claim["quote_end"],
        "fragment_id": evidence["fragment_id"] if evidence else None,
        "page": evidence["page"] if evidence else None,
        "section": evidence["section"] if evidence else None,
        "media_type": evidence["media_type"] if evidence else None,
        "said_by": claim["said_by"],
        "said_at": claim["said_at"],
        "status": claim["status"],
        "valid_from": claim["valid_from"],
        "valid_until": claim["valid_until"],
        "open_conflicts": [
            {"id": c["id"], "kind": c["kind"], "reason": c["reason"],
             "other": [{"claim_id": o["id"], "statement": o["statement"],
                        "source_id": o["source_id"], "source_title": o["source_title"]}
                       for o in c["other"]]}
            for c in claim["conflicts"]],
    }


def claim_document(claim: ClaimView) -> Document:
    return Document(id=claim["id"], page_content=claim["statement"],
                    metadata=claim_metadata(claim))


class AfterhackRetriever(BaseRetriever):
    """The workspace's current claims for a query, each a Document with its exact quote.

        retriever = AfterhackRetriever(url="http://127.0.0.1:8000", workspace=ws, k=4)
        for doc in retriever.invoke("When is the launch?"):
            print(doc.page_content, doc.metadata["quote"], doc.metadata["source_title"])

    ``mode``: ``hybrid`` (words and meaning, the default), ``text`` or ``vector``.
    ``as_of`` (ISO 8601 or epoch ms): the claims as the memory held them then. ``k`` may
    also be given to ``invoke`` for one call.
    """

    url: str = DEFAULT_URL
    workspace: str
    api_key: SecretStr | None = None
    k: int = Field(default=4, ge=1, le=1000)
    mode: SearchMode = "hybrid"
    as_of: str | int | None = None
    timeout: float = 120.0

    def _key(self) -> str | None:
        return self.api_key.get_secret_value() if self.api_key else None

    def _limit(self, kwargs: dict[str, Any]) -> int:
        k = kwargs.get("k", self.k)
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 1000:
            raise ValueError(f"k must be a whole number from 1 to 1000, not {k!r}")
        return k

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[Document]:
        limit = self._limit(kwargs)
        with Client(self.url, key=self._key(), workspace=self.workspace,
                    timeout=self.timeout) as c:
            found = c.search_claims(query, limit=limit, mode=self.mode, as_of=self.as_of)
            return [claim_document(c.get_claim(hit["id"], as_of=self.as_of))
                    for hit in found["items"]]

    async def _aget_relevant_documents(self, query: str, *,
                                       run_manager: AsyncCallbackManagerForRetrieverRun,
                                       **kwargs: Any) -> list[Document]:
        limit = self._limit(kwargs)
        async with AsyncClient(self.url, key=self._key(), workspace=self.workspace,
                               timeout=self.timeout) as c:
            found = await c.search_claims(query, limit=limit, mode=self.mode,
                                          as_of=self.as_of)
            claims = await asyncio.gather(*(c.get_claim(hit["id"], as_of=self.as_of)
                                            for hit in found["items"]))
            return [claim_document(claim) for claim in claims]


__all__ = ["AfterhackRetriever", "claim_document", "claim_metadata"]
