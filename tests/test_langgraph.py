"""AfterhackStore against the live app: a LangGraph BaseStore whose items are sources with
claims, found by meaning and filtered by value, sync and async; and the example agent."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langgraph.store.base import BaseStore, Item, SearchItem

from afterhack.client import Client
from afterhack.integrations.itemtext import item_text, item_value
from afterhack.integrations.langgraph import DELETED, AfterhackStore
from tests.support.paths import ROOT
from tests.support.procs import AppProcess

ANA = ("memories", "ana")
COFFEE = "Ana drinks her coffee black."
MILK = "Ana drinks her coffee with milk."


@pytest.fixture
def store(running_app: AppProcess) -> Iterator[AfterhackStore]:
    with Client(running_app.base_url) as c:
        ws = c.create_workspace("langgraph")["id"]
    yield AfterhackStore(url=running_app.base_url, workspace=ws)


def _claims_of(c: Client, source_id: str, statuses: list[str]) -> dict[str, str]:
    found = c.search_claims(status=statuses, limit=1000)["items"]
    return {k["statement"]: k["status"] for k in found if k["source_id"] == source_id}


def test_langgraph_store_keeps_an_item_as_a_source_with_quoted_claims(
        store: AfterhackStore) -> None:
    assert isinstance(store, BaseStore)
    store.put(ANA, "coffee", {"text": COFFEE, "cups": 2})
    item = store.get(ANA, "coffee")
    assert isinstance(item, Item)
    assert (item.namespace, item.key, item.value) == (ANA, "coffee", {"text": COFFEE, "cups": 2})

    source_id = store.source_id(ANA, "coffee")
    assert source_id is not None
    with Client(store.url, workspace=store.workspace) as c:
        source = c.get_source(source_id)
        assert (source["origin_type"], source["latest_version"]) == ("langgraph", 1)
        text = source["versions"][-1]["text"]
        [claim] = [c.get_claim(k["id"]) for k in c.search_claims("coffee")["items"]
                   if k["source_id"] == source_id]
        assert claim["statement"] == COFFEE
        assert text[claim["quote_start"]:claim["quote_end"]] == claim["evidence_quote"] == COFFEE

        # The same value again writes nothing; a new one is a new version of the source,
        # and the claim it no longer holds is retired.
        store.put(ANA, "coffee", {"text": COFFEE, "cups": 2})
        assert c.get_source(source_id)["latest_version"] == 1
        store.put(ANA, "coffee", {"text": MILK, "cups": 3})
        assert c.get_source(source_id)["latest_version"] == 2
        assert _claims_of(c, source_id, ["proposed"]) == {MILK: "proposed"}
        assert COFFEE in _claims_of(c, source_id, ["superseded", "rejected"])
    again = store.get(ANA, "coffee")
    assert again is not None and again.value == {"text": MILK, "cups": 3}
    assert again.created_at == item.created_at and again.updated_at > item.updated_at


def test_langgraph_store_searches_by_meaning_and_filter(store: AfterhackStore) -> None:
    store.put(ANA, "coffee", {"text": COFFEE, "cups": 2})
    store.put(ANA, "city", {"text": "Ana lives in Lisbon.", "cups": 0})
    store.put(("memories", "ben"), "city", {"text": "Ben lives in Porto.", "cups": 5})
    store.put(ANA, "quiet", {"text": "Ana keeps a quiet note."}, index=False)

    [hit] = store.search(ANA, query="coffee")
    assert isinstance(hit, SearchItem) and hit.key == "coffee"
    # Both cities, from either namespace under the prefix; none from elsewhere.
    found = store.search(("memories",), query="Where does someone live?")
    assert {(h.namespace, h.key) for h in found} >= {(ANA, "city"), (("memories", "ben"), "city")}
    assert store.search(("other",), query="coffee") == []
    # Filters on the values, with and without a query.
    assert [h.key for h in store.search(("memories",), filter={"cups": {"$gte": 2}})] == [
        "coffee", "city"]
    assert [h.namespace for h in store.search(("memories",), filter={"cups": 5})] == [
        ("memories", "ben")]
    assert [h.key for h in store.search(ANA, query="lives", filter={"cups": {"$lt": 1}})] == [
        "city"]
    # Kept without claims: listed, never found by its words.
    assert "quiet" in [h.key for h in store.search(ANA, limit=10)]
    assert "quiet" not in [h.key for h in store.search(ANA, query="quiet note")]
    assert [h.key for h in store.search(ANA, limit=1, offset=1)] == ["city"]

    assert store.list_namespaces() == [ANA, ("memories", "ben")]
    assert store.list_namespaces(prefix=("memories",), max_depth=1) == [("memories",)]
    assert store.list_namespaces(suffix=("ben",)) == [("memories", "ben")]
    assert store.list_namespaces(prefix=("memories", "*")) == [ANA, ("memories", "ben")]


async def test_langgraph_store_async_and_a_second_store_on_the_workspace(
        store: AfterhackStore) -> None:
    await store.aput(ANA, "coffee", {"text": COFFEE})
    got = await store.aget(ANA, "coffee")
    assert got is not None and got.value == {"text": COFFEE}
    # Another process's store finds what this one put, and adds versions to the same source.
    other = AfterhackStore(url=store.url, workspace=store.workspace)
    assert [h.key for h in await other.asearch(ANA, query="coffee")] == ["coffee"]
    await other.aput(ANA, "coffee", {"text": MILK})
    assert other.source_id(ANA, "coffee") == store.source_id(ANA, "coffee")
    latest = await store.aget(ANA, "coffee")
    assert latest is not None and latest.value == {"text": MILK}
    assert await store.alist_namespaces() == [ANA]
    assert await store.aget(ANA, "missing") is None


def test_langgraph_delete_erases_the_items_source(store: AfterhackStore) -> None:
    store.put(ANA, "coffee", {"text": COFFEE})
    store.put(ANA, "coffee", {"text": MILK})
    store.put(ANA, "city", {"text": "Ana lives in Lisbon."})
    source_id = store.source_id(ANA, "coffee")
    assert source_id is not None
    store.delete(ANA, "coffee")
    assert store.get(ANA, "coffee") is None
    assert [h.key for h in store.search(ANA)] == ["city"]
    assert store.search(ANA, query="coffee") == []
    with Client(store.url, workspace=store.workspace) as c:
        # Every version's words are gone, and so are the claims that quoted them.
        versions = c.get_source(source_id)["versions"]
        assert len(versions) == 2 and not any("coffee" in v["text"] for v in versions)
        assert _claims_of(c, source_id, ["proposed", "superseded", "rejected"]) == {}
        [erasure] = c.list_erasures()["items"]
        assert (erasure["status"], erasure["target"]["source_id"], erasure["reason"]) == (
            "applied", source_id, DELETED)
    store.delete(ANA, "coffee")  # deleting what is gone erases nothing more
    store.delete(ANA, "never-put")
    with Client(store.url, workspace=store.workspace) as c:
        assert c.list_erasures()["total"] == 1
    # A namespace whose only item went is no longer listed; a key put again is back.
    store.put(("memories", "ben"), "tea", {"text": "Ben drinks green tea."})
    store.delete(("memories", "ben"), "tea")
    assert store.list_namespaces() == [ANA]
    store.put(ANA, "coffee", {"text": COFFEE})
    back = store.get(ANA, "coffee")
    assert back is not None and back.value == {"text": COFFEE}
    assert store.source_id(ANA, "coffee") == source_id


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                          allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


@given(st.dictionaries(st.text(), _JSON, max_size=5))
def test_langgraph_item_text_reads_back_as_the_value(value: dict[str, Any]) -> None:
    assert item_value(item_text(value)) == value


def test_langgraph_item_text_is_for_reading() -> None:
    assert item_text({"text": COFFEE, "cups": 2}) == f"## text\n\n{COFFEE}\n\n## cups\n\n2"
    # A string that reads as JSON, or could start another field, is written as JSON.
    assert item_text({"n": "2"}) == '## n\n\n"2"'
    assert item_value(item_text({"t": "a\n## b"})) == {"t": "a\n## b"}
    with pytest.raises(ValueError):
        item_text({"x": float("nan")})


def test_langgraph_example_agent_remembers_across_threads(running_app: AppProcess) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "langgraph_agent.py"),
                          "--url", running_app.base_url], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "[tuesday] agent: You told me: Ana's flight to Lisbon leaves at 9 am on Friday." \
        in out
    assert "quotes \"Ana's flight to Lisbon leaves at 9 am on Friday.\"" in out
