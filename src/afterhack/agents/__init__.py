"""The evidence-gated agent: an Analyst with three tools, a Coordinator, and the gate."""
