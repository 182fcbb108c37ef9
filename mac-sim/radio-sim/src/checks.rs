//! The simulator against the literature's closed forms ([`theory`](crate::theory)):
//! the series behind the tests and behind `mac-sim radio --check`.
//!
//! Each function runs the real radio MAC on the host channel and returns the measured
//! figure beside the closed form, with the form's inputs taken from the model's own
//! timing (802.15.4's 2.4 GHz PHY: 320 µs slot, SIFS 192 µs, DIFS 832 µs, a 50-byte
//! payload's data frame 2080 µs, ACK 480 µs, CCA delay 192 µs).
//!
//! * [`bianchi`]: all stations in range, saturated, the DCF-like rule with unlimited
//!   retries: saturation throughput and conditional collision probability against
//!   Bianchi's fixed point. The rule is the one his model describes (a counter drawn
//!   before every attempt from `[0, 2^i W − 1]`, frozen while the medium is busy,
//!   stepping once per slot time of his model), and the slots line up as his do.
//! * [`aloha_star`]: every sender hidden from every other (a star around the sink),
//!   Poisson load: throughput against pure ALOHA with the attempt rate `G` measured.
//!   The model adds one thing to ALOHA's vulnerable period of two frame times: after
//!   each success the sink turns around and sends its ACK, and a frame that starts in
//!   the SIFS plus the CCA delay after a success (before the senders' carrier sense
//!   can see the ACK) meets the sink transmitting. So `S = G e^(−2G − S v)` with
//!   `v = (SIFS + CCA delay) / T`. ALOHA's retransmissions are independent of each other; the
//!   802.15.4 default windows (at most `2^5` periods, 10 ms) are too short for that
//!   against a 2 ms frame, so the check runs with `macMinBE = macMaxBE = 8` (82 ms),
//!   and the default rule is reported beside it.
//! * [`csma_all`]: all in range, Poisson load: throughput against non-persistent CSMA
//!   (Kleinrock and Tobagi 1975) with `G` the rate at which stations look at the
//!   channel (transmissions plus busy assessments) and `a` = CCA delay / frame time.
//!   Two assumptions of the form do not hold and are named: (1) the ACK exchange
//!   holds the channel for SIFS + ACK after each intact frame, which the check adds to
//!   the busy period (`E[B] = 1 + a − (1 − e^(−aG))/G + e^(−aG)(SIFS + ACK)/T`), and a
//!   station that assesses the channel in the SIFS gap transmits into the ACK (its
//!   frame is lost; this is left out of the form); (2) independent scheduling points,
//!   again approached with `macMinBE = macMaxBE = 8`.
//! * [`line()`]: the hidden-terminal line A − B − C (both to B) against the same three
//!   stations all in range, under the default rule: no closed form, the contrast.

use radio_mac::frame::OVERHEAD;
use radio_mac::{Countdown, MacConfig};
use serde::Serialize;
use sim_kit::time::Time;

use crate::config::{ConfigError, Destination, Phy, RadioConfig, Rule, Topology, Traffic};
use crate::driver::run;
use crate::metrics::RadioResult;
use crate::theory::{BianchiPoint, BianchiTimes, nonpersistent_csma};

/// The payload of every check, bytes.
pub const PAYLOAD: u16 = 50;

/// The payload of the LoRa ALOHA check, bytes: the shortest, so that the frame
/// (13 bytes, 45.25 symbols, 46.336 ms at SF7) is short against the widest backoff
/// window (256 slots of 3 symbols: 17 frame times).
pub const LORA_PAYLOAD: u16 = 4;

/// `macMinBE = macMaxBE` of the ALOHA and CSMA checks: windows of 256 periods
/// (82 ms), long against the 2 ms frame, so that retransmissions are independent.
pub const WIDE_BE: u32 = 8;

/// The Bianchi check's window settings `(W, m)`.
pub const BIANCHI_WINDOWS: [(u32, u32); 2] = [(16, 6), (32, 5)];
/// The Bianchi check's numbers of saturated senders.
pub const BIANCHI_SENDERS: [u16; 4] = [5, 10, 20, 50];
/// Senders of the ALOHA and CSMA checks.
pub const SENDERS: u16 = 20;
/// The window setting at which the check also runs IEEE 802.11's countdown.
pub const STANDARD_COUNTDOWN_WINDOW: (u32, u32) = (32, 5);

