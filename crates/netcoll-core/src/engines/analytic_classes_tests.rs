//! Link classes in the Hockney models: a hand-worked case, the defaults leaving every figure
//! bit for bit, and the per-step paths agreeing with the full analysis.

use super::*;
use crate::algorithms::{build, round_plan, AlgoRequest};
use crate::engines::aggregate::analyze_rounds;
use crate::engines::analytic::{analyze, Analysis};
use crate::plan::tune::routing_for;
use crate::routing::Routing;
use crate::schedule::{CollectiveKind, ScheduleBuilder};
use crate::topology::ChannelClass;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

fn classes(pairs: &[(&str, f64)]) -> ClassCosts {
    let mut c = ClassCosts::default();
    for &(k, v) in pairs {
        assert!(c.set(k, v), "{k}");
    }
    c
}

/// fattree:k=2,levels=2: endpoints 0, 1 on leaf switch 0 and 2, 3 on leaf 1, so 0 -> 2 goes
/// up one link and down one, and 0 -> 1, 2 -> 3 stay on their leaf (no hops). Broadcast
/// from 0: round 0 sends 0 -> 2; round 1 sends 0 -> 1 and 2 -> 3.
fn fat_tree_broadcast(m: &Machine) -> Analysis {
    let t = Topology::from_spec("fattree:k=2,levels=2").unwrap();
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 4, 0).packetization(1000, 0);
    let d = b.block(0, 0);
    b.set_round(Some(0));
    let s02 = b.send(0, &[2], std::slice::from_ref(&d), &[]);
    let r2 = b.recv(2, s02, &[]);
    b.set_round(Some(1));
    let s01 = b.send(0, &[1], std::slice::from_ref(&d), &[s02]);
    let s23 = b.send(2, &[3], std::slice::from_ref(&d), &[r2]);
    b.recv(1, s01, &[]);
    b.recv(3, s23, &[]);
    let s = b.build().unwrap();
    let r = routing_for(&t, "auto").unwrap();
    analyze(&s, &t, &r, m).unwrap()
}

#[test]
fn per_class_alpha_and_beta_by_hand_on_a_fat_tree() {
    let m = Machine {
        alpha: 1.0,
        beta: 0.001,
        gamma: 0.0,
        classes: classes(&[
            ("alpha_up", 0.5),
            ("alpha_down", 0.25),
            ("beta_up", 0.002),
            ("beta_down", 0.004),
            ("beta_global", 0.1), // no global link on a fat-tree: no effect
        ]),
        ..Machine::default()
    };
    let a = fat_tree_broadcast(&m);
    assert_eq!((a.messages, a.aggregate_hops, a.steps), (3, 2, 2));
    // 0 -> 2: one hop up, one down.
    assert_eq!(a.hops_by_class.counts(), [0, 0, 1, 1]);
    // Round 0: 0 -> 2 costs alpha + alpha_up + alpha_down + n max(beta, beta_up, beta_down)
    // = 1 + 0.75 + 1000 x 0.004 = 5.75. Round 1: two on-leaf messages, alpha + n beta = 2.
    assert!(close(a.times.hockney_rounds, 7.75), "{:?}", a.times);
    // List schedule: rank 0's port sends 0 -> 2 (5.75) then 0 -> 1 (+2); rank 2 forwards at
    // 5.75 (+2): 7.75.
    assert!(close(a.times.hockney, 7.75), "{:?}", a.times);
    // Without classes: 3 + ... = (1 + 1) + (1 + 1) = 4.
    let plain = fat_tree_broadcast(&Machine {
        classes: ClassCosts::default(),
        ..m.clone()
    });
    assert!(close(plain.times.hockney_rounds, 4.0), "{:?}", plain.times);
    // A class beta below beta changes nothing: the endpoint links are the slowest.
    let fast_links = fat_tree_broadcast(&Machine {
        classes: classes(&[("beta_up", 0.0005), ("beta_down", 0.0)]),
        ..m.clone()
    });
    assert_eq!(fast_links.times, plain.times);
    // Other models do not read the classes.
    assert_eq!(
        (a.times.postal, a.times.loggp, a.times.multisend_us),
        (
            plain.times.postal,
            plain.times.loggp,
            plain.times.multisend_us
        )
    );
}

