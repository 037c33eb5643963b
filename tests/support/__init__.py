"""Helpers shared by the tests."""

# The app answers only to its own host names (api/hosts.py), so in-process test clients talk
# to it as a local browser or CLI would, not as starlette's default "testserver".
LOCAL = "http://127.0.0.1"
