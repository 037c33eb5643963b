"""The store boundary: the only package that speaks Cypher."""

from afterhack.store.client import Graph, GraphMissing, QueryFailed, Rows, Store

__all__ = ["Graph", "GraphMissing", "QueryFailed", "Rows", "Store"]
