"""The memory's use cases, one per module, taking the store (and the model) as arguments."""
