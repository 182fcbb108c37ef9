//! The one table of the radio model's parameters. Every door reads it: the command
//! line's flags (`--KEY` and `--set KEY=VALUE`), scenario files, sweep axes
//! (`--sweep KEY=LIST`), results columns and `mac-sim radio --keys`. A value's range
//! is checked once, by [`RadioConfig::validate`].

use sim_kit::schema::ValueError;
use sim_kit::time::Time;

use super::codecs::{
    BandwidthKhz, CodingRateName, CountdownName, DecibelMilliwatts, Decibels, Metres, OffOr, PhyOr,
    RuleOr, TurnaroundOr,
};
use crate::config::{Destination, Phy, RadioConfig, Rule, Topology, Traffic};
use radio_mac::Countdown;
use radio_mac::phy::{Bandwidth, CodingRate};

/// A value given for one parameter that cannot be read, naming the parameter.
pub type FieldError = sim_kit::schema::FieldError<ValueError>;

sim_kit::schema! {
    /// One radio run's parameters, each optional: a scenario file, the command
    /// line's flags, one point of a sweep. Absent parameters keep their defaults
    /// ([`RadioConfig::default`]); a scenario laid over another
    /// ([`Scenario::overlay`]) replaces the parameters it sets.
    pub struct Scenario for RadioConfig, error ValueError;
    /// Stations, the sink (station 0) included: 2 to 254.
    stations: u16, short Some('n'), value "N", aliases [] => stations;
    /// Who hears whom: all (everyone), line (i hears i-1 and i+1), star (everyone
    /// hears the sink only: the others are hidden from each other), random (a random
    /// geometric graph in a square of side area with links up to radius) or positions
    /// (the [[station]] positions of a scenario file with links up to radius).
    topology: Topology, short None, value "NAME", aliases [] => topology;
    /// Link range of random and positions, metres, above 0.
    radius: f64 as Metres, short None, value "METRES", aliases [] => radius_m;
    /// Side of the square of random, metres, above 0.
    area: f64 as Metres, short None, value "METRES", aliases [] => area_m;
    /// Distance between neighbours of line, metres, above 0.
    spacing: f64 as Metres, short None, value "METRES", aliases [] => spacing_m;
    /// PHY: ieee802154-2450 (IEEE 802.15.4 O-QPSK at 2.4 GHz, 250 kb/s, 127-byte
    /// packets) or lora (a Semtech SX127x timed as the radio board's firmware times
    /// it: Semtech's time on air, a slot of 3 symbols, 255-byte packets).
    phy: Phy, short None, value "NAME", aliases [] => phy;
    /// lora: spreading factor, 7 to 12.
    spreading_factor: u8, short None, value "SF", aliases ["sf"] => spreading_factor;
    /// lora: bandwidth, kHz: 7.8, 10.4, 15.6, 20.8, 31.25, 41.7, 62.5, 125, 250 or
    /// 500.
    bandwidth: Bandwidth as BandwidthKhz, short None, value "KHZ", aliases [] => bandwidth;
    /// lora: coding rate, 4/5 to 4/8.
    coding_rate: CodingRate as CodingRateName, short None, value "CR", aliases [] => coding_rate;
    /// lora: the programmed preamble, symbols, 6 or more (4.25 more go on the air).
    preamble: u16, short None, value "SYMBOLS", aliases [] => preamble;
    /// Duty cycle every station keeps, percent (EU868: 1 in 868.0-868.6 MHz), or
    /// off: radio-mac's time credits (LoRaMac-node's): each transmission costs 100 /
    /// pct times its air time from an account that fills with time up to one hour
    /// and starts full; a data frame waits for its price, an ACK it cannot pay is
    /// withheld.
    duty_cycle: Option<f64> as OffOr<f64>, short None, value "PCT", aliases [] => duty_cycle_pct;
    /// Transmit power of every station, dBm (path-loss model: line, random,
    /// positions).
    tx_power: f64 as DecibelMilliwatts, short None, value "DBM", aliases [] => tx_power_dbm;
    /// Path loss at 1 m, dB, 0 or more, or phy (the PHY's: 40.2, free space at
    /// 2.45 GHz; lora 94.09, Petäjäjärvi et al.'s 868 MHz fit as Bor et al. use it).
    reference_loss: Option<f64> as PhyOr<Decibels>, short None, value "DB", aliases [] => reference_loss_db;
    /// n of the log-distance model P_rx = P_tx - PL(1 m) - 10 n log10(d / 1 m),
    /// above 0, or phy (the PHY's: 3 at 2.4 GHz; lora 2.08).
    path_loss_exponent: Option<f64> as PhyOr<f64>, short None, value "N", aliases [] => path_loss_exponent;
    /// Received power of every link of all and star (no positions), dBm.
    fixed_rx: f64 as DecibelMilliwatts, short None, value "DBM", aliases [] => fixed_rx_dbm;
    /// Traffic: saturated (every sender always has a frame) or poisson (arrivals at
    /// offered load load).
    traffic: Traffic, short None, value "KIND", aliases [] => traffic;
    /// Poisson: offered load G, the senders' aggregate data air time as a fraction of
    /// the channel (each of K senders offers G / K), above 0.
    load: f64, short None, value "G", aliases [] => load;
    /// Destination of every frame: sink (station 0) or neighbour (a station the
    /// sender hears, drawn per frame); stations that do not hear a destination send
    /// nothing.
    to: Destination, short None, value "WHERE", aliases [] => to;
    /// Payload of every data frame, bytes, 4 to 118 on 802.15.4 (127, its
    /// aMaxPhyPacketSize, minus radio-mac's 9 bytes of header and check), 4 to 246
    /// on lora (255 - 9).
    payload: u16, short None, value "BYTES", aliases [] => payload;
    /// Poisson: each sender's host queue, frames, 1 or more; an arrival to a full
    /// queue is dropped.
    queue: u32, short None, value "FRAMES", aliases [] => queue;
    /// Probability that an arrival that would be intact is lost, per receiver, 0 to
    /// below 1.
    loss: f64, short None, value "P", aliases [] => loss;
    /// Capture threshold, dB, 0 or more, off, or phy (the PHY's: off on 802.15.4;
    /// lora 6, as Bor et al. measured): a packet survives an overlap when it is at
    /// least this much stronger than every overlapping packet.
    capture_db: Option<Option<f64>> as PhyOr<OffOr<f64>>, short None, value "DB", aliases [] => capture_db;
    /// From a transmission's start to when the listeners' carrier sense sees it, with
    /// unit (0s allowed), or turnaround (the MAC's turnaround, 192us).
    cca_delay: Option<Time> as TurnaroundOr<Time>, short None, value "TIME", aliases [] => cca_delay;
    /// CCA energy threshold, dBm, or off: carrier sense sees a transmission only when
    /// it arrives at least this strong (IEEE 802.15.4 CCA mode 1); off: every
    /// transmission the station hears.
    cca_threshold_dbm: Option<f64> as OffOr<f64>, short None, value "DBM", aliases [] => cca_threshold_dbm;
    /// Channel-access rule: ieee802154 (IEEE 802.15.4 unslotted CSMA/CA), beb (IEEE
    /// 802.3 binary exponential backoff after a busy channel and a missing ACK) or dcf
    /// (an IEEE 802.11 DCF-like rule as Bianchi (2000) models it).
    rule: Rule, short None, value "NAME", aliases [] => rule.rule;
    /// ieee802154: macMinBE, or default (the standard's, 3).
    min_be: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.min_be;
    /// ieee802154: macMaxBE, or default (the standard's, 5).
    max_be: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.max_be;
    /// ieee802154: macMaxCSMABackoffs, or default (the standard's, 4).
    max_csma_backoffs: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.max_csma_backoffs;
    /// ieee802154: macMaxFrameRetries, or default (the standard's, 3).
    max_frame_retries: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.max_frame_retries;
    /// dcf: the smallest contention window, slots, or default (Bianchi's, 32).
    cw_min: Option<u32> as RuleOr<u32>, short None, value "SLOTS", aliases [] => rule.cw_min;
    /// dcf: the backoff stage at which the window stops doubling, or default
    /// (Bianchi's, 5).
    max_stage: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.max_stage;
    /// dcf: attempts after the first before a frame is dropped, or default (IEEE
    /// 802.11's short retry limit, 7).
    retry_limit: Option<u32> as RuleOr<u32>, short None, value "N", aliases [] => rule.retry_limit;
    /// dcf: the counter steps per idle slot and per busy period (virtual-slots,
    /// Bianchi's model) or per idle slot only (idle-slots, IEEE 802.11's countdown),
    /// or default (virtual-slots).
    countdown: Option<Countdown> as RuleOr<CountdownName>, short None, value "NAME", aliases [] => rule.countdown;
    /// Simulated time before the measurement, with unit (0s allowed).
    warmup: Time, short None, value "TIME", aliases [] => warmup;
    /// Simulated time measured after the warm-up, with unit (e.g. 10s).
    duration: Time, short Some('d'), value "TIME", aliases [] => duration;
    /// Seed of every random choice; the same seed gives the same output.
    seed: u64, short Some('s'), value "SEED", aliases [] => seed;
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_kit::schema::Schema;

    #[test]
    fn every_field_reads_back_its_default_and_is_documented() {
        let all = Scenario::from_config(&RadioConfig::default());
        assert_eq!(all.keys().len(), FIELDS.len());
        for f in FIELDS {
            let mut s = Scenario::default();
            s.set(f.key, &all.get(f.key).unwrap()).unwrap();
            assert_eq!(s.apply_to(RadioConfig::default()), RadioConfig::default());
            assert!(!f.help.is_empty(), "{}", f.key);
        }
        assert_eq!(
            Scenario::column_names().len(),
            Scenario::columns(&RadioConfig::default()).len()
        );
        assert_eq!(
            <Scenario as Schema>::FIELDS.len(),
            KEYS.matches(", ").count()
        );
    }

    #[test]
    fn the_rule_defaults_in_the_help_are_the_rules() {
        let mac = crate::config::mac_config(
            &crate::config::RuleConfig::default(),
            radio_mac::MacConfig::IEEE_802_15_4_2450,
        )
        .unwrap();
        let radio_mac::ChannelAccess::Ieee802154Unslotted(c) = mac.access() else {
            panic!("the default rule is IEEE 802.15.4's");
        };
        let help = |k: &str| FIELDS.iter().find(|f| f.key == k).unwrap().help;
        assert!(help("min_be").contains(&format!("the standard's, {})", c.min_be())));
        assert!(help("max_be").contains(&format!("the standard's, {})", c.max_be())));
        assert!(
            help("max_csma_backoffs")
                .contains(&format!("the standard's, {})", c.max_csma_backoffs()))
        );
        assert!(
            help("max_frame_retries")
                .contains(&format!("the standard's, {})", c.max_frame_retries()))
        );
        let d = radio_mac::Dcf::BIANCHI;
        assert!(help("cw_min").contains(&format!("Bianchi's, {})", d.cw_min())));
        assert!(help("max_stage").contains(&format!("(Bianchi's, {})", d.max_stage())));
        assert!(help("retry_limit").contains(&format!("limit, {})", d.retry_limit())));
    }
}
