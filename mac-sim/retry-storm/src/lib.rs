//! # retry-storm
//!
//! The retry-storm experiments of the seed articles — many clients, one server,
//! something going wrong, and the question whether the server comes back — on the
//! [`sim_kit`] event engine, with every client decision made by `backoff-core`. It is
//! the model behind `mac-sim storm` and knows nothing of the CSMA/CD simulator.
//!
//! The crate does no I/O: no file system, threads, charts, clock or terminal, so it
//! builds for `wasm32-unknown-unknown` and into any program. Where several runs make
//! one result (a scenario's strategies, its seeds, a sweep's points, the contention
//! experiment over seeds) it describes them, the runs and how their results combine,
//! and [`run_sequential`] runs a scenario on the calling thread. Running them on every
//! core, the charts, the files of `--out` and reading a scenario file from disk are
//! the host layer, the crate `retry-storm-host`.
//!
//! ## Module map
//!
//! What a run is:
//!
//! * [`config`]: the parameters of a run ([`StormConfig`]: load, server, timeouts,
//!   trigger, strategy, bins, recovery rule); `limits`: the largest runs accepted; `memory`: what a run holds at its peak, estimated before it starts.
//! * [`strategy`]: client strategies built from `backoff-core` parts; [`spec`]: their
//!   specification syntax, every parameter settable.
//! * [`error`]: [`StormError`], a parameter the model cannot accept, with its value.
//!
//! The model:
//!
//! * `clients`: logical requests in flight and the client population (open loop,
//!   closed loop, capped).
//! * [`chain`]: the layers of a call chain, each retrying the one below.
//! * `server`: workers and a FIFO queue or a pure latency model, load-dependent
//!   latency, deadline propagation.
//! * [`shedding`]: load shedding (a bounded queue) and rate limiting, answered with
//!   Retry-After.
//! * `triggers`: full outage, pause, partial failure, failing shard, capacity loss,
//!   load spike; overlapping windows combine.
//! * [`sim`]: the events and the client's decision after a failed attempt; [`run`].
//! * [`metrics`]: the time series in fixed bins.
//! * [`recovery`]: amplification, burstiness and the recovery verdict.
//! * [`contention`]: the optimistic-concurrency contention experiment per jitter kind,
//!   and its summary over seeds.
//!
//! Scenarios and what is made of them:
//!
//! * [`file`](mod@file): scenario files (TOML text) read into a [`Comparison`];
//!   `names`, [`presets`]: the shipped scenarios, each a file of `scenarios/` built
//!   in, and a file's text with the command line's changes.
//! * [`comparison`]: a [`Comparison`] (the strategies a scenario compares), its runs
//!   over seeds and its [`ComparisonResult`];
//!   [`run_sequential`].
//! * [`replicate`]: a scenario over several seeds, with 95 % confidence intervals.
//! * [`sweep`]: one parameter swept (utilisation, rate, clients, retries, timeout):
//!   the runs of every point and their summaries over the seeds.
//! * [`report`]: the reports as strings, text, CSV and JSON: the scenario list, one
//!   seed, over seeds, the contention experiment and a sweep.
//!
//! ## Time
//!
//! The engine counts [`sim_kit::time::Time`] (picoseconds); `backoff-core`'s policies,
//! budgets, breakers and deadlines take nanoseconds. The model converts only where it
//! asks them ([`Time::as_ns`](sim_kit::time::Time::as_ns) in,
//! [`Time::from_ns`](sim_kit::time::Time::from_ns) out), so a delay the policy returns
//! is honoured to the nanosecond.
//!
//! ## What is measured
//!
//! A **logical request** is what a user asked for; an **attempt** is one call of it
//! that reaches the client's send path (first attempt or retry). Per bin: new logical
//! requests per second (offered), attempts per second, **load amplification** =
//! attempts / new logical requests, **client success ratio** = logical requests that
//! succeeded / logical requests that ended, time-weighted mean server concurrency
//! (queued + in service) and queue, and p50/p99 latency of the successful logical
//! requests. What the server sees: attempts that reach it (the last service's with a
//! call chain, each caller's kept too), its throughput (work finished) and its
//! rejections per second; and the time-weighted **backlog of retrying requests**, the
//! clients' logical requests in flight that have had a retry scheduled (sleeping
//! before it, or on it). The summary's **load** is the attempts reaching the server
//! per second over the same before the triggers.
//!
//! ## Time to recover
//!
//! Let `T` be the end of the trigger. The **baseline** is taken over the bins that lie
//! wholly after the warm-up and before the trigger starts: `S₀` the success ratio
//! (ratio of the sums), `C₀` the mean concurrency and `B₀` the mean backlog of
//! retrying requests. A bin is **healthy** when the server is back: its success ratio
//! is at least `0.95 · S₀` or nothing ended in it (an idle bin has nothing to fail),
//! and its mean concurrency is at most `2 · C₀ + 5`; it is **drained** when the
//! clients' mean backlog is at most `2 · B₀ + 5` (the factor, slack, 95 % and the
//! window below are [`config::RecoveryRule`]). The **time to recover** (the server's)
//! is `t − T`, where `t` is the start of the first bin at or after `T` that begins a
//! run of healthy bins lasting at least `W = 5 s` (the sustain window), all within the
//! horizon: a whole number of bins, printed at their resolution
//! ([`recovery::recovery_decimals`]). If there is no such run, the verdict is
//! **`did not recover within horizon (metastable)`**. The **time to drain** (the
//! clients') is the same over drained bins ([`recovery::Drain`]): clients asleep on a
//! long backoff delay are no fault of the server, so it is a figure of its own.
//!
//! The warm-up (default 5 s) must leave a whole bin before the first trigger, and the
//! sustain window (default 5 s) must fit in the bins after the triggers. A value a
//! scenario writes that does not fit is an error naming it; a default that does not
//! fit is scaled to fit ([`StormConfig::fitted`]) and the report says so.
//!
//! Without a trigger (or without a healthy baseline) the verdict is "not applicable".
//!
//! ```
//! use retry_storm::{presets, recovery::Recovery, run};
//! let mut o = presets::Options::default();
//! o.strategies = Some(vec![retry_storm::strategy::Strategy::parse("exp-full+retries=3").unwrap()]);
//! let sc = presets::scenario("partial", &o).unwrap();
//! let r = run(&sc.runs[0]).unwrap();
//! assert!(matches!(r.summary.recovery, Recovery::Recovered { .. }));
//! ```

