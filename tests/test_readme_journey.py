"""The README's command-line journey, run as written (bash, from the repository's root, with
the shipped example files) against a real app: a new user's first five minutes."""

from __future__ import annotations

import os
import re
import subprocess

from tests.support.paths import ROOT
from tests.support.procs import AppProcess


def journey() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A first journey from the command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None, "the journey's commands are in a bash block"
    return block.group(1)


def test_the_readme_journey_runs_as_written(running_app: AppProcess) -> None:
    script = journey()
    for name in ("launch-plan.txt", "launch-update.txt"):
        assert f"examples/{name}" in script
        assert (ROOT / "examples" / name).is_file()
    env = {**os.environ, "AFTERHACK_URL": running_app.base_url, "COLUMNS": "200",
           "NO_COLOR": "1"}
    env.pop("AFTERHACK_WORKSPACE", None)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for text in ("The product launch is planned for June 12.",  # ingest
                 "[draft] Plan the launch event",                # ask
                 "decisions flagged needs_review", "Correction applied",  # correct
                 "decision [needs_review] Plan the launch event",  # graph
                 "claim [accepted] The product launch is planned for June 19.",
                 "file launch-notes.md: text/markdown",          # a Markdown file
                 "The caterer for the launch event is Bella Foods.",
                 "under \u201cCatering\u201d",
                 "Conversation Launch chat", "1 conflict raised or joined and open",  # say
                 "unchanged: the memory already holds this text",  # the same file again
                 "1 conflict raised or joined and open",           # the memo that disagrees
                 "Workspace reviewer correction",                # conflicts: where a side is from
                 "Resolution applied",                           # conflicts resolve
                 "Erasure applied"):                             # forget
        assert text in out, text
    first_graph, rest = out.split("Decisions", 1)[1].split("(unchanged", 1)
    # Each decision is printed once by graph.
    assert first_graph.count("decision [needs_review] Plan the launch event") == 1
    # claims launch: what holds the word first, each saying how it was found.
    listed = [line for line in rest.split("Source launch-update", 1)[0].splitlines()
              if re.match(r"[0-9a-f-]{36}  ", line)]
    june = next(i for i, line in enumerate(listed)
                if "The product launch is planned for June 19." in line)
    assert re.search(r"  words(\+meaning)? ", listed[june]), listed
    assert not any("The event budget is 40,000 euros." in line for line in listed[:june])
    # graph --as-of, the last command: the moment before the resolution, the conflict open.
    then = out.rsplit(" as of ", 1)[1]
    assert "Open conflicts" in then and "conflict [open]" in then, then
    assert "claim [accepted] The product launch is planned for June 19." in then, then
