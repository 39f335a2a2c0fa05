"""Lowers one rank's compiled :class:`~netcoll.mpi.executor.Program` to the flat program the
Rust executor runs (``crates/netcoll-mpi``): every piece bound to a byte span of the input,
the output or one scratch arena, every MPI message to its peer, tag and spans, every compute
step to a copy, an XOR or a reduction over spans. Nothing is left to decide while it runs.

The Python executor decides at run time where a piece is (what it holds when an op is
issued). Lowering makes the same decisions once, by a dry run in one valid order (Kahn's
order over the ops' local dependency closures, lowest index first), with one rule that makes
the result valid in *every* order the real run may take: an op may use a value only if the
op that produced it (a receive, a decode, a compute) is in the op's own dependency closure.
So an op never reads a span that another op may still be filling.

- a receive lands where the Python executor puts it: straight into the output when the
  message's payload is contiguous there (``Program.direct``), else in its own scratch span;
- a send of a multi-piece payload sends the pieces where they lie (the Rust side makes an
  MPI derived datatype of them), unless an identical payload arrived whole (forwarding:
  one span);
- a piece a send or compute needs but does not hold as such (an XOR combination) is decoded
  into scratch just before the op (``pre`` instructions);
- computed pieces go straight to their home in the output when they are required there;
- a rank's own input pieces are copied home at the end, except those a later send reads
  from home (several pieces contiguous there: one span), which are copied while the first
  messages are in flight (``early``);
- a multi-piece send of 8 KiB or more is packed into one scratch span just before it
  starts (MPICH's single-copy path takes only contiguous send buffers), and a multi-piece
  receive whose pieces all have a home in the output lands there through a datatype.

Spans are ``[buffer, byte offset, byte length]`` with buffer 0 = input, 1 = output,
2 = scratch; the arena is laid out here (each span 64-byte aligned) and allocated once per
buffer set by the caller.
"""

from __future__ import annotations

import heapq

from . import gf2
from .executor import ExecutionError, Program, _packet_bytes, missing_reduced

IN, OUT, SCRATCH = 0, 1, 2
SEND, RECV, COMPUTE = 0, 1, 2
ALIGN = 64
# Multi-piece sends from this size up are packed into one span (see _Lowering.pack): the
# default of MPICH's MPIR_CVAR_CH4_IPC_CMA_P2P_THRESHOLD, where its single-copy path starts.
PACK_BYTES = 8192


