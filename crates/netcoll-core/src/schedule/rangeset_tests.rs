use super::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

#[test]
fn insert_contains_len() {
    let mut s = RangeSet::new();
    assert!(s.insert(3));
    assert!(!s.insert(3));
    s.insert(130);
    assert!(s.contains(3) && s.contains(130) && !s.contains(4));
    assert_eq!(s.len(), 2);
    assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 130]);
    assert_eq!(s.first(), Some(3));
}

#[test]
fn xor_is_structural() {
    let mut a = RangeSet::from_iter([1, 200]);
    a.xor_with(&RangeSet::singleton(200));
    assert_eq!(a, RangeSet::singleton(1));
    a.xor_with(&RangeSet::singleton(1));
    assert!(a.is_empty());
    assert_eq!(a, RangeSet::new());
}

#[test]
fn full_range_subset_difference() {
    assert_eq!(RangeSet::full(70), RangeSet::range(0, 70));
    assert_eq!(RangeSet::full(64).len(), 64);
    let mut f = RangeSet::full(10);
    assert!(RangeSet::from_iter([2, 9]).is_subset(&f));
    assert!(!RangeSet::singleton(10).is_subset(&f));
    f.difference_with(&RangeSet::range(0, 9));
    assert_eq!(f, RangeSet::singleton(9));
    assert_eq!(
        RangeSet::from_iter([5, 70]).first_common(&RangeSet::from_iter([70, 71])),
        Some(70)
    );
    assert!(!RangeSet::singleton(5).intersects(&RangeSet::singleton(6)));
}

#[test]
fn ranges_cost_runs_not_members() {
    // A ring step's contributors: a range that wraps around is two runs, held inline.
    let wrap = RangeSet::cyclic(60_000, 10_000, 65_536);
    assert_eq!(
        (wrap.len(), wrap.num_runs(), wrap.heap_bytes()),
        (10_000, 2, 0)
    );
    assert!(wrap.contains(65_535) && wrap.contains(0) && !wrap.contains(5_000));
    let mut all = wrap.clone();
    all.union_with(&RangeSet::range(4_464, 60_000));
    assert_eq!(all, RangeSet::full(65_536));
    assert_eq!(RangeSet::cyclic(3, 9, 8), RangeSet::full(8));
}

fn model(s: &RangeSet) -> BTreeSet<u32> {
    s.iter().collect()
}

fn arb() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(0u32..80, 0..40)
}

proptest! {
    #[test]
    fn operations_agree_with_a_btreeset(a in arb(), b in arb()) {
        let (sa, sb) = (RangeSet::from_iter(a.clone()), RangeSet::from_iter(b.clone()));
        let (ma, mb): (BTreeSet<u32>, BTreeSet<u32>) =
            (a.into_iter().collect(), b.into_iter().collect());
        let mut x = sa.clone();
        x.xor_with(&sb);
        prop_assert_eq!(model(&x), &ma ^ &mb);
        prop_assert_eq!(x.clone(), RangeSet::from_iter(model(&x)));
        let mut u = sa.clone();
        u.union_with(&sb);
        prop_assert_eq!(model(&u), &ma | &mb);
        let mut d = sa.clone();
        d.difference_with(&sb);
        prop_assert_eq!(model(&d), &ma - &mb);
        prop_assert_eq!(sa.first_common(&sb), ma.intersection(&mb).next().copied());
        prop_assert_eq!(sa.is_subset(&sb), ma.is_subset(&mb));
        prop_assert_eq!(sa.len() as usize, ma.len());
        for i in 0..82 {
            prop_assert_eq!(sa.contains(i), ma.contains(&i));
        }
        // Canonical: runs never touch.
        prop_assert!(u.runs().windows(2).all(|w| w[0].1 < w[1].0));
    }
}
