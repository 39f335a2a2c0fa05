"""Schedules in Python: :class:`Schedule` wraps the core's verified IR (docs/schedule.md) with
its messages and operations as numpy structured arrays, pandas frames and a verifier report.

>>> import netcoll
>>> s = netcoll.schedule("allreduce", algo="ring", topo="mesh:4x4")
>>> s.messages.dtype.names
('msg', 'src', 'dst', 'bytes', 'packets', 'step')
>>> s.verify().ok
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from . import _core
from ._core import NetcollError

#: One row per (message, destination): a multi-send to k ranks is k rows.
MESSAGE_DTYPE = np.dtype(
    [
        ("msg", np.int64),
        ("src", np.int32),
        ("dst", np.int32),
        ("bytes", np.int64),
        ("packets", np.int32),
        ("step", np.int32),
    ]
)

#: One row per operation, in issue order per rank; ``msg`` and ``step`` are -1 when absent.
OP_DTYPE = np.dtype(
    [
        ("rank", np.int32),
        ("index", np.int32),
        ("op", "U8"),
        ("msg", np.int64),
        ("step", np.int32),
        ("deps", np.int32),
    ]
)


@dataclass(frozen=True)
class VerifyResult:
    """The verifier's verdict: ``ok``, the one-line ``diagnosis`` (None when ok) and the
    full ``report`` (counts per check)."""

    ok: bool
    diagnosis: str | None
    report: dict[str, Any] = field(repr=False, default_factory=dict)

    def __bool__(self) -> bool:
        return self.ok


class Schedule:
    """A collective's schedule: who sends what to whom, in which step.

    Build one with :func:`netcoll.schedule` or read one with :meth:`from_json`. The compiled
    schedule is ``.core`` (what the engines take)."""

    def __init__(self, core: _core.Schedule) -> None:
        self.core = core

    @classmethod
    def from_json(cls, text: str, verify: bool = True) -> Schedule:
        """Reads a schedule from its JSON text (docs/schedule.md). Unless ``verify=False``,
        raises ``NetcollError`` with the verifier's diagnosis when the schedule is wrong."""
        s = cls(_core.Schedule.from_json(text))
        if verify:
            result = s.verify()
            if not result.ok:
                raise NetcollError(f"the schedule is not correct: {result.diagnosis}")
        return s

    def simulate(self, engine: str = "flit", topo: Any = None, **kw: Any) -> dict[str, Any]:
        """Runs this schedule on an engine (``netcoll.simulate(self, ...)``): ``topo`` is the
        network (a spec or a Topology; the loggops engine needs none)."""
        from .api import simulate

        return simulate(self, engine=engine, topo=topo, **kw)

    def to_json(self, pretty: bool = False) -> str:
        """The schedule's JSON text (docs/schedule.md)."""
        return self.core.to_json(pretty)

    def verify(self) -> VerifyResult:
        """Runs the verifier: matching, order, data, outcome (docs/schedule.md)."""
        report = dict(self.core.verify())
        return VerifyResult(bool(report.get("ok")), report.get("diagnosis"), report)

    @property
    def op(self) -> str:
        """The collective, by its canonical name (``bcast``, ``allreduce``, ...)."""
        from .vocabulary import display_op

        return display_op(self.core.kind)

    @property
    def ranks(self) -> int:
        return self.core.p

    @property
    def root(self) -> int:
        return self.core.root

    @property
    def placement(self) -> list[int]:
        """``placement[i]``: the network endpoint of rank ``i``."""
        return list(self.core.placement)

    @cached_property
    def _doc(self) -> dict[str, Any]:
        return json.loads(self.core.to_json(False))

    @cached_property
    def messages(self) -> np.ndarray:
        """Messages as a structured array (:data:`MESSAGE_DTYPE`): ``msg``, ``src``,
        ``dst``, ``bytes`` (payload), ``packets``, ``step`` (of the send; -1 if none)."""
        doc = self._doc
        per_block = int(doc.get("bytes_per_block", 1))
        step = _send_steps(doc)
        rows = [
            (i, m["src"], d, len(m["payload"]) * per_block, m.get("packets", 1), step.get(i, -1))
            for i, m in enumerate(doc["messages"])
            for d in m["dst"]
        ]
        return np.array(rows, dtype=MESSAGE_DTYPE)

    @cached_property
    def ops(self) -> np.ndarray:
        """Operations as a structured array (:data:`OP_DTYPE`): ``rank``, ``index``, ``op``
        (send, recv, copy, reduce, ...), ``msg``, ``step``, ``deps`` (how many it waits for)."""
        rows = [
            (
                r,
                i,
                o.get("op", "?"),
                o.get("msg", -1),
                o.get("step", -1),
                len(o.get("deps", [])),
            )
            for r, ops in enumerate(self._doc["ranks"])
            for i, o in enumerate(ops)
        ]
        return np.array(rows, dtype=OP_DTYPE)

    def to_pandas(self, what: str = "messages"):
        """``messages`` or ``ops`` as a pandas DataFrame (pandas is optional: ``pip install
        pandas``)."""
        try:
            import pandas as pd
        except ImportError:
            raise NetcollError("to_pandas needs pandas: pip install pandas") from None
        if what not in ("messages", "ops"):
            raise NetcollError(f"to_pandas('{what}'): use 'messages' or 'ops'")
        return pd.DataFrame(getattr(self, what))

    def __repr__(self) -> str:
        return f"<Schedule {self.op} ranks={self.ranks} messages={len(self._doc['messages'])}>"


def _send_steps(doc: dict[str, Any]) -> dict[int, int]:
    """Per message: the step of its first send that has one."""
    steps: dict[int, int] = {}
    for ops in doc["ranks"]:
        for o in ops:
            if o.get("op") == "send" and "step" in o:
                steps.setdefault(o["msg"], o["step"])
    return steps
