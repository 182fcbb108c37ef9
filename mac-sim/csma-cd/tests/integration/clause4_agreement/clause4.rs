//! An independent, deliberately plain simulator of IEEE 802.3 clause 4 half duplex
//! CSMA/CD, written from the clause text and its Pascal model (clause 4.2.8), used
//! only to check the exact model (`csma_cd::exact`) in `clause4_agreement.rs`.
//!
//! * Every signal start and end becomes an explicit carrier-on / carrier-off edge at
//!   every station's position (front of a signal from `x` started at `s` reaches `y`
//!   at `s + |x − y|`). Carrier is present at `t` strictly between the front's and
//!   the tail's arrival: at equal times, carrier-off edges are handled first, then
//!   station timers, then carrier-on edges.
//! * Deference (clause 4.2.3.2.1, process `Deference`): an explicit state machine
//!   per station. Carrier appears: deferring. Carrier drops: the 96-bit gap starts;
//!   carrier in its first 64 bits (`interFrameSpacingPart1`) restarts it at the
//!   next drop; carrier in the last 32 bits is ignored. After the station's own
//!   transmission (`wasTransmitting`) the gap is timed blind from the first instant
//!   when carrier and transmitting are both off.
//! * TransmitFrame / collision (clauses 4.2.3.2.4-5): preamble + SFD (64 bits) and
//!   the frame; a foreign signal at the transmitter is a collision: finish the
//!   preamble and SFD, jam 32 bits, stop; truncated BEB (`r` uniform in
//!   `[0, 2^min(n,10))` slots of 512 bits from the jam's end), discard at 16
//!   attempts (clause 4.2.3.2.5, 4.4.2).
//!
//! * At 1000 Mb/s (`Params::gigabit`, the 1000BASE-T preset): slotTime 4096 bits;
//!   carrier extension (clause 4.2.3.4): the transmission lasts at least preamble +
//!   slotTime, and a foreign signal during it is a collision; frame bursting (clause
//!   4.2.3.2.7, `BurstTimer` of 4.2.8): after a frame without collision, if the
//!   station has another frame and fewer than burstLimit = 65 536 bit times have
//!   passed since the burst's first transmission began when the next one would
//!   start, it keeps transmitting: extension bits for the gap, then the frame, with
//!   no carrier edge in between.
//!
//! Only the default rules (`IfgRule::Ieee8023`, `JamRule::Preamble`) are modelled.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// Station placement on the bus.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// All at one point.
    Point,
    /// Evenly from one end to the other.
    Even,
    /// Uniformly at random.
    Random,
}

/// One run's parameters (10 Mb/s or, with `gigabit`, 1000 Mb/s; 2e8 m/s).
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// Stations.
    pub stations: usize,
    /// Frame size, bytes.
    pub frame_bytes: u64,
    /// Placement.
    pub place: Place,
    /// Bus length, metres.
    pub bus_m: f64,
    /// `None`: saturated; `Some(G)`: Poisson at offered load G.
    pub load: Option<f64>,
    /// Simulated time, picoseconds.
    pub duration: u64,
    /// Seed.
    pub seed: u64,
    /// 1000 Mb/s half duplex: 4096-bit slot, carrier extension, frame bursting.
    pub gigabit: bool,
}

/// The measured metrics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Metrics {
    /// Delivered frame bits / (bit rate × time).
    pub utilisation: f64,
    /// Collided attempts per delivered frame.
    pub collided_per_frame: f64,
    /// Excessive-collision drops per generated frame.
    pub drops_per_generated: f64,
    /// Mean access delay, µs.
    pub access_us: f64,
    /// Mean total delay, µs.
    pub total_us: f64,
}

/// The clause 4.4.2 parameters in picoseconds.
#[derive(Clone, Copy)]
struct Timing {
    bit: u64,
    preamble: u64,
    jam: u64,
    ifg: u64,
    ifg1: u64,
    slot: u64,
    /// Carrier extension to the slot and frame bursting.
    gigabit: bool,
    burst_limit: u64,
}

