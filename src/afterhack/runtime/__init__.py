"""Running the service: the embedded FalkorDB, waiting for a FalkorDB that is loading, and the
services a request needs.
"""
