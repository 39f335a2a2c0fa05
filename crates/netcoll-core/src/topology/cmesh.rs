//! BookSim 2's concentrated mesh (`cmesh`, its networks/cmesh.cpp): a `k x k` mesh of
//! routers with `c = 4` nodes each (a 2 x 2 block of the `2k x 2k` grid of nodes), and
//! express links on the edges. BookSim's code is written for `n = 2` and `c = 4` only (it
//! asserts both), and for even `k` (its edge pairing needs it).
//!
//! Ports, as BookSim adds its channels: 0..4 the nodes (node `(x, y)` of the router's block
//! on port `2y + x`), then 4 (+x), 5 (-x), 6 (+y), 7 (-y). Router `(x, y)` is `y * k + x`.
//! Node ids run row by row over the `2k x 2k` grid (BookSim's numbering), so node `i` sits
//! on router `((i / 2k) / 2) * k + (i % 2k) / 2`.
//!
//! The edge ports that a mesh leaves open are express links, each pairing two routers half
//! an edge apart through the same port: the -x ports of `(0, y)` and `(0, y + k/2)`, the +x
//! ports of `(k-1, y)` and `(k-1, y + k/2)`, the -y ports of `(x, 0)` and `(x + k/2, 0)`,
//! the +y ports of `(x, k-1)` and `(x + k/2, k-1)`. They are `Global` links (the long ones:
//! BookSim's `use_noc_latency` gives them `k` cycles against 2 for the others); the
//! `*_no_express` routings never take them.

use super::mesh_torus::port;
use super::{Family, LinkClass, Topology, TopologyBuilder};
use crate::error::Result;
use crate::spec::TopologySpec;

/// Nodes per router (BookSim asserts `c == 4`), as a 2 x 2 block.
pub const CMESH_C: usize = 4;
/// Port of the +x link (the nodes take 0..4); -x, +y, -y follow.
pub const CMESH_PX: usize = CMESH_C;

pub fn build(k: usize) -> Result<Topology> {
    let n = k * k;
    let mut b = TopologyBuilder::new(std::iter::repeat_n(CMESH_C + 4, n))?;
    for node in 0..n * CMESH_C {
        let (row, col) = (node / (2 * k), node % (2 * k));
        let router = (row / 2) * k + col / 2;
        b.endpoint(port(router, 2 * (row % 2) + col % 2))?;
    }
    let at = |x: usize, y: usize| y * k + x;
    let (px, nx, py, ny) = (CMESH_PX, CMESH_PX + 1, CMESH_PX + 2, CMESH_PX + 3);
    for y in 0..k {
        for x in 0..k {
            if x + 1 < k {
                b.link(port(at(x, y), px), port(at(x + 1, y), nx))?;
            }
            if y + 1 < k {
                b.link(port(at(x, y), py), port(at(x, y + 1), ny))?;
            }
        }
    }
    let half = k / 2;
    for i in 0..half {
        let express = [
            (at(0, i), at(0, i + half), nx),
            (at(k - 1, i), at(k - 1, i + half), px),
            (at(i, 0), at(i + half, 0), ny),
            (at(i, k - 1), at(i + half, k - 1), py),
        ];
        for (a, c, p) in express {
            b.link_classed(port(a, p), port(c, p), LinkClass::Global)?;
        }
    }
    b.finish(
        TopologySpec::Cmesh { k }.canonical(),
        Family::Cmesh { k },
        vec![k, k],
    )
}

#[cfg(test)]
mod tests {
    use crate::topology::{LinkClass, Peer, Topology};

    /// BookSim's `CMesh::NodeToRouter` and `NodeToPort` for c = 4 (its cmesh.cpp).
    fn booksim_node(k: usize, node: usize) -> (usize, usize) {
        let router = (node / (2 * k)) / 2 * k + (node % (2 * k)) / 2;
        let port = 2 * ((node / (2 * k)) & 1) + (node & 1);
        (router, port)
    }

    #[test]
    fn nodes_sit_where_booksim_puts_them_and_edges_have_express_links() {
        let k = 4;
        let t = Topology::from_spec("cmesh:k=4").unwrap();
        assert_eq!((t.num_switches(), t.num_endpoints()), (16, 64));
        for node in 0..64 {
            let at = t.endpoints()[node];
            assert_eq!(
                (at.switch as usize, at.port as usize),
                booksim_node(k, node)
            );
        }
        // 24 mesh links and 4 express links per edge pair set: 2 per edge, 4 edges.
        let express = (0..t.num_links() as u32)
            .filter(|&l| t.link_class(l) == LinkClass::Global)
            .count();
        assert_eq!((t.num_links(), express), (24 + 8, 8));
        // Router (0, 1)'s -x port leads to router (0, 3)'s -x port.
        let Peer::Switch { switch, port, .. } = t.peer(4, 5) else {
            panic!("an express link")
        };
        assert_eq!((switch, port), (12, 5));
        assert!(Topology::from_spec("cmesh:k=3").is_err());
        assert!(Topology::from_spec("cmesh:k=4,c=2").is_err());
    }
}