impl Timing {
    fn new(gigabit: bool) -> Self {
        let bit = if gigabit { 1_000 } else { 100_000 };
        Timing {
            bit,
            preamble: 64 * bit,
            jam: 32 * bit,
            ifg: 96 * bit,
            ifg1: 64 * bit,
            slot: if gigabit { 4096 } else { 512 } * bit,
            gigabit,
            burst_limit: 65_536 * bit,
        }
    }
}
const ATTEMPT_LIMIT: u32 = 16;
const BACKOFF_LIMIT: u32 = 10;
const QUEUE_LIMIT: usize = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    /// Class 0: the tail of a signal from station `.1` passes station `.0`.
    CarrierOff(usize, usize),
    /// Class 1: deference timer of station `.0` with generation `.1`.
    GapTimer(usize, u64),
    /// Class 1: transmission end of station `.0` with generation `.1`.
    TxEnd(usize, u64),
    /// Class 1: backoff end of station `.0`.
    BackoffEnd(usize),
    /// Class 1: a Poisson arrival.
    Arrival,
    /// Class 2: a signal from station `.1` reaches station `.0`.
    CarrierOn(usize, usize),
}

impl Ev {
    fn class(&self) -> u8 {
        match self {
            Ev::CarrierOff(..) => 0,
            Ev::CarrierOn(..) => 2,
            _ => 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Def {
    /// No carrier, not deferring.
    Idle,
    /// Carrier (or own transmission) seen; waiting for both to drop.
    Busy,
    /// Gap part 1 (carrier restarts).
    Part1,
    /// Gap part 2 (carrier ignored).
    Part2,
    /// Gap after own transmission (carrier ignored).
    Blind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mac {
    /// No frame.
    Empty,
    /// Frame waiting for deferring to go false.
    Waiting,
    /// Backing off.
    Backoff,
    /// Transmitting.
    Tx,
}

struct Station {
    pos: u64,
    carrier: u32,
    /// Foreign signals present.
    foreign: u32,
    def: Def,
    deferring: bool,
    was_tx: bool,
    gap_gen: u64,
    mac: Mac,
    tx_start: u64,
    burst_start: u64,
    tx_gen: u64,
    collided: bool,
    attempts: u32,
    /// Arrival times of queued frames (front in service).
    queue: VecDeque<u64>,
    head_since: u64,
}

struct Sim {
    p: Params,
    now: u64,
    seq: u64,
    heap: BinaryHeap<Reverse<(u64, u8, u64, Ev)>>,
    st: Vec<Station>,
    rng: XorShiftRng,
    t: Timing,
    frame_time: u64,
    // statistics
    delivered: u64,
    collided: u64,
    dropped: u64,
    generated: u64,
    access_sum: f64,
    total_sum: f64,
}

impl Sim {
    fn push(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        self.heap.push(Reverse((t, ev.class(), self.seq, ev)));
    }

    fn uniform(&mut self) -> f64 {
        (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.rng.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Deference: re-evaluate station `i` after any change of carrier or transmitting.
    fn deference(&mut self, i: usize) {
        let (now, t) = (self.now, self.t);
        let s = &mut self.st[i];
        let tx = s.mac == Mac::Tx;
        match s.def {
            Def::Idle => {
                if s.carrier > 0 || tx {
                    s.def = Def::Busy;
                    s.deferring = true;
                    s.was_tx = tx;
                }
            }
            Def::Busy => {
                s.was_tx |= tx;
                if s.carrier == 0 && !tx {
                    s.gap_gen += 1;
                    let g = s.gap_gen;
                    if s.was_tx {
                        s.def = Def::Blind;
                        self.push(now + t.ifg, Ev::GapTimer(i, g));
                    } else {
                        s.def = Def::Part1;
                        self.push(now + t.ifg1, Ev::GapTimer(i, g));
                    }
                }
            }
            Def::Part1 => {
                if s.carrier > 0 {
                    s.def = Def::Busy;
                    s.gap_gen += 1;
                }
            }
            Def::Part2 | Def::Blind => {}
        }
    }

    fn gap_timer(&mut self, i: usize, g: u64) {
        if self.st[i].gap_gen != g {
            return;
        }
        match self.st[i].def {
            Def::Part1 => {
                self.st[i].def = Def::Part2;
                self.st[i].gap_gen += 1;
                let g = self.st[i].gap_gen;
                self.push(self.now + (self.t.ifg - self.t.ifg1), Ev::GapTimer(i, g));
            }
            Def::Part2 | Def::Blind => {
                self.st[i].def = Def::Idle;
                self.st[i].deferring = false;
                if self.st[i].mac == Mac::Waiting {
                    self.start_tx(i);
                }
                self.deference(i);
            }
            _ => {}
        }
    }

    /// A frame is ready at station `i` (new head or backoff over).
    fn ready(&mut self, i: usize) {
        if self.st[i].deferring {
            self.st[i].mac = Mac::Waiting;
        } else {
            self.start_tx(i);
            self.deference(i);
        }
    }

    fn start_tx(&mut self, i: usize) {
        let (now, t) = (self.now, self.t);
        let s = &mut self.st[i];
        s.mac = Mac::Tx;
        s.tx_start = now;
        s.burst_start = now;
        s.collided = false;
        s.attempts += 1;
        s.tx_gen += 1;
        let g = s.tx_gen;
        let pos = s.pos;
        let foreign = s.foreign;
        let body = if t.gigabit {
            self.frame_time.max(t.slot)
        } else {
            self.frame_time
        };
        self.push(now + t.preamble + body, Ev::TxEnd(i, g));
        for j in 0..self.st.len() {
            let d = pos.abs_diff(self.st[j].pos);
            self.push(now + d, Ev::CarrierOn(j, i));
        }
        if foreign > 0 {
            self.collision(i);
        }
    }

    fn collision(&mut self, i: usize) {
        let s = &mut self.st[i];
        if s.collided {
            return;
        }
        s.collided = true;
        s.tx_gen += 1;
        let end = self.now.max(s.tx_start + self.t.preamble) + self.t.jam;
        let g = s.tx_gen;
        self.push(end, Ev::TxEnd(i, g));
    }

    fn tx_end(&mut self, i: usize, g: u64) {
        if self.st[i].tx_gen != g {
            return;
        }
        if self.t.gigabit && !self.st[i].collided && self.burst_goes_on(i) {
            return;
        }
        let now = self.now;
        let pos = self.st[i].pos;
        for j in 0..self.st.len() {
            let d = pos.abs_diff(self.st[j].pos);
            self.push(now + d, Ev::CarrierOff(j, i));
        }
        self.st[i].mac = Mac::Empty;
        if self.st[i].collided {
            self.collided += 1;
            let n = self.st[i].attempts;
            if n >= ATTEMPT_LIMIT {
                self.dropped += 1;
                self.finish_head(i, false);
            } else {
                let k = n.min(BACKOFF_LIMIT);
                let r = self.below(1u64 << k);
                self.st[i].mac = Mac::Backoff;
                self.push(now + r * self.t.slot, Ev::BackoffEnd(i));
            }
        } else {
            self.finish_head(i, true);
        }
        self.deference(i);
    }

    /// Frame bursting at the end of a frame sent without collision: if the station
    /// has another frame and the burst timer has not run out when it would start,
    /// deliver this one and send that one after a gap of extension bits, the
    /// transmission going on (no carrier edge).
    fn burst_goes_on(&mut self, i: usize) -> bool {
        let (now, t) = (self.now, self.t);
        let has_next = self.p.load.is_none() || self.st[i].queue.len() >= 2;
        if !has_next || now + t.ifg >= self.st[i].burst_start + t.burst_limit {
            return false;
        }
        self.finish_head(i, true);
        let s = &mut self.st[i];
        s.mac = Mac::Tx;
        s.tx_start = now + t.ifg;
        s.collided = false;
        s.attempts += 1;
        s.tx_gen += 1;
        let g = s.tx_gen;
        self.push(now + t.ifg + t.preamble + self.frame_time, Ev::TxEnd(i, g));
        true
    }

    fn finish_head(&mut self, i: usize, success: bool) {
        let now = self.now;
        let arr = self.st[i].queue.pop_front().unwrap_or(now);
        if success && now <= self.p.duration {
            self.delivered += 1;
            self.access_sum += (now - self.st[i].head_since) as f64;
            self.total_sum += (now - arr) as f64;
        }
        self.st[i].attempts = 0;
        if self.p.load.is_none() {
            self.st[i].queue.push_back(now);
            self.generated += 1;
        }
        if !self.st[i].queue.is_empty() {
            self.st[i].head_since = now;
            self.ready(i);
        }
    }

    fn arrival(&mut self, rate_per_ps: f64) {
        let i = self.below(self.st.len() as u64) as usize;
        self.generated += 1;
        if self.st[i].queue.len() < QUEUE_LIMIT {
            self.st[i].queue.push_back(self.now);
            if self.st[i].queue.len() == 1 {
                self.st[i].head_since = self.now;
                self.ready(i);
            }
        }
        let u = 1.0 - self.uniform();
        let dt = (-u.ln() / rate_per_ps).round() as u64;
        self.push(self.now + dt.max(1), Ev::Arrival);
    }
}

/// Run one simulation.
pub fn run(p: &Params) -> Metrics {
    let mut rng = XorShiftRng::seed_from_u64(p.seed ^ 0x5eed_c1a0_5e4f_0004);
    let t = Timing::new(p.gigabit);
    let max_prop = (p.bus_m / 2e8 * 1e12).round() as u64;
    let n = p.stations;
    let mut pos: Vec<u64> = (0..n)
        .map(|i| match p.place {
            Place::Point => 0,
            Place::Even if n > 1 => max_prop * i as u64 / (n as u64 - 1),
            Place::Even => 0,
            Place::Random => {
                ((u128::from(rng.next_u64()) * (u128::from(max_prop) + 1)) >> 64) as u64
            }
        })
        .collect();
    pos.sort_unstable();
    let st = pos
        .iter()
        .map(|&pos| Station {
            pos,
            carrier: 0,
            foreign: 0,
            def: Def::Idle,
            deferring: false,
            was_tx: false,
            gap_gen: 0,
            mac: Mac::Empty,
            tx_start: 0,
            burst_start: 0,
            tx_gen: 0,
            collided: false,
            attempts: 0,
            queue: VecDeque::new(),
            head_since: 0,
        })
        .collect();
    let mut sim = Sim {
        p: *p,
        now: 0,
        seq: 0,
        heap: BinaryHeap::new(),
        st,
        rng,
        t,
        frame_time: p.frame_bytes * 8 * t.bit,
        delivered: 0,
        collided: 0,
        dropped: 0,
        generated: 0,
        access_sum: 0.0,
        total_sum: 0.0,
    };
    let bit_rate = 1e12 / t.bit as f64;
    let rate_per_ps = p
        .load
        .map(|g| g * bit_rate / (p.frame_bytes * 8) as f64 / 1e12);
    match rate_per_ps {
        None => {
            for i in 0..n {
                sim.st[i].queue.push_back(0);
                sim.generated += 1;
                sim.ready(i);
            }
        }
        Some(r) => sim.arrival(r),
    }
    while let Some(Reverse((t, _, _, ev))) = sim.heap.pop() {
        if t > p.duration {
            break;
        }
        sim.now = t;
        match ev {
            Ev::CarrierOn(j, src) => {
                sim.st[j].carrier += 1;
                if src != j {
                    sim.st[j].foreign += 1;
                    if sim.st[j].mac == Mac::Tx {
                        sim.collision(j);
                    }
                }
                sim.deference(j);
            }
            Ev::CarrierOff(j, src) => {
                sim.st[j].carrier -= 1;
                if src != j {
                    sim.st[j].foreign -= 1;
                }
                sim.deference(j);
            }
            Ev::GapTimer(i, g) => sim.gap_timer(i, g),
            Ev::TxEnd(i, g) => sim.tx_end(i, g),
            Ev::BackoffEnd(i) => sim.ready(i),
            Ev::Arrival => sim.arrival(rate_per_ps.unwrap_or(1.0)),
        }
    }
    let d = sim.delivered.max(1) as f64;
    Metrics {
        utilisation: sim.delivered as f64 * (p.frame_bytes * 8) as f64 * t.bit as f64
            / p.duration as f64,
        collided_per_frame: sim.collided as f64 / d,
        drops_per_generated: sim.dropped as f64 / sim.generated.max(1) as f64,
        access_us: sim.access_sum / d / 1e6,
        total_us: sim.total_sum / d / 1e6,
    }
}