pub mod card;
pub mod chain;
mod clients;
pub mod comparison;
pub mod config;
pub mod contention;
pub mod error;
pub mod file;
mod limits;
mod memory;
pub mod metrics;
mod names;
pub mod presets;
pub mod recovery;
pub mod replicate;
pub mod report;
mod server;
pub mod shedding;
pub mod sim;
pub mod spec;
pub mod strategy;
pub mod sweep;
pub mod triggers;

pub use card::policy::parse as parse_policy;
pub use card::{
    Card, CardLoad, ClientPolicy, csv as card_csv, report as card_report, run as run_card,
};
pub use comparison::{Comparison, ComparisonResult, run_sequential};
pub use config::StormConfig;
pub use error::StormError;
pub use sim::{StormResult, run, run_with};
// The rest of the crate's face: what the doors use, by name from the root.
pub use contention::{ContentionConfig, run_contention_with};
pub use file::reference as keys_reference;
pub use file::{ContentionScenario, Experiment, Setting};
pub use memory::{estimate as estimate_memory, of_runs as estimate_memory_of_runs};
pub use presets::{Options, Source};
pub use report::{
    contention_csv, contention_heading, contention_report, contention_seeds_csv,
    contention_seeds_report, list as list_presets, replicated_csv, replicated_report,
    replicated_series_csv, report as comparison_report, series_csv, summary_csv, sweep_csv,
    sweep_json, sweep_report,
};
pub use strategy::Strategy;
pub use sweep::{Axis, parse_axis, plan as sweep_plan};
