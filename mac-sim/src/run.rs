//! `mac-sim run`: one run of the exact model, with its progress and, with `--plot`,
//! its charts; argument parsing is in `main.rs`, the work in `csma_cd`.

use csma_cd::config::RunConfig;
use csma_cd::report::charts as run_charts;
use csma_cd::sweep::job;
use sim_kit::chart::save::save;
use sim_kit::output::set::{OutputSet, check};
use sim_kit::runner::progress;

use crate::failure::Failure;
use crate::interrupt;

/// One run of the exact model with its progress on a terminal (unless `quiet`), and
/// with `plot`, its three charts, which appear in that folder together after the run,
/// or not at all.
pub fn run_observed(
    cfg: &RunConfig,
    plot: Option<&std::path::Path>,
    quiet: bool,
) -> Result<csma_cd::RunResult, Failure> {
    if let Some(dir) = plot {
        check(dir).map_err(Failure::usage)?;
    }
    let progress = progress::for_stderr(quiet, "run", "events");
    let (r, per_station) = job::run_observed(cfg, interrupt::flag(), progress.as_ref())?
        .ok_or_else(|| Failure::interrupted("run interrupted; nothing was written"))?;
    drop(progress);
    let Some(dir) = plot else {
        return Ok(r);
    };
    let set = OutputSet::begin(dir)?;
    save(
        &run_charts::attempts_histogram(&r),
        set.dir(),
        "attempts_histogram",
    )?;
    save(
        &run_charts::per_station_throughput(&r, &per_station),
        set.dir(),
        "per_station_throughput",
    )?;
    save(
        &run_charts::backoff_vs_expected(&r),
        set.dir(),
        "backoff_vs_expected",
    )?;
    if interrupt::raised() {
        return Err(Failure::interrupted(
            "run interrupted; no chart was published",
        ));
    }
    let files = set.commit()?;
    eprintln!(
        "mac-sim: wrote {} chart files to {}",
        files.len(),
        dir.display()
    );
    Ok(r)
}

/// A run's JSON result with its configuration as a `"scenario"` key (the schema of
/// scenario files), so that `run --scenario RESULT.json` re-runs it.
#[derive(serde::Serialize)]
pub struct WithScenario<'a> {
    /// The result, its keys in their usual order.
    #[serde(flatten)]
    pub result: &'a csma_cd::RunResult,
    /// The configuration that produced it.
    pub scenario: csma_cd::scenario::Scenario,
}

/// [`WithScenario`] of a run and its configuration.
pub fn with_scenario<'a>(r: &'a csma_cd::RunResult, cfg: &RunConfig) -> WithScenario<'a> {
    WithScenario {
        result: r,
        scenario: csma_cd::scenario::Scenario::from_config(cfg),
    }
}
