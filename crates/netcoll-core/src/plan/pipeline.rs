//! Figures of a pipelined schedule whose size grows with its packet count, from three small
//! ones: the postal tree of a 100 MB broadcast sends 65,104 packets of 1,536 bytes down every
//! edge, but its figures are affine in the packet count `k` at a fixed packet size (once the
//! pipeline is full every packet adds the same rounds, bytes and time). So the schedule is
//! built and analysed at `k` = 32, 48 and 64 packets of the same size; if the three are
//! exactly collinear (integers exactly, times to a relative 1e-9) the figures at the real
//! `k` are extended along that line, else the real schedule is built as before.
//! `tests/test_scale.py` and the tests below hold the extension equal to the built
//! schedule's figures where both run.

use crate::algorithms::{self, AlgoRequest};
use crate::engines::analytic::{analyze, Analysis, ClassHops, Machine, Times};
use crate::error::Result;
use crate::routing::Routing;

/// Schedules of at most this many packets are built as they are.
pub const SAMPLE_PACKETS: u32 = 64;
/// Spacing of the three sample counts (32, 48, 64).
const SPACING: u32 = 16;

/// Builds (and so verifies) `algo`'s schedule for `req` and analyses it, or, for a pipelined
/// algorithm of more than [`SAMPLE_PACKETS`] packets, extends three smaller ones.
pub fn evaluate(algo: &str, req: &AlgoRequest, routing: &Routing, m: &Machine) -> Result<Analysis> {
    match algorithms::pipeline_packets(algo, req) {
        Some(k) if k > SAMPLE_PACKETS => match extended(algo, req, k, routing, m)? {
            Some(a) => Ok(a),
            None => built(algo, req, routing, m),
        },
        _ => built(algo, req, routing, m),
    }
}

fn built(algo: &str, req: &AlgoRequest, routing: &Routing, m: &Machine) -> Result<Analysis> {
    let s = algorithms::build(algo, req)?;
    analyze(&s, req.topo, routing, m)
}

/// The figures at `k` packets extended from three samples of the same packet size, or None
/// when the samples are not collinear.
fn extended(
    algo: &str,
    req: &AlgoRequest,
    k: u32,
    routing: &Routing,
    m: &Machine,
) -> Result<Option<Analysis>> {
    let packet = req.bytes.div_ceil(u64::from(k)).max(1);
    let at = |n: u32| {
        let r = AlgoRequest {
            bytes: packet * u64::from(n),
            packets: n,
            placement: req.placement.clone(),
            targets: req.targets.clone(),
            sources: req.sources.clone(),
            params: req.params.clone(),
            ..*req
        };
        built(algo, &r, routing, m)
    };
    let c = SAMPLE_PACKETS;
    let (b, a) = (c - SPACING, c - 2 * SPACING);
    let samples = [at(a)?, at(b)?, at(c)?];
    Ok(Line::new(&samples).and_then(|l| l.at(k - c)))
}

/// Three samples spaced [`SPACING`] packets apart, as a line.
struct Line<'a> {
    s: &'a [Analysis; 3],
}

