//! What one storm run holds at its peak, from its configuration alone, so that a run
//! that cannot fit is refused before it starts:
//!
//! * **the time series**: every bin's accumulator and its row of results;
//! * **latencies**: one sample (4 bytes) per logical request that succeeds, kept for
//!   its bin's percentiles to the end of the run: at most the requests expected over
//!   the horizon, twice over for the randomness of arrivals and the doubling of
//!   capacity;
//! * **waits for a client**: with a capped loop whose arrivals wait, one sample (4
//!   bytes) per arrival a client takes up, kept as the latencies are;
//! * **clients**: each client's budgets and breakers;
//! * **requests in flight**: a logical request has one attempt out at a time, so at
//!   most one per client of a closed or capped loop, or for an open loop the
//!   arrivals within one request's longest life (its attempts' timeouts and the
//!   delays between them, or its deadline), each with its pending events;
//! * **the server's queue**: an attempt its client gave up on stays queued until a
//!   worker takes it; attempts come at most one per request in flight per shortest
//!   timeout (and at most the arrivals times their attempts), so the queue may grow by what the workers cannot take for the whole
//!   run (a metastable server never drains) and by every attempt while a trigger
//!   holds the server, never beyond the run's attempts, or its queue limit or
//!   listen backlog.
//!
//! ```
//! use retry_storm::file::Experiment;
//! use retry_storm::{estimate_memory, estimate_memory_of_runs, presets};
//! use sim_kit::time::Time;
//! let Ok(Experiment::Storm(pause)) = presets::experiment("pause", &Default::default()) else {
//!     unreachable!()
//! };
//! let mut day = pause.runs[0].clone();
//! day.horizon_ps = Time::from_secs(86_400);
//! let e = estimate_memory(&day);
//! assert!(e.total() > estimate_memory(&pause.runs[0]).total(), "{e}");
//! // Both strategies at once on two threads, and their results kept.
//! let one = estimate_memory(&pause.runs[0]).total();
//! assert!(estimate_memory_of_runs(&pause.runs, 1, 2).total() > one);
//! ```

use sim_kit::memory::{Bytes, MemoryEstimate};
use sim_kit::time::Time;

use crate::clients::Request;
use crate::config::{Load, StormConfig};
use crate::metrics::BinRow;
use crate::server::Job;
use crate::sim::Event;
use crate::strategy::Guards;

/// The run `cfg`: its parts (see the module docs).
pub fn estimate(cfg: &StormConfig) -> MemoryEstimate {
    let mut m = MemoryEstimate::new();
    let bins = bins(cfg);
    let callers = cfg.chain.len() as u64;
    m.add(
        "time series",
        Bytes::new(bins.saturating_mul(2 * 160 + 16 * callers)) + Bytes::of::<BinRow>(bins),
    );
    let expected = cfg.expected_requests();
    let requests = (2.0 * expected + 1024.0).min(u64::MAX as f64) as u64;
    m.add("latencies", Bytes::growable::<u32>(requests));
    let clients = match cfg.load {
        Load::Open { clients, .. } | Load::Closed { clients, .. } => clients,
        Load::Capped { max_active, .. } => max_active,
    };
    m.add(
        "clients",
        Bytes::of::<Guards>(u64::from(clients)) + Bytes::of::<u64>(u64::from(clients)).times(2),
    );
    if let Load::Capped { when_busy, .. } = &cfg.load {
        m.add(
            "waiting arrivals",
            Bytes::growable::<Time>(requests.min(u64::from(crate::limits::MAX_WAITING))),
        );
        if matches!(when_busy, crate::config::WhenBusy::Wait { .. }) {
            // One wait (4 bytes) per arrival a client takes up, for its bin's
            // percentiles.
            m.add("waits for a client", Bytes::growable::<u32>(requests));
        }
    }
    let attempts = u64::from(attempts_per_request(cfg));
    // A logical request has one attempt out at a time: the requests alive at once are
    // the clients (each waits for its request), or with an open loop the arrivals
    // within a request's longest life.
    let alive = match cfg.load {
        Load::Closed { .. } | Load::Capped { .. } => u64::from(clients),
        Load::Open { .. } => {
            let rate = expected / cfg.horizon_ps.as_secs_f64().max(1e-12);
            (2.0 * rate * life(cfg, attempts).as_secs_f64() + 16.0).min(requests as f64) as u64
        }
    };
    m.add(
        "requests in flight",
        (Bytes::of::<Request>(1) + Bytes::of::<(Time, u64, Event)>(2))
            .times(alive)
            .times(2),
    );
    if let Some(h) = cfg.strategy.hedge {
        // Each hedged call's slot, and a wake-up per attempt it may send.
        let copies = u64::from(h.policy.max_attempts());
        m.add(
            "hedged calls",
            (Bytes::of::<crate::sim::HedgeSlot>(1) + Bytes::of::<(Time, u64, Event)>(copies))
                .times(alive)
                .times(2),
        );
    }
    // The server's queue: an attempt its client gave up on stays queued until a worker
    // takes it. Attempts come at most one per request alive per shortest timeout; the
    // queue grows by what the workers cannot take for the whole run (a metastable
    // server never drains), and by every attempt while a trigger holds the server;
    // never more than the run's attempts, nor than its queue limit or backlog.
    let shortest = cfg
        .timeouts_ps
        .iter()
        .copied()
        .min()
        .unwrap_or(cfg.horizon_ps);
    let rate = expected / cfg.horizon_ps.as_secs_f64().max(1e-12);
    let per_s = (alive as f64 / shortest.as_secs_f64().max(1e-9)).min(2.0 * rate * attempts as f64);
    let s = &cfg.server;
    let capacity = s.workers.map_or(f64::INFINITY, |w| {
        f64::from(w) / s.service.mean_ps().as_secs_f64().max(1e-12)
    });
    let held = triggered(cfg).saturating_add(shortest).as_secs_f64();
    let mut queued = ((per_s - capacity).max(0.0) * cfg.horizon_ps.as_secs_f64()
        + per_s * held
        + f64::from(s.workers.unwrap_or(0))
        + 1024.0)
        .min(requests.saturating_mul(attempts) as f64) as u64;
    if let (Some(workers), Some(bound)) = (s.workers, s.queue_limit.or(s.listen_backlog)) {
        queued = queued.min(u64::from(workers) + u64::from(bound));
    }
    m.add(
        "server queue",
        (Bytes::of::<Job>(1) + Bytes::new(4 + 16))
            .times(queued)
            .times(2),
    );
    m
}

