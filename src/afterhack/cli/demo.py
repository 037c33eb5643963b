"""``afterhack demo``: the whole journey on a fresh workspace, printed as it happens: a
correction repairs the chain of because, then two memos disagree about the launch date and a
reviewer settles it.

The real app runs in this process (uvicorn on a free loopback port, the embedded FalkorDB
under its own data dir, the offline model), and the journey drives it through
``afterhack.client`` exactly as a user's script would. Every step checks what it shows, so
the demo exits non-zero if the product ever stops doing what it says.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TypeVar

import uvicorn
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.rule import Rule

from afterhack.app import create_app
from afterhack.cli import console as show
from afterhack.client import ApiError, Client
from afterhack.config import Settings
from afterhack.model.decisions import DecisionView
from afterhack.model.runs import RunView
from afterhack.runtime.embedded import free_loopback_port

SOURCE_TITLE = "Launch plan"
SOURCE_TEXT = ("The product launch is planned for June 12. "
               "The keynote speaker is Dana Reyes.")
WRONG = "The product launch is planned for June 12."
RIGHT = "The product launch is planned for June 19."
PLAN_TASK = "Plan the launch event"
QUESTION = "When is the launch?"
MARCH_MEMO = ("Launch planning, March. The product launch is planned for June 12. "
              "The launch venue is the Grand Hotel.")
APRIL_MEMO = ("Launch update, April. The launch moves to June 19. "
              "The keynote speaker is Maria Lopez.")
MARCH_DATE = "The product launch is planned for June 12."
APRIL_DATE = "The launch moves to June 19."
_STEPS = 14
T = TypeVar("T")


class DemoFailed(Exception):
    """Raised when the product did not do what the journey shows it doing."""


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise DemoFailed(what)


def _present(value: T | None, what: str) -> T:
    """``value``, which the journey goes on with: DemoFailed when the product gave none."""
    if value is None:
        raise DemoFailed(what)
    return value


def _decision(run: RunView) -> DecisionView:
    return _present(run["decision"], f"the run of {run['run']['task']!r} made no decision")


@contextmanager
def serve_in_thread(data_dir: Path) -> Iterator[str]:
    """The app on a free loopback port in this process; yields its base URL."""
    port = free_loopback_port()
    # The demo is hermetic: its own embedded FalkorDB, the offline model, no keys, no .env.
    settings = Settings(_env_file=None, data_dir=data_dir, falkordb_url=None,  # type: ignore[call-arg]
                        openai_base_url=None, admin_key=None, require_keys=False,
                        host="127.0.0.1", port=port)
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="afterhack-demo-server", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise DemoFailed("the app did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)


class _Journey:
    def __init__(self, out: Console) -> None:
        self.out = out
        self.progress = Progress(SpinnerColumn(), TextColumn("[bold]{task.description}"),
                                 BarColumn(), MofNCompleteColumn(), console=out, transient=True)
        self.task = self.progress.add_task("afterhack demo", total=_STEPS)

    @contextmanager
    def step(self, description: str) -> Iterator[None]:
        self.progress.update(self.task, description=description)
        self.out.print(Rule(f"[bold]{description}", align="left"))
        yield
        self.progress.advance(self.task)


def journey(c: Client, j: _Journey) -> None:
    out = j.out
    with j.step("1. Create a fresh workspace"):
        ws = c.create_workspace("afterhack demo")
        c.workspace = ws["id"]
        out.print(f"workspace {ws['name']!r} ({ws['id']})")

    with j.step("2. Add a source; claims are kept only with an exact quote"):
        added = c.add_source(SOURCE_TEXT, title=SOURCE_TITLE)
        out.print(show.source_summary(added))
        wrong = next((x for x in added["claims"] if x["statement"] == WRONG), None)
        _check(wrong is not None, "the launch date claim was not extracted")
        assert wrong is not None
        out.print(show.claim_card(c.get_claim(wrong["id"]), "Extracted claim"))

    with j.step(f"3. Ask the agent: {PLAN_TASK!r}"):
        run = c.run_agent(PLAN_TASK)
        decision, actions = _decision(run), run["actions"]
        out.print(show.run_view(run))
        cited = [x["id"] for p in decision["premises"] for x in p["claims"]]
        _check(wrong["id"] in cited and len(actions) == 1,
               "the decision does not cite the claim with one action")

    with j.step(f"4. Preview the correction: {RIGHT!r}"):
        preview = c.preview_correction(wrong["id"], RIGHT)
        out.print(show.impact_view(preview))
        _check([f["decision_id"] for f in preview["flag"]] == [decision["id"]],
               "the preview does not flag the decision")

    with j.step("5. Apply it with the preview's revisions"):
        applied = c.apply_preview(preview, reason="The venue moved the date.")
        out.print(show.correction_view(applied))
        _check(applied["status"] == "applied", "the correction was not applied")

    with j.step("6. What rested on the mistake is flagged and held"):
        flagged = c.get_decision(decision["id"])
        held = c.get_action(actions[0]["id"])
        out.print(show.decision_view(flagged, [held]))
        out.print(f"decision is {flagged['status']}; action is {held['status']} "
                  f"(it was {held.get('held_from')})")
        _check(flagged["status"] == "needs_review" and held["status"] == "held",
               "the decision was not flagged or the action not held")

    with j.step(f"7. A fresh run: {QUESTION!r}"):
        fresh = c.run_agent(QUESTION)
        out.print(show.run_view(fresh))
        replacement = _present(applied["replacement"], "the correction wrote no claim")
        cited = [x["id"] for p in _decision(fresh)["premises"] for x in p["claims"]]
        _check(cited == [replacement["id"]], "the fresh run does not cite the correction")
        out.print(show.claim_card(c.get_claim(replacement["id"]), "It cites", "green"))

    with j.step("8. The graph now"):
        out.print(show.graph_tree(c.graph(), "Workspace graph"))

    two_memos(c, j)


def two_memos(c: Client, j: _Journey) -> None:
    """Two memos disagree: the memory says so, a run does not pick a side, a reviewer
    keeps one, and exactly what rested on the other is flagged."""
    out = j.out
    with j.step("9. A new workspace; the March memo; plan the launch"):
        c.workspace = c.create_workspace("two memos")["id"]
        march = c.add_source(MARCH_MEMO, title="March memo")
        out.print(show.source_summary(march))
        plan = c.run_agent(PLAN_TASK)
        out.print(show.run_view(plan))
        _check(_decision(plan)["status"] == "draft" and len(plan["actions"]) == 1,
               "the plan was not written with its action")

    with j.step("10. The April memo: the sources disagree"):
        april = c.add_source(APRIL_MEMO, title="April memo")
        out.print(show.source_summary(april))
        _check(april["status"] != "preview", "the April memo was not added")
        assert april["status"] != "preview"
        dates = [k for k in april["conflicts"]
                 if {x["statement"] for x in show.claims_of(k)} == {MARCH_DATE, APRIL_DATE}]
        _check(len(dates) == 1, "no conflict was raised between the two launch dates")
        conflict = dates[0]

    with j.step(f"11. Ask again: {QUESTION!r}"):
        ask = c.run_agent(QUESTION)
        out.print(show.run_view(ask))
        reason = _decision(ask)["review_reason"]
        _check(_decision(ask)["status"] == "needs_review" and not ask["actions"]
               and reason is not None and reason["type"] == "sources_disagree",
               "the run picked a side instead of asking a reviewer")
        out.print("The run does not pick a side: the decision is needs_review, it cites both "
                  "memos, and no action is proposed.")

    keep = next(x["id"] for x in show.claims_of(conflict) if x["statement"] == APRIL_DATE)
    with j.step("12. Preview keeping the April date"):
        preview = c.preview_conflict_resolution(conflict["id"], keep=keep)
        out.print(show.resolution_preview_view(preview))
        _check([f["decision_id"] for f in preview["flag"]] == [_decision(plan)["id"]],
               "the preview does not flag the plan made on the March date")

    with j.step("13. Resolve it; a fresh run cites June 19 only"):
        done = c.apply_resolution(preview, reason="The April memo is the latest word.")
        out.print(show.resolution_view(done))
        held = c.get_action(plan["actions"][0]["id"])
        _check(done["status"] == "applied" and held["status"] == "held",
               "the resolution did not hold the plan's action")
        fresh = c.run_agent(QUESTION)
        out.print(show.run_view(fresh))
        cited = {x["statement"] for p in _decision(fresh)["premises"] for x in p["claims"]}
        _check(APRIL_DATE in cited and MARCH_DATE not in cited
               and _decision(fresh)["status"] == "draft",
               "the fresh run does not cite the date that was kept")
        out.print(f"plan decision is {c.get_decision(_decision(plan)['id'])['status']}; "
                  f"its action is {held['status']}")


def run_demo(data_dir: Path | None = None, out: Console | None = None) -> int:
    out = out or Console()
    with ExitStack() as stack:
        if data_dir is None:
            data_dir = Path(stack.enter_context(
                tempfile.TemporaryDirectory(prefix="afterhack-demo-")))
        try:
            j = _Journey(out)
            stack.enter_context(j.progress)
            with j.step("0. Start FalkorDB (embedded) and the app (offline model)"):
                url = stack.enter_context(serve_in_thread(data_dir))
                out.print(f"app at {url}, data under {data_dir}")
            with Client(url) as c:
                journey(c, j)
        except (DemoFailed, ApiError) as exc:
            out.print(f"[bold red]demo failed:[/] {exc}")
            return 1
    out.print("[bold green]The chain of because was repaired, and the memory said when its "
              "sources disagreed.[/]")
    return 0
