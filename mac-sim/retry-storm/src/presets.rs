//! The named scenarios of `mac-sim storm --scenario NAME`: the retry-storm experiments
//! of the seed articles, each a set of runs that differ only in the client strategy.

use crate::config::{
    Load, RecoveryRule, ServerConfig, ServiceTime, Slowdown, StormConfig, Trigger, TriggerKind,
};
use crate::error::{Param, StormError};
use crate::strategy::Strategy;
use sim_kit::time::Time;

pub use crate::names::PRESETS as NAMES;

/// One named scenario: the runs to compare and what they are expected to show.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its name.
    pub name: &'static str,
    /// One line on what it is.
    pub title: &'static str,
    /// The qualitative outcome the seed articles report (and the tests check).
    pub expectation: &'static str,
    /// One configuration per strategy.
    pub runs: Vec<StormConfig>,
}

/// Changes to a preset from the command line.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Seed (default 1).
    pub seed: Option<u64>,
    /// Clients: the closed-loop population, or the open-loop rate scaled by the same
    /// factor; the server's capacity (workers, concurrency limit) scales with it, so
    /// the load per worker is the preset's.
    pub clients: Option<u32>,
    /// Simulated time (the trigger must still end within it).
    pub horizon_ps: Option<Time>,
    /// Replace the preset's strategies.
    pub strategies: Option<Vec<Strategy>>,
    /// Replace the per-attempt timeouts (one is drawn per logical request).
    pub timeouts_ps: Option<Vec<Time>>,
    /// Replace the width of the time-series bins.
    pub bin_ps: Option<Time>,
}

fn s(spec: &str, name: &str) -> Strategy {
    // The presets' specifications are fixed and valid; a failure here is a bug that
    // the preset tests catch.
    Strategy::parse(spec)
        .map(|s| s.named(name))
        .unwrap_or_else(|e| panic!("preset strategy {spec}: {e}"))
}

fn ms(m: u64) -> Time {
    Time::from_ms(m)
}

fn workers(n: u32, service_ms: u64) -> ServerConfig {
    ServerConfig {
        workers: Some(n),
        service: ServiceTime::Exponential(ms(service_ms)),
        slowdown: None,
        error_ps: ms(1),
    }
}

fn base(load: Load, server: ServerConfig, trigger: Trigger, horizon_s: u64) -> StormConfig {
    StormConfig {
        load,
        server,
        timeouts_ps: vec![Time::from_secs(1)],
        users: 1000,
        trigger: Some(trigger),
        strategy: Strategy::none(),
        horizon_ps: Time::from_secs(horizon_s),
        bin_ps: Time::from_secs(1),
        warmup_ps: Time::from_secs(5),
        recovery: RecoveryRule::default(),
        seed: 1,
    }
}

fn window(start_s: u64, end_s: u64, kind: TriggerKind) -> Trigger {
    Trigger {
        start_ps: Time::from_secs(start_s),
        end_ps: Time::from_secs(end_s),
        kind,
    }
}

fn open(rate_per_s: f64) -> Load {
    Load::Open {
        rate_per_s,
        clients: 10,
    }
}

