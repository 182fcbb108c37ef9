//! The simulation options that `mac-sim run` and `mac-sim sweep` share: one
//! definition, flattened into both, so that their flags, defaults and checks cannot
//! drift apart.

use clap::Args;
use csma_cd::ConfigError;
use csma_cd::config::{Placement, RunConfig};
use csma_cd::ethernet::EthernetMedium;
use csma_cd::parse;

/// Simulated time, placement, Ethernet preset, bus length, bit rate, the backoff, attempt and queue
/// limits, and the deference and jam rules.
#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// Simulated time, with unit: s, ms, us or ns.
    #[arg(
        short = 'd',
        long,
        default_value = "10s",
        value_name = "TIME",
        allow_hyphen_values = true
    )]
    duration: String,
    /// Station placement along the bus: point, even or random.
    #[arg(short = 'p', long, default_value = "even", value_name = "WHERE")]
    placement: String,
    /// Ethernet preset (IEEE 802.3 half duplex): 10BASE5, 10BASE2, 10BASE-T,
    /// 100BASE-TX or 1000BASE-T. Sets the bit rate, slot, default bus length and its
    /// limit, and at 1000 Mb/s carrier extension and frame bursting.
    #[arg(long, value_name = "NAME")]
    medium: Option<String>,
    /// Bus length in metres [default: 2500, the 10 Mb/s collision domain, or the
    /// preset's].
    #[arg(long, value_name = "METRES", allow_negative_numbers = true)]
    length_m: Option<f64>,
    /// Bit rate in bits per second (suffix k, M or G) [default: 10M, or the preset's].
    #[arg(long, value_name = "RATE")]
    bit_rate: Option<String>,
    /// Frame bursting's burstLimit in bit times (IEEE 802.3 clause 4.2.3.2.7; 0: no
    /// bursting) [default: 0, or 65536 with --medium 1000BASE-T].
    #[arg(long, value_name = "BITS")]
    burst_limit: Option<u32>,
    /// backoffLimit: the BEB window stops doubling after this many collisions (0..=32);
    /// caps the polynomial window at 2^limit slots.
    #[arg(long, default_value_t = 10, value_name = "K")]
    backoff_limit: u32,
    /// attemptLimit: a frame is dropped after this many attempts all collided (1..=1024).
    #[arg(long, default_value_t = 16, value_name = "N")]
    attempt_limit: u32,
    /// Frames a station can hold, the one being sent included (Poisson traffic).
    #[arg(long, default_value_t = 100, value_name = "FRAMES")]
    queue_limit: u32,
    /// Interframe-gap rule: 8023 (IEEE 802.3 clause 4.2.3.2.1: carrier in the first
    /// two thirds of the gap defers, in the last third it is ignored; blind after the
    /// station's own frame), restart (carrier anywhere in the gap restarts it, the
    /// model's earlier rule) or none (no first part).
    #[arg(long, default_value = "8023", value_name = "RULE")]
    ifg_rule: String,
    /// Jam rule: preamble (IEEE 802.3 clause 4.2.3.2.4: finish preamble and SFD, then
    /// jam 32 bits) or immediate (jam at once).
    #[arg(long, default_value = "preamble", value_name = "RULE")]
    jam_rule: String,
    /// Warm-up, with unit (e.g. 1s): statistics start after it; shorter than
    /// --duration, which includes it.
    #[arg(long, value_name = "TIME")]
    warmup: Option<String>,
    /// Scenario file (TOML, see mac-sim/scenarios/) or a `run --json` result: the
    /// model's parameters; options given on the command line override it.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<std::path::PathBuf>,
}

impl SimArgs {
    /// The default [`RunConfig`] with these options set; placement, bit rate and
    /// duration are parsed here, the ranges are left to [`RunConfig::validate`].
    ///
    /// # Errors
    ///
    /// A placement, bit rate, duration or rule that does not parse.
    pub fn config(&self) -> Result<RunConfig, ConfigError> {
        let placement: Placement = self.placement.parse()?;
        let mut cfg = RunConfig::default();
        if let Some(m) = &self.medium {
            cfg = cfg.with_medium(m.parse::<EthernetMedium>()?);
        }
        let mut cfg = RunConfig {
            placement,
            bus_length_m: self.length_m.unwrap_or(cfg.bus_length_m),
            backoff_limit: self.backoff_limit,
            attempt_limit: self.attempt_limit,
            queue_limit: self.queue_limit,
            ifg_rule: self.ifg_rule.parse()?,
            jam_rule: self.jam_rule.parse()?,
            ..cfg
        };
        if let Some(r) = &self.bit_rate {
            cfg.phy.bit_rate = parse::bit_rate(r)?;
        }
        if let Some(b) = self.burst_limit {
            cfg.phy.burst_limit_bits = b;
        }
        cfg.duration_ps = parse::duration(&self.duration)?;
        if let Some(w) = &self.warmup {
            cfg.warmup_ps = parse::duration(w)?;
        }
        Ok(cfg)
    }
}