/// Offered loads of the ALOHA check (past about 0.3 the wide windows, not the
/// channel, limit the attempt rate).
pub const ALOHA_LOADS: [f64; 4] = [0.05, 0.1, 0.2, 0.3];
/// Offered loads of the CSMA check.
pub const CSMA_LOADS: [f64; 3] = [0.1, 0.3, 0.6];
/// Offered loads of the hidden-terminal line.
pub const LINE_LOADS: [f64; 6] = [0.05, 0.2, 0.4, 0.7, 1.0, 1.5];

/// Simulated seconds per Bianchi point: 100 000 data transmissions or more at every
/// `n`, so that the binomial standard error of the collision probability stays
/// below 0.6 % of it.
pub fn bianchi_duration(n: u16) -> Time {
    Time::from_secs(match n {
        0..=5 => 600,
        6..=10 => 300,
        11..=20 => 240,
        _ => 200,
    })
}

/// The seed of each check: Bianchi, ALOHA, CSMA, the line.
pub const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// Simulated time of each ALOHA, CSMA and line point.
pub const LOAD_DURATION: Time = Time::from_secs(120);

/// One point of the Bianchi check.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BianchiRow {
    /// Saturated senders `n` (the sink only answers).
    pub senders: u32,
    /// `W`, slots.
    pub cw_min: u32,
    /// `m`.
    pub max_stage: u32,
    /// Measured throughput S.
    pub throughput: f64,
    /// Measured conditional collision probability.
    pub collision_probability: f64,
    /// Data transmissions measured (the sample behind the probability).
    pub transmissions: u64,
    /// Bianchi's fixed point and throughput.
    pub theory: BianchiPoint,
}

impl BianchiRow {
    /// Relative error of the throughput.
    pub fn throughput_error(&self) -> f64 {
        self.throughput / self.theory.throughput - 1.0
    }

    /// Relative error of the collision probability.
    pub fn collision_error(&self) -> f64 {
        self.collision_probability / self.theory.p - 1.0
    }

    /// The binomial standard error of the measured collision probability, relative to
    /// it: how much of [`collision_error`](Self::collision_error) sampling alone explains.
    pub fn collision_standard_error(&self) -> f64 {
        let (p, k) = (self.collision_probability, self.transmissions.max(1) as f64);
        ((1.0 - p) / (p.max(1e-12) * k)).sqrt()
    }
}

/// One point of a Poisson load sweep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LoadRow {
    /// Offered load of new frames, `G` of the configuration.
    pub load: f64,
    /// The rate the closed form takes, per frame time: data transmissions (ALOHA) or
    /// transmissions and busy assessments (CSMA).
    pub g: f64,
    /// Measured throughput S.
    pub throughput: f64,
    /// The closed form's S at `g` (NaN where there is none).
    pub theory: f64,
    /// Delivery ratio.
    pub delivery_ratio: f64,
    /// Conditional collision probability.
    pub collision_probability: f64,
    /// Attempts per frame.
    pub attempts_per_frame: f64,
}

impl LoadRow {
    /// Relative error against the closed form.
    pub fn error(&self) -> f64 {
        self.throughput / self.theory - 1.0
    }
}

/// The times of Bianchi's formula in the model, µs.
pub fn bianchi_times(mac: &MacConfig, payload: u16) -> BianchiTimes {
    let us = |ns: u64| ns as f64 / 1e3;
    let data = us(mac.air_time_ns(usize::from(payload) + OVERHEAD));
    let ack = us(mac.air_time_ns(OVERHEAD));
    let (sifs, difs) = (us(mac.sifs_ns()), us(mac.interframe_space_ns()));
    BianchiTimes {
        slot: us(mac.slot().as_nanos()),
        success: data + sifs + ack + difs,
        // Colliders time out SIFS + a slot after their frame (before DIFS ends) and
        // rejoin the slot grid with everyone else.
        collision: data + difs,
        payload: data,
    }
}

fn base(senders: u16, topology: Topology, duration: Time, seed: u64) -> RadioConfig {
    let mut c = RadioConfig {
        stations: senders + 1,
        topology,
        payload: PAYLOAD,
        to: Destination::Sink,
        duration,
        warmup: Time::from_secs(1),
        seed,
        ..RadioConfig::default()
    };
    c.rule.rule = Rule::Ieee802154;
    c
}

/// Bianchi's check at `n` saturated senders, window `w`, `m` stages.
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run (`n` above 253, `w` above 65535).
pub fn bianchi(
    n: u16,
    w: u32,
    m: u32,
    duration: Time,
    seed: u64,
) -> Result<BianchiRow, ConfigError> {
    bianchi_counting(n, w, m, Countdown::VirtualSlots, duration, seed)
}

