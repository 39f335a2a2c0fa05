//! The fuzz targets (`netcoll_core::fuzzing`, run by cargo-fuzz from `fuzz/`) as a property
//! test without libFuzzer: every corpus file, and a fixed number of seeded mutations of each
//! (byte flips, cuts, insertions of the grammar's own tokens, splices of two files), goes
//! through every target body, which panics on a violated property. Deterministic: the same
//! inputs every run, so CI runs a fixed budget (docs/errors.md, "Fuzzing").

use netcoll_core::fuzzing::TARGETS;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// Mutations per target (spread over its corpus files).
const MUTATIONS: usize = 4000;

/// Tokens that the grammars give meaning to, inserted by the mutator.
const TOKENS: [&[u8]; 24] = [
    b"/*",
    b"*/",
    b"//",
    b"\"",
    b"'",
    b"{",
    b"}",
    b";",
    b"=",
    b",",
    b":",
    b"x",
    b"-1",
    b"99999999999999999999",
    b"nan",
    b"\n",
    b"\0",
    b"\xff",
    b"\xc3",
    b"<",
    b"/>",
    b"l1:",
    b"requires",
    b"send 8b to 1 tag 0",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The corpus of a target: `fuzz/corpus/<target>/` and the test data of its format.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let mut dirs = vec![root().join("fuzz/corpus").join(target)];
    dirs.push(root().join(match target {
        "booksim_config" => "tests/data/bad/booksim",
        "goal" => "tests/data/goal",
        "msccl" | "xml_depth" => "tests/data/msccl",
        _ => "fuzz/corpus/spec",
    }));
    // cargo-fuzz's own corpus folder of a target exists only once it holds a tracked seed
    // (a fresh checkout has none for goal and msccl); the format's test data always does.
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter(|d| d.is_dir())
        .flat_map(|d| std::fs::read_dir(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|x| x != "md"))
        .collect();
    files.sort();
    files.dedup();
    files
        .into_iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

fn mutate(rng: &mut ChaCha8Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let at = rng.random_range(0..=v.len());
        match rng.random_range(0..6) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 => v.truncate(at),
            2 => {
                let end = (at + rng.random_range(1..64)).min(v.len());
                v.drain(at..end);
            }
            3 => {
                let t = TOKENS[rng.random_range(0..TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            4 if !other.is_empty() => {
                let from = rng.random_range(0..other.len());
                let end = (from + rng.random_range(1..256)).min(other.len());
                v.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let digits = rng.random_range(0u64..u64::MAX).to_string();
                v.splice(at..at, digits.bytes());
            }
        }
    }
    v
}

#[test]
fn every_target_survives_its_corpus_and_mutations() {
    for (name, body) in TARGETS {
        let seeds = corpus(name);
        assert!(!seeds.is_empty(), "{name} has no corpus");
        for s in &seeds {
            body(s);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        for i in 0..MUTATIONS {
            let seed = &seeds[i % seeds.len()];
            let other = &seeds[rng.random_range(0..seeds.len())];
            let input = mutate(&mut rng, seed, other);
            let caught = std::panic::catch_unwind(|| body(&input));
            assert!(
                caught.is_ok(),
                "target {name} panicked on mutation {i}: {:?}",
                String::from_utf8_lossy(&input)
            );
        }
    }
}
