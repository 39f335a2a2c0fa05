"""Multicast latency over Myrinet/FM trees: the seed 002 timing model run packet by packet.

Seed 002 s2 gives three intervals per packet of ``m`` bytes (Fig. 2): the host writes the
packet to its NIC (``t_send``), the NIC transmits one copy (``t_xmit``), and the receiving NIC
plus host take it in (``t_recv``, counted from the start of that copy's transmission, which it
overlaps). This module plays those intervals over a multicast tree and a message of several
FM packets (1,536 bytes each), with the two primitives and the two forwarding modes of s4-s6:

* ``multisend``: a node writes each packet to its NIC once; the NIC transmits a copy to each
  child, back to back. ``unicast``: one host write per child and packet (FM sends).
* ``pipeline=True``: a node forwards packet ``j`` as soon as it has it; ``False``: it waits
  for the whole message (s4).

Resources, each serial: a node's host (writes, and its share of receptions), its NIC
(transmissions), and its NIC's receive path. ``t_recv`` is, by the Appendix, the NIC's part
(taking the packet off the network and DMAing it to the host) plus the host's copy to the
application buffer, and s2 adds that "packet reception can also be pipelined between the NIC
and the host". So reception is a two-stage pipeline: a NIC stage of ``(1 - h) t_recv`` (one
packet at a time, from the start of that copy's transmission) and a host stage of
``h t_recv`` on the host, serialised with its writes. The paper measured the two parts but
printed only their sum, so ``h`` (``host_recv_share``) is a parameter. Both ends contradict
the paper: ``h = 0`` (all on the NIC) drops the host's copy, ``h = 1`` (all on the host)
leaves nothing to pipeline; the default splits the unknown evenly (``h = 0.5``, the
midpoint, not a fit; docs/multisend.md shows how the results move with ``h``). With one
packet and a flat tree any ``h`` gives exactly the s2 formulas (``t_send + (k-1) t_xmit +
t_recv`` and ``k t_send + t_recv``), pinned in tests.

Unicast order (a choice the paper leaves open): ``message`` (default) sends the whole message
to the first child, then to the next (an FM stream per destination, the "multiple FM sends" of
Fig. 4); with pipelining the first child's stream relays packets as they arrive. ``packet``
sends packet ``j`` to every child before packet ``j+1`` (the order of netcoll's ``postal``
schedules with ``primitive=unicast``).

The measured latency of s6 adds the zero-byte reply of the last receiver to the root
(``t_send(0) + t_recv(0)``, ``ack=True``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .. import _core, models

FM_PACKET_BYTES = 1536


@lru_cache(maxsize=4096)
def intervals(nbytes: int, write_combining: bool = False) -> tuple[float, float, float]:
    """``(t_send, t_xmit, t_recv)`` in us for one packet of ``nbytes``, from the Rust
    timing model (``models.multisend_time`` with one and two destinations)."""
    ms1, uc1 = models.multisend_time(nbytes, 1, write_combining)
    ms2, uc2 = models.multisend_time(nbytes, 2, write_combining)
    send = uc2 - uc1
    return send, ms2 - ms1, uc1 - send


def packet_sizes(
    nbytes: int, packet_bytes: int = FM_PACKET_BYTES, equal: bool = False
) -> list[int]:
    """FM packetisation: full packets, then the remainder (a 0-byte message is one packet);
    ``equal``: as many packets, each ``ceil(nbytes / count)`` bytes (netcoll's schedules)."""
    if nbytes < 0:
        raise _core.NetcollError(f"message of {nbytes} bytes: give a size >= 0")
    if not 1 <= packet_bytes <= FM_PACKET_BYTES:
        raise _core.NetcollError(
            f"packet_bytes={packet_bytes}: the FM timing model holds for packets of 1 to 1536 bytes"
        )
    full, rest = divmod(nbytes, packet_bytes)
    if equal:
        k = max(1, math.ceil(nbytes / packet_bytes))
        return [math.ceil(nbytes / k)] * k
    return [packet_bytes] * full + ([rest] if rest or not full else [])


@dataclass(frozen=True)
class FMConfig:
    """How a multicast runs: ``primitive`` multisend|unicast, ``pipeline`` (packet-wise
    forwarding), ``unicast_order`` message|packet, ``write_combining`` (s2's faster host
    copy), ``ack`` (add the reply to the root), ``packet_bytes`` (FM: 1,536),
    ``host_recv_share`` (fraction ``h`` of ``t_recv`` that is the host's stage of reception,
    serialised with its writes; see the module note), ``equal_packets`` (cut messages as
    netcoll's schedules do, for comparisons with the flit engine), ``copy_extra_us`` (NIC
    time a multi-send spends on each copy after the first beyond ``t_xmit``: s5 says the
    header updates overlap the DMA "for all but the smallest messages", so 0 by default),
    ``dest_entry_bytes`` (s5: the host writes one entry per extra destination, "the logical
    node number, the physical node number and the returned credits", after the packet; its
    size is not printed and s2's formula leaves it out, so 0 by default; each byte costs the
    host write rate, 0.0301 us)."""

    primitive: str = "multisend"  # or "unicast"
    pipeline: bool = True
    unicast_order: str = "message"  # or "packet"
    write_combining: bool = False
    ack: bool = True
    packet_bytes: int = FM_PACKET_BYTES
    host_recv_share: float = 0.5
    equal_packets: bool = False
    copy_extra_us: float = 0.0
    dest_entry_bytes: int = 0

    def check(self) -> None:
        if self.primitive not in ("multisend", "unicast"):
            raise _core.NetcollError(
                f"primitive={self.primitive!r} is unknown: use multisend or unicast"
            )
        if not 0.0 <= self.host_recv_share <= 1.0:
            raise _core.NetcollError(
                f"host_recv_share={self.host_recv_share}: give a fraction between 0 and 1"
            )
        if not (math.isfinite(self.copy_extra_us) and self.copy_extra_us >= 0.0):
            raise _core.NetcollError(
                f"copy_extra_us={self.copy_extra_us}: give a NIC time per extra copy >= 0 us"
            )
        if not (isinstance(self.dest_entry_bytes, int) and self.dest_entry_bytes >= 0):
            raise _core.NetcollError(
                f"dest_entry_bytes={self.dest_entry_bytes}: give a whole number of bytes >= 0"
            )
        if self.unicast_order not in ("message", "packet"):
            raise _core.NetcollError(
                f"unicast_order={self.unicast_order!r} is unknown: use message or packet"
            )


def _check_tree(children: Sequence[Sequence[int]]) -> None:
    n, seen = len(children), [False] * len(children)
    seen[0] = n > 0
    for kids in children:
        for c in kids:
            if not 0 < c < n or seen[c]:
                raise _core.NetcollError(
                    f"child {c} is out of range or has two parents: give a tree rooted at 0"
                )
            seen[c] = True
    if not all(seen):
        raise _core.NetcollError("some node has no parent: give a spanning tree rooted at 0")


def tree_latency(
    children: Sequence[Sequence[int]], nbytes: int, cfg: FMConfig = FMConfig()
) -> float:
    """Microseconds until every node of the tree (root 0, ``children[v]`` in send order)
    holds the ``nbytes`` message, plus the reply to the root if ``cfg.ack``."""
    cfg.check()
    _check_tree(children)
    sizes = packet_sizes(nbytes, cfg.packet_bytes, cfg.equal_packets)
    iv = [intervals(s, cfg.write_combining) for s in sizes]
    n, last = len(children), len(sizes) - 1
    # arrived[v][j]: the NIC stage of packet j's reception at v ends; the root has it all.
    arrived: list[list[float] | None] = [None] * n
    arrived[0] = [0.0] * len(sizes)
    order, done = [0], 0.0
    for v in order:  # parents before children (BFS)
        kids = list(children[v])
        order.extend(kids)
        share = 0.0 if v == 0 else cfg.host_recv_share
        held, sent = _node(kids, arrived[v], [share * x[2] for x in iv], iv, cfg)
        for c, times in sent.items():
            arrived[c] = times
        done = max(done, held[last])
    if cfg.ack and n > 1:
        s0, _, r0 = intervals(0, cfg.write_combining)
        done += s0 + r0
    return done


def _node(kids, arrived, recv_host, iv, cfg: FMConfig):
    """One node: when it holds each packet, and when the NIC stage of each child's reception
    of each packet ends (``(1 - h) t_recv`` from the start of that copy's transmission, after
    the child's previous packet's NIC stage).

    The host is one serial resource. Its tasks: the host stage of each packet's reception
    (``recv_host[j]``, ready when its NIC stage ends) and the writes to the NIC, in the
    primitive's order. It takes whichever task is ready first (receptions win ties); a write
    is ready when its packet is held (all packets, without pipelining) and the previous write
    is done. The NIC transmits written packets in order, one copy at a time.
    """
    np_ = len(arrived)
    writes = _write_order(len(kids), np_, cfg)  # (packet, child indices to transmit to)
    held = [0.0] * np_
    got = {c: [0.0] * np_ for c in kids}
    nic_recv = [(1.0 - cfg.host_recv_share) * x[2] for x in iv]  # the children's NIC stage
    list_write = cfg.dest_entry_bytes * _send_per_byte(cfg.write_combining)
    recv_free = dict.fromkeys(kids, 0.0)
    host = nic = 0.0
    r = w = 0  # next reception, next write
    while r < np_ or w < len(writes):
        if r < np_:
            r_ready = arrived[r]
        if w < len(writes):
            j = writes[w][0]
            need = j if cfg.pipeline else np_ - 1
            w_ready = held[need] if need < r else None  # None: its packet is not held yet
        if r < np_ and (w >= len(writes) or w_ready is None or r_ready <= max(w_ready, host)):
            # A reception with no host stage leaves the host free (h = 0, or the root).
            held[r] = max(arrived[r], host) + recv_host[r] if recv_host[r] > 0 else arrived[r]
            host = held[r] if recv_host[r] > 0 else host
            r += 1
            continue
        host = max(host, w_ready) + iv[j][0] + list_write * (len(writes[w][1]) - 1)
        for i, ci in enumerate(writes[w][1]):
            c = kids[ci]
            # A multi-send's extra copies may cost the NIC more than a plain transmission.
            start = max(nic, host) + (cfg.copy_extra_us if i else 0.0)
            nic = start + iv[j][1]
            recv_free[c] = got[c][j] = max(start, recv_free[c]) + nic_recv[j]
        w += 1
    return held, got


def _send_per_byte(write_combining: bool) -> float:
    """The host's cost per byte written to the NIC (s2: 0.0301 us, 0.0106 with write
    combining)."""
    return intervals(1, write_combining)[0] - intervals(0, write_combining)[0]


def _write_order(k: int, np_: int, cfg: FMConfig) -> list[tuple[int, list[int]]]:
    if k == 0:
        return []
    if cfg.primitive == "multisend":
        return [(j, list(range(k))) for j in range(np_)]
    if cfg.unicast_order == "message":
        return [(j, [c]) for c in range(k) for j in range(np_)]
    return [(j, [c]) for j in range(np_) for c in range(k)]


def flat_tree(ndest: int) -> list[list[int]]:
    return [list(range(1, ndest + 1))] + [[] for _ in range(ndest)]


def postal_tree(n: int, lam: float) -> list[list[int]]:
    """The two-queue greedy postal tree of seed 002 s4 (the Rust model), as children lists."""
    tree, _ = models.postal_tree(n, lam)
    return [list(c) for c in tree["children"]]


def binomial_tree(n: int) -> list[list[int]]:
    """The binomial tree (largest subtree first): the postal tree with lambda = 1."""
    return postal_tree(n, 1.0)


def optimal_latency(n: int, nbytes: int, cfg: FMConfig) -> tuple[float, int]:
    """``(latency, lambda)``: the best postal tree over integer lambda 1..n, as the paper's
    experiments choose it (s6: "integer lambda values from 1 to the number of nodes").
    Ties go to the smaller lambda."""
    best = (math.inf, 0)
    for lam in range(1, max(n, 1) + 1):
        t = tree_latency(postal_tree(n, lam), nbytes, cfg)
        if t < best[0] - 1e-9:
            best = (t, lam)
    return best