/// [`bianchi`] with the DCF-like rule's counter counting down as `countdown` says:
/// [`Countdown::IdleSlots`] is IEEE 802.11's own countdown, which Bianchi's model does
/// not describe (the row shows by how much it differs).
///
/// # Errors
///
/// As [`bianchi`].
pub fn bianchi_counting(
    n: u16,
    w: u32,
    m: u32,
    countdown: Countdown,
    duration: Time,
    seed: u64,
) -> Result<BianchiRow, ConfigError> {
    let mut c = base(n, Topology::All, duration, seed);
    c.rule.countdown = Some(countdown);
    c.traffic = Traffic::Saturated;
    c.rule.rule = Rule::Dcf;
    c.rule.cw_min = Some(w);
    c.rule.max_stage = Some(m);
    c.rule.retry_limit = Some(u32::MAX);
    let mac = c.validate()?;
    let r = run(&c)?;
    let times = bianchi_times(&mac, c.payload);
    Ok(BianchiRow {
        senders: u32::from(n),
        cw_min: w,
        max_stage: m,
        throughput: r.throughput,
        collision_probability: r.collision_probability,
        transmissions: r.data_transmissions,
        theory: crate::theory::bianchi(u32::from(n), w, m, times),
    })
}

/// A Poisson run of `senders` on `topology` at `load` under the 802.15.4 rule with
/// `be` as both `macMinBE` and `macMaxBE` (`None`: the standard's defaults), on the
/// checks' PHY.
fn poisson(
    senders: u16,
    topology: Topology,
    load: f64,
    be: Option<u32>,
    duration: Time,
    seed: u64,
) -> Result<(RadioConfig, MacConfig, RadioResult), ConfigError> {
    poisson_on(
        Phy::Ieee802154_2450,
        PAYLOAD,
        senders,
        topology,
        load,
        be,
        duration,
        seed,
    )
}

/// [`poisson`] on `phy` with `payload`, capture off (the closed forms have none).
#[allow(clippy::too_many_arguments)]
fn poisson_on(
    phy: Phy,
    payload: u16,
    senders: u16,
    topology: Topology,
    load: f64,
    be: Option<u32>,
    duration: Time,
    seed: u64,
) -> Result<(RadioConfig, MacConfig, RadioResult), ConfigError> {
    let mut c = base(senders, topology, duration, seed);
    c.phy = phy;
    c.payload = payload;
    c.capture_db = Some(None);
    c.traffic = Traffic::Poisson;
    c.load = load;
    c.rule.min_be = be;
    c.rule.max_be = be;
    let mac = c.validate()?;
    let r = run(&c)?;
    Ok((c, mac, r))
}

/// Per frame time: `count` events over the measured window of `c`.
fn per_frame_time(count: u64, c: &RadioConfig, mac: &MacConfig) -> f64 {
    let frame = mac.air_time_ns(usize::from(c.payload) + OVERHEAD) as f64;
    count as f64 * frame / c.duration.as_ns() as f64
}

fn row(load: f64, g: f64, theory: f64, r: &RadioResult) -> LoadRow {
    LoadRow {
        load,
        g,
        throughput: r.throughput,
        theory,
        delivery_ratio: r.delivery_ratio,
        collision_probability: r.collision_probability,
        attempts_per_frame: r.attempts_per_frame,
    }
}

/// Pure ALOHA with the sink's turnaround: the `S` that solves `S = G e^(−2G − S v)`.
pub fn aloha_with_ack(g: f64, v: f64) -> f64 {
    let mut s = crate::theory::pure_aloha(g, 2.0);
    for _ in 0..100 {
        s = g * sim_kit::maths::exp(-2.0 * g - s * v);
    }
    s
}

/// The ALOHA check: `senders` hidden from each other around the sink at `load`;
/// `be` both `macMinBE` and `macMaxBE` (`Some(WIDE_BE)` for the check, `None` for the
/// standard's defaults).
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run.
pub fn aloha_star(
    senders: u16,
    load: f64,
    be: Option<u32>,
    duration: Time,
    seed: u64,
) -> Result<LoadRow, ConfigError> {
    let (c, mac, r) = poisson(senders, Topology::Star, load, be, duration, seed)?;
    let g = per_frame_time(r.data_transmissions, &c, &mac);
    Ok(row(
        load,
        g,
        aloha_with_ack(g, aloha_parameter(&c, &mac)),
        &r,
    ))
}

