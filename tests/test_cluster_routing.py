"""The pure parts of cluster routing: key slots, URLs naming one node or several, and the
error replies that redirect a command."""

from __future__ import annotations

import pytest

from afterhack.store.reply import Redirect, SlotRange, is_transient
from afterhack.store.resp import Endpoint, ReplyError
from afterhack.store.routing import key_slot


def test_key_slots_are_redis_cluster_slots() -> None:
    # Values Redis documents (CRC16-XMODEM check value, the cluster spec's examples).
    assert key_slot("123456789") == 0x31C3 % 16384
    assert key_slot("foo") == 12182
    # A hash tag puts keys on one slot; an empty tag does not count.
    assert key_slot("{user1000}.following") == key_slot("{user1000}.followers")
    assert key_slot("foo{}{bar}") == key_slot("foo{}{bar}") != key_slot("bar")
    assert key_slot("afterhack:rl:{key-1}:100") == key_slot("afterhack:rl:{key-1}:101")


def test_a_url_names_one_node_or_several_with_one_login() -> None:
    [one] = Endpoint.seeds_from_url("rediss://user:p%40ss@db.example:6380/2")
    assert (one.host, one.port, one.tls, one.username, one.password, one.db) == (
        "db.example", 6380, True, "user", "p@ss", 2)
    many = Endpoint.seeds_from_url("redis://:secret@10.0.0.1:7000,10.0.0.2:7001")
    assert [(e.host, e.port, e.password) for e in many] == [
        ("10.0.0.1", 7000, "secret"), ("10.0.0.2", 7001, "secret")]
    # Another node of the cluster: same login and TLS, its own address.
    other = one.at("10.1.1.1", 7002)
    assert (other.address, other.tls, other.password) == ("10.1.1.1:7002", True, "p@ss")
    [sock] = Endpoint.seeds_from_url("unix:///run/falkordb.sock")
    assert sock.address == "/run/falkordb.sock"
    assert not Endpoint.from_url("rediss://h:1?ssl_cert_reqs=none").tls_verify
    with pytest.raises(ValueError):
        Endpoint.from_url("http://h:1")


def test_redirects_and_transient_errors_are_told_apart() -> None:
    moved = Redirect.of(ReplyError("MOVED 3999 127.0.0.1:6381"))
    assert moved == Redirect(ask=False, slot=3999, host="127.0.0.1", port=6381)
    assert Redirect.of(ReplyError("ASK 1 ::1:7000")) == Redirect(True, 1, "::1", 7000)
    assert Redirect.of(ReplyError("ERR unknown command")) is None
    for msg in ("CLUSTERDOWN The cluster is down", "TRYAGAIN Multiple keys",
                "LOADING Redis is loading", "MASTERDOWN Link with MASTER is down"):
        assert is_transient(ReplyError(msg)), msg
    assert not is_transient(ReplyError("ERR Invalid graph operation on empty key"))


def test_a_slot_map_reply_names_masters_and_replicas() -> None:
    reply = [[0, 5460, ["127.0.0.1", 7000, "id-a"], ["127.0.0.1", 7003, "id-d"]],
             [5461, 16383, ["", 7001, "id-b"]]]
    ranges = SlotRange.parse_all(reply, seed_host="10.0.0.9")
    assert ranges[0] == SlotRange(0, 5460, ("127.0.0.1", 7000), (("127.0.0.1", 7003),))
    # A node that does not know its own address reports it empty: it is the seed's host.
    assert ranges[1].master == ("10.0.0.9", 7001) and ranges[1].replicas == ()
