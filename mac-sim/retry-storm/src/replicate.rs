//! A scenario over several seeds, as data: each strategy's runs with seeds `seed,
//! seed + 1, …` ([`crate::comparison::replication`]) summarised with 95 % confidence
//! intervals ([`Estimate`]). Running them in parallel is the host layer's
//! (`retry_storm_host::replicate`). Any single run can be repeated with `--seed`.

use serde::Serialize;

use crate::StormResult;

use crate::comparison::{Comparison, ComparisonResult};
use crate::error::{Param, StormError};
use crate::metrics::BinRow;
use sim_kit::stats::{Estimate, mean_ci95};

/// One strategy over all seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrategyOverSeeds {
    /// The strategy's name.
    pub strategy: String,
    /// The seeds, in order.
    pub seeds: Vec<u64>,
    /// Runs that recovered within the horizon.
    pub recovered: u32,
    /// Seconds until the server recovered, over the runs that recovered.
    pub recover_s: Estimate,
    /// Runs whose clients' backlog of retrying requests drained within the horizon.
    pub drained: u32,
    /// Seconds until the clients' backlog drained, over the runs where it did.
    pub drain_s: Estimate,
    /// Mean amplification during the trigger.
    pub during_mean_amplification: Estimate,
    /// Peak amplification during the trigger.
    pub during_peak_amplification: Estimate,
    /// Client success ratio during the trigger (runs where enough requests ended:
    /// [`crate::recovery::success_ratio_covers`]).
    pub during_success_ratio: Estimate,
    /// Logical requests that ended during the trigger: what its success ratio covers.
    pub during_completed: Estimate,
    /// Burstiness of attempts in the trigger's second half.
    pub during_attempts_cv: Estimate,
    /// Mean amplification after the trigger.
    pub after_mean_amplification: Estimate,
    /// Client success ratio after the trigger.
    pub after_success_ratio: Estimate,
    /// Logical requests that ended after the trigger.
    pub after_completed: Estimate,
    /// Normalised server load during the triggers ([`Summary::load_during`](crate::recovery::Summary::load_during)).
    pub load_during: Estimate,
    /// Normalised server load after them.
    pub load_after: Estimate,
    /// Fraction of the server's work done for nobody.
    pub wasted_fraction: Estimate,
    /// With a call chain: each layer's attempts per logical request while the
    /// triggers lasted ([`LayerLoad::per_request_during`](crate::chain::LayerLoad::per_request_during)),
    /// the clients first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layers_per_request: Vec<Estimate>,
    /// Per bin: mean and confidence interval of each plotted measure.
    pub series: Vec<BinEstimate>,
    /// Events handled, all seeds.
    pub events: u64,
}

/// One bin over all seeds (undefined values left out): every column of
/// [`BinRow`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BinEstimate {
    /// Start of the bin, seconds.
    pub t_s: f64,
    /// New logical requests per second.
    pub offered_per_s: Estimate,
    /// Attempts per second.
    pub attempts_per_s: Estimate,
    /// Retries per second.
    pub retries_per_s: Estimate,
    /// Attempts that reached the server per second.
    pub server_attempts_per_s: Estimate,
    /// With a call chain: each caller's attempts per second, the clients first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layer_attempts_per_s: Vec<Estimate>,
    /// The server's throughput, work finished per second.
    pub served_per_s: Estimate,
    /// Attempts rejected at once per second.
    pub rejected_per_s: Estimate,
    /// Load amplification.
    pub amplification: Estimate,
    /// Client success ratio.
    pub success_ratio: Estimate,
    /// Logical requests that ended in the bin.
    pub completed: Estimate,
    /// Attempt success ratio.
    pub attempt_success_ratio: Estimate,
    /// Mean server concurrency.
    pub concurrency: Estimate,
    /// Most requests in the server at once.
    pub concurrency_max: Estimate,
    /// Mean queue length.
    pub queue: Estimate,
    /// Mean backlog of retrying requests.
    pub retrying: Estimate,
    /// p50 latency of successes, ms.
    pub latency_p50_ms: Estimate,
    /// p99 latency of successes, ms.
    pub latency_p99_ms: Estimate,
    /// p50 wait for a free capped client, ms.
    pub wait_p50_ms: Estimate,
    /// p99 wait for a free capped client, ms.
    pub wait_p99_ms: Estimate,
}

/// A scenario over several seeds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replicated {
    /// The scenario's name.
    pub name: String,
    /// What it is.
    pub title: String,
    /// What it is expected to show.
    pub expectation: String,
    /// One entry per strategy, in the scenario's order.
    pub strategies: Vec<StrategyOverSeeds>,
    /// Every seed's full result, in the order of the seeds: each as the same
    /// scenario run with that one seed gives it.
    pub per_seed: Vec<ComparisonResult>,
}

fn est(values: impl Iterator<Item = f64>) -> Estimate {
    let v: Vec<f64> = values.filter(|x| x.is_finite()).collect();
    mean_ci95(&v)
}