/// [`aloha_star`] on the LoRa PHY (SF7, 125 kHz, 4/5: the [`LORA_PAYLOAD`]'s frame is
/// 46.336 ms on the air, the ACK 41.216 ms, the slot 3.072 ms), capture off as ALOHA
/// has none; the theory is [`aloha_with_ack_busy`].
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run.
pub fn aloha_star_lora(
    senders: u16,
    load: f64,
    duration: Time,
    seed: u64,
) -> Result<LoadRow, ConfigError> {
    let (c, mac, r) = poisson_on(
        Phy::Lora,
        LORA_PAYLOAD,
        senders,
        Topology::Star,
        load,
        Some(WIDE_BE),
        duration,
        seed,
    )?;
    let g = per_frame_time(r.data_transmissions, &c, &mac);
    let frame = mac.air_time_ns(usize::from(c.payload) + OVERHEAD) as f64;
    let ack = (mac.sifs_ns() + mac.air_time_ns(OVERHEAD)) as f64 / frame;
    Ok(row(
        load,
        g,
        aloha_with_ack_busy(g, aloha_parameter(&c, &mac), ack),
        &r,
    ))
}

/// The numbers of boards of the LoRa capacity series ([`lora_nodes`]).
pub const LORA_NODES: [u16; 8] = [5, 10, 25, 50, 100, 150, 200, 254];
/// How often each board pings, on average: the radio board's demo (every 10 to 14 s).
pub const LORA_PING_INTERVAL: Time = Time::from_secs(12);
/// The measured time of each point of the LoRa capacity series: one hour, the duty
/// cycle's period.
pub const LORA_NODES_DURATION: Time = Time::from_secs(3600);

/// One point of the LoRa capacity series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NodesRow {
    /// Boards.
    pub nodes: u16,
    /// Whether they all hear each other (else only the sink hears them).
    pub in_range: bool,
    /// The offered load G that the demo's rate makes at this number of boards.
    pub load: f64,
    /// Delivered frames over offered ones.
    pub delivery_ratio: f64,
    /// Attempts per frame.
    pub attempts_per_frame: f64,
    /// Frames dropped after the retry limit (no ACK).
    pub dropped_no_ack: u64,
}

/// The radio board as flashed (`mac-sim/scenarios/radio-board.toml`: SF7, 125 kHz,
/// 4/5, the 1 % duty cycle, 802.15.4 CSMA-CA in the 3.072 ms slot) with `nodes`
/// boards, each pinging every [`LORA_PING_INTERVAL`] on average (Poisson), in range
/// of each other (`in_range`, to a neighbour) or around one sink that alone hears
/// them (to the sink): the question of how many boards can share the channel.
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run.
pub fn lora_nodes(
    nodes: u16,
    in_range: bool,
    duration: Time,
    seed: u64,
) -> Result<NodesRow, ConfigError> {
    let mut c = base(nodes - 1, Topology::All, duration, seed);
    c.phy = Phy::Lora;
    c.duty_cycle_pct = Some(1.0);
    c.payload = 9;
    c.fixed_rx_dbm = -90.0;
    c.warmup = Time::from_secs(60);
    c.traffic = Traffic::Poisson;
    (c.topology, c.to) = if in_range {
        (Topology::All, Destination::Neighbour)
    } else {
        (Topology::Star, Destination::Sink)
    };
    let mac = c.validate()?;
    let frame = mac.air_time_ns(usize::from(c.payload) + OVERHEAD) as f64;
    let senders = f64::from(nodes - 1);
    c.load = senders * frame / LORA_PING_INTERVAL.as_ns() as f64;
    let r = run(&c)?;
    Ok(NodesRow {
        nodes,
        in_range,
        load: c.load,
        delivery_ratio: r.delivery_ratio,
        attempts_per_frame: r.attempts_per_frame,
        dropped_no_ack: r.drops.no_ack,
    })
}

/// Pure ALOHA with the sink's turnaround and its ACKs holding the channel: no sender
/// starts while it hears the sink's ACK, so the attempts (rate `G` over all time)
/// fall in the time outside the ACKs, a share `1 - b` with `b = S ack` (`ack` =
/// (SIFS + ACK) / T), at rate `G / (1 - b)`: the `S` that solves
/// `S = G e^(−2G / (1 − S ack) − S v)`. Negligible on IEEE 802.15.4 at the loads
/// checked, where an ACK is a quarter of a frame; on LoRa an ACK is nearly as long
/// as a short frame, and [`aloha_with_ack`] alone lies up to 20 % above the measured
/// throughput.
pub fn aloha_with_ack_busy(g: f64, v: f64, ack: f64) -> f64 {
    let mut s = aloha_with_ack(g, v);
    for _ in 0..200 {
        let free = (1.0 - s * ack).max(f64::EPSILON);
        s = g * sim_kit::maths::exp(-2.0 * g / free - s * v);
    }
    s
}

