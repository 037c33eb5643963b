#!/usr/bin/env python3
"""Load test on loopback: 50 clients for 60 s by default, then the graph is checked.

    .venv/bin/python scripts/load.py [--clients 50] [--duration 60] [--workspaces 4]
                                     [--apps 2] [--json load.json]

Same as ``afterhack loadtest``. Exits 1 if any check failed (see the report's problems).
"""

from afterhack.cli.main import main

if __name__ == "__main__":
    import sys

    sys.argv[1:1] = ["loadtest"]
    main()