impl<'a> Line<'a> {
    fn new(s: &'a [Analysis; 3]) -> Option<Line<'a>> {
        let [a, b, c] = s;
        let same = a.ranks == c.ranks
            && a.steps_from_schedule == c.steps_from_schedule
            && a.issue_order == c.issue_order
            && b.issue_order == c.issue_order;
        same.then_some(Line { s })
    }

    /// The figures `more` packets past the last sample.
    fn at(&self, more: u32) -> Option<Analysis> {
        let [a, b, c] = self.s;
        let more = u64::from(more);
        let int = |f: fn(&Analysis) -> u64| extend_int(f(a), f(b), f(c), more);
        let small = |f: fn(&Analysis) -> u32| {
            extend_int(f(a).into(), f(b).into(), f(c).into(), more)
                .and_then(|v| u32::try_from(v).ok())
        };
        let real = |f: fn(&Times) -> f64| extend_real(f(&a.times), f(&b.times), f(&c.times), more);
        Some(Analysis {
            ranks: c.ranks,
            messages: int(|x| x.messages)?,
            ni_messages: int(|x| x.ni_messages)?,
            packets: int(|x| x.packets)?,
            bytes: int(|x| x.bytes)?,
            aggregate_hops: int(|x| x.aggregate_hops)?,
            max_hops: small(|x| x.max_hops)?,
            steps: small(|x| x.steps)?,
            steps_from_schedule: c.steps_from_schedule,
            max_conflict: small(|x| x.max_conflict)?,
            hops_by_class: {
                let class = |i: usize| {
                    let n = |x: &Analysis| x.hops_by_class.counts()[i];
                    extend_int(n(a), n(b), n(c), more)
                };
                ClassHops::from_counts([class(0)?, class(1)?, class(2)?, class(3)?])
            },
            issue_order: c.issue_order,
            times: Times {
                hockney_rounds: real(|t| t.hockney_rounds)?,
                hockney: real(|t| t.hockney)?,
                postal: real(|t| t.postal)?,
                multisend_us: real(|t| t.multisend_us)?,
                loggp: real(|t| t.loggp)?,
            },
        })
    }
}

/// `c + more x (c - b) / SPACING` when `a, b, c` are exactly collinear with a whole slope.
fn extend_int(a: u64, b: u64, c: u64, more: u64) -> Option<u64> {
    let (a, b, c) = (i128::from(a), i128::from(b), i128::from(c));
    let d = c - b;
    if b - a != d || d % i128::from(SPACING) != 0 {
        return None;
    }
    let v = c + d / i128::from(SPACING) * i128::from(more);
    u64::try_from(v).ok()
}

/// As [`extend_int`] for times, collinear to a relative 1e-9 (NaN stays NaN).
fn extend_real(a: f64, b: f64, c: f64, more: u64) -> Option<f64> {
    if a.is_nan() && b.is_nan() && c.is_nan() {
        return Some(f64::NAN);
    }
    let d = c - b;
    let tol = 1e-9 * c.abs().max(a.abs()).max(f64::MIN_POSITIVE);
    if !((b - a) - d).abs().le(&tol) {
        return None;
    }
    Some(c + d / f64::from(SPACING) * more as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::RoutingKind;
    use crate::schedule::CollectiveKind;
    use crate::topology::Topology;

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() <= 1e-9 * x.abs().max(y.abs()) || (x.is_nan() && y.is_nan())
    }

    /// The extension equals the built schedule's figures, postal and flat, past the samples.
    #[test]
    fn extension_equals_the_built_schedule() {
        for (spec, algo, kind) in [
            ("mesh:30", "postal", CollectiveKind::Broadcast),
            ("mesh:4x4", "postal", CollectiveKind::Broadcast),
            ("mesh:5x3", "multisend-flat", CollectiveKind::Broadcast),
        ] {
            let t = Topology::from_spec(spec).unwrap();
            let r = Routing::new(&t, RoutingKind::Dor, None).unwrap();
            let m = Machine::default();
            for (bytes, packets) in [(1536 * 150, 1), (100_003, 131), (1536 * 64 + 1, 1)] {
                let mut req = AlgoRequest::new(&t, kind);
                req.bytes = bytes;
                req.packets = if algo == "postal" { packets } else { 97 };
                let k = algorithms::pipeline_packets(algo, &req).unwrap();
                assert!(k > SAMPLE_PACKETS, "{spec} {algo} {bytes}: {k} packets");
                let ext = extended(algo, &req, k, &r, &m).unwrap().expect("collinear");
                let real = built(algo, &req, &r, &m).unwrap();
                let (e, b) = (&ext, &real);
                assert_eq!(
                    (e.messages, e.packets, e.bytes, e.aggregate_hops, e.steps),
                    (b.messages, b.packets, b.bytes, b.aggregate_hops, b.steps),
                    "{spec} {algo} {bytes}"
                );
                assert_eq!((e.max_hops, e.max_conflict), (b.max_hops, b.max_conflict));
                let (x, y) = (&e.times, &b.times);
                for (u, v) in [
                    (x.hockney_rounds, y.hockney_rounds),
                    (x.hockney, y.hockney),
                    (x.postal, y.postal),
                    (x.multisend_us, y.multisend_us),
                    (x.loggp, y.loggp),
                ] {
                    assert!(close(u, v), "{spec} {algo} {bytes}: {u} != {v}");
                }
            }
        }
    }

    #[test]
    fn not_collinear_is_refused() {
        assert_eq!(extend_int(1, 2, 4, 5), None);
        assert_eq!(extend_int(0, 16, 32, 3), Some(35));
        assert_eq!(extend_real(1.0, 2.0, 4.0, 1), None);
        assert!(extend_real(f64::NAN, f64::NAN, f64::NAN, 1)
            .unwrap()
            .is_nan());
    }
}
