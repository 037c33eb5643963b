"""The one reading of a ``Host`` value (and of a request target's authority): ``host[:port]``
by RFC 3986, or nothing.

``host`` is a registered name (letters, digits, ``-._~``, the sub-delimiters and
percent-escapes), an IPv4 address, or an IPv6 address in brackets; ``port`` is ASCII digits,
possibly none. Anything else (a second colon, text after the brackets, an IPv4 address in
brackets, userinfo, spaces, non-ASCII) is not a host at all, so no part of it is matched
against the names a server answers to.
"""

from __future__ import annotations

import ipaddress
import re

_REG_NAME = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
_PORT = re.compile(r"[0-9]*")


def host_name(value: str) -> str | None:
    """The name ``value`` carries, lowercased (an IPv6 address without brackets, in its
    compressed form; a registered name without one trailing dot, the same DNS name written
    absolute); None when ``value`` is not a ``host[:port]``."""
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1:] if end > 0 else ""
        if end < 0 or (rest and not (rest[0] == ":" and _PORT.fullmatch(rest[1:]))):
            return None
        literal = value[1:end]
        # A zone id ("%eth0") is not part of RFC 3986's IPv6address.
        if "%" in literal or not literal.isascii():
            return None
        try:
            return ipaddress.IPv6Address(literal).compressed
        except ValueError:
            return None  # "[127.0.0.1]", "[v1.x]" and the like
    name, colon, port = value.partition(":")
    if not _REG_NAME.fullmatch(name) or (colon and not _PORT.fullmatch(port)):
        return None
    name = name.lower()
    return name[:-1] if name.endswith(".") and not name.endswith("..") else name


def loopback_ip(name: str) -> bool:
    """Whether ``name`` (as host_name gives it) is a loopback address written as one."""
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
