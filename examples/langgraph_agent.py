"""A small LangGraph agent that remembers across threads, its memory an AfterhackStore.

Each thread is a conversation of its own (its messages kept by LangGraph's checkpointer);
what the user asks it to remember goes to the store under the user's namespace, so a later
thread finds it, with the claim and the exact quote the memory kept of it. The agent's
policy is a few lines of plain Python, so the example runs without a model.

    scripts/run &                                   # the app, on http://127.0.0.1:8000
    .venv/bin/python examples/langgraph_agent.py    # a new workspace, two threads
"""

from __future__ import annotations

import argparse
import uuid

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from afterhack.client import DEFAULT_URL, Client
from afterhack.integrations.langgraph import AfterhackStore

REMEMBER = "remember:"


def respond(state: MessagesState, config: RunnableConfig, *, store: BaseStore) -> MessagesState:
    """Keep what the user asks to be remembered; answer anything else from memory."""
    user = config["configurable"]["user_id"]
    said = str(state["messages"][-1].content)
    if said.lower().startswith(REMEMBER):
        fact = said[len(REMEMBER):].strip()
        store.put(("memories", user), str(uuid.uuid4()), {"text": fact})
        return {"messages": [AIMessage(f"I will remember: {fact}")]}
    found = store.search(("memories", user), query=said, limit=1)
    if not found:
        return {"messages": [AIMessage("I have nothing on that yet.")]}
    return {"messages": [AIMessage(f"You told me: {found[0].value['text']}")]}


def build(store: BaseStore) -> CompiledStateGraph[MessagesState]:
    graph = StateGraph(MessagesState)
    graph.add_node("respond", respond)
    graph.add_edge(START, "respond")
    return graph.compile(checkpointer=InMemorySaver(), store=store)


def say(agent: CompiledStateGraph[MessagesState], thread: str, user: str, text: str) -> str:
    config: RunnableConfig = {"configurable": {"thread_id": thread, "user_id": user}}
    asked: MessagesState = {"messages": [HumanMessage(text)]}
    out = agent.invoke(asked, config)
    answer = str(out["messages"][-1].content)
    print(f"[{thread}] user: {text}\n[{thread}] agent: {answer}")
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--workspace", help="a workspace id (default: a new workspace)")
    parser.add_argument("--key", help="an API key, when the app has keys on")
    args = parser.parse_args()
    with Client(args.url, key=args.key) as c:
        workspace = args.workspace or c.create_workspace("langgraph agent")["id"]
    store = AfterhackStore(url=args.url, workspace=workspace, api_key=args.key)
    agent = build(store)

    say(agent, "monday", "ana", "Remember: Ana's flight to Lisbon leaves at 9 am on Friday.")
    say(agent, "tuesday", "ana", "When does my flight leave?")  # another thread, same user

    # What the store kept: a source with claims, each quoting the text put.
    [item] = store.search(("memories", "ana"), query="flight")
    source = store.source_id(item.namespace, item.key)
    with Client(args.url, key=args.key, workspace=workspace) as c:
        for claim in c.search_claims("flight Lisbon")["items"]:
            if claim["source_id"] == source:
                quoted = c.get_claim(claim["id"])
                print(f"claim {quoted['id']}: {quoted['statement']!r} quotes "
                      f"{quoted['evidence_quote']!r} at {quoted['quote_start']}-"
                      f"{quoted['quote_end']} of source {source}")


if __name__ == "__main__":
    main()
