use super::*;
use crate::topology::Topology;

#[test]
fn registry_names_are_unique_per_collective() {
    for kind in CollectiveKind::ALL {
        let mut names: Vec<_> = for_kind(kind).map(|a| a.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "{kind:?}");
    }
}

#[test]
fn build_checks_the_request() {
    let t = Topology::from_spec("mesh:3x3").unwrap();
    let mut req = AlgoRequest::new(&t, CollectiveKind::Broadcast);
    assert!(build("linear", &req).unwrap().verify().ok);
    req.root = 9;
    assert!(build("linear", &req)
        .unwrap_err()
        .to_string()
        .contains("root 9"));
    req.root = 0;
    req.params = Params::parse(&["k=3"]).unwrap();
    let e = build("linear", &req).unwrap_err().to_string();
    assert!(e.contains("takes no parameters"), "{e}");
    req.params = Params::default();
    req.placement = vec![0, 1, 2, 3, 4, 5, 6, 7, 7];
    assert!(build("linear", &req).is_err());
    let e = build("teleport", &AlgoRequest::new(&t, CollectiveKind::Broadcast)).unwrap_err();
    assert!(e.to_string().contains("choose one of linear"), "{e}");
}
