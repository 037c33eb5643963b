"""Which server a command goes to: the one in the URL, or, when that is a node of a FalkorDB
(Redis) cluster, the node that holds the command's key.

Cluster mode is detected, not configured: ``AFTERHACK_FALKORDB_URL`` names any node, the
store asks it ``INFO server`` once, and on ``redis_mode:cluster`` reads the slot map with
``CLUSTER SLOTS`` and keeps a pool per node. A key's slot is CRC16 of the key (or of its
``{hash tag}``) modulo 16384; each workspace graph is one key, so whole graphs land on
shards. The map is read again when a node answers ``MOVED``, stops answering, or says the
cluster is re-forming after a failover.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from afterhack.store.reply import SlotRange, info_fields
from afterhack.store.resp import Endpoint, Pool

SLOTS = 16384


def _crc16_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_CRC16 = _crc16_table()


def key_slot(key: str) -> int:
    """The cluster slot of ``key`` (CRC16-XMODEM of its hash tag, if any, else of the key)."""
    data = key.encode("utf-8")
    start = data.find(b"{")
    if start != -1:
        end = data.find(b"}", start + 1)
        if end > start + 1:
            data = data[start + 1 : end]
    crc = 0
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC16[((crc >> 8) ^ b) & 0xFF]
    return crc % SLOTS


@dataclass(frozen=True)
class Shard:
    master: str
    replicas: tuple[str, ...]


class Nodes:
    """Pools to the server, or to every node of the cluster, and the slot map between them."""

    def __init__(self, seeds: list[Endpoint], pool_size: int, *, read_timeout_s: float,
                 connect_timeout_s: float = 5.0, replica_reads: bool = False) -> None:
        # The URL's servers: the first answering one is asked what it is. Every other node
        # is reached with the first one's login and TLS.
        self.seeds = seeds
        self.seed = seeds[0]
        self.pool_size = pool_size
        self.read_timeout_s = read_timeout_s
        self.connect_timeout_s = connect_timeout_s
        self.replica_reads = replica_reads
        self.cluster: bool | None = None  # unknown until discovered
        self._pools: dict[tuple[str, bool], Pool] = {}
        self._slots: list[Shard | None] = []
        self._slot_of: dict[str, int] = {}
        self._lock = asyncio.Lock()
        self._refreshed_at = 0.0
        self._single: Pool | None = None

    # -- discovery --------------------------------------------------------------------

    async def discover(self) -> None:
        """Learn whether the URL names a cluster node (and then the slot map)."""
        async with self._lock:
            if self.cluster is not None:
                return
            for i, seed in enumerate(self.seeds):
                pool = self.pool(seed.address)
                try:
                    conn = await pool.acquire()
                    try:
                        info = await conn.call(("INFO", "server"), self.connect_timeout_s)
                    except BaseException:
                        pool.release(conn, broken=True)
                        raise
                except (OSError, TimeoutError):
                    if i == len(self.seeds) - 1:
                        raise
                    continue  # another of the URL's servers may answer
                pool.release(conn)
                break
            if info_fields(str(info)).get("redis_mode") == "cluster":
                await self._load_slots([pool.endpoint.address,
                                        *(s.address for s in self.seeds)])
                self.cluster = True
            else:
                self._single = pool
                self.cluster = False

    def stale(self, max_age_s: float = 30.0) -> bool:
        """Whether the slot map is old enough to read again unasked: replicas added or
        promoted without any command failing are learnt this way."""
        return bool(self.cluster) and time.monotonic() - self._refreshed_at > max_age_s

    async def refresh(self, *, min_interval_s: float = 0.2) -> None:
        """Read the slot map again (at most once per ``min_interval_s`` however many ask)."""
        if not self.cluster:
            return
        async with self._lock:
            if time.monotonic() - self._refreshed_at < min_interval_s:
                return
            known = list(dict.fromkeys(
                [s.master for s in self._slots if s] + [s.address for s in self.seeds]
                + [r for s in self._slots if s for r in s.replicas]))
            await self._load_slots(known)

    async def _load_slots(self, candidates: list[str]) -> None:
        last: BaseException | None = None
        for address in candidates:
            pool = self.pool(address)
            try:
                conn = await pool.acquire()
            except (OSError, TimeoutError) as exc:
                last = exc
                continue
            try:
                reply = await conn.call(("CLUSTER", "SLOTS"), self.connect_timeout_s)
            except BaseException as exc:
                pool.release(conn, broken=True)
                if not isinstance(exc, Exception):
                    raise
                last = exc
                continue
            pool.release(conn)
            host = pool.endpoint.host
            slots: list[Shard | None] = [None] * SLOTS
            for r in SlotRange.parse_all(reply, host):
                shard = Shard(_addr(r.master), tuple(_addr(a) for a in r.replicas))
                for s in range(r.first, r.last + 1):
                    slots[s] = shard
            self._slots = slots
            self._refreshed_at = time.monotonic()
            return
        raise ConnectionError(f"no node of the FalkorDB cluster answered CLUSTER SLOTS: {last}")

    def moved(self, slot: int, host: str, port: int) -> None:
        """A node said ``MOVED``: the slot's master is elsewhere now (the rest follows on the
        next refresh)."""
        old = self._slots[slot] if self._slots else None
        address = _addr((host, port))
        self._slots[slot] = Shard(address, old.replicas if old else ())

    # -- routing ----------------------------------------------------------------------

    def slot(self, key: str) -> int:
        s = self._slot_of.get(key)
        if s is None:
            if len(self._slot_of) > 100_000:
                self._slot_of.clear()
            s = self._slot_of[key] = key_slot(key)
        return s

    def primary(self, key: str) -> Pool:
        if self._single is not None:
            return self._single
        shard = self._slots[self.slot(key)]
        if shard is None:
            raise ConnectionError(f"no FalkorDB node serves the slot of {key!r}")
        return self.pool(shard.master)

    def reader(self, key: str) -> Pool:
        """Where a read of ``key`` goes: a replica of its shard when replica reads are on
        (connections there say ``READONLY``), else its master."""
        if self._single is not None or not self.replica_reads:
            return self.primary(key)
        shard = self._slots[self.slot(key)]
        if shard is None or not shard.replicas:
            return self.primary(key)
        return self.pool(random.choice(shard.replicas), readonly=True)

    def primaries(self) -> list[Pool]:
        if self._single is not None:
            return [self._single]
        masters = dict.fromkeys(s.master for s in self._slots if s is not None)
        return [self.pool(m) for m in masters]

    def pool(self, address: str, *, readonly: bool = False) -> Pool:
        key = (address, readonly)
        pool = self._pools.get(key)
        if pool is None:
            seed = next((s for s in self.seeds if s.address == address), None)
            if seed is not None:
                endpoint = seed
            else:
                host, _, port = address.rpartition(":")
                endpoint = self.seed.at(host, int(port))
            pool = self._pools[key] = Pool(endpoint, self.pool_size,
                                           read_timeout_s=self.read_timeout_s,
                                           connect_timeout_s=self.connect_timeout_s,
                                           readonly=readonly)
        return pool

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()


def _addr(node: tuple[str, int]) -> str:
    return f"{node[0]}:{node[1]}"
