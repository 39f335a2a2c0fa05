"""Networks: spec strings to topologies, metrics, and export to networkx."""

from __future__ import annotations

from typing import Any

from . import _core
from ._core import Topology

SPEC_HELP = (
    "mesh:8x8 | torus:8x8x8 | hypercube:6 | ibt:64x64:b=8,24 | "
    "irregular:switches=8,ports=8,nodes=32,conn=0.8,seed=3 | fattree:k=4,levels=3[,taper=R] | "
    "dragonfly:p=2,a=4,h=2[,g=G][,arrangement=absolute|relative|circulant] | "
    "flatfly:k=4,n=2[,c=C] | hyperx:4x4[,t=T][,k=K] | file:PATH"
)


def topology(spec: str | Topology) -> Topology:
    """Build a network from a spec string (``SPEC_HELP`` lists the forms); a
    :class:`Topology` is returned as it is.

    Raises ``NetcollError`` (a ``ValueError``) with a one-line reason on bad input.
    """
    return spec if isinstance(spec, Topology) else Topology(spec)


def spec_stats(spec: str) -> dict[str, Any]:
    """Exact metrics of a spec; mesh, torus and hypercube come from closed forms without
    building the network, so a torus of a million nodes costs nothing."""
    return _core.spec_stats(spec)


def canonical_spec(spec: str) -> str:
    """The canonical spelling of a spec (raises ``NetcollError`` if malformed)."""
    return _core.canonical_spec(spec)


def to_networkx(topo: Topology):
    """The network as a ``networkx.MultiGraph``.

    Nodes are ``("switch", i)`` and ``("endpoint", i)``; switches carry ``ports`` and, in the
    coordinate families, ``coords``. Edges carry ``kind`` ("link" or "attach"), the ports at
    each end and, for links, the link id. Parallel links stay parallel.
    """
    import networkx as nx

    # networkx keeps a few dicts per node and edge: about a kilobyte each.
    items = topo.num_switches + 2 * topo.num_endpoints + topo.num_links
    _core.check_memory(f"the networkx graph of {topo.name}", items * 1000.0)
    g = nx.MultiGraph(name=topo.name)
    for s in range(topo.num_switches):
        attrs: dict[str, Any] = {"kind": "switch", "ports": topo.num_ports(s)}
        coords = topo.coords(s)
        if coords is not None:
            attrs["coords"] = tuple(coords)
        g.add_node(("switch", s), **attrs)
    for e, (s, p) in enumerate(topo.endpoints()):
        g.add_node(("endpoint", e), kind="endpoint")
        g.add_edge(("endpoint", e), ("switch", s), kind="attach", port=p)
    for lid, (sa, pa, sb, pb) in enumerate(topo.links()):
        g.add_edge(("switch", sa), ("switch", sb), kind="link", link=lid, ports=(pa, pb))
    return g
