"""What every layer shares and none owns: the vocabulary and the named records.

Nothing here does I/O or holds a rule; the store, the domain and the transports all import
from it, and it imports none of them.
"""