/// The scenario `name`, with `opts` applied.
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is not a preset; the
/// [`StormError`] of [`StormConfig::validate`] for options that do not fit it.
pub fn scenario(name: &str, opts: &Options) -> Result<Scenario, StormError> {
    let (title, expectation, cfg, strategies): (&str, &str, StormConfig, Vec<Strategy>) = match name
    {
        "pause" => (
            "1000 closed-loop clients, 40 workers x 100 ms, 1 s timeout; the server pauses from 20 s to 30 s",
            "fixed-interval retries keep the server saturated (metastable); exponential backoff with full jitter recovers",
            base(
                Load::Closed {
                    clients: 1000,
                    think_ps: Time::from_secs(10),
                },
                workers(40, 100),
                window(20, 30, TriggerKind::Pause),
                120,
            ),
            vec![
                s("fixed=100ms", "fixed 100 ms"),
                s("exp-full+base=100ms+cap=20s", "exp + full jitter"),
            ],
        ),
        "outage-open" => (
            "open loop, 100 requests/s, 3 retries; every request fails from 20 s to 50 s",
            "immediate retries amplify the load 4x at once; exponential backoff reaches the same 4x a few seconds later",
            base(
                open(100.0),
                workers(50, 50),
                window(20, 50, TriggerKind::Outage),
                80,
            ),
            vec![
                s("none", "no retries"),
                s("immediate+retries=3", "3 immediate retries"),
                s("exp+base=1s+retries=3", "3 retries, exp 1 s"),
            ],
        ),
        "waves" => {
            let mut c = base(
                Load::Closed {
                    clients: 1000,
                    think_ps: ms(500),
                },
                workers(100, 20),
                window(10, 40, TriggerKind::Outage),
                60,
            );
            c.bin_ps = ms(100);
            (
                "1000 closed-loop clients; every request fails from 10 s to 40 s; 100 ms bins",
                "exponential backoff without jitter retries in synchronised waves; full jitter spreads them smoothly",
                c,
                vec![
                    s("exp+base=100ms+cap=10s", "exp, no jitter"),
                    s("exp-full+base=100ms+cap=10s", "exp + full jitter"),
                ],
            )
        }
        "budget" => (
            "open loop, 100 requests/s, 50 workers x 100 ms, 1 s timeout; the server pauses from 20 s to 30 s",
            "a 10 % retry budget and a 10 % retry breaker keep the amplification near 1x and recover faster than plain retries",
            base(
                open(100.0),
                workers(50, 100),
                window(20, 30, TriggerKind::Pause),
                120,
            ),
            vec![
                s("exp-full+retries=3", "3 retries"),
                s("exp-full+retries=3+budget=10", "3 retries + budget 10 %"),
                s(
                    "exp-full+retries=3+retry-breaker=10",
                    "3 retries + retry breaker 10 %",
                ),
            ],
        ),
        "partial" => (
            "open loop, 100 requests/s, 3 retries; 30 % of requests fail from 10 s to 70 s",
            "with a partial failure, the budget and the retry breaker give a lower client success than plain retries",
            base(
                open(100.0),
                workers(50, 50),
                window(10, 70, TriggerKind::Partial { fraction: 0.3 }),
                90,
            ),
            vec![
                s("exp-full+retries=3", "3 retries"),
                s("exp-full+retries=3+budget=10", "3 retries + budget 10 %"),
                s(
                    "exp-full+retries=3+retry-breaker=10",
                    "3 retries + retry breaker 10 %",
                ),
            ],
        ),
        "shard" => (
            "open loop, 200 requests/s from 10 clients over 5 shards; shard 0 fails from 20 s to 60 s",
            "a circuit breaker at 10 % trips on the 20 % errors and cuts every shard off; at 50 % it does not trip",
            base(
                open(200.0),
                workers(50, 50),
                window(
                    20,
                    60,
                    TriggerKind::Shard {
                        shards: 5,
                        failing: 0,
                    },
                ),
                80,
            ),
            vec![
                s("none", "no breaker"),
                s("breaker=10", "breaker 10 %"),
                s("breaker=50", "breaker 50 %"),
            ],
        ),
        "deadline" => {
            let server = ServerConfig {
                workers: None,
                service: ServiceTime::Fixed(ms(100)),
                slowdown: Some(Slowdown {
                    limit: 30,
                    factor: 2.0,
                    k: 100.0,
                    max_ps: Time::from_secs(60),
                }),
                error_ps: ms(1),
            };
            (
                "open loop, 80 requests/s; latency 100 ms up to 30 concurrent requests, doubling every 100 more; the server pauses from 20 s to 30 s",
                "propagating the deadline lets the server drop abandoned work, and it recovers far sooner than with plain retries",
                base(open(80.0), server, window(20, 30, TriggerKind::Pause), 120),
                vec![
                    s("exp-full+retries=3", "3 retries"),
                    s("exp-full+retries=3+deadline", "3 retries + deadline"),
                ],
            )
        }
        other => return Err(StormError::UnknownScenario(other.to_string())),
    };
    let name = NAMES
        .iter()
        .copied()
        .find(|n| *n == name)
        .unwrap_or("custom");
    let cfg = apply(cfg, opts)?;
    let strategies = opts.strategies.clone().unwrap_or(strategies);
    if strategies.is_empty() {
        return Err(StormError::param(Param::Strategies, 0));
    }
    let runs = strategies
        .into_iter()
        .map(|st| StormConfig {
            strategy: st,
            ..cfg.clone()
        })
        .collect::<Vec<_>>();
    for r in &runs {
        r.validate()?;
    }
    Ok(Scenario {
        name,
        title,
        expectation,
        runs,
    })
}

fn apply(mut c: StormConfig, o: &Options) -> Result<StormConfig, StormError> {
    if let Some(seed) = o.seed {
        c.seed = seed;
    }
    if let Some(h) = o.horizon_ps {
        c.horizon_ps = h;
    }
    if let Some(t) = &o.timeouts_ps {
        c.timeouts_ps = t.clone();
    }
    if let Some(b) = o.bin_ps {
        c.bin_ps = b;
    }
    if let Some(n) = o.clients {
        if n == 0 || n > crate::config::MAX_CLIENTS {
            return Err(StormError::param(Param::Clients, n));
        }
        let f = match &mut c.load {
            Load::Closed { clients, .. } => {
                let f = f64::from(n) / f64::from(*clients);
                *clients = n;
                f
            }
            Load::Open {
                rate_per_s,
                clients,
            } => {
                let f = f64::from(n) / f64::from(*clients);
                *rate_per_s *= f;
                *clients = n;
                f
            }
            Load::Capped {
                rate_per_s,
                max_active,
            } => {
                let f = f64::from(n) / f64::from(*max_active);
                *rate_per_s *= f;
                *max_active = n;
                f
            }
        };
        let scale = |x: u32| ((f64::from(x) * f).round() as u32).max(1);
        c.server.workers = c.server.workers.map(scale);
        if let Some(sl) = &mut c.server.slowdown {
            sl.limit = scale(sl.limit);
            sl.k *= f;
        }
        c.users = scale(c.users).max(5);
    }
    c.validate().map(|()| c)
}
