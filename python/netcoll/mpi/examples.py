"""Hand-written schedules in the documented JSON format (docs/schedule.md), for any p.

They exercise the executor on every collective before (and beside) the registry's algorithms: a
pipelined chain broadcast, ring allgather, ring reduce-scatter / allreduce (with reduce compute
ops), linear scatter / gather / reduce, an XOR relay allgather with an NI multi-send, and pairwise
and Bruck personalized all-to-alls. ``netcoll run --schedule FILE`` runs any of them (``netcoll run
... --example NAME`` writes none: use :func:`build`). Each is checked by the Rust verifier in the
tests.
"""

from __future__ import annotations

import json


class _Doc:
    def __init__(self, kind: str, p: int, root: int | None, blocks: int):
        self.p = p
        self.coll = {"kind": kind, "p": p, "blocks": blocks}
        if root is not None:
            self.coll["root"] = root
        self.messages: list[dict] = []
        self.ranks: list[list[dict]] = [[] for _ in range(p)]

    def op(self, rank: int, op: dict, deps=()) -> tuple[int, int]:
        if deps:
            op["deps"] = [list(d) for d in deps if d is not None]
            if not op["deps"]:
                del op["deps"]
        self.ranks[rank].append(op)
        return rank, len(self.ranks[rank]) - 1

    def message(self, src: int, dst: list[int], payload: list[dict], packets: int = 1) -> int:
        self.messages.append({"src": src, "dst": dst, "payload": payload, "packets": packets})
        return len(self.messages) - 1

    def send_recv(self, src, dst, payload, send_deps=(), recv_deps=()):
        """One whole message from src to dst: returns (send op, recv op)."""
        m = self.message(src, [dst], payload)
        s = self.op(src, {"op": "send", "msg": m}, send_deps)
        r = self.op(dst, {"op": "recv", "msg": m}, recv_deps)
        return s, r

    def doc(self, nbytes: int = 8, packets: int = 1) -> dict:
        bpb = max(1, nbytes // max(1, self.coll["blocks"]))
        doc = {
            "format": "netcoll-schedule",
            "version": 1,
            "collective": self.coll,
            "placement": list(range(self.p)),
            "bytes_per_block": bpb,
            "packet_bytes": 0,
            "messages": self.messages,
            "ranks": self.ranks,
        }
        if any(m["packets"] > 1 for m in self.messages):
            longest = max(len(m["payload"]) for m in self.messages)
            doc["packet_bytes"] = max(1, -(-longest * bpb // packets))
            for m in self.messages:
                del m["packets"]  # the verifier recomputes them from the packet size
        else:
            for m in self.messages:
                del m["packets"]
        return doc


def block(owner: int, idx: int) -> dict:
    return {"block": [owner, idx]}


def reduced(index: int, over) -> dict:
    return {"reduced": {"index": index, "over": sorted(over)}}


def chain_bcast(p: int, root: int = 0, packets: int = 2) -> dict:
    """Pipelined chain root -> root+1 -> ...: each rank forwards packet i as soon as it has
    it (the FPFS pipelining of seed 002 s4 and seed 003 s4.3)."""
    d = _Doc("broadcast", p, root, 1)
    prev_msg, recv_of = None, {}
    for h in range(1, p):
        src, dst = (root + h - 1) % p, (root + h) % p
        m = d.message(src, [dst], [block(root, 0)], packets)
        for i in range(packets):
            deps = []
            if prev_msg is not None:
                deps.append(recv_of[(prev_msg, i)])
            d.op(src, {"op": "send", "msg": m, "packets": [i, i + 1]}, deps)
        recv_of_m = {}
        for i in range(packets):
            recv_of_m[(m, i)] = d.op(dst, {"op": "recv", "msg": m, "packets": [i, i + 1]})
        recv_of = recv_of_m
        prev_msg = m
    return d.doc(packets * 8, packets)


def scatter_allgather_bcast(p: int, root: int = 0) -> dict:
    """Long-vector broadcast (seed 001 s4, InterCom's scatter/collect): the root scatters
    its p blocks, then a ring collect spreads them; nothing is sent back to the root."""
    d = _Doc("broadcast", p, root, p)
    last = [None] * p
    for r in range(p):
        if r != root:
            last[r] = d.send_recv(root, r, [block(root, r)])[1]
    for s in range(p - 1):
        now = list(last)
        for r in range(p):
            dst = (r + 1) % p
            if dst == root:
                continue
            m = d.message(r, [dst], [block(root, (r - s) % p)])
            d.op(r, {"op": "send", "msg": m}, [last[r]] if r != root else [])
            now[dst] = d.op(dst, {"op": "recv", "msg": m})
        last = now
    return d.doc(8 * p)


def ring_allgather(p: int) -> dict:
    """Bucket (ring) collect, seed 001 s4: in step s rank r passes block r-s to r+1."""
    d = _Doc("allgather", p, None, 1)
    last_recv = [None] * p
    for s in range(p - 1):
        now = [None] * p
        sends = {}
        for r in range(p):
            owner = (r - s) % p
            m = d.message(r, [(r + 1) % p], [block(owner, 0)])
            sends[r] = (m, d.op(r, {"op": "send", "msg": m}, [last_recv[r]]))
        for r in range(p):
            m, _ = sends[(r - 1) % p]
            now[r] = d.op(r, {"op": "recv", "msg": m})
        last_recv = now
    return d.doc()


def _ring_reduce_scatter(d: _Doc, p: int, shift: int):
    """Ring reduce-scatter on p block indices; rank q ends with index (q + shift) % p fully
    reduced. Returns each rank's last reduce op."""
    last = [None] * p
    for s in range(p - 1):
        msgs = {}
        for r in range(p):
            idx = (r - s - 1 + shift) % p
            over = [(r - t) % p for t in range(s + 1)]
            m = d.message(r, [(r + 1) % p], [reduced(idx, over)])
            d.op(r, {"op": "send", "msg": m}, [last[r]])
            msgs[r] = (m, idx, over)
        for q in range(p):
            m, idx, over = msgs[(q - 1) % p]
            rv = d.op(q, {"op": "recv", "msg": m})
            full = sorted(set(over) | {q})
            last[q] = d.op(
                q,
                {
                    "op": "reduce",
                    "inputs": [reduced(idx, over), reduced(idx, [q])],
                    "output": [reduced(idx, full)],
                },
                [rv],
            )
    return last


def ring_reduce_scatter(p: int) -> dict:
    d = _Doc("reduce_scatter", p, None, p)
    _ring_reduce_scatter(d, p, 0)
    return d.doc(8 * p)


def ring_allreduce(p: int) -> dict:
    """Ring reduce-scatter then ring allgather of the reduced indices (the long-vector
    allreduce, seed 001 s4)."""
    d = _Doc("allreduce", p, None, p)
    last = _ring_reduce_scatter(d, p, 0)
    full = list(range(p))
    for t in range(p - 1):
        msgs = {}
        for r in range(p):
            idx = (r - t) % p
            m = d.message(r, [(r + 1) % p], [reduced(idx, full)])
            d.op(r, {"op": "send", "msg": m}, [last[r]])
            msgs[r] = m
        for q in range(p):
            last[q] = d.op(q, {"op": "recv", "msg": msgs[(q - 1) % p]})
    return d.doc(8 * p)


def _power_of_two(p: int, name: str) -> None:
    if p < 1 or p & (p - 1):
        raise ValueError(f"{name} needs a power-of-two number of ranks, not {p}")


def _halving(d: _Doc, p: int) -> list:
    """Recursive halving reduce-scatter on p indices: in the step of distance `h` (p/2, p/4,
    ..., 1) rank r and r^h swap halves of their current range; r keeps the upper half if
    bit h of r is set, so it ends with index r reduced over every rank. Returns each rank's
    last op."""
    lo, hi = [0] * p, [p] * p
    over = [[r] for r in range(p)]
    last = [None] * p
    h = p // 2
    while h:
        msgs = {}
        for r in range(p):
            mid = (lo[r] + hi[r]) // 2
            keep_upper = bool(r & h)
            give = range(lo[r], mid) if keep_upper else range(mid, hi[r])
            m = d.message(r, [r ^ h], [reduced(j, over[r]) for j in give])
            d.op(r, {"op": "send", "msg": m}, [last[r]])
            msgs[r] = m
        new_over, new_lo, new_hi = list(over), list(lo), list(hi)
        for r in range(p):
            q = r ^ h
            mid = (lo[r] + hi[r]) // 2
            keep = range(mid, hi[r]) if r & h else range(lo[r], mid)
            rv = d.op(r, {"op": "recv", "msg": msgs[q]})
            both = sorted(over[r] + over[q])
            last[r] = d.op(
                r,
                {
                    "op": "reduce",
                    "inputs": [reduced(j, x) for j in keep for x in (over[r], over[q])],
                    "output": [reduced(j, both) for j in keep],
                },
                [rv, last[r]],  # the previous step's partials are an input too
            )
            new_over[r], new_lo[r], new_hi[r] = both, keep.start, keep.stop
        over, lo, hi = new_over, new_lo, new_hi
        h //= 2
    return last


def halving_reduce_scatter(p: int) -> dict:
    """Recursive halving (MPICH's reduce-scatter for commutative ops), p a power of two."""
    _power_of_two(p, "halving-reduce-scatter")
    d = _Doc("reduce_scatter", p, None, p)
    _halving(d, p)
    return d.doc(8 * p)


def rabenseifner_allreduce(p: int) -> dict:
    """Rabenseifner: recursive-halving reduce-scatter, then recursive-doubling allgather of
    the reduced indices (2 log p steps instead of the ring's 2(p-1)); p a power of two."""
    _power_of_two(p, "rabenseifner-allreduce")
    d = _Doc("allreduce", p, None, p)
    last = _halving(d, p)
    full = list(range(p))
    have = [[x] for x in last]  # ops whose values the next send forwards
    h = 1
    while h < p:
        msgs = {}
        for r in range(p):
            base = r & ~(h - 1)
            m = d.message(r, [r ^ h], [reduced(j, full) for j in range(base, base + h)])
            d.op(r, {"op": "send", "msg": m}, have[r])
            msgs[r] = m
        for r in range(p):
            have[r].append(d.op(r, {"op": "recv", "msg": msgs[r ^ h]}))
        h *= 2
    return d.doc(8 * p)


def doubling_allgather(p: int) -> dict:
    """Recursive doubling: in the step of distance h rank r swaps its h blocks with r^h."""
    _power_of_two(p, "doubling-allgather")
    d = _Doc("allgather", p, None, 1)
    have: list[list] = [[] for _ in range(p)]  # receives whose blocks the next send forwards
    h = 1
    while h < p:
        msgs = {}
        for r in range(p):
            base = r & ~(h - 1)
            m = d.message(r, [r ^ h], [block(o, 0) for o in range(base, base + h)])
            d.op(r, {"op": "send", "msg": m}, have[r])
            msgs[r] = m
        for r in range(p):
            have[r].append(d.op(r, {"op": "recv", "msg": msgs[r ^ h]}))
        h *= 2
    return d.doc()


def linear_reduce(p: int, root: int = 0) -> dict:
    """Every rank sends its contribution to the root, which reduces them in one op."""
    d = _Doc("reduce", p, root, 1)
    recvs = []
    for r in range(p):
        if r != root:
            recvs.append(d.send_recv(r, root, [reduced(0, [r])])[1])
    inputs = [reduced(0, [r]) for r in range(p)]
    d.op(root, {"op": "reduce", "inputs": inputs, "output": [reduced(0, range(p))]}, recvs)
    return d.doc()


def _top(p: int) -> int:
    m = 1
    while m * 2 < p:
        m *= 2
    return m


def binomial_scatter(p: int, root: int = 0) -> dict:
    """Binomial (MST) scatter, seed 001 s4: virtual rank v = r - root; in the step of
    distance m (largest power of two below p first) v sends the blocks of v+m .. v+2m-1
    to v+m. Any p."""
    d = _Doc("scatter", p, root, p)
    real = lambda v: (v + root) % p  # noqa: E731
    got = [None] * p
    m = _top(p)
    while m:
        for v in range(0, p, 2 * m):
            if v + m < p:
                blocks = [block(root, real(u)) for u in range(v + m, min(v + 2 * m, p))]
                _, rv = d.send_recv(real(v), real(v + m), blocks, [got[v]] if v else [])
                got[v + m] = rv
        m //= 2
    return d.doc(8 * p)


def binomial_gather(p: int, root: int = 0) -> dict:
    """Binomial gather: the scatter's tree upside down; each rank forwards what it has."""
    d = _Doc("gather", p, root, 1)
    real = lambda v: (v + root) % p  # noqa: E731
    have: list[list] = [[] for _ in range(p)]
    m = 1
    while m < p:
        for v in range(m, p, 2 * m):
            blocks = [block(real(u), 0) for u in range(v, min(v + m, p))]
            _, rv = d.send_recv(real(v), real(v - m), blocks, have[v])
            have[v - m].append(rv)
        m *= 2
    return d.doc()


def binomial_reduce(p: int, root: int = 0) -> dict:
    """Binomial reduce: in the step of distance m, v (an odd multiple of m) sends its partial
    over v .. v+m-1 to v-m, which reduces it into its own. Any p."""
    d = _Doc("reduce", p, root, 1)
    real = lambda v: (v + root) % p  # noqa: E731
    over = [[real(v)] for v in range(p)]
    last = [None] * p
    m = 1
    while m < p:
        for v in range(m, p, 2 * m):
            u = v - m
            _, rv = d.send_recv(real(v), real(u), [reduced(0, over[v])], [last[v]])
            both = sorted(over[u] + over[v])
            last[u] = d.op(
                real(u),
                {"op": "reduce", "inputs": [reduced(0, over[u]), reduced(0, over[v])],
                 "output": [reduced(0, both)]},
                [rv, last[u]],
            )  # fmt: skip
            over[u] = both
        m *= 2
    return d.doc()


def linear_scatter(p: int, root: int = 0) -> dict:
    d = _Doc("scatter", p, root, p)
    for r in range(p):
        if r != root:
            d.send_recv(root, r, [block(root, r)])
    return d.doc(8 * p)


def linear_gather(p: int, root: int = 0) -> dict:
    d = _Doc("gather", p, root, 1)
    for r in range(p):
        if r != root:
            d.send_recv(r, root, [block(r, 0)])
    return d.doc()


def xor_allgather(p: int) -> dict:
    """Network-coding relay (seed 000): ranks 1..p-1 send their blocks to rank 0; rank 0
    multi-sends its own block and, for each pair (2i-1, 2i), the XOR of the pair's blocks to
    everyone (an NI multi-send), so each rank decodes its partner's block from the XOR.
    Odd ones out get their block relayed plainly. Even-numbered receivers decode with an
    explicit decode op; the others rely on inferred decoding (both are legal)."""
    d = _Doc("allgather", p, None, 1)
    got = []
    for r in range(1, p):
        got.append(d.send_recv(r, 0, [block(r, 0)])[1])
    everyone = list(range(1, p))
    m = d.message(0, everyone, [block(0, 0)])
    d.op(0, {"op": "send", "msg": m})
    recvs = {r: [d.op(r, {"op": "recv", "msg": m})] for r in everyone}
    for a in range(1, p, 2):
        b = a + 1
        if b < p:
            x = {"xor": [[a, 0], [b, 0]]}
            d.op(0, {"op": "xor_encode", "inputs": [block(a, 0), block(b, 0)], "output": [x]}, got)
            m = d.message(0, everyone, [x])
            d.op(0, {"op": "send", "msg": m}, [(0, len(d.ranks[0]) - 1)])
            for r in everyone:
                rv = d.op(r, {"op": "recv", "msg": m})
                recvs[r].append(rv)
                if r == b:
                    d.op(
                        r,
                        {"op": "decode", "inputs": [x, block(b, 0)], "output": [block(a, 0)]},
                        [rv],
                    )
            # The pair itself is served by the XOR; the others need the plain block.
            others = [r for r in everyone if r not in (a, b)]
            if others:
                m2 = d.message(0, others, [block(a, 0)])
                d.op(0, {"op": "send", "msg": m2}, got)
                for r in others:
                    d.op(r, {"op": "recv", "msg": m2})
        else:
            others = [r for r in everyone if r != a]
            if others:
                m2 = d.message(0, others, [block(a, 0)])
                d.op(0, {"op": "send", "msg": m2}, got)
                for r in others:
                    d.op(r, {"op": "recv", "msg": m2})
    return d.doc()


def pairwise_alltoall(p: int) -> dict:
    """Pairwise exchange (MPICH's long-message MPI_Alltoall): in step k = 1..p-1 rank r
    sends its chunk for r+k and receives the chunk of r-k; each step waits for the last."""
    d = _Doc("alltoall", p, None, p)
    last = [None] * p
    for k in range(1, p):
        now = list(last)
        for r in range(p):
            dst = (r + k) % p
            now[dst] = d.send_recv(r, dst, [block(r, dst)], [last[r]])[1]
        last = now
    return d.doc(8 * p)


def bruck_alltoall(p: int) -> dict:
    """Bruck's all-to-all (MPICH's short-message MPI_Alltoall), without its local
    rotations: in the step of distance h = 1, 2, 4, ... rank r sends to r+h, in one message,
    every block it holds whose destination is r+d with bit h set in d. A block (o, j)
    moves by the binary digits of j-o, so it is forwarded through up to log2 p ranks and a
    message's blocks come from many owners (not contiguous anywhere)."""
    d = _Doc("alltoall", p, None, p)
    held = [{(r, j) for j in range(p)} for r in range(p)]
    got: list[list] = [[] for _ in range(p)]  # every receive so far: a send may forward it
    h = 1
    while h < p:
        moves = []
        for r in range(p):
            out = sorted(b for b in held[r] if ((b[1] - r) % p) & h)
            if out:
                dst = (r + h) % p
                moves.append((r, dst, out, d.send_recv(r, dst, [block(*b) for b in out], got[r])))
        for r, dst, out, (_, recv) in moves:
            held[r].difference_update(out)
            held[dst].update(out)
            got[dst].append(recv)
        h *= 2
    return d.doc(8 * p)


EXAMPLES = {
    "chain-bcast": ("broadcast", chain_bcast),
    "scatter-allgather-bcast": ("broadcast", scatter_allgather_bcast),
    "ring-allgather": ("allgather", ring_allgather),
    "ring-reduce-scatter": ("reduce_scatter", ring_reduce_scatter),
    "ring-allreduce": ("allreduce", ring_allreduce),
    "rabenseifner-allreduce": ("allreduce", rabenseifner_allreduce),
    "halving-reduce-scatter": ("reduce_scatter", halving_reduce_scatter),
    "doubling-allgather": ("allgather", doubling_allgather),
    "linear-reduce": ("reduce", linear_reduce),
    "binomial-reduce": ("reduce", binomial_reduce),
    "binomial-scatter": ("scatter", binomial_scatter),
    "binomial-gather": ("gather", binomial_gather),
    "linear-scatter": ("scatter", linear_scatter),
    "linear-gather": ("gather", linear_gather),
    "xor-allgather": ("allgather", xor_allgather),
    "pairwise-alltoall": ("alltoall", pairwise_alltoall),
    "bruck-alltoall": ("alltoall", bruck_alltoall),
}


POWER_OF_TWO = {"rabenseifner-allreduce", "halving-reduce-scatter", "doubling-allgather"}


def supports(name: str, p: int) -> bool:
    """Whether example `name` exists on `p` ranks."""
    return name not in POWER_OF_TWO or (p >= 1 and p & (p - 1) == 0)


def build(name: str, p: int, **kw) -> str:
    """The JSON text of example `name` on `p` ranks."""
    if name not in EXAMPLES:
        raise ValueError(f"unknown example schedule '{name}': use {', '.join(EXAMPLES)}")
    return json.dumps(EXAMPLES[name][1](p, **kw))