fn over_bins(runs: &[StormResult]) -> Vec<BinEstimate> {
    let n = runs.first().map_or(0, |r| r.series.len());
    (0..n)
        .map(|i| {
            let col = |f: fn(&BinRow) -> f64| est(runs.iter().map(|r| f(&r.series[i])));
            let layers = runs[0].series[i].layer_attempts_per_s.len();
            BinEstimate {
                t_s: runs[0].series[i].t_s,
                offered_per_s: col(|b| b.offered_per_s),
                attempts_per_s: col(|b| b.attempts_per_s),
                retries_per_s: col(|b| b.retries_per_s),
                server_attempts_per_s: col(|b| b.server_attempts_per_s),
                layer_attempts_per_s: (0..layers)
                    .map(|k| est(runs.iter().map(|r| r.series[i].layer_attempts_per_s[k])))
                    .collect(),
                served_per_s: col(|b| b.served_per_s),
                rejected_per_s: col(|b| b.rejected_per_s),
                amplification: col(|b| b.amplification),
                success_ratio: col(|b| b.success_ratio),
                completed: col(|b| b.completed as f64),
                attempt_success_ratio: col(|b| b.attempt_success_ratio),
                concurrency: col(|b| b.concurrency),
                concurrency_max: col(|b| f64::from(b.concurrency_max)),
                queue: col(|b| b.queue),
                retrying: col(|b| b.retrying),
                latency_p50_ms: col(|b| b.latency_p50_ms),
                latency_p99_ms: col(|b| b.latency_p99_ms),
                wait_p50_ms: col(|b| b.wait_p50_ms),
                wait_p99_ms: col(|b| b.wait_p99_ms),
            }
        })
        .collect()
}

/// Checks a number of seeds for a replicated scenario, a sweep or the contention
/// experiment: 1 to 1000.
///
/// # Errors
///
/// [`StormError::Param`] ([`Param::Seeds`]) outside 1..=1000.
pub fn check_seeds(seeds: u32) -> Result<(), StormError> {
    if (1..=1000).contains(&seeds) {
        Ok(())
    } else {
        Err(StormError::param(Param::Seeds, seeds))
    }
}

impl Replicated {
    /// `sc` over several seeds from `grid[strategy][seed]`: each strategy's runs,
    /// in the scenario's order, summarised by [`over_seeds`].
    ///
    /// ```
    /// use retry_storm::{presets, replicate::Replicated, run, comparison::replication};
    /// let sc = presets::scenario("partial", &presets::Options::default()).unwrap();
    /// let grid: Vec<Vec<_>> = sc
    ///     .runs
    ///     .iter()
    ///     .map(|c| (0..2).map(|k| run(&replication(c, k)).unwrap()).collect())
    ///     .collect();
    /// let r = Replicated::from_grid(&sc, &grid);
    /// assert_eq!(r.strategies.len(), 3);
    /// assert_eq!(r.strategies[0].seeds, [1, 2]);
    /// assert_eq!(r.strategies[0].during_success_ratio.n, 2);
    /// assert_eq!(r.per_seed.len(), 2);
    /// // As JSON: an undefined figure (NaN) is unequal to itself, its `null` is not.
    /// let json = sim_kit::output::json::to_string::<retry_storm::StormResult>;
    /// assert_eq!(json(&r.per_seed[1].runs[0]), json(&grid[0][1]));
    /// ```
    pub fn from_grid(sc: &Comparison, grid: &[Vec<StormResult>]) -> Self {
        let seeds = grid.first().map_or(0, Vec::len);
        Self {
            name: sc.name.to_string(),
            title: sc.title.to_string(),
            expectation: sc.expectation.to_string(),
            strategies: grid.iter().map(|runs| over_seeds(runs)).collect(),
            per_seed: (0..seeds)
                .map(|k| sc.result(grid.iter().map(|runs| runs[k].clone()).collect()))
                .collect(),
        }
    }
}

/// One strategy's runs over its seeds (at least one), summarised.
pub fn over_seeds(runs: &[StormResult]) -> StrategyOverSeeds {
    let s = |f: fn(&StormResult) -> f64| est(runs.iter().map(f));
    StrategyOverSeeds {
        strategy: runs.first().map(|r| r.strategy.clone()).unwrap_or_default(),
        seeds: runs.iter().map(|r| r.config.seed).collect(),
        recovered: runs
            .iter()
            .filter(|r| r.summary.recovery.seconds().is_some())
            .count() as u32,
        recover_s: est(runs.iter().filter_map(|r| r.summary.recovery.seconds())),
        drained: runs
            .iter()
            .filter(|r| r.summary.drain.seconds().is_some())
            .count() as u32,
        drain_s: est(runs.iter().filter_map(|r| r.summary.drain.seconds())),
        during_mean_amplification: s(|r| r.summary.during.mean_amplification),
        during_peak_amplification: s(|r| r.summary.during.peak_amplification),
        during_success_ratio: s(|r| r.summary.during.success_ratio),
        during_completed: s(|r| r.summary.during.completed as f64),
        during_attempts_cv: s(|r| r.summary.during.attempts_cv),
        after_mean_amplification: s(|r| r.summary.after.mean_amplification),
        after_success_ratio: s(|r| r.summary.after.success_ratio),
        after_completed: s(|r| r.summary.after.completed as f64),
        load_during: s(|r| r.summary.load_during),
        load_after: s(|r| r.summary.load_after),
        wasted_fraction: s(|r| r.counts.wasted_fraction()),
        layers_per_request: (0..runs.first().map_or(0, |r| r.layers.len()))
            .map(|k| est(runs.iter().map(|r| r.layers[k].per_request_during)))
            .collect(),
        series: over_bins(runs),
        events: runs.iter().map(|r| r.events).sum(),
    }
}
