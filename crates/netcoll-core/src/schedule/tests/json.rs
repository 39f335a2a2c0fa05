//! JSON: round trips, the documented shape, and helpful refusals.

use super::examples::*;
use crate::schedule::{CollectiveKind, Schedule, ScheduleBuilder, Worm, FORMAT, VERSION};

fn round_trip(s: &Schedule) {
    let text = s.to_json();
    let back = Schedule::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, s);
    assert_eq!(Schedule::from_json(&s.to_json_pretty()).unwrap(), back);
}

#[test]
fn every_example_round_trips() {
    round_trip(&binomial_bcast(8, 3, Drop::None));
    round_trip(&ring_allgather(5, Drop::None));
    round_trip(&recursive_doubling_allreduce(4, false));
    round_trip(&ring_reduce_scatter(4));
    round_trip(&xor_line(false));
    round_trip(&pipelined_chain(4, false));
    round_trip(&multisend_bcast(5));
    // Broken schedules are schedules too: the format keeps them for the verifier.
    round_trip(&binomial_bcast(8, 0, Drop::Send(3)));
}

#[test]
fn documented_shape() {
    let mut b = ScheduleBuilder::new(CollectiveKind::Broadcast, 3, 0).packetization(8, 4);
    let data = b.block(0, 0);
    let m = b.message(0, &[1, 2], &[data]);
    b.set_worm(
        m,
        Worm {
            dests: vec![1, 2],
            route: vec![7, 9],
            ..Default::default()
        },
    );
    b.set_round(Some(0));
    let s = b.send_msg(m, crate::schedule::PacketRange::ALL, &[]);
    b.set_round(None);
    b.recv(1, s, &[]);
    b.recv(2, s, &[s]);
    let s = b.build().unwrap();
    let v: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
    let want = serde_json::json!({
        "format": "netcoll-schedule",
        "version": 1,
        "collective": {"kind": "broadcast", "p": 3, "root": 0, "blocks": 1},
        "placement": [0, 1, 2],
        "bytes_per_block": 8,
        "packet_bytes": 4,
        "messages": [{"src": 0, "dst": [1, 2], "payload": [{"block": [0, 0]}], "packets": 2,
                      "worm": {"dests": [1, 2], "route": [7, 9]}}],
        "ranks": [[{"op": "send", "msg": 0, "step": 0}],
                  [{"op": "recv", "msg": 0}],
                  [{"op": "recv", "msg": 0, "deps": [[0, 0]]}]]
    });
    assert_eq!(v, want);
    assert!(s.verify().ok);
}

#[test]
fn hand_written_file_with_pieces_of_every_kind() {
    let text = r#"{"format":"netcoll-schedule","version":1,
      "collective":{"kind":"reduce","p":2,"root":0,"blocks":1},
      "placement":[4,5],"bytes_per_block":64,"packet_bytes":0,
      "messages":[{"src":1,"dst":[0],"payload":[{"reduced":{"index":0,"over":[1]}}]}],
      "ranks":[[{"op":"recv","msg":0},
                {"op":"reduce","inputs":[{"reduced":{"index":0,"over":[0]}},{"reduced":{"index":0,"over":[1]}}],
                 "output":[{"reduced":{"index":0,"over":[0,1]}}],"deps":[[0,0]]}],
               [{"op":"send","msg":0}]]}"#;
    let s = Schedule::from_json(text).unwrap();
    assert_eq!(s.placement(), &[4, 5]);
    assert!(s.verify().ok, "{:?}", s.verify().diagnosis);
    let xor = r#"{"format":"netcoll-schedule","version":1,
      "collective":{"kind":"allgather","p":3,"blocks":1},"placement":[0,1,2],
      "bytes_per_block":1,"packet_bytes":0,
      "messages":[{"src":1,"dst":[0],"payload":[{"xor":[[1,0],[2,0]]}]}],
      "ranks":[[{"op":"recv","msg":0}],[{"op":"send","msg":0}],[]]}"#;
    let d = Schedule::from_json(xor)
        .unwrap()
        .verify()
        .diagnosis
        .unwrap();
    assert_eq!(d, "rank 1 op 0 sends xor (1,0)^(2,0) before it holds it");
}

#[test]
fn refusals_say_what_is_wrong() {
    let err = |t: &str| Schedule::from_json(t).unwrap_err().to_string();
    assert!(err("{").starts_with("schedule JSON:"));
    assert_eq!(
        err(r#"{"format":"other"}"#),
        format!("not a schedule file: \"format\" must be \"{FORMAT}\"")
    );
    assert_eq!(
        err(r#"{"format":"netcoll-schedule","version":9}"#),
        format!("netcoll-schedule version 9 is not supported (this build reads version {VERSION})")
    );
    let good = binomial_bcast(4, 0, Drop::None).to_json();
    let bad_send = good.replacen(r#"[[{"op":"send","msg":0"#, r#"[[{"op":"send","msg":2"#, 1);
    assert_eq!(
        err(&bad_send),
        "rank 0 op 0 sends message 2, whose source is rank 1"
    );
    let bad_block = good.replacen(r#"{"block":[0,0]}"#, r#"{"block":[3,0]}"#, 1);
    assert_eq!(err(&bad_block), "message 0: broadcast has no block [3, 0]");
    let bad_field = good.replacen(r#""packet_bytes""#, r#""packet_size""#, 1);
    assert!(
        err(&bad_field).contains("unknown field `packet_size`"),
        "{}",
        err(&bad_field)
    );
    let no_root = good.replacen(r#""root":0,"#, "", 1);
    assert_eq!(err(&no_root), "a broadcast needs a \"root\"");
    let bad_count = good.replacen(r#""packets":1"#, r#""packets":2"#, 1);
    assert_eq!(
        err(&bad_count),
        "message 0 says 2 packets, but its payload makes 1"
    );
}

#[test]
fn the_example_in_the_docs_verifies() {
    let doc = include_str!("../../../../../docs/schedule.md");
    let start = doc
        .find("```json\n")
        .expect("docs/schedule.md has a JSON example")
        + 8;
    let end = start + doc[start..].find("```").unwrap();
    let s = Schedule::from_json(&doc[start..end]).unwrap();
    let r = s.verify();
    assert!(r.ok, "{:?}", r.diagnosis);
    assert_eq!(
        (r.counts.messages, r.counts.worms, r.counts.packets),
        (2, 1, 4)
    );
}
