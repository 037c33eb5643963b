"""The terminal: the `afterhack` command, its output and the demo."""
