//! Channels: everything in flight between two points of the network (flits on links,
//! credits on their way back, flits on ejection channels) is an event in a timing wheel,
//! due a fixed number of cycles later. The wheel's buckets are reused vectors, so after
//! warm-up no event allocates.

/// A flit: the packet slot it belongs to, and what a router needs to route it without
/// touching the packet table (a cache miss per hop on large networks): its destination
/// endpoint with the packet's routing state, and the router-to-router hops it has made.
/// 16 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flit {
    pub pkt: u32,
    /// Destination endpoint (low 24 bits) and routing state (high 8 bits: dateline class,
    /// up*/down* phase, torus direction), see [`Flit::dst`] and [`Flit::rstate`].
    pub dst_state: u32,
    /// Low 32 bits of the cycle the flit left its source NI (a flit latency is the
    /// wrapping difference: exact below 2^32 cycles in flight).
    pub itime: u32,
    pub hops: u16,
    pub head: bool,
    pub tail: bool,
}

/// Endpoints a flit can address (24 bits of `Flit::dst_state`).
pub const MAX_FLIT_ENDPOINTS: usize = 1 << 24;

impl Flit {
    /// A flit of packet `pkt` bound for endpoint `dst`, leaving its NI at cycle `now`.
    #[inline]
    pub fn new(pkt: u32, dst: u32, now: u64, head: bool, tail: bool) -> Flit {
        debug_assert!((dst as usize) < MAX_FLIT_ENDPOINTS);
        Flit {
            pkt,
            dst_state: dst,
            itime: now as u32,
            hops: 0,
            head,
            tail,
        }
    }
    #[inline]
    pub fn dst(&self) -> usize {
        (self.dst_state & 0x00ff_ffff) as usize
    }
    #[inline]
    pub fn rstate(&self) -> u8 {
        (self.dst_state >> 24) as u8
    }
    #[inline]
    pub fn set_dst(&mut self, dst: u32) {
        self.dst_state = (self.dst_state & 0xff00_0000) | dst;
    }
    #[inline]
    pub fn set_rstate(&mut self, state: u8) {
        self.dst_state = (self.dst_state & 0x00ff_ffff) | (state as u32) << 24;
    }
    /// Cycles since the flit left its NI.
    #[inline]
    pub fn age(&self, now: u64) -> u64 {
        (now as u32).wrapping_sub(self.itime) as u64
    }
}

#[derive(Debug, Clone, Copy)]
pub enum Event {
    /// A flit reaches input port `port` (global port index), virtual channel `vc`.
    Flit { port: u32, vc: u8, flit: Flit },
    /// A credit for VC `vc` reaches output port `port` (global index).
    Credit { port: u32, vc: u8 },
    /// A credit reaches the network interface of endpoint `ep`.
    NiCredit { ep: u32, vc: u8 },
    /// A flit reaches the network interface of endpoint `ep`.
    Eject { ep: u32, flit: Flit },
}

pub struct Wheel {
    buckets: Vec<Vec<Event>>,
    mask: u64,
    /// Events scheduled and not yet taken.
    pending: usize,
}

impl Wheel {
    /// A wheel for delays of 1..=`max_delay` cycles.
    pub fn new(max_delay: u64) -> Wheel {
        let size = (max_delay + 1).next_power_of_two();
        Wheel {
            buckets: (0..size).map(|_| Vec::new()).collect(),
            mask: size - 1,
            pending: 0,
        }
    }

    /// Schedules `e` for cycle `at` (strictly in the future, within the wheel's span).
    #[inline]
    pub fn push(&mut self, at: u64, e: Event) {
        self.pending += 1;
        self.buckets[(at & self.mask) as usize].push(e);
    }

    /// Takes the events due at `now`, leaving an empty bucket with its capacity kept (the
    /// caller hands the vector back with [`Wheel::give_back`]).
    pub fn take(&mut self, now: u64) -> Vec<Event> {
        let v = std::mem::take(&mut self.buckets[(now & self.mask) as usize]);
        self.pending -= v.len();
        v
    }

    /// Whether nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.pending == 0
    }

    pub fn give_back(&mut self, now: u64, mut v: Vec<Event>) {
        v.clear();
        let b = &mut self.buckets[(now & self.mask) as usize];
        if b.is_empty() && b.capacity() < v.capacity() {
            *b = v;
        }
    }
}