/// What a finished run keeps until the command ends: its time series.
pub fn kept(cfg: &StormConfig) -> Bytes {
    Bytes::of::<BinRow>(bins(cfg))
}

/// The runs `runs`, each over `seeds` seeds, on `threads` threads at once (the
/// largest first), with every finished run's results kept.
pub fn of_runs(runs: &[StormConfig], seeds: u32, threads: usize) -> MemoryEstimate {
    let seeds = u64::from(seeds.max(1));
    let mut running: Vec<MemoryEstimate> = runs.iter().map(estimate).collect();
    // The largest runs at once: each run's seeds are as large as it.
    let copies = seeds.min(threads as u64) as usize;
    running = running
        .iter()
        .flat_map(|e| std::iter::repeat_n(e.clone(), copies))
        .collect();
    let kept: Bytes = runs.iter().map(kept).sum();
    MemoryEstimate::at_once(&running, threads, kept.times(seeds))
}

fn bins(cfg: &StormConfig) -> u64 {
    cfg.horizon_ps.div_ceil(cfg.bin_ps.max(Time::from_ps(1)))
}

/// Attempts a logical request may make: the policy's limit, the run's attempts in
/// all when it has none.
fn attempts_per_request(cfg: &StormConfig) -> u32 {
    cfg.strategy
        .policy
        .map_or(1, |p| p.stop().max_attempts())
        .min(1 << 16)
}

/// The longest a request may live: its attempts' longest timeouts and the longest
/// delays between them (each at most the schedule's k-th delay, its cap and the
/// policy's ceiling, three times over for a jitter that may stretch it), or its
/// deadline, at most the horizon.
fn life(cfg: &StormConfig, attempts: u64) -> Time {
    let horizon = cfg.horizon_ps.as_secs_f64();
    let timeout = cfg
        .timeouts_ps
        .iter()
        .copied()
        .max()
        .unwrap_or(cfg.horizon_ps)
        .as_secs_f64();
    let mut total = timeout;
    if let Some(p) = cfg.strategy.policy {
        let schedule = p.schedule();
        let cap = (schedule
            .max_nanos()
            .min(p.ceiling_nanos())
            .min(p.stop().max_delay_nanos())) as f64
            / 1e9;
        let multiplier = f64::from(schedule.multiplier().numer())
            / f64::from(schedule.multiplier().denom().max(1));
        let mut delay = schedule.initial_nanos() as f64 / 1e9;
        for _ in 1..attempts {
            if total >= horizon {
                break;
            }
            total += timeout + 3.0 * delay.min(cap);
            delay *= multiplier;
        }
    }
    let mut life = Time::from_ps((total.min(horizon) * 1e12) as u64);
    if let Some(d) = cfg.strategy.request_deadline_ns {
        life = life.min(Time::from_ns(d));
    }
    life.min(cfg.horizon_ps)
}

/// The triggers' windows together.
fn triggered(cfg: &StormConfig) -> Time {
    cfg.triggers
        .iter()
        .map(|t| t.end_ps.saturating_sub(t.start_ps))
        .fold(Time::ZERO, Time::saturating_add)
}
