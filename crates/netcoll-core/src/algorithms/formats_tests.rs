//! Every registered algorithm round-trips through MSCCL XML and GOAL on small networks:
//! netcoll -> file -> netcoll gives a schedule that verifies, of the same collective, moving
//! the same chunks (MSCCL) or bytes (GOAL, which carries no data) between the same ranks.

use super::{for_kind, AlgoRequest};
use crate::schedule::formats::goal::Goal;
use crate::schedule::formats::{
    goal_check, goal_lower, goal_write, msccl::Msccl, msccl_lower, msccl_write,
};
use crate::schedule::{CollectiveKind, Schedule};
use crate::Topology;

/// Chunks moved from each rank to each other rank (in bytes with `bytes`).
fn traffic_in(s: &Schedule, bytes: bool) -> std::collections::BTreeMap<(u32, u32), u64> {
    let unit = if bytes { s.bytes_per_block() } else { 1 };
    let mut t = std::collections::BTreeMap::new();
    for m in s.messages() {
        for &d in s.dests(m) {
            *t.entry((m.src, d)).or_insert(0) += s.payload(m).len() as u64 * unit;
        }
    }
    t
}

fn traffic(s: &Schedule) -> std::collections::BTreeMap<(u32, u32), u64> {
    traffic_in(s, false)
}

fn built(spec: &str) -> Vec<(String, Schedule)> {
    let t = Topology::from_spec(spec).unwrap();
    let mut out = Vec::new();
    for kind in CollectiveKind::ALL {
        for a in for_kind(kind) {
            let mut req = AlgoRequest::new(&t, kind);
            req.root = 1.min(req.p - 1);
            if kind == CollectiveKind::Multicast {
                req.targets = vec![0, 2];
            }
            if let Ok(s) = super::build(a.name, &req) {
                out.push((format!("{} {} on {spec}", a.name, kind.name()), s));
            }
        }
    }
    out
}

#[test]
fn every_algorithm_round_trips_through_msccl_and_goal() {
    let (mut msccl, mut goal, mut unrepresentable) = (0, 0, Vec::new());
    for spec in ["mesh:4x4", "mesh:3x3", "torus:4x2", "hypercube:3"] {
        for (what, s) in built(spec) {
            assert!(s.verify().ok, "{what}");
            // GOAL: sizes and dependencies only; the checker proves the information flow.
            let (g, _) = goal_write::to_goal(&s, 0).unwrap();
            let back = Goal::parse(&g.to_text(), &what).unwrap();
            assert_eq!(back, g, "{what}");
            let kind = s.collective().kind;
            if !matches!(kind, CollectiveKind::Multicast | CollectiveKind::ManyToAll) {
                let r =
                    goal_check::check(&back, kind, s.collective().root, None, u64::MAX).unwrap();
                assert_eq!(r.diagnosis, None, "{what}");
                assert_eq!(r.messages, s.verify().counts.messages, "{what}");
                // Read back onto the IR (opaque pieces): same bytes between the same ranks.
                let (ir, _) = goal_lower::lower(&back, kind, s.collective().root, u64::MAX)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(ir.is_correct(), "{what}");
                assert_eq!(traffic_in(&ir, true), traffic_in(&s, true), "{what}");
                goal += 1;
            }
            // MSCCL: data identities survive; the schedule read back proves itself.
            match msccl_write::to_msccl(&s) {
                Ok(x) => {
                    let text = x.to_xml();
                    let read = Msccl::parse(&text, &what).unwrap();
                    let c = s.collective();
                    let lowered = msccl_lower::lower(&read, Some(c.kind), c.root, 1).unwrap();
                    let back = lowered.unwrap_or_else(|d| panic!("{what}: {d}\n{text}"));
                    let report = back.verify();
                    assert!(report.ok, "{what}: {:?}\n{text}", report.diagnosis);
                    assert_eq!(back.collective(), s.collective(), "{what}");
                    assert_eq!(traffic(&back), traffic(&s), "{what}");
                    msccl += 1;
                }
                Err(e) => unrepresentable.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(msccl >= 100 && goal >= 100, "{msccl} {goal}");
    for u in &unrepresentable {
        assert!(
            u.contains("XOR") || u.contains("not representable") || u.contains("pipelining"),
            "{u}"
        );
    }
}
