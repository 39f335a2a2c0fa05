//! Timing model of the NIC-assisted multi-send primitive (seed 002, Buntinas, Panda, Duato,
//! Sadayappan: "Broadcast/Multicast over Myrinet using NIC-Assisted Multidestination
//! Messages", Section 2 and its Appendix).
//!
//! The host writes a packet to the NIC once (`t_send`), the NIC transmits it to each of `k`
//! destinations back to back (`t_xmit` each), and the last receiver needs `t_recv` to hand
//! it to its host, overlapped with the sender's last transmission. Every interval is linear
//! in the packet size `m` (bytes); the paper's measured coefficients (FM 2.1, 300 MHz
//! Pentium II, LANai 4.3) are the defaults. Section 4 turns the same intervals into the
//! postal-model parameter lambda used to pick the optimal tree per message size.

use crate::error::Result;

/// Largest FM 2.1 packet (bytes): the timing model is per packet (seed 002 s6, Appendix).
pub const FM_PACKET_BYTES: u64 = 1536;

/// Host-to-NIC throughput without write combining, MB/s (seed 002 s2).
pub const HOST_TO_NIC_MBPS: f64 = 31.7;

/// Host-to-NIC throughput with write combining enabled, MB/s (seed 002 s2, citing its reference 1).
pub const HOST_TO_NIC_WC_MBPS: f64 = 90.0;

/// An interval linear in the packet size: `fixed_us + per_byte_us * m`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Linear {
    /// Start-up part, microseconds.
    pub fixed_us: f64,
    /// Per-byte part, microseconds per byte.
    pub per_byte_us: f64,
}

impl Linear {
    /// The interval for an `m`-byte packet, microseconds.
    pub fn at(&self, m: u64) -> f64 {
        self.fixed_us + self.per_byte_us * m as f64
    }
}

/// Per-byte cost (microseconds per byte) of a host-to-NIC copy at `mb_per_s`.
///
/// The paper's coefficients are consistent with MB = 2^20 bytes: 31.7 MB/s gives
/// 0.0301 us/B and 90 MB/s gives 0.0106 us/B when rounded to four decimals, the values
/// printed in s2. (The printed numbers use the rounded coefficients, so
/// [`MultisendParams::paper`] keeps them as printed.)
pub fn per_byte_us_from_throughput(mb_per_s: f64) -> Result<f64> {
    if !(mb_per_s.is_finite() && mb_per_s > 0.0) {
        return crate::spec_err!("throughput {mb_per_s} MB/s is not positive: give a rate above 0");
    }
    Ok(1.0 / (mb_per_s * 1.048_576))
}

/// The three intervals of Figure 2 of seed 002 and the packet size they hold for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MultisendParams {
    /// Host assembles the packet and writes it to the NIC send queue.
    pub send: Linear,
    /// NIC transmits one copy from its send queue to the network.
    pub xmit: Linear,
    /// Receiving NIC takes the packet (network latency included), DMAs it to the host, and
    /// the host copies it to the application buffer.
    pub recv: Linear,
    /// Largest packet the model applies to.
    pub max_packet_bytes: u64,
}

impl MultisendParams {
    /// The coefficients measured in seed 002 (s2, Appendix), without write combining:
    /// t_send = 2.7863 + 0.0301 m, t_xmit = 1.3958 + 0.0075 m, t_recv = 4.2820 + 0.0230 m.
    pub fn paper() -> MultisendParams {
        MultisendParams {
            send: Linear {
                fixed_us: 2.7863,
                per_byte_us: 0.0301,
            },
            xmit: Linear {
                fixed_us: 1.3958,
                per_byte_us: 0.0075,
            },
            recv: Linear {
                fixed_us: 4.2820,
                per_byte_us: 0.0230,
            },
            max_packet_bytes: FM_PACKET_BYTES,
        }
    }

