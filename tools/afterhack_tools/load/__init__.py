"""A bounded load test with its own checks: see run.py (``afterhack loadtest``)."""
