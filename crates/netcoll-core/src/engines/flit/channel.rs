//! Channels: everything in flight between two points of the network (flits on links,
//! credits on their way back, flits on ejection channels) is an event in a timing wheel,
//! due a fixed number of cycles later. The wheel's buckets are reused vectors, so after
//! warm-up no event allocates.

/// A flit: the packet slot it belongs to and its position in the packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flit {
    pub pkt: u32,
    pub idx: u16,
    pub head: bool,
    pub tail: bool,
    /// Cycle the flit left its source NI.
    pub itime: u64,
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