fn analysed(spec: &str, algo: &str, m: &Machine, placement: Option<Vec<u32>>) -> Analysis {
    let t = Topology::from_spec(spec).unwrap();
    let mut req = AlgoRequest::new(&t, CollectiveKind::Allreduce);
    req.bytes = 4096;
    if let Some(p) = placement {
        req.placement = p;
    }
    let s = build(algo, &req).unwrap();
    let r = routing_for(&t, "auto").unwrap();
    analyze(&s, &t, &r, m).unwrap()
}

#[test]
fn classes_equal_to_the_defaults_leave_every_figure_bit_for_bit() {
    let d = Machine::default();
    let same = Machine {
        classes: classes(&[
            ("alpha_local", 0.0),
            ("alpha_global", 0.0),
            ("alpha_up", 0.0),
            ("alpha_down", 0.0),
            ("beta_local", d.beta),
            ("beta_global", d.beta),
            ("beta_up", d.beta),
            ("beta_down", d.beta),
        ]),
        ..d.clone()
    };
    for spec in ["dragonfly:p=2,a=4,h=2", "fattree:k=4,levels=3", "mesh:4x4"] {
        for algo in ["ring", "recursive-doubling", "rabenseifner"] {
            assert_eq!(
                analysed(spec, algo, &d, None),
                analysed(spec, algo, &same, None),
                "{spec} {algo}"
            );
        }
    }
}

/// On a dragonfly every route's latency is alpha plus its hops' class alphas: with only a
/// global alpha set, each message pays it once per global link it crosses, which a single
/// ring round with one message per rank shows directly.
#[test]
fn a_global_alpha_is_paid_per_global_hop() {
    let spec = "dragonfly:p=2,a=4,h=2";
    let t = Topology::from_spec(spec).unwrap();
    let r = routing_for(&t, "auto").unwrap();
    let base = Machine {
        alpha: 1.0,
        beta: 0.0,
        gamma: 0.0,
        ..Machine::default()
    };
    let global = Machine {
        classes: classes(&[("alpha_global", 10.0)]),
        ..base.clone()
    };
    let a0 = analysed(spec, "ring", &base, None);
    let a1 = analysed(spec, "ring", &global, None);
    // Ring: 2(p-1) rounds of rank i -> i+1; a round costs 1 + 10 x (global hops of the
    // slowest route). Linear placement: ranks 2j, 2j+1 share a router, so rank i -> i+1
    // crosses a global link only between groups; some route of every round does.
    let max_global = (0..t.num_endpoints())
        .map(|e| {
            let to = (e + 1) % t.num_endpoints();
            r.route_endpoints(&t, e, to)
                .unwrap()
                .iter()
                .filter(|h| t.channel_class(h.channel) == ChannelClass::Global)
                .count()
        })
        .max()
        .unwrap();
    assert_eq!(max_global, 1);
    assert!(close(a0.times.hockney_rounds, a0.steps as f64));
    assert!(
        close(a1.times.hockney_rounds, a1.steps as f64 * 11.0),
        "{:?}",
        a1.times
    );
}

