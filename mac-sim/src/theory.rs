//! `mac-sim theory`: the options of the analytic tables (Metcalfe & Boggs efficiency
//! and E(c)); the tables are written by `csma_cd::csma_cd::theory_report`.

use clap::Args;
use csma_cd::RunConfig;

use crate::emit;
use crate::failure::Failure;

#[derive(Args, Debug)]
pub struct TheoryArgs {
    /// Contention slot C, bit times.
    #[arg(long, default_value_t = 512, value_name = "BITS")]
    slot_bits: u32,
    /// backoffLimit for the E(c) table (0..=32).
    #[arg(long, default_value_t = 10, value_name = "K")]
    backoff_limit: u32,
    /// attemptLimit for the E(c) table (1..=1024).
    #[arg(long, default_value_t = 16, value_name = "N")]
    attempt_limit: u32,
}

/// `mac-sim theory`: the options checked, the tables printed.
pub fn theory_cmd(a: &TheoryArgs) -> Result<(), Failure> {
    let slot_bits = csma_cd::checked_slot(a.slot_bits)?;
    let cfg = RunConfig {
        backoff_limit: a.backoff_limit,
        attempt_limit: a.attempt_limit,
        ..RunConfig::default()
    };
    let beb = cfg.beb()?;
    emit(&csma_cd::theory_report(slot_bits, &beb))
}
