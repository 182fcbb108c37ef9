//! `mac-sim slotted`: the options of the Metcalfe & Boggs slotted model and how its
//! result is printed; the model is `csma_cd::slotted`.

use clap::Args;

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
    let mut cfg = csma_cd::SlottedConfig::checked(
        a.stations,
        a.frame_bytes,
        a.slot_bits,
        a.successes,
        a.seed,
    )?;
    cfg.probability = a.probability;
    let r = csma_cd::run_slotted(&cfg)?;
    emit_result(
        &r,
        a.json,
        a.csv,
        csma_cd::SLOTTED_HEADER,
        csma_cd::slotted_row,
        csma_cd::slotted_report,
    )
}
