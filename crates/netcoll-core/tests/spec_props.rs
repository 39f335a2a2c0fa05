//! Property tests over the spec parser (issue 15): any text gives a spec or one error line,
//! never a panic; every spec's canonical form parses back to itself; a key given twice is
//! refused; sizes beyond the cap are refused, never wrapped.

use netcoll_core::spec::{TopologySpec, MAX_SWITCHES};
use proptest::prelude::*;

/// Text near the grammar: families, separators, digits, signs, keys, and junk.
fn specish() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("mesh:".to_string()),
        Just("torus:".to_string()),
        Just("hypercube:".to_string()),
        Just("ibt:".to_string()),
        Just("irregular:".to_string()),
        Just(":b=".to_string()),
        Just("x".to_string()),
        Just(",".to_string()),
        Just("=".to_string()),
        Just("-".to_string()),
        Just("switches=".to_string()),
        Just("ports=".to_string()),
        Just("nodes=".to_string()),
        Just("conn=".to_string()),
        Just("seed=".to_string()),
        "[0-9]{1,25}",
        "[ -~]{0,4}",
        "\\PC{0,3}",
    ];
    prop::collection::vec(atom, 0..12).prop_map(|v| v.concat())
}

fn one_line(e: &netcoll_core::Error) -> bool {
    let text = e.to_string();
    !text.is_empty() && !text.contains('\n')
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_parses_or_is_one_error_line(text in specish()) {
        match TopologySpec::parse(&text) {
            Ok(spec) => {
                let again = TopologySpec::parse(&spec.canonical()).unwrap();
                prop_assert_eq!(again, spec);
            }
            Err(e) => prop_assert!(one_line(&e), "{:?}: {}", text, e),
        }
    }

    #[test]
    fn grids_round_trip_and_respect_the_cap(dims in prop::collection::vec(2usize..5000, 1..5), wrap: bool) {
        let family = if wrap { "torus" } else { "mesh" };
        let text = format!("{family}:{}", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"));
        let size = dims.iter().try_fold(1usize, |a, &k| a.checked_mul(k));
        match TopologySpec::parse(&text) {
            Ok(spec) => {
                prop_assert!(size.is_some_and(|n| n <= MAX_SWITCHES));
                prop_assert_eq!(spec.canonical(), text);
            }
            Err(e) => {
                prop_assert!(size.is_none_or(|n| n > MAX_SWITCHES), "{}: {}", text, e);
                prop_assert!(e.to_string().contains("too many to build"));
            }
        }
    }

    #[test]
    fn irregular_keys_given_twice_are_refused(
        key in prop::sample::select(vec!["switches", "ports", "nodes", "conn", "seed"]),
        a in 1u32..9, b in 1u32..9,
    ) {
        let value = |v: u32| if key == "conn" { format!("0.{v}") } else { v.to_string() };
        let text = format!(
            "irregular:switches=8,ports=8,nodes=32,{key}={},{key}={}",
            value(a),
            value(b)
        );
        let e = TopologySpec::parse(&text).unwrap_err();
        prop_assert!(e.to_string().contains("is given twice"), "{}", e);
    }

    #[test]
    fn integers_beyond_the_core_are_refused_not_wrapped(digits in "[1-9][0-9]{20,40}") {
        for text in [
            format!("mesh:{digits}x2"),
            format!("hypercube:{digits}"),
            format!("irregular:switches=8,ports=8,nodes=32,seed={digits}"),
        ] {
            let e = TopologySpec::parse(&text).unwrap_err();
            prop_assert!(one_line(&e));
        }
    }
}
