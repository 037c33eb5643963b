"""The Markdown of the bench's results, a module per section; report.py puts them together."""