class _Lowering:
    def __init__(self, prog: Program):
        self.prog, self.plan, self.me = prog, prog.plan, prog.rank
        self.item = prog.item
        self.red = prog.plan.is_reduction
        self.scratch = 0
        self.held: dict = {}  # key -> [(producer mask, span)]
        self.at_home: dict = {}  # key -> its home span, filled by an early copy
        self.early_copies: dict = {}  # key -> the early copy that puts it at home
        self.read_at_home: set = set()  # keys a send reads from home: copied early
        self.filled = set(prog.in_place)
        self.recv_span: dict[int, list] = {}  # message -> the spans it lands in, in order
        self.recv_ops: dict[int, list[tuple[int, int, int]]] = {}  # message -> (op, a, b)
        self.packets_in: dict[int, int] = {}  # message -> producer mask once complete
        self.have: dict[int, set[int]] = {}
        self.every = (1 << len(prog.ops)) - 1
        lay, off = prog.layout, prog.layout.input_offset(self.me)
        if off is not None:
            for key in lay.initial_keys(self.me):
                a, b = lay.key_range(key)
                self.hold(key, 0, [IN, (a - off) * self.item, (b - a) * self.item])

    # ---------------------------------------------------------------- spans and values

    def alloc(self, nbytes: int) -> list:
        at = self.scratch
        self.scratch += -(-max(nbytes, 1) // ALIGN) * ALIGN
        return [SCRATCH, at, nbytes]

    def hold(self, key, mask: int, span: list) -> None:
        self.held.setdefault(key, []).append((mask, span))

    def available(self, closure: int) -> dict:
        """Key -> span of every value this op may read."""
        out = {}
        for key, entries in self.held.items():
            for mask, span in entries:
                if mask & ~closure == 0:
                    out[key] = span
                    break
        return out

    def lookup(self, key, closure: int) -> list | None:
        for mask, span in self.held.get(key, ()):
            if mask & ~closure == 0:
                return span
        return None

    def value(self, key, i: int, closure: int, pre: list) -> list:
        """The span of a piece op `i` reads, decoding an XOR combination into scratch (a
        `pre` instruction of op `i`) if it holds only what the piece is made of."""
        span = self.lookup(key, closure)
        if span is not None:
            return span
        if self.red:
            raise missing_reduced(self.me, key, self.plan.p)
        known = self.available(closure)
        combo = gf2.solve(key, known)
        if combo is None:
            raise ExecutionError(f"rank {self.me} cannot form piece {key:#x}")
        dst = self.alloc(self.prog.layout.key_len(key) * self.item)
        pre.append({"Xor": [dst, [known[k] for k in combo], False]})
        self.hold(key, 1 << i, dst)
        return dst

    def home(self, key) -> list | None:
        """The output slot of a required piece not yet claimed (claims it)."""
        span = self.prog.home.get(key)
        if span is None or key in self.filled:
            return None
        self.filled.add(key)
        return [OUT, span[0] * self.item, (span[1] - span[0]) * self.item]

    # ---------------------------------------------------------------- ops

    def recv_buffer(self, m: int) -> list:
        """The spans message `m` lands in: one span of the output when its payload is
        contiguous there, else each piece at its own home in the output when every piece
        has an unclaimed one (an MPI datatype receives it in place: no copy afterwards),
        else one scratch span."""
        pieces = self.recv_span.get(m)
        if pieces is None:
            start = self.prog.direct.get(m)
            length = self.prog.msg_len[m]
            if start is not None:
                pieces = [[OUT, start * self.item, length]]
            else:
                pieces = self.scattered_homes(m) or [self.alloc(length)]
            self.recv_span[m] = pieces
        return pieces

    def scattered_homes(self, m: int) -> list | None:
        payload, offsets = self.plan.messages[m].payload, self.prog.msg_offsets[m]
        homes = self.prog.home
        if not all(k in homes and k not in self.filled for k in payload):
            return None
        spans = [[OUT, homes[k][0] * self.item, (homes[k][1] - homes[k][0]) * self.item]
                 for k in payload]  # fmt: skip
        at = 0
        for (off, length), span in zip(offsets, spans):
            if off != at or length != span[2]:
                return None  # padded or overlapping pieces: not a plain concatenation
            at += length
        if at != self.prog.msg_len[m]:
            return None
        self.filled.update(payload)
        return spans

    def segments(self, m: int, d: int, a: int, b: int):
        length, k = self.prog.msg_len[m], self.plan.messages[m].packets
        for sa, sb, tag in self.prog.segs[(m, d)]:
            if sa >= a and sb <= b:
                yield tag, _packet_bytes(length, k, sa), _packet_bytes(length, k, sb)

    def recv(self, i: int, op) -> dict:
        m = op.msg
        a, b = self.plan.packet_range(op)
        buf = self.recv_buffer(m)
        src = self.plan.messages[m].src
        self.recv_ops.setdefault(m, []).append((i, a, b))
        transfers = [
            [src, tag, _cut(buf, lo, hi)] for tag, lo, hi in self.segments(m, self.me, a, b)
        ]
        return {"kind": RECV, "transfers": transfers, "instrs": []}

    def received(self, i: int, op) -> None:
        """Dry-run completion of a receive: a whole message makes its pieces held, by the
        receive ops that brought its packets."""
        m = op.msg
        a, b = self.plan.packet_range(op)
        got = self.have.setdefault(m, set())
        got.update(range(a, b))
        self.packets_in[m] = self.packets_in.get(m, 0) | 1 << i
        msg = self.plan.messages[m]
        if len(got) < msg.packets:
            return
        pieces, mask = self.recv_span[m], self.packets_in[m]
        for key, (off, length) in zip(msg.payload, self.prog.msg_offsets[m]):
            self.hold(key, mask, _within(pieces, off, length))

    def forwarded(self, m: int, a: int, b: int, closure: int) -> list | None:
        """A received message with the same payload whose packets [a, b) this op may read
        (pipelined forwarding), as the spans it landed in."""
        payload = self.plan.messages[m].payload
        for m2, ops in self.recv_ops.items():
            if self.plan.messages[m2].payload != payload:
                continue
            covered = set()
            for r, ra, rb in ops:
                if closure >> r & 1:
                    covered.update(range(ra, rb))
            if all(x in covered for x in range(a, b)):
                return self.recv_span[m2]
        return None

    def send(self, i: int, op, closure: int) -> dict:
        m = op.msg
        msg = self.plan.messages[m]
        a, b = self.plan.packet_range(op)
        pre: list = []
        spans = [self.lookup(k, closure) for k in msg.payload]
        if all(s is not None for s in spans):
            pieces = _coalesce(spans)
            if len(pieces) > 1 and self.prog.need[i] > 0:  # issued after the early copies
                home = [self.at_home.get(k, sp) for k, sp in zip(msg.payload, spans)]
                if len(_coalesce(home)) < len(pieces):
                    pieces = _coalesce(home)
                    self.read_at_home.update(k for k in msg.payload if k in self.at_home)
        else:
            whole = self.forwarded(m, a, b, closure)
            if whole is not None:
                pieces = whole
            else:
                pieces = [self.value(k, i, closure, pre) for k in msg.payload]
        segs = [(d, tag, lo, hi) for d in msg.dst for tag, lo, hi in self.segments(m, d, a, b)]
        base = 0
        if len(pieces) > 1 and segs:
            base = min(s[2] for s in segs)
            end = max(s[3] for s in segs)
            if end - base >= PACK_BYTES:
                pieces = [self.pack(_cut(pieces, base, end), pre)]
            else:
                base = 0
        transfers = [[d, tag, _cut(pieces, lo - base, hi - base)] for d, tag, lo, hi in segs]
        return {"kind": SEND, "transfers": transfers, "instrs": pre}

    def pack(self, pieces: list, pre: list) -> list:
        """`pieces` copied into one scratch span just before the send starts (`pre`
        instructions). MPICH moves a large message between processes of one node with a
        single copy (CMA: the receiver reads the sender's memory) only when the send buffer
        is contiguous; a derived-datatype send goes through its 8 KiB shared-memory cells
        instead, which took 7-14x as long from 256 KiB up on this machine (docs/mpi.md)."""
        dst = self.alloc(sum(p[2] for p in pieces))
        at = dst[1]
        for span in pieces:
            pre.append({"Copy": [[SCRATCH, at, span[2]], span]})
            at += span[2]
        return dst

    def compute(self, i: int, op, closure: int) -> dict:
        instrs: list = []
        if op.kind == "reduce":
            by_index: dict[int, list] = {}
            for key in op.inputs:
                by_index.setdefault(key[0], []).append(self.value(key, i, closure, instrs))
            for key in op.output:
                vals = by_index.get(key[0], [])
                if not vals:
                    raise ExecutionError(
                        f"rank {self.me}: reduce output index {key[0]} has no input"
                    )
                dst = self.home(key) or self.alloc(vals[0][2])
                instrs.append(
                    {"Reduce": [dst, vals]} if len(vals) > 1 else {"Copy": [dst, vals[0]]}
                )
                self.hold(key, 1 << i, dst)
        elif op.kind == "copy":
            for key in op.output:
                src = self.value(key, i, closure, instrs)
                dst = self.home(key) or self.alloc(src[2])
                instrs.append({"Copy": [dst, src]})
                self.hold(key, 1 << i, dst)
        else:  # xor_encode / decode
            inputs = {k: self.value(k, i, closure, instrs) for k in op.inputs}
            for key in op.output:
                combo = gf2.solve(key, inputs)
                if combo is None:
                    raise ExecutionError(
                        f"rank {self.me}: {op.kind} output {key:#x} does not follow from its inputs"
                    )
                length = self.prog.layout.key_len(key) * self.item
                dst = self.home(key) or self.alloc(length)
                instrs.append({"Xor": [dst, [inputs[k] for k in combo], op.kind == "xor_encode"]})
                self.hold(key, 1 << i, dst)
        return {"kind": COMPUTE, "transfers": [], "instrs": instrs}

    def early(self) -> None:
        """Copies home of the required pieces of this rank's own input. Those held at home
        for every op issued later (one that waits for anything), so that a later send of
        several pieces contiguous at home is one span, are run once the first ready ops are
        issued (while their messages are in flight); `split_early` moves the others to the
        end, where a copy costs less: on this machine a 2-rank exchange of 16 MiB with the
        own block copied home after it took 12.5 ms, copied while it was in flight 16 ms."""
        for key in self.prog.required:
            own = self.lookup(key, 0)
            if own is None or key in self.filled:
                continue
            dst = self.home(key)
            if dst is not None:
                self.early_copies[key] = {"Copy": [dst, [own[0], own[1], min(own[2], dst[2])]]}
                self.at_home[key] = dst

    def split_early(self) -> tuple[list, list]:
        """The early copies a send reads from home, and the others (run at the end)."""
        early = [c for k, c in self.early_copies.items() if k in self.read_at_home]
        late = [c for k, c in self.early_copies.items() if k not in self.read_at_home]
        return early, late

    def finish(self) -> list:
        """Copies of the required pieces not yet home, after the last op."""
        instrs: list = []
        for key in self.prog.required:
            if key in self.filled:
                continue
            dst = self.home(key)
            if dst is not None:
                src = self.value(key, len(self.prog.ops), self.every, instrs)
                instrs.append({"Copy": [dst, [src[0], src[1], min(src[2], dst[2])]]})
        return instrs

    # ---------------------------------------------------------------- driver

    def run(self) -> dict:
        prog = self.prog
        ops = prog.ops
        lowered: list = [None] * len(ops)
        self.early()
        for i, op in enumerate(ops):  # receives are bound (and posted) first, as in _Run.go
            if op.kind == "recv":
                lowered[i] = self.recv(i, op)
        count = list(prog.need)
        ready = [i for i in range(len(ops)) if count[i] == 0]
        heapq.heapify(ready)
        done = 0
        while ready:
            i = heapq.heappop(ready)
            op = ops[i]
            if op.kind == "recv":
                self.received(i, op)
            elif op.kind == "send":
                lowered[i] = self.send(i, op, prog.closure[i])
            else:
                lowered[i] = self.compute(i, op, prog.closure[i])
            done += 1
            for w in prog.waiters[i]:
                count[w] -= 1
                if count[w] == 0:
                    heapq.heappush(ready, w)
        if done < len(ops):
            raise ExecutionError(
                f"rank {self.me} is stuck: {len(ops) - done} ops wait for ops that never "
                "complete (the schedule is not executable)"
            )
        early, late = self.split_early()
        finish = late + self.finish()
        return {"ops": lowered, "need": list(prog.need), "waiters": prog.waiters,
                "early": early, "finish": finish, "scratch": self.scratch}  # fmt: skip


def _coalesce(spans: list) -> list:
    """Adjacent spans of one buffer merged (a payload contiguous at home is one span)."""
    out: list = []
    for buf, off, length in spans:
        if out and out[-1][0] == buf and out[-1][1] + out[-1][2] == off:
            out[-1] = [buf, out[-1][1], out[-1][2] + length]
        else:
            out.append([buf, off, length])
    return out


def _within(pieces: list, off: int, length: int) -> list:
    """The span of bytes [off, off + length) of the concatenation of `pieces`, which lie in
    one of them (a received piece never straddles two: see recv_buffer)."""
    at = 0
    for buf, start, size in pieces:
        if at <= off and off + length <= at + size:
            return [buf, start + off - at, length]
        at += size
    raise ExecutionError(f"bytes {off}..{off + length} straddle the spans of a message")


def _cut(pieces: list, lo: int, hi: int) -> list:
    """Byte range [lo, hi) of the concatenation of `pieces`, as spans."""
    out, at = [], 0
    for buf, off, length in pieces:
        a, b = max(lo, at), min(hi, at + length)
        if a < b:
            out.append([buf, off + a - at, b - a])
        at += length
        if at >= hi:
            break
    return out


def lower(prog: Program) -> dict:
    """The flat program of `prog` (see the module docstring)."""
    return _Lowering(prog).run()
