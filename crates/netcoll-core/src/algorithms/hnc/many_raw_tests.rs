//! The mesh form of step (f) against the scan of every source, over meshes of one to three
//! dimensions, every group shape and random source sets.

use super::super::closed::valid_shapes;
use super::super::many::plan;
use super::super::many_layout::{Layout, Setup};
use super::super::plan::show;
use super::{mesh_hops, scanned_hops};
use crate::algorithms::{parse_sources, AlgoRequest, Params};
use crate::schedule::CollectiveKind;
use crate::topology::Topology;

fn both(topo: &str, sources: &str) -> usize {
    let t = Topology::from_spec(topo).unwrap();
    let mut r = AlgoRequest::new(&t, CollectiveKind::ManyToAll);
    r.sources = parse_sources(sources, r.p).unwrap();
    let region = Setup::of(&r).unwrap().region;
    let shapes = valid_shapes(&region);
    for shape in &shapes {
        r.params = Params::parse(&[format!("group={}", show(shape))]).unwrap();
        let setup = Setup::of(&r).unwrap();
        let (_, level) = plan(&r, &setup).unwrap();
        let lay = Layout::new(&setup, &level);
        assert_eq!(
            mesh_hops(&setup, &lay),
            scanned_hops(&setup, &lay),
            "{topo} {sources} group {}",
            show(shape)
        );
    }
    shapes.len()
}

#[test]
fn the_mesh_form_equals_the_scan() {
    let mut shapes = 0;
    for topo in [
        "mesh:16",
        "mesh:8x4",
        "mesh:6x6",
        "mesh:12x8",
        "mesh:4x4x4",
        "mesh:6x4x2",
    ] {
        let p: u32 = Topology::from_spec(topo).unwrap().num_switches() as u32;
        for (count, seed) in [(1, 1), (2, 2), (p / 5 + 1, 3), (p / 2, 4), (p, 5)] {
            shapes += both(topo, &format!("random:{count},seed={seed}"));
        }
        shapes += both(topo, "0,1");
    }
    assert!(shapes > 100, "{shapes} shapes tried");
}
