//! # radio-sim
//!
//! The firmware's CSMA/CA radio MAC (`radio-mac`'s [`MacCore`](radio_mac::MacCore),
//! the code that runs on the boards) run at scale on a host channel model: up to 254
//! stations, a topology with received powers, collisions at each receiver, capture,
//! half duplex and random loss, saturated or Poisson traffic, and the figures of the
//! CSMA literature. No I/O: no threads, no files, no clock; reports are strings.
//!
//! ## The model, and what each piece follows
//!
//! * **Stations** `0..N`; station 0 is the **sink**. Station `i` has MAC address
//!   `i + 1`. All run radio-mac on one PHY ([`Phy`], the key `phy`): by default IEEE
//!   802.15.4's 2.4 GHz O-QPSK timing
//!   ([`MacConfig::IEEE_802_15_4_2450`](radio_mac::MacConfig::IEEE_802_15_4_2450):
//!   250 kb/s, 320 µs slot, SIFS 192 µs, 127-byte packets), or `lora`: a Semtech
//!   SX127x timed exactly as the radio board's firmware times it
//!   (`sx127x_radio::Settings::mac_config`: Semtech's time on air at the chosen
//!   spreading factor, bandwidth, coding rate and preamble, a turnaround of one
//!   symbol, channel activity detection of two, 255-byte packets), with capture at
//!   6 dB (Bor et al., MSWiM 2016) and the 868 MHz path loss of Petäjäjärvi et al.
//!   (ITST 2015) unless set. Every station may keep a duty cycle (`duty_cycle`, the
//!   EU868 sub-bands' 0.1, 1 or 10 %: radio-mac's time credits over one hour).
//!   The rule is chosen by name ([`config::mac_config`]).
//! * **Topology** ([`topology`]): `all`, `line` (`i` hears `i - 1` and `i + 1`), `star`
//!   (everyone hears the sink only: the others are hidden terminals to each other),
//!   `random` (a random geometric graph, Gilbert 1961 / Penrose 2003: positions uniform
//!   in a square of side `area`, a link when the distance is at most `radius`), or
//!   positions from a scenario file. Received power from the **log-distance path-loss
//!   model** (Rappaport, *Wireless Communications*, section 4.9):
//!   `P_rx = P_tx - PL(1 m) - 10 n log10(d / 1 m)`, defaults 0 dBm, 40.2 dB (free space
//!   at 2.45 GHz), `n` = 3 (LoRa: 94.09 dB and 2.08); `all` and `star` use a fixed
//!   -60 dBm.
//! * **Channel** ([`channel`]), as radio-mac's own test channel: zero propagation
//!   delay; CCA busy from `cca_delay` (default the MAC's turnaround, 192 µs) after a
//!   heard transmission starts until it ends; a packet reaches `j` intact iff `j` hears
//!   it, did not transmit during it, and no other heard transmission overlapped it,
//!   unless capture is on and it is `capture_db` stronger than every overlapping one;
//!   then it is lost with probability `loss` per receiver.
//! * **Traffic** ([`config::Traffic`]): `saturated` (every sender always has a frame) or
//!   `poisson` with offered load `G` = the senders' aggregate offered data air time as
//!   a fraction of the channel: each of the `K` senders has rate `G / (K T_data)`
//!   (Kleinrock and Tobagi's definition for CSMA, 1975). A sender is a station other
//!   than the sink that hears its destination; `to` is the sink or a neighbour drawn
//!   per frame. A host FIFO of `queue` frames per sender feeds the MAC one frame at a
//!   time; an arrival to a full FIFO is dropped (drop kind "queue").
//! * **Driver** ([`driver`]): a discrete-event loop on sim-kit's event queue; when each
//!   station is polled is described there.
//! * **Memory** (`memory`): what a run or a sweep holds at its peak, estimated from
//!   its configuration before it starts.
//! * **Figures** ([`metrics`]): over the window after the warm-up: offered and
//!   delivered frames, throughput S (the fraction of channel time carrying data frames
//!   that reached their destination intact, as in Abramson's ALOHA, Kleinrock-Tobagi
//!   and Bianchi 2000), goodput in kb/s, delivery ratio, attempts per frame, drops by
//!   kind, the conditional collision probability (Bianchi's `p`: the share of data
//!   transmissions their destination did not get because of an overlap), delay
//!   percentiles from arrival to `Delivered`, per-station rows, and a check that every
//!   delivered frame reached its destination exactly once.
//!
//! Same configuration and seed, same result, byte for byte: every random stream (the
//! positions, each station's MAC, each station's traffic, the channel's losses) is
//! derived from the seed by [`sim_kit::maths::split_seed`].
//!
//! ## Modules
//!
//! [`config`] (the one [`RadioConfig`]), [`topology`], [`channel`], [`driver`],
//! [`metrics`], [`scenario`] (the one table of parameters, [`Scenario`], and scenario files), [`report`] (text, CSV,
//! JSON), [`sweep`] (cartesian products of key values).
//!
//! ```
//! use radio_sim::{RadioConfig, Rule, run};
//! let mut c = RadioConfig::default();
//! c.set("rule", "beb").unwrap();
//! c.set("stations", "3").unwrap();
//! c.set("duration", "200ms").unwrap();
//! c.set("warmup", "0s").unwrap();
//! assert_eq!(c.rule.rule, Rule::Beb);
//! let r = run(&c).unwrap();
//! assert!(r.delivered > 0);
//! assert_eq!(r.exactly_once_violations, 0);
//! ```

pub mod channel;
pub mod checks;
pub mod config;
pub mod driver;
mod memory;
pub mod metrics;
pub mod report;
pub mod scenario;
pub mod sweep;
pub mod theory;
pub mod topology;

pub use config::{ConfigError, Destination, Phy, RadioConfig, Rule, RuleConfig, Topology, Traffic};
pub use driver::{CANCEL_EVERY, run, run_on, run_with};
pub use memory::{estimate as estimate_memory, of_points as estimate_memory_of_points};
pub use metrics::RadioResult;
pub use radio_mac::Countdown;
pub use report::csv::{single as run_csv, sweep as sweep_csv};
pub use report::text::{report as run_report, sweep as sweep_report};
pub use report::{json as run_json, sweep_json};
pub use scenario::Scenario;
pub use scenario::{FIELDS, ScenarioFile, check_effect, read as read_scenario, reference};
pub use sweep::{Axis, Point, points};
