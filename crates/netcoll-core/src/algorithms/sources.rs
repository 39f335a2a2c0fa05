//! Which ranks are the sources of a many-to-all multicast (seed 000 s6.3), from a short text:
//! a rank list `0,5,9`, `all`, or `random:COUNT[,seed=S]` (COUNT distinct ranks drawn
//! uniformly by a seeded ChaCha8 generator, listed in increasing order: the same text always
//! names the same ranks, on every platform).

use crate::error::Result;
use crate::schedule::check_sources;
use crate::spec_err;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The sources `spec` names among `p` ranks, checked (at least one, in range, none twice).
pub fn parse_sources(spec: &str, p: u32) -> Result<Vec<u32>> {
    let spec = spec.trim();
    let sources = if spec == "all" {
        (0..p).collect()
    } else if let Some(rest) = spec.strip_prefix("random:") {
        random_sources(rest, p)?
    } else {
        rank_list(spec)?
    };
    check_sources(&sources, p)?;
    Ok(sources)
}

fn rank_list(spec: &str) -> Result<Vec<u32>> {
    let parsed: Option<Vec<u32>> = spec
        .split(',')
        .filter(|x| !x.trim().is_empty())
        .map(|x| x.trim().parse().ok())
        .collect();
    match parsed {
        Some(v) => Ok(v),
        None => spec_err!(
            "sources '{spec}' is not a rank list: use ranks like 0,5,9, all, or \
             random:COUNT,seed=S"
        ),
    }
}

/// `COUNT[,seed=S]`.
fn random_sources(rest: &str, p: u32) -> Result<Vec<u32>> {
    let mut parts = rest.split(',');
    let count: Option<u32> = parts.next().and_then(|c| c.trim().parse().ok());
    let mut seed = Some(0u64);
    for (i, kv) in parts.enumerate() {
        if i > 0 {
            return spec_err!("sources 'random:{rest}' gives seed twice: use random:COUNT,seed=S");
        }
        seed = kv
            .trim()
            .strip_prefix("seed=")
            .and_then(|s| s.trim().parse().ok());
        if seed.is_none() {
            break;
        }
    }
    let (Some(count), Some(seed)) = (count, seed) else {
        return spec_err!("sources 'random:{rest}' is malformed: use random:COUNT,seed=S");
    };
    if count == 0 || count > p {
        return spec_err!("sources random:{count}: choose a COUNT from 1 to {p} (the ranks)");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut picked: Vec<u32> = rand::seq::index::sample(&mut rng, p as usize, count as usize)
        .into_iter()
        .map(|i| i as u32)
        .collect();
    picked.sort_unstable();
    Ok(picked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_all_and_random() {
        assert_eq!(parse_sources("3, 1,7", 8).unwrap(), vec![3, 1, 7]);
        assert_eq!(parse_sources("all", 3).unwrap(), vec![0, 1, 2]);
        let a = parse_sources("random:5,seed=9", 64).unwrap();
        assert_eq!(a.len(), 5);
        assert!(a.windows(2).all(|w| w[0] < w[1]) && a[4] < 64);
        assert_eq!(a, parse_sources("random:5,seed=9", 64).unwrap());
        assert_ne!(a, parse_sources("random:5,seed=10", 64).unwrap());
        assert_eq!(parse_sources("random:4", 4).unwrap(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn bad_specs_are_one_line_errors() {
        let e = |s: &str| parse_sources(s, 16).unwrap_err().to_string();
        assert!(e("random:17,seed=1").contains("from 1 to 16"));
        assert!(e("random:x").contains("malformed"));
        assert!(e("random:3,sed=1").contains("malformed"));
        assert!(e("1,a").contains("not a rank list"));
        assert!(e("1,1").contains("listed twice"));
        assert!(e("16").contains("source 16 is out of range"));
        assert!(e("").contains("at least one source"));
        for s in ["random:17,seed=1", "1,a", "1,1", "16", ""] {
            assert!(!e(s).contains('\n'));
        }
    }
}
