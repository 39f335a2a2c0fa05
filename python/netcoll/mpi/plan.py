"""A schedule as the MPI executor reads it: the JSON format of docs/schedule.md, parsed in
pure Python (every rank parses the same text), and the map from symbolic blocks to element
ranges of the user's buffers.

Piece keys are hashable and cheap to compare:

- movement collectives: an ``int`` bit mask over dense block ids (``Block`` = one bit,
  ``Xor`` = several bits), so a GF(2) combination *is* its key;
- reduction collectives: ``(index, over)`` with ``over`` a bit mask of contributor ranks.

A personalized all-to-all (``alltoall``, MPI_Alltoall) has ``blocks`` per rank, a multiple
of ``p``: rank ``o``'s block ``idx`` belongs to chunk ``idx // (blocks / p)``, the chunk
destined for that rank (see :class:`Layout` for where it lives in the buffers).

A many-to-all multicast (seed 000 s6.3) numbers its blocks as `Collective::block_id` does:
only the ranks in ``sources`` own blocks, block ``(source, idx)`` is bit
``position(source) * blocks + idx``, where ``position`` is the index in the ``sources`` list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

ROOT_OWNS_ALL = {"broadcast", "multicast", "scatter"}
REDUCTIONS = {"reduce", "allreduce", "reduce_scatter"}
CHUNKED = {"scatter", "reduce_scatter"}
ROOTED = {"broadcast", "multicast", "scatter", "gather", "reduce"}
MANY_TO_ALL = "many_to_all"
ALLTOALL = "alltoall"
PER_OWNER = {"gather", "allgather", "alltoall_broadcast", MANY_TO_ALL}
KINDS = ROOT_OWNS_ALL | REDUCTIONS | PER_OWNER | {ALLTOALL}
ALL_PACKETS = (0, None)


class ScheduleError(ValueError):
    """A schedule document the executor cannot run (malformed, or of another format)."""


@dataclass
class Message:
    src: int
    dst: list[int]
    payload: list  # piece keys
    packets: int
    worm: bool


@dataclass
class Op:
    kind: str  # send | recv | copy | reduce | xor_encode | decode
    msg: int = -1
    packets: tuple[int, int | None] = ALL_PACKETS
    inputs: list = field(default_factory=list)
    output: list = field(default_factory=list)
    deps: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Plan:
    """The whole schedule (every rank reads all of it: tags and dependencies span ranks)."""

    kind: str
    p: int
    root: int
    blocks: int
    targets: list[int]
    messages: list[Message]
    ranks: list[list[Op]]
    text: str = ""
    sources: list[int] = field(default_factory=list)  # many_to_all: the owners, in block order

    def __post_init__(self):
        self.source_pos = {s: i for i, s in enumerate(self.sources)}

    @property
    def is_reduction(self) -> bool:
        return self.kind in REDUCTIONS

    def block_bit(self, owner: int, idx: int) -> int:
        """Dense block id, as `Collective::block_id` numbers them."""
        if owner >= self.p or idx >= self.blocks:
            raise ScheduleError(f"block ({owner}, {idx}) does not exist in this {self.kind}")
        if self.kind in ROOT_OWNS_ALL:
            if owner != self.root:
                raise ScheduleError(f"block ({owner}, {idx}): only the root owns blocks")
            return idx
        if self.kind == MANY_TO_ALL:
            if owner not in self.source_pos:
                raise ScheduleError(f"block ({owner}, {idx}): rank {owner} is not a source")
            return self.source_pos[owner] * self.blocks + idx
        return owner * self.blocks + idx

    def block_of(self, bit: int) -> tuple[int, int]:
        if self.kind in ROOT_OWNS_ALL:
            return self.root, bit
        if self.kind == MANY_TO_ALL:
            at, idx = divmod(bit, self.blocks)
            return self.sources[at], idx
        return divmod(bit, self.blocks)

    def owners(self) -> int:
        """How many ranks own original blocks (movement collectives)."""
        if self.kind in ROOT_OWNS_ALL:
            return 1
        return len(self.sources) if self.kind == MANY_TO_ALL else self.p

    def num_blocks(self) -> int:
        if self.is_reduction:
            return self.blocks
        return self.blocks * self.owners()

    def packet_range(self, op: Op) -> tuple[int, int]:
        a, b = op.packets
        return a, self.messages[op.msg].packets if b is None else b


def parse(text: str | dict) -> Plan:
    """Reads a schedule document (its JSON text or the decoded object)."""
    doc = json.loads(text) if isinstance(text, str) else text
    if not isinstance(doc, dict) or doc.get("format") != "netcoll-schedule":
        raise ScheduleError("not a netcoll schedule: its \"format\" is not 'netcoll-schedule'")
    if doc.get("version") != 1:
        raise ScheduleError(f"schedule version {doc.get('version')} is not supported (read 1)")
    try:
        return _parse(doc, text if isinstance(text, str) else json.dumps(doc))
    except (KeyError, TypeError, IndexError) as e:
        raise ScheduleError(f"malformed schedule document: {type(e).__name__} {e}") from None


def _parse(doc: dict, text: str) -> Plan:
    c = doc["collective"]
    kind = c["kind"]
    if kind not in KINDS:
        raise ScheduleError(f"unknown collective kind '{kind}'")
    sources = _sources(kind, c)
    if kind == ALLTOALL and (c["blocks"] < 1 or c["blocks"] % c["p"]):
        raise ScheduleError(
            f"an alltoall needs blocks ({c['blocks']}) to be a positive multiple of p ({c['p']})"
        )
    plan = Plan(
        kind, c["p"], c.get("root", 0), c["blocks"], c.get("targets", []), [], [], text, sources
    )
    if len(doc["ranks"]) > plan.p:
        raise ScheduleError(f"the schedule lists ops for {len(doc['ranks'])} ranks, p = {plan.p}")
    bpb, pb = doc["bytes_per_block"], doc["packet_bytes"]
    for m in doc["messages"]:
        payload = [_piece(plan, x) for x in m["payload"]]
        # The packet count follows from the packetization (docs/schedule.md); `packets`
        # in the file is only a check.
        packets = max(1, -(-len(payload) * bpb // pb)) if pb else 1
        if m.get("packets", packets) != packets:
            raise ScheduleError(
                f"message {len(plan.messages)} says {m['packets']} packets, "
                f"but its payload makes {packets}"
            )
        plan.messages.append(Message(m["src"], list(m["dst"]), payload, packets, "worm" in m))
    for ops in doc["ranks"]:
        plan.ranks.append([_op(plan, o) for o in ops])
    plan.ranks += [[] for _ in range(plan.p - len(plan.ranks))]
    return plan


def _sources(kind: str, c: dict) -> list[int]:
    """The many-to-all sources (checked as `check_sources` does); none for other kinds."""
    sources = c.get("sources") or []
    if kind != MANY_TO_ALL:
        if sources:
            raise ScheduleError(f"only a many_to_all has sources, not a {kind}")
        return []
    p = c["p"]
    if not sources:
        raise ScheduleError('a many_to_all schedule needs its collective\'s "sources"')
    seen = set()
    for s in sources:
        if not isinstance(s, int) or not 0 <= s < p:
            raise ScheduleError(f"many_to_all source {s!r} is out of range: ranks are 0 to {p - 1}")
        if s in seen:
            raise ScheduleError(f"many_to_all source {s} is listed twice")
        seen.add(s)
    return list(sources)


def _piece(plan: Plan, x: dict):
    if "block" in x:
        return 1 << plan.block_bit(*x["block"])
    if "xor" in x:
        mask = 0
        for owner, idx in x["xor"]:
            mask ^= 1 << plan.block_bit(owner, idx)
        return mask
    r = x["reduced"]
    over = 0
    for rank in r["over"]:
        over |= 1 << rank
    return (r["index"], over)


def _op(plan: Plan, o: dict) -> Op:
    deps = [(r, i) for r, i in o.get("deps", [])]
    name = o["op"]
    if name in ("send", "recv"):
        pk = o.get("packets")
        return Op(name, msg=o["msg"], packets=tuple(pk) if pk else ALL_PACKETS, deps=deps)
    ins = [_piece(plan, x) for x in o["inputs"]]
    out = [_piece(plan, x) for x in o["output"]]
    return Op(name, inputs=ins, output=out, deps=deps)


# ------------------------------------------------------------------------------ layout


def split(n: int, parts: int, k: int) -> tuple[int, int]:
    """Element range of part `k` when `n` elements are cut into `parts` near-equal parts."""
    return (k * n) // parts, ((k + 1) * n) // parts


class Layout:
    """Where each block lives, in elements of the collective's *global vector*.

    The global vector is the root's vector (broadcast, multicast, scatter: `p*m`), the
    concatenation of all contributions in rank order (gather, allgather: `p*n`), the sources'
    contributions in the order of the `sources` list (many_to_all: `S*n`; a non-source
    contributes nothing) or the vector being reduced (reduce, allreduce: `n`;
    reduce_scatter: `p*m`). `n` is the per-call count: the vector length for
    broadcast/reduce/allreduce, each owner's contribution for gather/allgather/many_to_all,
    each rank's chunk `m` for scatter/reduce_scatter. Blocks cut their part
    near-equally: block `k` of `B` covers `[k*n//B, (k+1)*n//B)`; chunked kinds cut each rank's
    chunk into its `B/p` blocks the same way, so chunk boundaries are rank boundaries.

    An alltoall is laid out as MPI_Alltoall lays it out, `n` being the count per destination
    (MPI's sendcount): rank `o`'s send buffer holds `p` chunks of `n` elements, chunk `j` for
    rank `j`; rank `j`'s receive buffer holds `p` chunks of `n`, chunk `o` from rank `o`. Its
    global vector is the ranks' send buffers one after the other (`p*p*n`), so block
    `(o, idx)` of chunk `j` sits at `o*p*n + j*n` plus its share of the chunk; its home on
    rank `j` is at `o*n` plus the same share (:meth:`home_range`).
    """

    def __init__(self, plan: Plan, n: int):
        self.plan, self.n = plan, n
        p, kind = plan.p, plan.kind
        self.chunked = kind in CHUNKED
        self.per_owner = kind in PER_OWNER
        self.alltoall = kind == ALLTOALL
        owners = plan.owners() if self.per_owner else p
        self.global_len = n * owners if (self.chunked or self.per_owner) else n
        if self.alltoall:
            self.global_len = p * p * n

    def owner_slot(self, owner: int) -> int:
        """Where an owner's contribution sits among the contributions (per-owner kinds)."""
        return self.plan.source_pos[owner] if self.plan.kind == MANY_TO_ALL else owner

    def block_range(self, owner: int, idx: int) -> tuple[int, int]:
        """Global element range of block (owner, idx) or of reduction index `idx`."""
        n, plan = self.n, self.plan
        if self.alltoall:
            a, b = self.chunk_share(idx)
            at = owner * plan.p * n
            return at + a, at + b
        if self.chunked:
            per = plan.blocks // plan.p
            c, s = divmod(idx, per)
            a, b = split(n, per, s)
            return c * n + a, c * n + b
        a, b = split(n, plan.blocks, idx)
        if self.per_owner:
            at = self.owner_slot(owner) * n
            return at + a, at + b
        return a, b

    def chunk_share(self, idx: int) -> tuple[int, int]:
        """Alltoall: block `idx`'s range in its owner's send buffer (chunk `idx // (B/p)`,
        cut into its `B/p` blocks near-equally)."""
        per = self.plan.blocks // self.plan.p
        c, s = divmod(idx, per)
        a, b = split(self.n, per, s)
        return c * self.n + a, c * self.n + b

    def key_range(self, key) -> tuple[int, int]:
        """Global range of a plain block key (movement) or of a reduction key's index."""
        if isinstance(key, tuple):
            return self.block_range(0, key[0])
        owner, idx = self.plan.block_of(key.bit_length() - 1)
        return self.block_range(owner, idx)

    def key_len(self, key) -> int:
        """Elements of a piece: an XOR combination is as long as its longest block."""
        if isinstance(key, tuple) or key & (key - 1) == 0:
            a, b = self.key_range(key)
            return b - a
        best, bit = 0, 0
        while key:
            if key & 1:
                a, b = self.block_range(*self.plan.block_of(bit))
                best = max(best, b - a)
            key >>= 1
            bit += 1
        return best

    def input_offset(self, rank: int) -> int | None:
        """Global offset of `rank`'s input buffer (None: it has no input)."""
        kind, plan = self.plan.kind, self.plan
        if kind in ROOT_OWNS_ALL:
            return 0 if rank == plan.root else None
        if kind == MANY_TO_ALL:
            at = plan.source_pos.get(rank)
            return None if at is None else at * self.n
        if self.per_owner:
            return rank * self.n
        if self.alltoall:
            return rank * plan.p * self.n
        return 0  # reductions: every rank's contribution spans the whole vector

    def output_window(self, rank: int) -> tuple[int, int] | None:
        """Global range that `rank`'s output buffer holds (None: no output)."""
        kind, plan, n = self.plan.kind, self.plan, self.n
        if kind in CHUNKED:
            return rank * n, (rank + 1) * n
        if self.alltoall:  # p chunks from p owners: not one global range (home_range)
            return 0, plan.p * n
        if kind == "multicast":
            return (0, n) if rank == plan.root or rank in plan.targets else None
        if kind in ("gather", "reduce"):
            return (0, self.global_len) if rank == plan.root else None
        return 0, self.global_len

    def initial_keys(self, rank: int) -> list:
        plan = self.plan
        if plan.is_reduction:
            return [(j, 1 << rank) for j in range(plan.blocks)]
        if plan.kind in ROOT_OWNS_ALL:
            return [1 << k for k in range(plan.blocks)] if rank == plan.root else []
        if plan.kind == MANY_TO_ALL and rank not in plan.source_pos:
            return []  # a non-source owns nothing
        return [1 << plan.block_bit(rank, k) for k in range(plan.blocks)]

    def required_keys(self, rank: int) -> list:
        """What `rank` must hold at the end, each with a home in its output buffer."""
        plan = self.plan
        if self.output_window(rank) is None:
            return []
        per = plan.blocks // plan.p if self.chunked else plan.blocks
        if plan.is_reduction:
            full = (1 << plan.p) - 1
            idx = range(rank * per, (rank + 1) * per) if self.chunked else range(plan.blocks)
            return [(j, full) for j in idx]
        if plan.kind == "scatter":
            return [1 << b for b in range(rank * per, (rank + 1) * per)]
        if self.alltoall:  # chunk `rank` of every owner, in receive-buffer order
            per = plan.blocks // plan.p
            return [
                1 << plan.block_bit(o, rank * per + s) for o in range(plan.p) for s in range(per)
            ]
        return [1 << b for b in range(plan.num_blocks())]

    def home_range(self, rank: int, key) -> tuple[int, int]:
        """Element range of required piece `key` in `rank`'s output buffer."""
        if self.alltoall:
            owner, idx = self.plan.block_of(key.bit_length() - 1)
            a, b = split(
                self.n, self.plan.blocks // self.plan.p, idx % (self.plan.blocks // self.plan.p)
            )
            return owner * self.n + a, owner * self.n + b
        a, b = self.key_range(key)
        w = self.output_window(rank)[0]
        return a - w, b - w
