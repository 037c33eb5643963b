"""``afterhack bench``: measure the product against its floors, at several workspace sizes.

The suite starts its own FalkorDB (embedded, in a temporary directory) and the app (a
uvicorn subprocess on a free loopback port, offline model), builds synthetic workspaces
straight through the store's bulk loader, then measures through the HTTP API. Every figure
is printed beside its floor (a FalkorDB ``RETURN 1`` and a trivial HTTP request, measured
in the same run): the machine is noisy, so ratios travel better than milliseconds.
"""
