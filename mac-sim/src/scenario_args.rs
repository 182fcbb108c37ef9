//! `--scenario FILE`: the run's configuration from a scenario file, with the flags the
//! user actually gave on top (a flag left at its default does not override the file).

use clap::ArgMatches;
use clap::parser::ValueSource;
use csma_cd::config::{BackoffAlgorithm, RunConfig};

use crate::failure::Failure;

/// Whether the flag `id` was written on the command line.
fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_get_raw(id).is_ok() && m.value_source(id) == Some(ValueSource::CommandLine)
}

/// Reads `path`, a scenario file or a `run --json` result.
///
/// # Errors
///
/// A usage failure (exit 2) naming the file, the line and the key.
fn load(path: &std::path::Path) -> Result<RunConfig, Failure> {
    csma_cd_host::scenario_file::load(path)
        .map(|(_, cfg)| cfg)
        .map_err(|e| Failure::usage(format!("scenario {e}")))
}

/// The configuration of a run or a sweep's base: the options' `flags`, or with a
/// `scenario` file the file's with every option given on the command line `m` on
/// top; validated.
///
/// # Errors
///
/// A usage failure for a file that cannot be read or a combination out of range.
pub fn resolve(
    scenario: Option<&std::path::Path>,
    flags: RunConfig,
    m: &ArgMatches,
) -> Result<RunConfig, Failure> {
    let cfg = match scenario {
        None => flags,
        Some(path) => merge(load(path)?, &flags, m),
    };
    cfg.validate()?;
    Ok(cfg)
}

/// `file` with every option of `flags` that was given on the command line `m`.
fn merge(file: RunConfig, flags: &RunConfig, m: &ArgMatches) -> RunConfig {
    let mut c = file;
    if given(m, "medium") {
        if let Some(medium) = flags.medium {
            c = c.with_medium(medium);
        }
    }
    macro_rules! take {
        ($($id:literal => $($f:ident).+),* $(,)?) => {$(
            if given(m, $id) {
                c.$($f).+ = flags.$($f).+.clone();
            }
        )*};
    }
    take!(
        "stations" => stations,
        "frame_bytes" => frames,
        "load" => traffic,
        "seed" => seed,
        "velocity" => phy.velocity_m_per_s,
        "slot_bits" => phy.slot_bits,
        "preamble_bits" => phy.preamble_bits,
        "ifg_bits" => phy.ifg_bits,
        "jam_bits" => phy.jam_bits,
        "capture_window" => capture_window,
        "duration" => duration_ps,
        "warmup" => warmup_ps,
        "placement" => placement,
        "length_m" => bus_length_m,
        "bit_rate" => phy.bit_rate,
        "burst_limit" => phy.burst_limit_bits,
        "backoff_limit" => backoff_limit,
        "attempt_limit" => attempt_limit,
        "queue_limit" => queue_limit,
        "ifg_rule" => ifg_rule,
        "jam_rule" => jam_rule,
    );
    if given(m, "backoff") {
        c.backoff = flags.backoff;
    } else {
        match &mut c.backoff {
            BackoffAlgorithm::Fixed { window } if given(m, "window") => {
                *window = m.get_one::<u32>("window").copied().unwrap_or(*window);
            }
            BackoffAlgorithm::Polynomial { degree } if *degree != 1 && given(m, "degree") => {
                *degree = m.get_one::<u32>("degree").copied().unwrap_or(*degree);
            }
            _ => {}
        }
    }
    c
}