/// `v` = (SIFS + CCA delay) / T of `c`: what the sink's turnaround adds to ALOHA's
/// vulnerable period, in frame times.
pub fn aloha_parameter(c: &RadioConfig, mac: &MacConfig) -> f64 {
    let frame = mac.air_time_ns(usize::from(c.payload) + OVERHEAD) as f64;
    (mac.sifs_ns() + c.cca_delay_ns(mac)) as f64 / frame
}

/// Non-persistent CSMA with the ACK exchange in the busy period (see the module
/// docs): `S = e^(−aG) / (E[B] + 1/G)`, `ack` = (SIFS + ACK) / T.
pub fn csma_with_ack(g: f64, a: f64, ack: f64) -> f64 {
    if g <= 0.0 {
        return 0.0;
    }
    let e = sim_kit::maths::exp(-a * g);
    let busy = 1.0 + a - (1.0 - e) / g + e * ack;
    e / (busy + 1.0 / g)
}

/// The CSMA check: `senders` all in range at `load`, `be` as in [`aloha_star`].
/// [`LoadRow::theory`] is [`csma_with_ack`]; Kleinrock and Tobagi's form without the
/// ACK is [`nonpersistent_csma`] at the same `g`.
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run.
pub fn csma_all(
    senders: u16,
    load: f64,
    be: Option<u32>,
    duration: Time,
    seed: u64,
) -> Result<LoadRow, ConfigError> {
    let (c, mac, r) = poisson(senders, Topology::All, load, be, duration, seed)?;
    let g = per_frame_time(r.data_transmissions + r.busy_assessments, &c, &mac);
    let (a, ack) = csma_parameters(&c, &mac);
    Ok(row(load, g, csma_with_ack(g, a, ack), &r))
}

/// `a` (CCA delay / T) and the ACK exchange (SIFS + ACK) / T of `c`.
pub fn csma_parameters(c: &RadioConfig, mac: &MacConfig) -> (f64, f64) {
    let frame = mac.air_time_ns(usize::from(c.payload) + OVERHEAD) as f64;
    let a = c.cca_delay_ns(mac) as f64 / frame;
    let ack = (mac.sifs_ns() + mac.air_time_ns(OVERHEAD)) as f64 / frame;
    (a, ack)
}

/// Kleinrock and Tobagi's non-persistent CSMA at the checks' `a` (no ACK in the busy
/// period), for comparison.
pub fn csma_without_ack(g: f64) -> f64 {
    let c = base(1, Topology::All, Time::from_secs(1), 1);
    nonpersistent_csma(g, csma_parameters(&c, &CHECK_MAC).0)
}

/// [`csma_with_ack`] at the checks' `a` and ACK exchange.
pub fn csma_form(g: f64) -> f64 {
    let c = base(1, Topology::All, Time::from_secs(1), 1);
    let (a, ack) = csma_parameters(&c, &CHECK_MAC);
    csma_with_ack(g, a, ack)
}

/// [`aloha_with_ack`] at the checks' `v`.
pub fn aloha_form(g: f64) -> f64 {
    let c = base(1, Topology::Star, Time::from_secs(1), 1);
    aloha_with_ack(g, aloha_parameter(&c, &CHECK_MAC))
}

/// [`bianchi_times`] of the checks.
pub fn check_times() -> BianchiTimes {
    bianchi_times(&CHECK_MAC, PAYLOAD)
}

/// The timing every check runs on (the rules change the channel access, not the
/// timing).
const CHECK_MAC: MacConfig = MacConfig::IEEE_802_15_4_2450;

/// The hidden-terminal line: A and C to B under the default rule at `load`, hidden
/// from each other (`hidden`) or all in range. No closed form: `theory` is NaN.
///
/// # Errors
///
/// A [`ConfigError`] if the parameters cannot run.
pub fn line(hidden: bool, load: f64, duration: Time, seed: u64) -> Result<LoadRow, ConfigError> {
    let topology = if hidden {
        Topology::Star
    } else {
        Topology::All
    };
    let (c, mac, r) = poisson(2, topology, load, None, duration, seed)?;
    let g = per_frame_time(r.data_transmissions, &c, &mac);
    Ok(row(load, g, f64::NAN, &r))
}
