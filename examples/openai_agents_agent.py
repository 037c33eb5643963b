"""An OpenAI Agents SDK agent answering from the memory through its function tools.

Its model is ``OfflineAnalystModel``: the app's offline Analyst played through the tools,
deterministic and offline, so the example needs no model server and no key. The evidence
gate is the server's: the decision rests only on claims this run both found and read.

    scripts/run &                                          # the app, on http://127.0.0.1:8000
    .venv/bin/python examples/openai_agents_agent.py       # a new workspace, one question

With ``--model NAME`` (and OPENAI_API_KEY, or OPENAI_BASE_URL for any OpenAI-compatible
server) the same agent runs on that model instead.
"""

from __future__ import annotations

import argparse

from agents import Agent, Runner, set_tracing_disabled

from afterhack.client import DEFAULT_URL, Client
from afterhack.integrations.offline_model import OfflineAnalystModel
from afterhack.integrations.openai_agents import memory_tools

PLAN = ("The product launch is planned for June 12. The launch venue is the Harbour Hall. "
        "The catering budget is 8,000 euros.")
INSTRUCTIONS = ("Answer from memory: search it, read the sources of the claims you rely on, "
                "then submit a proposal citing only those claims.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--key", help="an API key, when the app has keys on")
    parser.add_argument("--model", help="an Agents SDK model name (default: offline)")
    parser.add_argument("question", nargs="?", default="When and where is the launch?")
    args = parser.parse_args()
    set_tracing_disabled(True)  # traces would be sent to OpenAI's servers

    with Client(args.url, key=args.key) as c:
        c.workspace = c.create_workspace("agents sdk")["id"]
        c.add_source(PLAN, title="Launch plan")
        workspace = c.workspace

    agent = Agent(name="Planner", instructions=INSTRUCTIONS,
                  tools=memory_tools(url=args.url, workspace=workspace, api_key=args.key),
                  model=args.model or OfflineAnalystModel())
    result = Runner.run_sync(agent, args.question)
    print(f"question: {args.question}\nanswer: {result.final_output}")

    # What the decision rests on: each claim with the exact quote it was read from.
    with Client(args.url, key=args.key, workspace=workspace) as c:
        [run] = c.list_runs()["items"]
        view = c.get_run(run["id"])
        decision = view["decision"]
        for premise in decision["premises"] if decision else []:
            for claim in premise["claims"]:
                quoted = c.get_claim(claim["id"])
                print(f"cites {claim['id']}: {quoted['evidence_quote']!r} "
                      f"[{quoted['quote_start']}:{quoted['quote_end']}] of "
                      f"{quoted['evidence'][0]['source_title']!r}")


if __name__ == "__main__":
    main()
