"""The memory's pure rules: quotes, fragments, the support relabel."""
