//! Property tests: generated algorithms verify for many sizes, and any single dropped send
//! is caught.

use proptest::prelude::*;

use super::examples::*;
use crate::schedule::Schedule;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn binomial_broadcast_verifies(p in 1u32..=64, root in 0u32..64) {
        let s = binomial_bcast(p, root % p, Drop::None);
        let r = s.verify();
        prop_assert!(r.ok, "{:?}", r.diagnosis);
        prop_assert_eq!(r.counts.messages, p as u64 - 1);
    }

    #[test]
    fn ring_allgather_verifies(p in 1u32..=64) {
        let r = ring_allgather(p, Drop::None).verify();
        prop_assert!(r.ok, "{:?}", r.diagnosis);
        prop_assert_eq!(r.counts.messages, p as u64 * (p as u64 - 1));
    }

    #[test]
    fn dropping_one_send_fails(p in 2u32..=64, root in 0u32..64, pick in any::<prop::sample::Index>()) {
        let n = binomial_messages(p);
        let s = binomial_bcast(p, root % p, Drop::Send(pick.index(n)));
        prop_assert!(!s.verify().ok);
        let s = binomial_bcast(p, root % p, Drop::Message(pick.index(n)));
        prop_assert!(!s.verify().ok);
        let s = ring_allgather(p, Drop::Send(pick.index((p * (p - 1)) as usize)));
        prop_assert!(!s.verify().ok);
    }

    #[test]
    fn dropping_one_dependency_fails(p in 2u32..=32, pick in any::<prop::sample::Index>()) {
        // Sends of step 0 hold their data from the start: only later ones can go wrong.
        let first_forward = p as usize;
        let total = (p * (p - 1)) as usize;
        prop_assume!(total > first_forward);
        let n = first_forward + pick.index(total - first_forward);
        let d = ring_allgather(p, Drop::Dep(n)).verify().diagnosis.unwrap_or_default();
        prop_assert!(d.ends_with("before it holds it"), "{}", d);
    }

    #[test]
    fn json_round_trips(p in 1u32..=24, root in 0u32..24) {
        let s = binomial_bcast(p, root % p, Drop::None);
        prop_assert_eq!(Schedule::from_json(&s.to_json()).unwrap(), s);
        let s = ring_reduce_scatter(p);
        prop_assert_eq!(Schedule::from_json(&s.to_json()).unwrap(), s);
    }
}

/// Not a timed test: verifies a ring allgather of about a million ops and prints the time.
#[test]
#[ignore = "large; run with --ignored to see verifier throughput"]
fn million_op_ring_allgather() {
    let t = std::time::Instant::now();
    let s = ring_allgather(708, Drop::None);
    let built = t.elapsed();
    let r = s.verify();
    assert!(r.ok, "{:?}", r.diagnosis);
    println!(
        "{} ops: built in {built:?}, verified in {:?}",
        r.counts.ops,
        t.elapsed() - built
    );
}
