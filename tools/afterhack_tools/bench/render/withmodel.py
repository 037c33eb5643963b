"""The section "with a real model": extraction, the agent and the conflict judge against
SmolLM2-135M-Instruct on loopback."""

from __future__ import annotations

from afterhack_tools.bench.records import JudgeScore, RealModelFigures, Summary


def _s(x: Summary) -> str:
    return f"{x['p50']} / {x['p95']} s"


def _score(name: str, s: JudgeScore) -> str:
    return f"| {name} | {s['precision']} | {s['recall']} | {s['tp']} / {s['fp']} / {s['fn']} |"


def with_model_section(res: RealModelFigures) -> list[str]:
    ex, ag, j = res["extraction"], res["agent"], res["judge"]
    dropped = ", ".join(f"{r} {n}" for r, n in ex["dropped"].items() if n) or "none"
    kinds = ", ".join(f"{k} {n}" for k, n in ex["quote_not_found_kinds"].items())
    statuses = ", ".join(f"{k}: {n}" for k, n in ag["statuses"].items())
    answers = ", ".join(f"{k} {n}" for k, n in j["answers"].items())
    return [
        "## With a real model",
        "",
        f"{res['model']} served by the {res['engine']} on loopback, reached through the "
        f"app's gateway and the `openai` SDK (max_tokens {res['max_tokens']}); "
        f"{res['dataset']}, {res['rows']} rows. Took {res['seconds']} s.",
        "",
        "### Extraction",
        "",
        "| sources | claims proposed | kept | dropped by reason | fragments unusable "
        "| invented quotes kept | per source (p50 / p95) | model in it |",
        "|---|---|---|---|---|---|---|---|",
        f"| {ex['sources']} | {ex['proposed']} | {ex['kept']} | {dropped} | "
        f"{ex['failed_fragments']} | **{ex['invented_quotes_kept']}** | "
        f"{_s(ex['seconds_per_source'])} | {_s(ex['model_seconds_per_source'])} |",
        "",
        f"Quotes dropped as not in their fragment, by what the model did (from the examples "
        f"each answer lists): {kinds}.",
        "",
        "### The agent",
        "",
        f"{ag['runs']} runs (the first rows' questions as their tasks, at most "
        f"{res['agent_rounds']} tool rounds each) on the offline model's claims of the same "
        f"texts: answer rate **{ag['answer_rate']}**, {ag['needs_review']} "
        f"ended needs_review; {ag['tool_calls']} tool calls, {ag['malformed_tool_calls']} "
        f"malformed (ignored, with their reason); HTTP answers {statuses}"
        + (f"; {_s(ag['seconds_per_run'])} per run." if ag["seconds_per_run"] else "."),
        "",
        "### The conflict judge",
        "",
        f"{j['pairs']} labelled pairs; {j['asked']} asked of the model (the others are not "
        f"candidates). Its answers: {answers}; {j['overruled']} overruled (the offline "
        f"reading did not allow them); {j['seconds_per_pair']} s per pair asked.",
        "",
        "| | precision | recall | TP / FP / FN |",
        "|---|---|---|---|",
        _score("judge off (the offline detector)", j["off"]),
        _score("judge on (the model, as ingest uses it)", j["on"]),
        _score("the model's own verdicts", j["model_alone"]),
        _score("the model's own verdicts, against the detector", j["model_against_detector"]),
        "",
    ]