    /// As [`MultisendParams::paper`] but with write combining: the host-to-NIC copy runs at
    /// 90 MB/s instead of 31.7 MB/s, so t_send = 2.7863 + 0.0106 m (seed 002 s2).
    pub fn paper_write_combining() -> MultisendParams {
        let mut p = MultisendParams::paper();
        p.send.per_byte_us = 0.0106;
        p
    }

    /// The paper's parameters, with or without write combining.
    pub fn paper_with(write_combining: bool) -> MultisendParams {
        if write_combining {
            MultisendParams::paper_write_combining()
        } else {
            MultisendParams::paper()
        }
    }

    fn check_packet(&self, nbytes: u64) -> Result<()> {
        if nbytes > self.max_packet_bytes {
            return crate::spec_err!(
                "packet of {nbytes} bytes exceeds the {}-byte packet the multi-send model is for: split the message into packets",
                self.max_packet_bytes
            );
        }
        Ok(())
    }

    /// Time until the last of `ndest` destinations has one `nbytes` packet, microseconds:
    /// `(multi-send, repeated unicast)`.
    ///
    /// Multi-send: `t_send + (k-1) t_xmit + t_recv` (one host write, k NIC transmissions, the
    /// last overlapped with its reception). Repeated unicast: `k t_send + t_recv` (each
    /// transmission hides behind the next host write, which is always longer in FM).
    /// Seed 002 s2.
    pub fn time(&self, nbytes: u64, ndest: u64) -> Result<(f64, f64)> {
        self.check_packet(nbytes)?;
        if ndest == 0 {
            return crate::spec_err!("ndest is 0: a multi-send needs at least one destination");
        }
        let (s, x, r) = (
            self.send.at(nbytes),
            self.xmit.at(nbytes),
            self.recv.at(nbytes),
        );
        let k = ndest as f64;
        Ok((s + (k - 1.0) * x + r, k * s + r))
    }

    /// Postal lambda of a multi-send tree for `nbytes` packets, seen from the NIC (seed 002
    /// s4): the one-way latency from the sender's NIC starting a transmission to the
    /// receiver's NIC being ready to transmit onwards (`t_xmit + t_recv + t_send`, as the
    /// paper states it), divided by the unit of time, one NIC transmission (`t_xmit`).
    pub fn multisend_lambda(&self, nbytes: u64) -> Result<f64> {
        self.check_packet(nbytes)?;
        let (s, x, r) = (
            self.send.at(nbytes),
            self.xmit.at(nbytes),
            self.recv.at(nbytes),
        );
        Ok((x + r + s) / x)
    }

    /// Postal lambda of a host-based unicast tree for `nbytes` packets: the host is busy
    /// `t_send` per copy, and a receiver can forward `t_send + t_recv` after the sender began
    /// (Figure 2b: the NIC transmission hides inside the receive interval).
    pub fn unicast_lambda(&self, nbytes: u64) -> Result<f64> {
        self.check_packet(nbytes)?;
        let (s, r) = (self.send.at(nbytes), self.recv.at(nbytes));
        Ok((s + r) / s)
    }
}

/// [`MultisendParams::time`] with the paper's coefficients: `(multi_send_us,
/// repeated_unicast_us)` for one `nbytes` packet to `ndest` destinations.
pub fn multisend_time(nbytes: u64, ndest: u64, write_combining: bool) -> Result<(f64, f64)> {
    MultisendParams::paper_with(write_combining).time(nbytes, ndest)
}

/// Postal lambda for multi-send trees as a function of packet size, with the paper's
/// coefficients (seed 002 s4); feed it to [`crate::models::postal_tree`].
pub fn multisend_lambda(nbytes: u64, write_combining: bool) -> Result<f64> {
    MultisendParams::paper_with(write_combining).multisend_lambda(nbytes)
}

