//! The streaming verifier rejects what the schedule verifier rejects: broken round programs
//! written once through `Prog` to both (a schedule, verified as a DAG, and the streaming
//! verifier), each diagnosis naming the rank and the block (and, streamed, the round).

use super::{Done, Out, Partials, Prog, Transfer};
use crate::algorithms::AlgoRequest;
use crate::schedule::{CollectiveKind, StreamVerifier};
use crate::topology::Topology;

/// The verdicts of the schedule verifier and of the streaming verifier on `write`.
fn verdicts(
    req: &AlgoRequest,
    blocks: u32,
    write: impl Fn(&mut Prog<'_>),
) -> (Result<(), String>, Result<(), String>) {
    let mut g = Prog::new(req, blocks, Out::Build);
    write(&mut g);
    let Ok(Done::Built(s)) = g.finish() else {
        panic!("the builder refused the program")
    };
    let dag = s.verify().diagnosis.map_or(Ok(()), Err);
    let mut v = StreamVerifier::new();
    let mut g = Prog::new(req, blocks, Out::Stream(&mut v));
    write(&mut g);
    assert!(matches!(g.finish(), Ok(Done::Streamed)));
    (dag, v.finish())
}

/// Both reject; the streamed diagnosis contains every one of `words`.
fn assert_both_reject(
    req: &AlgoRequest,
    blocks: u32,
    write: impl Fn(&mut Prog<'_>),
    words: &[&str],
) {
    let (dag, stream) = verdicts(req, blocks, write);
    let (Err(d), Err(s)) = (&dag, &stream) else {
        panic!("dag {dag:?}, stream {stream:?}")
    };
    for w in words {
        assert!(
            s.contains(w),
            "streamed diagnosis {s:?} lacks {w:?} (dag: {d})"
        );
    }
}

/// Ring allgather (one block per rank), with `skip(k, r)` dropping rank r's send in step k
/// and `shift` changing which block is passed.
fn ring_gather(g: &mut Prog<'_>, p: u32, shift: u32, skip: impl Fn(u32, u32) -> bool) {
    for k in 0..p - 1 {
        let t: Vec<Transfer> = (0..p)
            .filter(|&r| !skip(k, r))
            .map(|r| Transfer::new(r, (r + 1) % p, vec![g.block((r + p - k + shift) % p, 0)]))
            .collect();
        g.round(k, &t);
    }
}

/// Ring reduce-scatter, with `twice` making rank 1 absorb its first received piece twice.
fn ring_reduce(g: &mut Prog<'_>, p: u32, steps: u32, twice: bool) {
    let mut part = Partials::new(p, p);
    for k in 0..steps {
        let t: Vec<Transfer> = (0..p)
            .map(|r| Transfer::new(r, (r + 1) % p, part.pieces(r, [(r + 2 * p - k - 1) % p])))
            .collect();
        g.round(k, &t);
        for tr in &t {
            if twice && k == 1 && tr.to == 1 {
                let mut both = tr.payload.clone();
                both.extend(tr.payload.iter().cloned());
                g.reduce(tr.to, &[part.pieces(1, [0]), both].concat());
            }
            part.absorb(g, tr.to, &tr.payload);
        }
    }
}

#[test]
fn correct_programs_pass_both() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Allgather);
    let (dag, stream) = verdicts(&req, 1, |g| ring_gather(g, 6, 0, |_, _| false));
    assert_eq!((dag, stream), (Ok(()), Ok(())));
    let req = AlgoRequest::new(&t, CollectiveKind::ReduceScatter);
    let (dag, stream) = verdicts(&req, 6, |g| ring_reduce(g, 6, 5, false));
    assert_eq!((dag, stream), (Ok(()), Ok(())));
}

#[test]
fn a_dropped_transfer_is_found() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Allgather);
    // Rank 2 never passes on in step 1: rank 3 then sends what it lacks in step 2.
    let drop = |g: &mut Prog<'_>| ring_gather(g, 6, 0, |k, r| (k, r) == (1, 2));
    assert_both_reject(&req, 1, drop, &["rank 3 sends", "round 2", "owner 1"]);
    // Dropped in the last step: nobody forwards it, the postcondition fails.
    let last = |g: &mut Prog<'_>| ring_gather(g, 6, 0, |k, r| (k, r) == (4, 0));
    assert_both_reject(&req, 1, last, &["rank 1 never receives", "owner 2"]);
}

#[test]
fn a_send_before_receiving_is_found() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Allgather);
    // Every rank passes on the block it will only get in this step.
    let early = |g: &mut Prog<'_>| ring_gather(g, 6, 5, |_, _| false);
    assert_both_reject(
        &req,
        1,
        early,
        &[
            "rank 0 sends block (owner 5",
            "round 0",
            "before it holds it",
        ],
    );
}

#[test]
fn a_duplicated_reduction_is_found() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::ReduceScatter);
    let twice = |g: &mut Prog<'_>| ring_reduce(g, 6, 5, true);
    assert_both_reject(
        &req,
        6,
        twice,
        &["rank 1 reduces block index", "after round 1", "twice"],
    );
}

#[test]
fn a_wrong_final_holding_is_found() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::ReduceScatter);
    // One step short: the partial of index 0 never reaches rank 0.
    let short = |g: &mut Prog<'_>| ring_reduce(g, 6, 4, false);
    assert_both_reject(
        &req,
        6,
        short,
        &[
            "rank 0 ends with block index 0",
            "1 of 6",
            "missing {1,2,3,4,5}",
        ],
    );
}

#[test]
fn a_step_going_back_is_found() {
    let t = Topology::from_spec("mesh:2x3").unwrap();
    let req = AlgoRequest::new(&t, CollectiveKind::Allgather);
    let back = |g: &mut Prog<'_>| {
        let (a, b) = (g.block(0, 0), g.block(1, 0));
        g.round(3, &[Transfer::new(0, 1, vec![a])]);
        g.round(2, &[Transfer::new(1, 2, vec![b])]);
        ring_gather(g, 6, 0, |_, _| false);
    };
    let (_, stream) = verdicts(&req, 1, back);
    assert!(stream
        .unwrap_err()
        .contains("rank 1 acts in round 2 after round 3"));
}
