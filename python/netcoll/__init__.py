"""netcoll: design, prove, simulate and run collective communication on interconnection networks.

The compiled core (``netcoll._core``, Rust) builds networks, routes them and computes their
metrics; this package holds the Python API, the CLI, plots and reports.

>>> import netcoll
>>> t = netcoll.topology("ibt:64x64:b=8,24")
>>> t.stats()["diameter"]
10
"""

from ._core import NetcollError, Topology, __version__, memory_budget, set_max_memory
from .networks import canonical_spec, spec_stats, to_networkx, topology

__all__ = [
    "NetcollError",
    "Topology",
    "__version__",
    "canonical_spec",
    "memory_budget",
    "set_max_memory",
    "spec_stats",
    "to_networkx",
    "topology",
]
