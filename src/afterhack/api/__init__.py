"""The HTTP layer: the only package that imports FastAPI."""
