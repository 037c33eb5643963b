"""The retrieval section: the memory's search and its agent runs on HaluEval QA, beside a
plain BM25."""

from __future__ import annotations

from afterhack_tools.bench.records import RetrievalFigures


def retrieval_section(res: RetrievalFigures) -> list[str]:
    head = "| ranking | hit@1 | hit@5 | hit@10 | own text @5 / @10 | p50 latency |"
    lines = [
        "## Retrieval (HaluEval QA)",
        "",
        f"{res['rows']} questions, {res['ingest']['sources']} knowledge texts ingested through "
        f"the API with the offline model ({res['ingest']['claims']} claims); "
        f"{res['answerable']} questions have a claim carrying their answer (the ceiling). "
        "A hit is a claim of the question's own text that contains the right answer's words "
        "(tools/afterhack_tools/bench/halueval.py).",
        "",
        "The last column but one is the looser reading: any claim of the question's own text "
        "in the first 5 / 10.",
        "",
        head, "|---|---|---|---|---|---|",
    ]
    names = {"text": "`GET /claims?q=&mode=text` (words, BM25)",
             "vector": "`GET /claims?q=&mode=vector` (meaning)",
             "hybrid": "`GET /claims?q=&mode=hybrid` (fused, no neighbours)",
             "default": "`GET /claims?q=` as it answers by default"}
    for mode, a in res["api"].items():
        lines.append(f"| {names.get(mode, mode)} | {a['hit@1']} | {a['hit@5']} | "
                     f"{a['hit@10']} | {a['own_text@5']} / {a['own_text@10']} | "
                     f"{a['latency']['p50']:.2f} ms |")
    b = res["bm25"]
    lines.append(f"| plain BM25 (reference) | {b['hit@1']} | {b['hit@5']} | {b['hit@10']} | "
                 "| |")
    ag = res["agent"]
    lines += ["", f"Agent runs: answer rate {ag['answer_rate']} over {ag['runs']} runs "
                  f"({ag['needs_review']} needs_review), wall p50 {ag['wall']['p50']:.1f} ms. "
                  f"Ingest {res['ingest']['wall_s']} s (model {res['ingest']['model_s']} s), "
                  f"waiting for vectors {res['ingest']['vector_wait_s']} s.", ""]
    return lines
