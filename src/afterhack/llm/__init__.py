"""Model access: the OpenAI-compatible gateway and the deterministic offline model."""