/// Postal lambda for host-based unicast trees as a function of packet size, with the
/// paper's coefficients.
pub fn unicast_lambda(nbytes: u64, write_combining: bool) -> Result<f64> {
    MultisendParams::paper_with(write_combining).unicast_lambda(nbytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn paper_intervals_for_1536_bytes() {
        // Seed 002 s2: "t_Send would be 49.0199us, t_Xmit 12.9158us, t_Recv 39.61us".
        let p = MultisendParams::paper();
        assert!(close(p.send.at(1536), 49.0199));
        assert!(close(p.xmit.at(1536), 12.9158));
        assert!(close(p.recv.at(1536), 39.61));
        let wc = MultisendParams::paper_write_combining();
        assert!(close(wc.send.at(1536), 19.0679));
    }

    #[test]
    fn paper_multisend_vs_unicast_six_destinations() {
        // Seed 002 s2: a 1,536-byte packet to six destinations.
        let (ms, uc) = multisend_time(1536, 6, false).unwrap();
        assert!(close(ms, 153.2089), "{ms}");
        assert!(close(uc, 333.7294), "{uc}");
        assert_eq!(format!("{:.2}", uc / ms), "2.18");
        let (ms, uc) = multisend_time(1536, 6, true).unwrap();
        assert!(close(ms, 123.2569), "{ms}");
        assert!(close(uc, 154.0174), "{uc}");
        assert_eq!(format!("{:.2}", uc / ms), "1.25");
    }

    #[test]
    fn per_byte_coefficients_follow_from_throughput() {
        let c = per_byte_us_from_throughput(HOST_TO_NIC_MBPS).unwrap();
        assert_eq!(format!("{c:.4}"), "0.0301");
        let c = per_byte_us_from_throughput(HOST_TO_NIC_WC_MBPS).unwrap();
        assert_eq!(format!("{c:.4}"), "0.0106");
        assert!(per_byte_us_from_throughput(0.0).is_err());
        assert!(per_byte_us_from_throughput(f64::NAN).is_err());
    }

    #[test]
    fn one_destination_is_one_unicast() {
        let (ms, uc) = multisend_time(100, 1, false).unwrap();
        assert!(close(ms, uc));
    }

    #[test]
    fn lambda_from_timing_model() {
        // 1,536 bytes: (12.9158 + 39.61 + 49.0199) / 12.9158.
        let l = multisend_lambda(1536, false).unwrap();
        assert!(close(l, 101.5457 / 12.9158));
        let l = unicast_lambda(1536, false).unwrap();
        assert!(close(l, 88.6299 / 49.0199));
    }

    #[test]
    fn bad_input_is_a_one_line_error() {
        for e in [
            multisend_time(1537, 2, false).unwrap_err(),
            multisend_time(8, 0, false).unwrap_err(),
            multisend_lambda(4096, true).unwrap_err(),
        ] {
            let s = e.to_string();
            assert!(!s.contains('\n') && !s.is_empty(), "{s}");
        }
    }

    proptest! {
        #[test]
        fn multisend_never_loses_to_unicast_in_fm(m in 0u64..=1536, k in 1u64..64) {
            // FM's host send is always longer than the NIC transmission (s2), so one host
            // write plus k-1 transmissions beats k host writes, with or without WC.
            for wc in [false, true] {
                let (ms, uc) = multisend_time(m, k, wc).unwrap();
                prop_assert!(ms <= uc + 1e-9);
                // Multi-send time grows by exactly t_xmit per extra destination.
                let (ms2, _) = multisend_time(m, k + 1, wc).unwrap();
                prop_assert!((ms2 - ms - MultisendParams::paper().xmit.at(m)).abs() < 1e-9);
            }
        }

        #[test]
        fn lambdas_are_at_least_one(m in 0u64..=1536, wc in any::<bool>()) {
            prop_assert!(multisend_lambda(m, wc).unwrap() >= 1.0);
            prop_assert!(unicast_lambda(m, wc).unwrap() >= 1.0);
        }
    }
}
