//! msccl-tools' own output (tests/data/msccl, see PROVENANCE.md there) read, lowered onto the
//! IR and proved; broken variants caught with a precise diagnosis.

use crate::schedule::formats::msccl::Msccl;
use crate::schedule::formats::msccl_lower::lower;

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/msccl")
}

/// The verdict on an XML text: Ok(()) or the diagnosis.
pub(crate) fn verdict(text: &str) -> Result<(), String> {
    let x = Msccl::parse(text, "t.xml").map_err(|e| format!("unreadable: {e}"))?;
    let s = lower(&x, None, 0, 1).map_err(|e| format!("unreadable: {e}"))??;
    let report = s.verify();
    report.diagnosis.map_or(Ok(()), Err)
}

#[test]
fn every_msccl_tools_file_verifies() {
    let (mut n, mut wrong) = (0, Vec::new());
    let mut paths: Vec<_> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        if path.extension().is_some_and(|x| x == "xml") {
            let text = std::fs::read_to_string(&path).unwrap();
            if let Err(d) = verdict(&text) {
                wrong.push(format!(
                    "{}: {d}",
                    path.file_name().unwrap().to_string_lossy()
                ));
            }
            n += 1;
        }
    }
    assert!(n >= 40, "{n}");
    // Not the collective they name, by msccl-tools' own Check() (tests/data/msccl/
    // PROVENANCE.md): the two pipeline examples (the first half of the GPUs reduces, the
    // second half receives; Check() is commented out in the examples and returns False when
    // uncommented) and pcie_hierarchical (its Check() fails when compiled).
    let mut names: Vec<&str> = wrong.iter().map(|w| w.split(':').next().unwrap()).collect();
    names.sort();
    let want = [
        "allreduce_a100_pcie_hierarchical_n4.xml",
        "pipeline_a100_allpairs_n4.xml",
        "pipeline_a100_allpairs_n8.xml",
        "pipeline_a100_ring_n16.xml",
        "pipeline_a100_ring_n4.xml",
        "pipeline_a100_ring_n8.xml",
    ];
    assert_eq!(names, want, "{wrong:#?}");
    let first = |f: &str| wrong.iter().find(|w| w.starts_with(f)).unwrap().clone();
    assert!(
        first("pipeline_a100_ring_n4").contains(
            "rank 0 output chunk 0 must end with block index 0 reduced over {0,1,2,3,4,5,6,7}"
        ),
        "{wrong:#?}"
    );
    assert!(
        first("allreduce_a100_pcie_hierarchical_n4")
            .contains("rank 3 tb 4 step 2 (re) reduces block index 12 with block index 8"),
        "{wrong:#?}"
    );
}

fn ring() -> String {
    std::fs::read_to_string(dir().join("allgather_ring_n4.xml")).unwrap()
}

#[test]
fn a_wrong_offset_is_named_by_rank_and_chunk() {
    // Rank 1 forwards chunk 0 into output chunk 3 instead of 0.
    let bad = ring().replacen(
        r#"<step s="1" type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0""#,
        r#"<step s="1" type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="3""#,
        1,
    );
    assert_ne!(bad, ring());
    let d = verdict(&bad).unwrap_err();
    assert!(
        d.contains("rank 1 output chunk 0 must end with block (owner 0, idx 0)"),
        "{d}"
    );
}

#[test]
fn a_missing_receive_is_a_deadlock_or_an_unreceived_send() {
    // Rank 0's last receive is dropped: rank 3's last send is never received.
    let text = ring();
    let bad = text.replacen(
        "      <step s=\"3\" type=\"r\" srcbuf=\"o\" srcoff=\"1\" dstbuf=\"o\" dstoff=\"1\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n",
        "",
        1,
    );
    assert_ne!(bad, text);
    let d = verdict(&bad).unwrap_err();
    assert!(d.contains("rank 3 tb 0 step 2 (rcs) sends 1 chunk(s) to rank 0 on channel 0, which rank 0 never receives"), "{d}");
}

#[test]
fn bad_input_is_unreadable_with_line_and_element() {
    let text = ring();
    let cases = [
        (
            text.replacen("type=\"rcs\"", "type=\"xyz\"", 1),
            "line 5: <step>: unknown step type \"xyz\"",
        ),
        (
            text.replacen("srcoff=\"0\"", "srcoff=\"9\"", 1),
            "<step>: source chunks 9..10 lie outside the output buffer (4 chunks)",
        ),
        (
            text.replacen("send=\"1\"", "send=\"7\"", 1),
            "<tb>: send=\"7\" is not a GPU (ngpus = 4) nor -1",
        ),
        (text[..text.len() / 2].to_string(), "malformed XML"),
        ("<foo/>".to_string(), "the root element must be <algo>"),
    ];
    for (bad, want) in cases {
        let e = verdict(&bad).unwrap_err();
        assert!(
            e.starts_with("unreadable: t.xml") && e.contains(want),
            "{e}\nwanted {want}"
        );
    }
}
