//! `mac-sim slotted`: the options of the Metcalfe & Boggs slotted model and how its
//! result is printed; the model is `csma_cd::slotted`.

use clap::Args;
use csma_cd::{ConfigError, report};

use crate::emit_result;
use crate::failure::Failure;

#[derive(Args, Debug)]
pub struct SlottedArgs {
    /// Q, saturated stations.
    #[arg(short = 'n', long, default_value_t = 32, value_name = "Q")]
    stations: u32,
    /// Frame size in bytes (64..=1518): P = 8 x bytes bit times.
    #[arg(short = 'f', long, default_value_t = 1518, value_name = "BYTES")]
    frame_bytes: u32,
    /// Contention slot C, bit times.
    #[arg(long, default_value_t = 512, value_name = "BITS")]
    slot_bits: u32,
    /// Stop after this many delivered frames.
    #[arg(long, default_value_t = 1_000_000)]
    successes: u64,
    /// Per-slot transmission probability (default 1/Q).
    #[arg(long)]
    probability: Option<f64>,
    /// Seed.
    #[arg(short = 's', long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of the report.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV (header + one row) instead of the report.
    #[arg(long)]
    csv: bool,
}

/// `mac-sim slotted`: the options checked, one run, its result printed.
pub fn slotted_cmd(a: &SlottedArgs) -> Result<(), Failure> {
    if !(64..=1518).contains(&a.frame_bytes) {
        return Err(ConfigError::FrameSize(a.frame_bytes).into());
    }
    if a.slot_bits == 0 {
        return Err(Failure::usage("slot must be at least 1 bit time"));
    }
    if a.successes == 0 || a.successes > 1_000_000_000 {
        return Err(Failure::usage("successes must be between 1 and 1000000000"));
    }
    let mut cfg = csma_cd::slotted::SlottedConfig::new(
        a.stations,
        u64::from(a.frame_bytes) * 8,
        u64::from(a.slot_bits),
        a.successes,
        a.seed,
    );
    cfg.probability = a.probability;
    let r = csma_cd::slotted::run_slotted(&cfg)?;
    emit_result(
        &r,
        a.json,
        a.csv,
        report::csv::SLOTTED_HEADER,
        report::csv::slotted_row,
        report::text::slotted_report,
    )
}
