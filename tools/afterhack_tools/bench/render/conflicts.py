"""The conflicts section: the offline detector on the labelled pairs, and what the checks
cost at ingest and change when a conflict is resolved."""

from __future__ import annotations

from afterhack_tools.bench.records import ConflictQuality, Score, SetQuality, SizeResult
from afterhack_tools.bench.render.table import row, size_head, table


def quality_table(q: ConflictQuality) -> list[str]:
    """The sets' figures as table rows (part, pairs, precision, recall, TP/FP/FN/TN): the
    set whose sides share their wording first, then the freely worded one, the two
    development sets, then the sealed one (its whole only: no part of it is shown apart)."""

    def score(name: str, x: Score) -> str:
        return (f"| {name} | {x['pairs']} | {x['precision']} | {x['recall']} | "
                f"{x['tp']} / {x['fp']} / {x['fn']} / {x['tn']} |")

    rows: list[str] = []
    parts: tuple[tuple[str, SetQuality], ...] = (("", q), ("free wording: ", q["free"]))
    for prefix, part in parts:
        rows += [score(f"{prefix}all pairs", part["all"]),
                 score(f"{prefix}tuned on (dev)", part["dev"]),
                 score(f"{prefix}held out", part["held_out"])]
        rows += [score(f"{prefix}category: {c}", x) for c, x in part["by_category"].items()]
    rows += [score(f"free wording: language: {lang}", x)
             for lang, x in q["free"]["by_lang"].items()]
    for name, dev in (("nouns, verbs and languages", q["dev_set"]),
                      ("second dev set", q["dev_set2"])):
        rows += [score(f"{name}: all pairs (dev)", dev["all"])]
        rows += [score(f"{name}: category: {c}", x) for c, x in dev["by_category"].items()]
        rows += [score(f"{name}: language: {lang}", x) for lang, x in dev["by_lang"].items()]
    s = q["sealed"]
    rows.append(f"| sealed held-out set (never tuned on) | {s['pairs']} | {s['precision']} | "
                f"{s['recall']} | {s['tp']} / {s['fp']} / {s['fn']} / {s['tn']} |")
    return rows


def conflicts_section(q: ConflictQuality, all_sizes: list[SizeResult]) -> list[str]:
    sizes = [s for s in all_sizes if "conflicts" in s]

    def cost(s: SizeResult, with_checks: bool) -> str:
        c = s["conflicts"]["cost"]["with_checks" if with_checks else "without_checks"]
        return (f"{c['claims_per_s']:,}/s ({c['claims_per_s_with_model']:,}/s with model; "
                f"{c['claims']:,} claims, {c['conflicts_raised']} conflicts)")

    out = [
        "## Conflicts",
        "",
        "The offline detector on four labelled sets of sentence pairs: conflict_pairs.py, "
        "whose two sides share their wording, conflict_pairs_free.py, worded freely "
        "(other words for the same subject and attribute, units, German and Chinese), "
        "conflict_pairs_dev.py (an attribute as a noun against a verb, and English, German "
        "and Chinese statements of one fact against each other) and "
        "conflict_pairs_dev2.jsonl (written apart from the others and from the detector, "
        "messages of conversations among its pairs, each read with its speaker as the app "
        "reads it); each has contradictions of every kind and near misses "
        "(tools/afterhack_tools/bench/). The first two were tuned on their dev pairs only, "
        "and the held-out third says how far that generalises; the two development sets "
        "are tuned on whole. The sealed "
        "held-out set (tools/afterhack_tools/bench/sealed/) was written without reading the "
        "detector, its hash committed before it, and is never tuned on: only its totals are "
        "shown. TP / FP / FN / TN count contradictions found, false alarms, misses and near "
        "misses let be. "
        + ("The words two statements do not share were compared by meaning, with the "
           "offline embedding model, as the app's judge does." if q["by_meaning"] else
           "The offline embedding model was not available: by words alone."),
        "",
        *table(["pairs", "count", "precision", "recall", "TP / FP / FN / TN"],
               quality_table(q)),
    ]
    errors = (q["all"]["errors"] + q["free"]["all"]["errors"] + q["dev_set"]["all"]["errors"]
              + q["dev_set2"]["all"]["errors"])
    if errors:
        out += ["Wrong answers: " + "; ".join(errors), ""]
    if sizes:
        out += [
            "Ingest cost: sources alternate between the app (checks on) and a second app "
            "with `AFTERHACK_CONFLICT_CHECKS=false` on the same FalkorDB and workspace; one "
            f"sentence in {sizes[0]['conflicts']['cost']['restate_every']} restates a "
            "workspace claim with another date. Model time (extraction, and the conflict "
            "judge, which the offline detector is) is excluded from claims/s.",
            "",
            *table(size_head([s["claims"] for s in sizes]), [
                row("ingest with conflict checks", [cost(s, True) for s in sizes]),
                row("ingest without them", [cost(s, False) for s in sizes]),
                row("slowdown (without ÷ with), excluding / including model time",
                    [f"{s['conflicts']['cost']['slowdown']}x / "
                     f"{s['conflicts']['cost']['slowdown_with_model']}x" for s in sizes]),
                *([row("correction preview back to back, p50 (÷ the tight-loop floor around "
                       "it, median of rounds)",
                       [f"{s['corrections']['preview_loop']['p50']} ms "
                        f"({s['corrections']['preview_loop_ratio']}x)" if "corrections" in s
                        else "-" for s in sizes])]
                  if any("corrections" in s for s in sizes) else []),
                row("conflicts resolved, decisions flagged, changes outside their regions",
                    [f"{s['conflicts']['collateral']['resolved']}, "
                     f"{s['conflicts']['collateral']['flagged']}, "
                     f"{s['conflicts']['collateral']['changed_outside_region']}"
                     for s in sizes]),
            ]),
        ]
    return out
