"""netcoll: design, prove, simulate and run collective communication on interconnection networks.

The compiled core (``netcoll._core``, Rust) builds networks, routes them, builds and verifies
schedules and runs the engines; this package holds the Python API, the CLI, plots and reports.

>>> import netcoll
>>> t = netcoll.topology("ibt:64x64:b=8,24")
>>> t.stats()["diameter"]
10
>>> s = netcoll.schedule("allreduce", algo="ring", topo="mesh:4x4")
>>> s.verify().ok, len(s.messages)
(True, 480)

The API: :func:`topology`, :func:`schedule` (a :class:`Schedule`) or :func:`load_schedule`,
:func:`simulate`, :func:`analyze`, :func:`tune`, :func:`sweep` (a pandas DataFrame); networks
as spec strings or :class:`Topology` objects, sizes as ``1024`` or
``"1K"``, parameters as dicts (docs/python-api.md).
"""

import importlib as _importlib

from ._core import NetcollError, Topology, __version__, memory_budget, set_max_memory
from .units import parse_size

# Imported on first use (PEP 562), so that the CLI's commands do not pay for numpy and the
# API modules they do not need: name -> module.
_LAZY = {
    "REFERENCE_MACHINE": "api",
    "analyze": "api",
    "load_schedule": "api",
    "schedule": "api",
    "simulate": "api",
    "sweep": "sweep_study",
    "tune": "api",
    "canonical_spec": "networks",
    "spec_stats": "networks",
    "to_networkx": "networks",
    "topology": "networks",
    "Schedule": "schedules",
    "VerifyResult": "schedules",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'netcoll' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # The API only: not the modules and helpers this file uses.
    return sorted(__all__)


__all__ = [
    "REFERENCE_MACHINE",
    "NetcollError",
    "Schedule",
    "Topology",
    "VerifyResult",
    "__version__",
    "analyze",
    "canonical_spec",
    "load_schedule",
    "memory_budget",
    "parse_size",
    "schedule",
    "set_max_memory",
    "simulate",
    "spec_stats",
    "sweep",
    "to_networkx",
    "topology",
    "tune",
]
