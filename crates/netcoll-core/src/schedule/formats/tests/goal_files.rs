//! Schedgen's files (tests/data/goal) checked as their collectives; broken variants caught.

use crate::schedule::formats::goal::Goal;
use crate::schedule::formats::goal_check::check;
use crate::schedule::CollectiveKind;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/goal")
}

fn verdict(text: &str, op: &str, root: u32, bytes: Option<u64>) -> Result<(), String> {
    let g = Goal::parse(text, "t.goal").map_err(|e| e.to_string())?;
    let kind = crate::algorithms::parse_collective(op).unwrap();
    let r = check(&g, kind, root, bytes, 65535).map_err(|e| e.to_string())?;
    r.diagnosis.map_or(Ok(()), Err)
}

/// (file, collective, root, datasize) from PROVENANCE.md's table.
fn files() -> Vec<(String, String, u32, Option<u64>)> {
    let prov = std::fs::read_to_string(dir().join("PROVENANCE.md")).unwrap();
    prov.lines()
        .filter(|l| l.starts_with("| ") && l.contains(".goal |"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let cmd = cells[3];
            let arg = |flag: &str| {
                let words: Vec<&str> = cmd.split_whitespace().collect();
                words
                    .iter()
                    .position(|w| *w == flag)
                    .map(|i| words[i + 1].trim_matches('`').parse::<u64>().unwrap())
            };
            (
                cells[1].to_string(),
                cells[2].to_string(),
                arg("--root").unwrap_or(0) as u32,
                arg("--datasize"),
            )
        })
        .collect()
}

#[test]
fn schedgen_patterns_verify_as_their_collectives() {
    let files = files();
    assert!(files.len() >= 45);
    let mut wrong = Vec::new();
    for (file, op, root, bytes) in &files {
        let text = std::fs::read_to_string(dir().join(file)).unwrap();
        if let Err(d) = verdict(&text, op, *root, *bytes) {
            wrong.push(format!("{file}: {d}"));
        }
    }
    // Wrong files, each for a reason in Schedgen's source (schedgen.cpp at spcl/LogGOPSim
    // 76451de; docs/formats.md, "Schedgen's patterns"): dissemination (line 402) and
    // allreduce_recdoub (lines 961, 979) make round k's send wait for round k-1's receive
    // only, nwaydissemination also makes the round's last reduction wait for recv[0] alone
    // (line 693), binarytreebcast compares ranks with tree positions (lines 316-341), and
    // allreduce_recdoub on 13 ranks sends to ranks 13-15 (line 954 truncates log2).
    let mut names: Vec<&str> = wrong.iter().map(|w| w.split(':').next().unwrap()).collect();
    names.sort();
    let want = [
        "allreduce_recdoub_p13.goal",
        "allreduce_recdoub_p16.goal",
        "allreduce_recdoub_p8.goal",
        "binarytreebcast_p13_root3.goal",
        "dissemination_p13.goal",
        "dissemination_p16.goal",
        "dissemination_p8.goal",
        "nwaydissemination_p13.goal",
        "nwaydissemination_p16.goal",
        "nwaydissemination_p8.goal",
    ];
    assert_eq!(names, want, "{wrong:#?}");
    let diagnoses = [
        "dissemination_p8.goal: allreduce: rank 0 completes without hearing from rank 3",
        "nwaydissemination_p8.goal: barrier: rank 0 completes without hearing from rank 3",
        "allreduce_recdoub_p8.goal: allreduce: rank 0 completes without hearing from rank 5",
        "binarytreebcast_p13_root3.goal: rank 0 l1 sends 1024 bytes to rank 1 with tag 0, which posts no matching receive",
        "allreduce_recdoub_p13.goal: t.goal: line 189: peer rank 13 is out of range",
    ];
    for d in diagnoses {
        assert!(wrong.iter().any(|w| w.starts_with(d)), "{d}\n{wrong:#?}");
    }
}

