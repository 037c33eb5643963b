"""Search by words and by meaning (docs/rules.md, rule 3): the terms a claim is found by, the BM25
ranking, reciprocal-rank fusion, paraphrases, text without spaces, and the evidence gate for
a claim found by meaning alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from afterhack.llm.embeddings import OfflineEmbedder
from afterhack.model.claims import ClaimSearch
from afterhack.retrieval import hybrid, ranking, search
from afterhack.retrieval.vectors import Vectors
from afterhack.store.client import Graph
from tests.support.api import add_source, claim_named, run_agent
from tests.support.fakellm import FakeLLM, Reply
from tests.support.graphs import RecordingGraph, with_graph
from tests.support.texts import JUNE

ROOT = Path(__file__).resolve().parent.parent

PLAN = (JUNE + " The venue is Hall 7 in Berlin. Catering is booked for 200 guests. "
        "Anna Schmidt leads the marketing team.")


def _search(client: TestClient, ws: str, q: str, mode: str = "hybrid") -> dict[str, Any]:
    r = client.get(f"/api/workspaces/{ws}/claims", params={"q": q, "mode": mode})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_claim_terms_fold_plurals_and_drop_stopwords() -> None:
    assert search.claim_terms("The launches of the Products are planned.") == [
        "launch", "product", "planned"]
    assert search.plan("launch date for the product").terms == ("launch", "product")
    assert search.claim_terms("Arthur's Magazine (1844–1846)") == ["arthur", "magazine", "1844",
                                                                 "1846"]


def test_unspaced_scripts_are_split_into_characters_and_pairs() -> None:
    assert search.claim_terms("产品发布") == ["产", "品", "发", "布", "产品", "品发", "发布"]
    # Mixed with Latin words and emoji, each part keeps its own rule.
    assert search.claim_terms("Q3的产品🚀launch") == ["q3", "的", "产", "品", "的产", "产品",
                                                   "launch"]


def test_fusion_rewards_agreement_and_keeps_order_on_ties() -> None:
    assert ranking.fuse([["a", "b", "c"], ["b"]]) == ["b", "a", "c"]
    assert ranking.fuse([["x", "y"], ["y", "x"]]) == ["x", "y"]
    assert ranking.fuse([["x", "y"], []]) == ["x", "y"]
    assert ranking.fuse([[], ["q", "r"]]) == ["q", "r"]


def test_rare_terms_bring_claims_in_within_the_budget() -> None:
    counts = {"common": 1000, "rare": 3, "mid": 50, "absent": 0}
    assert ranking.via_terms(counts, cap=1000) == ["rare", "mid"]
    assert ranking.via_terms(counts, cap=1000, budget=10) == ["rare"]
    # Nothing rarer held: the common term still finds something.
    assert ranking.via_terms({"common": 1000}, cap=1000) == ["common"]
    assert ranking.idf(100, 1) > ranking.idf(100, 50) > 0


def test_bm25_prefers_the_rarer_word(client: TestClient, ws: str) -> None:
    add_source(client, ws, "The launch is in Berlin. The launch is soon. The launch is big. "
               "Zeppelins fly over the launch.")
    items = _search(client, ws, "launch zeppelins", "text")["items"]
    assert items[0]["statement"] == "Zeppelins fly over the launch."
    assert len(items) == 4 and all(i["found_by"]["text"] for i in items)


def test_paraphrase_is_found_by_meaning(client: TestClient, ws: str) -> None:
    add_source(client, ws, PLAN)
    # No word of the question is in the claim: words alone find nothing.
    assert _search(client, ws, "When do we ship?", "text")["items"] == []
    for mode in ("vector", "hybrid"):
        body = _search(client, ws, "When do we ship?", mode)
        assert body["items"][0]["statement"] == JUNE, mode
        assert body["items"][0]["found_by"]["text"] is False
        assert body["search"]["vectors"] == {"state": "ready", "pending": 0}
        assert body["search"]["embedding_ms"] > 0


def test_a_query_is_embedded_only_for_a_space_that_is_ready(client: TestClient, ws: str,
                                                            falkordb: str) -> None:
    # A search embeds its query beside the space's read only where the space was ready at
    # the last search; a workspace whose vectors are another model's has its queries left
    # alone (they would wait on the model for nothing).
    add_source(client, ws, PLAN)
    for _ in range(2):
        body = _search(client, ws, "When do we ship?")
        assert body["search"]["vectors"]["state"] == "ready"
        assert body["search"]["embedding_ms"] > 0
        assert body["items"][0]["statement"] == JUNE

    async def other_model(g: Graph) -> None:
        await g.write("MATCH (w:Workspace) SET w.embedding_model = 'another-model'")

    with_graph(falkordb, ws, other_model)
    # The search that finds the space changed had already embedded its query (counted);
    # the next ones do not embed at all.
    first = _search(client, ws, "When do we ship?")["search"]
    assert first["vectors"]["state"] == "stale" and first["embedding_ms"] > 0
    for _ in range(2):
        after = _search(client, ws, "When do we ship?")
        assert after["search"]["vectors"]["state"] == "stale"
        assert after["search"]["embedding_ms"] is None
        assert after["items"] == []  # no word of the question is in a claim


def test_far_questions_find_nothing_by_meaning(client: TestClient, ws: str) -> None:
    add_source(client, ws, PLAN)
    assert _search(client, ws, "What is the weather on Mars?")["items"] == []


def test_chinese_is_found_without_spaces_between_words(client: TestClient, ws: str) -> None:
    add_source(client, ws, "我们的产品将于6月12日发布🚀。会场在柏林的7号厅。" + PLAN)
    items = _search(client, ws, "产品什么时候发布", "text")["items"]
    assert items[0]["statement"] == "我们的产品将于6月12日发布🚀。"
    # e5 is multilingual: the English question finds the Chinese sentence by meaning too.
    ids = [i["statement"] for i in _search(client, ws, "会场在哪里", "hybrid")["items"]]
    assert ids[0] == "会场在柏林的7号厅。"


def test_superseded_claims_are_never_found_by_meaning(client: TestClient, ws: str) -> None:
    claim = claim_named(add_source(client, ws, PLAN), JUNE)
    pv = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections/preview",
                     json={"statement": "The product launch moved to July 3."}).json()
    r = client.post(f"/api/workspaces/{ws}/claims/{claim['id']}/corrections",
                    json={"statement": "The product launch moved to July 3.",
                          "claim_revision": pv["revisions"]["claim_revision"],
                          "impact_token": pv["revisions"]["impact_token"]})
    assert r.status_code == 201, r.text
    for mode in ("vector", "hybrid", "text"):
        found = [i["statement"] for i in _search(client, ws, "When do we ship?", mode)["items"]]
        assert JUNE not in found, mode
    # The replacement is searchable by its words at once.
    assert [i["statement"] for i in _search(client, ws, "July", "text")["items"]] == [
        "The product launch moved to July 3."]


def test_unknown_mode_is_a_422(client: TestClient, ws: str) -> None:
    r = client.get(f"/api/workspaces/{ws}/claims", params={"q": "x", "mode": "fuzzy"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_request"


def test_offline_agent_answers_a_question_in_other_words(client: TestClient, ws: str) -> None:
    launch = claim_named(add_source(client, ws, PLAN), JUNE)
    view = run_agent(client, ws, "When do we ship?")
    d = view["decision"]
    assert d["status"] == "draft"
    assert [c["id"] for p in d["premises"] for c in p["claims"]] == [launch["id"]]
    trail = view["handoffs"][0]
    assert launch["id"] in trail["searched_claim_ids"]
    assert launch["id"] in trail["retrieved_claim_ids"]


@pytest.mark.parametrize("retrieve", [False, True])
def test_a_claim_found_by_meaning_alone_must_be_retrieved_before_it_is_cited(
        gateway_client: tuple[TestClient, FakeLLM], retrieve: bool) -> None:
    client, llm = gateway_client
    ws = client.post("/api/workspaces", json={"name": "gate"}).json()["id"]
    llm.script(Reply.json({"claims": [{"statement": JUNE, "evidence_quote": JUNE}]}))
    launch = add_source(client, ws, JUNE)["claims"][0]
    llm.reset()
    turns = [Reply.tools(("search_claims", {"query": "When do we ship?"}))]
    if retrieve:
        turns.append(Reply.tools(("get_claim_sources", {"claim_ids": [launch["id"]]})))
    turns.append(Reply.tools(("submit_proposal", {"answer": "June 12",
                                                  "claim_ids": [launch["id"]]})))
    coordinator = {"title": "Ship date", "summary": "June 12", "claim_ids": [launch["id"]],
                   "premises": [], "actions": []}
    llm.script(*turns, Reply.json(coordinator))
    view = run_agent(client, ws, "When do we ship?")
    search_call = view["handoffs"][0]["tool_calls"][0]
    # Words alone would not have found it: this hit came from the vector index.
    assert search_call["claim_ids"] == [launch["id"]]
    assert client.get(f"/api/workspaces/{ws}/claims",
                      params={"q": "When do we ship?", "mode": "text"}).json()["items"] == []
    d = view["decision"]
    if retrieve:
        assert d["status"] == "draft"
        assert [c["id"] for p in d["premises"] for c in p["claims"]] == [launch["id"]]
    else:
        assert d["status"] == "needs_review"
        assert d["premises"] == []
        assert view["handoffs"][0]["dropped"] == [{"claim_id": launch["id"],
                                                   "reason": "not_retrieved"}]


def _recorded_search(falkordb: str, ws: str, q: str, early: int | None = None
                     ) -> tuple[ClaimSearch, list[list[str]]]:
    """A hybrid search in process, and the hits of each of its neighbour reads; ``early``
    overrides how many word hits have their neighbours read early."""
    seen: list[tuple[str, dict[str, Any]]] = []

    async def go(g: Graph) -> ClaimSearch:
        return await hybrid.search_claims(RecordingGraph(g.store, g.name, seen),
                                          hybrid.ClaimQuery(q, ["proposed", "accepted"]),
                                          Vectors(OfflineEmbedder()))

    with pytest.MonkeyPatch.context() as mp:
        if early is not None:
            mp.setattr(hybrid, "_EARLY_NEIGHBOURS", early)
        found = with_graph(falkordb, ws, go)
    return found, [p["hits"] for cypher, p in seen if "$hits" in cypher]


def test_first_hits_neighbours_are_read_while_the_query_is_embedded(
        client: TestClient, ws: str, falkordb: str) -> None:
    # The word ranking's hits have their neighbours read before the kNN returns: when the
    # fused first hits are among them (here, found by words and meaning alike), no read of
    # neighbours follows, and the answer is the one a late read gives.
    claims = add_source(client, ws, JUNE + " Catering is booked for 200 guests. The launch venue "
                        "is Hall 7. Anna Schmidt leads the marketing team. The launch party is on "
                        "June 13. The weather in Berlin is mild. The launch budget is ten thousand "
                        "euros.")["claims"]
    ids = {c["statement"]: c["id"] for c in claims}
    # No claim holds every word asked ("plans" is in none): the first hits bring neighbours.
    early, reads = _recorded_search(falkordb, ws, "product launch plans")
    late, late_reads = _recorded_search(falkordb, ws, "product launch plans", early=0)
    assert early["items"] == late["items"]
    assert early["items"][0]["statement"] == JUNE
    assert any(i["found_by"]["neighbour_of"] for i in early["items"])
    # Early: one read, for every word hit. Late: one read, for the three first hits.
    [first_hits] = late_reads
    [word_hits] = reads
    assert len(first_hits) == 3 and set(first_hits) < set(word_hits)
    # A first hit found by meaning alone has its neighbours read after the kNN.
    meaning, reads = _recorded_search(falkordb, ws, "When do we ship?")
    assert meaning["items"][0]["statement"] == JUNE
    assert meaning["items"][0]["found_by"]["text"] is False
    assert [ids[JUNE] in hits for hits in reads] == [True]
    assert meaning["items"][1]["found_by"]["neighbour_of"] == ids[JUNE]


_ASCII_TEXT = st.text(alphabet=st.characters(max_codepoint=127), max_size=80)


@settings(max_examples=400, deadline=None)
@given(_ASCII_TEXT)
def test_the_ascii_shortcut_finds_the_words_the_pattern_finds(text: str) -> None:
    folded = text.casefold()
    assert search.words(folded) == search._TOKEN.findall(folded)


def test_words_outside_ascii_still_come_from_the_pattern() -> None:
    assert search.words("café über straße") == ["café", "über", "straße"]
    assert search.claim_terms("Der Start ist am 12. Juni in Zürich") == [
        "der", "start", "ist", "12", "juni", "zürich"]


# A workspace a new user makes: the README's launch plan, a committee's minutes whose first
# line is a heading, and a note about the venue.
LAUNCH_PLAN = (ROOT / "examples" / "launch-plan.txt").read_text(encoding="utf-8")
MINUTES = ("Steering committee minutes, 10 March.\n\nThe committee moved the press day to "
           "5 June. Marketing owns the press kit.")
VENUE = "Venue notes.\n\nThe hall holds 300 guests. Parking is free for speakers."


def _statements(body: dict[str, Any]) -> list[str]:
    return [i["statement"] for i in body["items"]]


def _holds(statement: str, words: str) -> bool:
    return set(search.plan(words).terms) <= set(search.claim_terms(statement))


def test_claims_holding_the_words_come_first_and_unrelated_ones_stay_out(
        client: TestClient, ws: str) -> None:
    for title, text in (("launch-plan", LAUNCH_PLAN), ("minutes", MINUTES), ("venue", VENUE)):
        add_source(client, ws, text, title=title)
    for q in ("press kit", "launch", "launch event", "guests"):
        found = _statements(_search(client, ws, q))
        holding = [s for s in found if _holds(s, q)]
        assert holding and found[: len(holding)] == holding, (q, found)
    # The heading of the minutes shares no word with "press kit", and is no nearer in meaning
    # than the claim that holds both words; a claim holding one of them follows.
    assert _statements(_search(client, ws, "press kit")) == [
        "Marketing owns the press kit.", "The committee moved the press day to 5 June."]
    launch = _statements(_search(client, ws, "launch"))
    date, budget = "The product launch is planned for June 12.", "The event budget is 40,000 euros."
    assert date in launch and (budget not in launch or launch.index(date) < launch.index(budget))


def test_each_hit_says_how_it_was_found(client: TestClient, ws: str) -> None:
    add_source(client, ws, PLAN)
    seen = set()
    for q, mode in (("When do we ship?", "hybrid"), ("launch", "hybrid"), ("launch", "text"),
                    ("When do we ship?", "vector"), ("Berlin hall", "hybrid")):
        for hit in _search(client, ws, q, mode)["items"]:
            how = hit["found_by"]
            meaning = how["vector_distance"] is not None
            expected = ("both" if meaning else "words") if how["text"] else (
                "meaning" if meaning else "neighbour")
            assert how["match"] == expected, (q, mode, hit)
            assert (how["match"] == "neighbour") <= (how["neighbour_of"] is not None)
            seen.add(how["match"])
    # A question no claim holds the words of: its nearest claim by meaning, then the claims
    # quoted next to it in its source.
    first, after = _search(client, ws, "When do we ship?")["items"][:2]
    assert first["statement"] == JUNE and first["found_by"]["match"] == "meaning"
    assert after["found_by"] == {"match": "neighbour", "text": False, "vector_distance": None,
                                 "neighbour_of": first["id"]}
    assert seen == {"words", "meaning", "both", "neighbour"}


def test_a_word_most_claims_hold_is_common() -> None:
    cap = 1000
    # In a small workspace no word is common, however many of its claims hold it.
    assert not ranking.is_common(4, 7, cap)
    assert not ranking.is_common(10, 12, cap)
    # Past a few claims, a word held by more than a quarter of them is.
    assert ranking.is_common(30, 100, cap) and not ranking.is_common(20, 100, cap)
    assert ranking.is_common(cap, 10**6, cap)  # counted up to the cap: at least that many
    counts = {"launch": 60, "berlin": 2, "zeppelin": 0}
    assert ranking.distinctive(["launch", "berlin", "zeppelin"], 100, counts, cap) == [
        "berlin", "zeppelin"]


def test_a_search_whose_words_are_common_still_brings_neighbours(client: TestClient,
                                                                  ws: str) -> None:
    # Alone in its workspace, the plan's launch claim is what "launch" names: it is answered
    # without the claims quoted next to it. Once most claims hold the word, a search for it
    # is answered as any question is: its first hits bring their neighbours.
    add_source(client, ws, PLAN)
    assert _statements(_search(client, ws, "launch", "text")) == [JUNE]
    for i in range(12):
        add_source(client, ws, f"Launch checklist item {i} is signed off by the launch team.",
                   title=f"Checklist {i}")
    hits = _search(client, ws, "launch", "text")["items"]
    assert hits[0]["statement"] == JUNE
    assert hits[1]["statement"] == "The venue is Hall 7 in Berlin."
    assert hits[1]["found_by"]["match"] == "neighbour"
    assert len(hits) == 14
