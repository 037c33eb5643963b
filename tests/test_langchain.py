"""AfterhackRetriever against the live app (a real ``afterhack serve``): LangChain's own
standard retriever suite, then the provenance each Document carries."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

from afterhack.client import Client
from afterhack.integrations.langchain import AfterhackRetriever
from tests.support.paths import ROOT
from tests.support.procs import AppProcess
from tests.support.texts import JUNE

PLAN = (f"{JUNE} The launch venue is the Harbour Hall. The launch budget is 40,000 euros. "
        "The launch party starts at seven in the evening.")
FIXED = "The product launch is planned for June 19."


@dataclass(frozen=True)
class Memory:
    url: str
    workspace: str
    plan_id: str
    june_id: str


@pytest.fixture(scope="module")
def memory(running_app: AppProcess) -> Memory:
    """A workspace holding a plan, Markdown notes, and a chat that disputes the budget."""
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("langchain")["id"]
        plan = c.add_source(PLAN, title="Launch plan")
        notes = (ROOT / "examples" / "launch-notes.md").read_bytes()
        c.add_file(notes, "launch-notes.md")
        c.add_conversation([{"speaker": "Ana", "text": "The launch budget is 45,000 euros."}],
                           title="Launch chat")
        june = next(k for k in plan["claims"] if k["statement"] == JUNE)
        assert plan["source"] is not None
        return Memory(running_app.base_url, c.workspace, plan["source"]["id"], june["id"])


class TestAfterhackRetrieverStandard(RetrieversIntegrationTests):
    """LangChain's standard tests for retrievers (langchain-tests), unchanged."""

    @pytest.fixture(autouse=True)
    def _memory(self, memory: Memory) -> None:
        self.memory = memory

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return AfterhackRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"url": self.memory.url, "workspace": self.memory.workspace, "k": 4}

    @property
    def retriever_query_example(self) -> str:
        return "launch"


def _by_statement(docs: list[Document]) -> dict[str, Document]:
    return {d.page_content: d for d in docs}


def test_langchain_documents_carry_claim_source_and_exact_quote(memory: Memory) -> None:
    retriever = AfterhackRetriever(url=memory.url, workspace=memory.workspace, k=10)
    docs = retriever.invoke("launch budget")
    assert docs and all(isinstance(d, Document) for d in docs)
    with Client(memory.url, workspace=memory.workspace) as c:
        for doc in docs:
            meta = doc.metadata
            assert doc.id == meta["claim_id"]
            claim = c.get_claim(meta["claim_id"])
            assert claim["statement"] == doc.page_content
            # The quote is the source's own text, at the offsets given.
            version = c.get_source(meta["source_id"])["versions"][-1]
            assert version["text"][meta["quote_start"]:meta["quote_end"]] == meta["quote"]
            assert meta["status"] == claim["status"]

    found = _by_statement(docs)
    plan = found["The launch budget is 40,000 euros."].metadata
    chat = found["The launch budget is 45,000 euros."].metadata
    assert plan["source_title"] == "Launch plan" and plan["said_by"] is None
    # Who said it and when; and each side names the conflict and the other side.
    assert chat["said_by"] == "Ana" and isinstance(chat["said_at"], int)
    assert chat["source_title"] == "Launch chat"
    [conflict] = plan["open_conflicts"]
    assert [o["claim_id"] for o in conflict["other"]] == [chat["claim_id"]]
    assert [c["id"] for c in chat["open_conflicts"]] == [conflict["id"]]


def test_langchain_documents_name_the_heading_of_a_file(memory: Memory) -> None:
    retriever = AfterhackRetriever(url=memory.url, workspace=memory.workspace, k=3,
                                   mode="text")
    [doc] = [d for d in retriever.invoke("caterer") if "caterer" in d.page_content]
    assert doc.metadata["section"] == "Catering"
    assert doc.metadata["source_title"] == "launch-notes"
    assert doc.metadata["media_type"] == "text/markdown"


def test_langchain_retriever_reads_as_of_a_time(running_app: AppProcess) -> None:
    with Client(running_app.base_url) as c:
        c.workspace = c.create_workspace("langchain as of")["id"]
        june = c.add_source(JUNE, title="Plan")["claims"][0]
        before = int(time.time() * 1000)
        while int(time.time() * 1000) <= before:  # the correction is stamped after it
            pass
        c.apply_preview(c.preview_correction(june["id"], FIXED))
        ws = c.workspace
    now = AfterhackRetriever(url=running_app.base_url, workspace=ws, mode="text")
    then = AfterhackRetriever(url=running_app.base_url, workspace=ws, mode="text", as_of=before)
    assert [d.page_content for d in now.invoke("launch planned")] == [FIXED]
    [old] = then.invoke("launch planned")
    assert (old.page_content, old.metadata["status"]) == (JUNE, "proposed")
    # The async path answers the same.
    [old_async] = asyncio.run(then.ainvoke("launch planned"))
    assert old_async.metadata == old.metadata


def test_langchain_k_is_checked(memory: Memory) -> None:
    retriever = AfterhackRetriever(url=memory.url, workspace=memory.workspace)
    with pytest.raises(ValueError, match="k must be"):
        retriever.invoke("launch", k=0)
    assert len(retriever.invoke("launch", k=2)) == 2
