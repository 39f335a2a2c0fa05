//! Closed forms of seed 004 for tori and the comparison coefficients of s3.2.

/// Formula (4): pipelined line broadcast of `k` packets on a ring of `n` nodes, packets sent in
/// opposite orders in the two directions: `n/2 + ceil(k/2) - 1` (n even; for odd n the
/// farthest node is (n-1)/2 away and the engine gives `(n-1)/2 + ceil(k/2)` when k is even).
pub fn ring_line(n: u64, k: u64) -> u64 {
    n / 2 + k.div_ceil(2) - 1
}

/// Formula (5): `2d` link-disjoint spanning trees of Torus(n^d): `d(n-1) + ceil(k/2d) - 1`.
pub fn torus_trees_all(n: u64, d: u64, k: u64) -> u64 {
    d * (n - 1) + k.div_ceil(2 * d) - 1
}

/// Formula (6): the rectangle (two dimensions, four trees): `2n + ceil(k/4) - 3`.
pub fn torus_trees_rect(n: u64, k: u64) -> u64 {
    2 * n + k.div_ceil(4) - 3
}

/// Formula (4) with a real radix, for Torus(m^(d+1)) where `m = n^(d/(d+1))` need not be whole.
pub fn ring_line_real(m: f64, k: u64) -> f64 {
    m / 2.0 + k.div_ceil(2) as f64 - 1.0
}

/// Formula (6) with a real radix.
pub fn torus_trees_rect_real(m: f64, k: u64) -> f64 {
    2.0 * m + k.div_ceil(4) as f64 - 3.0
}

/// Formula (5) with a real radix.
pub fn torus_trees_all_real(m: f64, d: u64, k: u64) -> f64 {
    d as f64 * (m - 1.0) + k.div_ceil(2 * d) as f64 - 1.0
}

/// `m = n^(d/(d+1))`: the radix of the (d+1)-dimensional torus with as many nodes as n^d.
pub fn same_degree_radix(n: u64, d: u64) -> f64 {
    (n as f64).powf(d as f64 / (d as f64 + 1.0))
}

/// Formulas (2) and (3): `1 - f(iBT) / f(Torus)`, the fraction by which the iBT improves on
/// the torus.
pub fn improvement(f_ibt: f64, f_torus: f64) -> f64 {
    1.0 - f_ibt / f_torus
}

/// The torus baseline of a broadcast of `kind` (line, rect, global) on n^d, and on the
/// same-degree torus m^(d+1), both from the closed forms.
pub fn baselines(kind: &str, n: u64, d: u64, k: u64) -> (f64, f64) {
    let m = same_degree_radix(n, d);
    match kind {
        "line" => (ring_line(n, k) as f64, ring_line_real(m, k)),
        "rect" => (torus_trees_rect(n, k) as f64, torus_trees_rect_real(m, k)),
        _ => (
            torus_trees_all(n, d, k) as f64,
            torus_trees_all_real(m, d + 1, k),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_closed_forms() {
        // n = 64, k = 32: the torus rows the paper compares Table 1 against.
        assert_eq!(ring_line(64, 32), 47);
        assert_eq!(torus_trees_rect(64, 32), 133);
        assert_eq!(torus_trees_all(64, 2, 32), 133);
        assert_eq!(torus_trees_all(100, 3, 32), 302);
        assert!((same_degree_radix(1000, 2) - 100.0).abs() < 1e-9);
        assert!((same_degree_radix(64, 2) - 16.0).abs() < 1e-9);
        assert!((improvement(20.0, 100.0) - 0.8).abs() < 1e-12);
    }
}