/// Each receive after the previous one, as an MPI program runs its rounds.
fn in_program_order(text: &str) -> String {
    let mut out = String::new();
    let mut recvs: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some((label, rest)) = line.split_once(": ") {
            if rest.starts_with("recv") {
                recvs.push(label.to_string());
            }
        }
        if line.starts_with('}') {
            for w in recvs.windows(2) {
                out.push_str(&format!("{} requires {}\n", w[1], w[0]));
            }
            recvs.clear();
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The evidence that the verifier is not too strict: with the one dependency an MPI program
/// has and the file lacks (its receives in program order), dissemination and recursive
/// doubling verify; n-way dissemination verifies on 8 and 13 ranks once line 693 waits for
/// the previous reduction (`Requires(red, prev)`), and on 16 with both.
#[test]
fn schedgen_files_verify_with_the_dependencies_they_lack() {
    for (file, op) in [
        ("dissemination_p8.goal", "allreduce"),
        ("dissemination_p13.goal", "barrier"),
        ("dissemination_p16.goal", "allreduce"),
        ("allreduce_recdoub_p8.goal", "allreduce"),
        ("allreduce_recdoub_p16.goal", "allreduce"),
    ] {
        let text = std::fs::read_to_string(dir().join(file)).unwrap();
        assert!(verdict(&text, op, 0, None).is_err(), "{file}");
        assert_eq!(
            verdict(&in_program_order(&text), op, 0, None),
            Ok(()),
            "{file}"
        );
    }
    // Rank 5's round-1 reductions of nwaydissemination_p8: l8 (before l5, l6) waits for l3.
    let text = std::fs::read_to_string(dir().join("nwaydissemination_p8.goal")).unwrap();
    let fixed = text.replacen(
        "l8: calc 8\nl8 requires l3\n",
        "l8: calc 8\nl8 requires l7\n",
        8,
    );
    assert_eq!(fixed.matches("l8 requires l7").count(), 8);
    assert_eq!(verdict(&fixed, "barrier", 0, None), Ok(()));
}

#[test]
fn broken_goal_files_get_a_precise_diagnosis() {
    let text = std::fs::read_to_string(dir().join("binomialtreebcast_p8.goal")).unwrap();
    // Rank 4's receive from 0 removed: rank 0's send has no partner.
    let bad = text.replacen("l1: recv 1024b from 0 tag 0\n}\n\nrank 5", "}\n\nrank 5", 1);
    assert_ne!(bad, text);
    let d = verdict(&bad, "bcast", 0, None).unwrap_err();
    assert!(
        d.contains("sends 1024 bytes to rank 4 with tag 0, which posts no matching receive"),
        "{d}"
    );
    // As a reduce it lacks the flow towards the root.
    let d = verdict(&text, "reduce", 0, None).unwrap_err();
    assert!(
        d.contains("rank 0 (the root) completes without hearing from rank 1"),
        "{d}"
    );
    // Too few bytes for a broadcast of 4096.
    let d = verdict(&text, "bcast", 0, Some(4096)).unwrap_err();
    assert!(
        d.contains(
            "receives 1024 bytes, but a broadcast of 4096 bytes on 8 ranks needs at least 4096"
        ),
        "{d}"
    );
    // A cycle.
    let cyc = "num_ranks 2\nrank 0 {\na: send 1b to 1 tag 0\nb: recv 1b from 1 tag 0\na requires b\n}\nrank 1 {\na: send 1b to 0 tag 0\nb: recv 1b from 0 tag 0\na requires b\n}\n";
    let d = verdict(cyc, "barrier", 0, None).unwrap_err();
    assert!(d.starts_with("dependency cycle (deadlock): "), "{d}");
}

#[test]
fn bad_goal_text_is_unreadable_with_its_line() {
    let cases = [
        (
            "num_ranks 2\nrank 0 {\nl1: send 8b to 5 tag 0\n}\nrank 1 {\n}\n",
            "line 3: peer rank 5 is out of range: num_ranks is 2",
        ),
        (
            "num_ranks 2\nrank 0 {\nl1: sned 8b to 1\n}\n",
            "line 3: unknown operation 'sned'",
        ),
        (
            "num_ranks 2\nrank 0 {\nl1: send 8b to 1\n",
            "the file ends inside rank 0",
        ),
        (
            "num_ranks 2\nrank 0 {\n}\n",
            "rank 1 has no 'rank 1 { ... }' block",
        ),
        (
            "num_ranks 1\nrank 0 {\na requires b\n}\n",
            "line 3: 'a requires b' names label 'a'",
        ),
        (
            "num_ranks 1\nrank 0 {\nl1: calc x\n}\n",
            "line 3: expected the time of a calc, found 'x'",
        ),
    ];
    for (text, want) in cases {
        let e = Goal::parse(text, "t.goal").unwrap_err().to_string();
        assert!(
            e.starts_with("t.goal: ") && e.contains(want),
            "{e}\nwanted {want}"
        );
    }
}

#[test]
fn goal_text_round_trips() {
    let text = std::fs::read_to_string(dir().join("nwaydissemination_p13.goal")).unwrap();
    let g = Goal::parse(&text, "a").unwrap();
    assert_eq!(Goal::parse(&g.to_text(), "b").unwrap(), g);
    let _ = CollectiveKind::Barrier;
}

/// Every Schedgen file becomes an IR schedule for the engines: one message per send of the
/// same size between the same ranks, `is_correct` the happens-before verdict; files that
/// cannot run are refused with their diagnosis.
#[test]
fn schedgen_files_lower_onto_the_ir_with_exact_sizes() {
    use crate::schedule::formats::goal::GoalKind;
    use crate::schedule::formats::goal_lower::lower;
    use crate::schedule::OpKind;
    let t = crate::Topology::from_spec("mesh:4x4").unwrap();
    let routing = crate::routing::Routing::new(&t, crate::routing::RoutingKind::Dor, None).unwrap();
    let mut lowered = 0;
    for (file, op, root, bytes) in files() {
        let text = std::fs::read_to_string(dir().join(&file)).unwrap();
        let Ok(g) = Goal::parse(&text, &file) else {
            continue; // allreduce_recdoub_p13: peers out of range
        };
        let kind = crate::algorithms::parse_collective(&op).unwrap();
        let Ok((s, report)) = lower(&g, kind, root, 65535) else {
            assert!(verdict(&text, &op, root, bytes).is_err(), "{file}");
            continue;
        };
        assert_eq!(s.is_correct(), report.diagnosis.is_none(), "{file}");
        let mut want: Vec<(u32, u32, u64)> = Vec::new();
        for (r, rank) in g.ranks.iter().enumerate() {
            for o in rank.ops.iter().filter(|o| o.kind == GoalKind::Send) {
                want.push((r as u32, o.peer, o.size));
            }
        }
        let got: Vec<(u32, u32, u64)> = s
            .messages()
            .iter()
            .map(|m| {
                let bytes = s.payload(m).len() as u64 * s.bytes_per_block();
                (m.src, s.dests(m)[0], bytes)
            })
            .collect();
        assert_eq!(got, want, "{file}");
        for r in 0..s.p() {
            assert_eq!(s.ops(r).len(), g.ranks[r as usize].ops.len(), "{file}");
            for op in s.ops(r) {
                if let OpKind::Recv { msg, .. } = op.kind {
                    assert_eq!(s.dests(s.message(msg)), &[r], "{file}");
                }
            }
        }
        if s.p() <= 16 {
            let steps = crate::engines::step::sched::run(
                &s,
                &t,
                &routing,
                crate::engines::step::PortModel::AllPort,
                crate::engines::step::sched::Timing::Deps,
            );
            assert!(steps.is_ok(), "{file}: {:?}", steps.err());
        }
        lowered += 1;
    }
    assert!(lowered >= 45, "{lowered}");
    // irequires becomes the start conditions of its target.
    let g = Goal::parse(
        "num_ranks 2\nrank 0 {\na: calc 5\nb: send 4b to 1 tag 0\nc: send 4b to 1 tag 1\nb requires a\nc irequires b\n}\nrank 1 {\na: recv 4b from 0 tag 0\nb: recv 4b from 0 tag 1\n}\n",
        "t",
    )
    .unwrap();
    let (s, _) = lower(&g, CollectiveKind::Barrier, 0, 65535).unwrap();
    let deps: Vec<u32> = s.deps(&s.ops(0)[2]).iter().map(|d| d.index).collect();
    assert_eq!(deps, vec![0]);
}

#[test]
fn labels_keep_schedgen_numbers_as_marks_and_others_as_text() {
    use crate::schedule::formats::goal::Labels;
    let mut l = Labels::default();
    for label in [Some("l1"), Some("l7"), None, Some("l4"), Some("x_1")] {
        l.push(label);
    }
    let got: Vec<Option<String>> = (0..6).map(|i| l.get(i).map(|c| c.into_owned())).collect();
    let want = [Some("l1"), Some("l7"), None, Some("l4"), Some("x_1"), None];
    assert_eq!(got, want.map(|x| x.map(str::to_string)));
    assert_eq!(l.len(), 5);
}
