"""Host headers the app must refuse, for the tests of its host check and its fuzzing."""

from __future__ import annotations

# What an outside probe sent (issue 33): each is no host[:port] by RFC 3986, though a
# lenient reading finds a loopback name in it.
MALFORMED_HOSTS = ["[::1].evil.example", "[::1]evil.example", "localhost:evil.example",
                   "127.0.0.1:80@evil.example", "[127.0.0.1]"]
# And more of the same kind: a second port, a non-ASCII port, an open bracket, a space, a
# zone id, an empty Host, a name that is the loopback name percent-escaped.
ODD_HOSTS = ["localhost:1:2", "localhost:\uff18\uff10", "[::1", "127.0.0.1 evil.example",
             "[fe80::1%eth0]", "", "%6cocalhost"]
