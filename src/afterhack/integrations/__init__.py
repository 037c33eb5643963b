"""afterhack in the frameworks agents are built in, each an optional extra of its own.

- ``afterhack.integrations.langchain``: ``AfterhackRetriever``, a LangChain retriever whose
  Documents carry each claim's source and exact quote (``afterhack[langchain]``);
- ``afterhack.integrations.langgraph``: ``AfterhackStore``, a LangGraph store that keeps
  what is put as a source with claims (``afterhack[langgraph]``);
- ``afterhack.integrations.openai_agents``: ``memory_tools``, the OpenAI Agents SDK's
  function tools for a gated run (``afterhack[openai-agents]``).

Each talks to a running app over HTTP, through ``afterhack.client``: nothing of the server
runs in the agent's process (docs/integrations.md; why:
docs/decisions/0040-frameworks-through-the-client.md).
"""
