//! The NI's packetisation (`max_packet_flits`): schedule packets larger than the network's
//! largest packet travel as several network packets, BookSim-style, with the same result
//! as a schedule that was cut into those packets itself.

use super::params::parse_settings;
use super::schedule::{run_schedule, ScheduleResult};
use crate::algorithms::{build, AlgoRequest, Params};
use crate::schedule::{CollectiveKind, Schedule};
use crate::topology::Topology;

fn bcast(topo: &Topology, bytes: u64, packets: u32) -> Schedule {
    let mut req = AlgoRequest::new(topo, CollectiveKind::Broadcast);
    req.bytes = bytes;
    req.packets = packets;
    req.params = Params::parse(&[] as &[&str]).unwrap();
    build("binomial", &req).unwrap()
}

fn run(topo: &Topology, s: &Schedule, pairs: &[(&str, &str)]) -> ScheduleResult {
    let (cfg, par) = parse_settings(pairs.iter().copied()).unwrap();
    run_schedule(topo, s, &cfg, &par).unwrap()
}

#[test]
fn a_one_mebibyte_message_is_cut_into_packets_that_fit() {
    let topo = Topology::from_spec("mesh:2x2").unwrap();
    // 1 MiB at 16 bytes per flit is 65,536 flits: more than one packet can carry.
    let s = bcast(&topo, 1 << 20, 1);
    let r = run(&topo, &s, &[]);
    assert!(r.verified && r.deadlock.is_none());
    assert_eq!(r.packets_per_schedule_packet, 2);
    assert_eq!(r.packet_flits, 32768);
    assert_eq!(r.packets, 3 * 2);
}

#[test]
fn cutting_at_the_ni_equals_a_schedule_of_that_many_packets() {
    let topo = Topology::from_spec("mesh:4x4").unwrap();
    let cut = run(&topo, &bcast(&topo, 4096, 1), &[("max_packet_flits", "16")]);
    let own = run(&topo, &bcast(&topo, 4096, 16), &[]);
    assert_eq!(cut.packets_per_schedule_packet, 16);
    assert_eq!(own.packets_per_schedule_packet, 1);
    assert_eq!((cut.packet_flits, own.packet_flits), (16, 16));
    assert_eq!(cut.packets, own.packets);
    // The schedule of 16 packets pipelines them through the tree; cut at the NI, a rank
    // forwards only once it holds the whole message: never faster.
    assert!(cut.cycles >= own.cycles, "{} < {}", cut.cycles, own.cycles);
    let whole = run(&topo, &bcast(&topo, 4096, 1), &[]);
    assert_eq!(whole.packets_per_schedule_packet, 1);
    assert_eq!(whole.packet_flits, 256);
}

#[test]
fn a_header_that_fills_the_packet_is_a_clear_error() {
    let topo = Topology::from_spec("mesh:2x2").unwrap();
    let s = bcast(&topo, 4096, 1);
    let pairs = [("max_packet_flits", "2"), ("unicast_header_bits", "256")];
    let (cfg, par) = parse_settings(pairs.iter().copied()).unwrap();
    let err = run_schedule(&topo, &s, &cfg, &par).unwrap_err().to_string();
    assert!(err.contains("max_packet_flits"), "{err}");
}
