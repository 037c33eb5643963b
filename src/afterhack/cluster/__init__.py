"""A local FalkorDB cluster (``afterhack cluster up|down|status``); see local.py."""