/// The per-step paths (a round plan, and a built schedule taken per step, routes stored or
/// walked again) charge the classes as the full analysis does.
#[test]
fn per_step_paths_charge_the_classes_as_the_full_analysis() {
    let m = Machine {
        classes: classes(&[
            ("alpha_local", 2e-8),
            ("alpha_global", 3e-7),
            ("alpha_up", 1e-8),
            ("alpha_down", 5e-8),
            ("beta_global", 4e-9),
            ("beta_up", 2e-9),
        ]),
        ..Machine::default()
    };
    for spec in ["dragonfly:p=2,a=4,h=2", "fattree:k=4,levels=3"] {
        let t = Topology::from_spec(spec).unwrap();
        let r: Routing = routing_for(&t, "auto").unwrap();
        for algo in ["ring", "recursive-doubling"] {
            let mut req = AlgoRequest::new(&t, CollectiveKind::Allreduce);
            req.bytes = 4096;
            let s = build(algo, &req).unwrap();
            let full = analyze(&s, &t, &r, &m).unwrap();
            let plan = round_plan(algo, &req).unwrap().unwrap();
            let rounds = analyze_rounds(&plan, &req.placement, &t, &r, &m).unwrap();
            let at = format!("{spec} {algo}");
            assert!(
                close(rounds.times.hockney_rounds, full.times.hockney_rounds),
                "{at}: {} vs {}",
                rounds.times.hockney_rounds,
                full.times.hockney_rounds
            );
            for cap in [usize::MAX, 0] {
                let steps = crate::engines::schedule_rounds::figures_by_steps(&s, &t, &r, &m, cap)
                    .unwrap()
                    .unwrap();
                assert!(
                    close(steps.times.hockney_rounds, full.times.hockney_rounds),
                    "{at} cap {cap}"
                );
            }
            let plain = analyze(&s, &t, &r, &Machine::default()).unwrap();
            assert!(
                full.times.hockney_rounds > plain.times.hockney_rounds,
                "{at}"
            );
        }
    }
}

#[test]
fn bad_class_values_are_refused_with_their_key() {
    let m = Machine {
        classes: classes(&[("alpha_global", -1.0)]),
        ..Machine::default()
    };
    let e = crate::engines::analytic::check_machine(&m)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("alpha_global = -1 must be a finite number >= 0"),
        "{e}"
    );
    let m = Machine {
        classes: classes(&[("beta_up", f64::NAN)]),
        ..Machine::default()
    };
    let e = crate::engines::analytic::check_machine(&m)
        .unwrap_err()
        .to_string();
    assert!(e.contains("beta_up = NaN"), "{e}");
    assert!(!ClassCosts::default().set("alpha_globl", 1.0));
}

/// `hops_by_class` splits `aggregate_hops` by link class: all local on a mesh, local and
/// global on a dragonfly, up and down in equal parts on a fat-tree (every route climbs as
/// far as it descends); and a rank placement that keeps ring neighbours in one group sends
/// fewer hops over the global links than one that scatters them.
#[test]
fn hops_by_class_split_the_aggregate_hops() {
    let d = Machine::default();
    for spec in ["dragonfly:p=2,a=4,h=2", "fattree:k=4,levels=3", "mesh:4x4"] {
        for algo in ["ring", "recursive-doubling"] {
            let a = analysed(spec, algo, &d, None);
            let [local, global, up, down] = a.hops_by_class.counts();
            assert_eq!(
                local + global + up + down,
                a.aggregate_hops,
                "{spec} {algo}"
            );
            assert_eq!(up, down, "{spec} {algo}");
            let want_kinds = match spec.split(':').next().unwrap() {
                "dragonfly" => [true, true, false, false],
                "fattree" => [false, false, true, true],
                _ => [true, false, false, false],
            };
            assert_eq!(
                a.hops_by_class.counts().map(|n| n > 0),
                want_kinds,
                "{spec} {algo}"
            );
        }
    }
    // 72 endpoints, 8 per group in 9 groups: rank i on endpoint 8 (i mod 9) + i / 9 puts
    // ring neighbours in different groups.
    let spec = "dragonfly:p=2,a=4,h=2";
    let linear = analysed(spec, "ring", &d, None);
    let scattered = analysed(
        spec,
        "ring",
        &d,
        Some((0..72).map(|i| i % 9 * 8 + i / 9).collect()),
    );
    assert!(scattered.hops_by_class.global > 2 * linear.hops_by_class.global);
}
