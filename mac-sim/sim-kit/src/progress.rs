//! Progress reporting for long runs: what a run reports ([`Snapshot`]) and to whom
//! ([`Progress`]), and the arithmetic of a display (time left, rate). The reporters
//! that draw on a terminal are the host layer's (`sim_host::runner::progress`).
//!
//! A run reports in *jobs*: the runs of a sweep, the slices of simulated time of one
//! long run, the measurements of a bench. [`Progress::update`] is called after every
//! finished job with a [`Snapshot`]. The estimate of the time left assumes the
//! remaining jobs take as long on average as the finished ones.
//!
//! ```
//! use std::time::Duration;
//! use sim_kit::progress::{Snapshot, eta, rate};
//! let s = Snapshot { points_done: 1, points: 4, jobs_done: 5, jobs: 20,
//!                    work: 30_000_000, elapsed: Duration::from_secs(10) };
//! assert_eq!(eta(&s), Some(Duration::from_secs(30)));
//! assert_eq!(rate(&s, "events"), "3.0 M events/s");
//! ```

use std::time::Duration;

/// The state of a run after a job finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Points whose every replication has finished.
    pub points_done: usize,
    /// Points in the run.
    pub points: usize,
    /// Jobs (point × replication) finished.
    pub jobs_done: usize,
    /// Jobs in the run.
    pub jobs: usize,
    /// Work units done so far (e.g. simulated events).
    pub work: u64,
    /// Wall time since the run started.
    pub elapsed: Duration,
}

/// Receives the progress of a run. Called from worker threads, one call at a time.
pub trait Progress: Sync {
    /// The run starts with `points` points and `jobs` jobs.
    fn begin(&self, points: usize, jobs: usize);
    /// A job finished.
    fn update(&self, s: &Snapshot);
    /// The run ended (finished, failed or interrupted).
    fn end(&self);
}

/// The estimated wall time left, once at least one job has finished.
pub fn eta(s: &Snapshot) -> Option<Duration> {
    if s.jobs_done == 0 {
        return None;
    }
    let per_job = s.elapsed.as_secs_f64() / s.jobs_done as f64;
    let left = per_job * s.jobs.saturating_sub(s.jobs_done) as f64;
    Some(Duration::from_secs_f64(left.round()))
}

/// The work rate, e.g. `"3.1 M events/s"`.
pub fn rate(s: &Snapshot, unit: &str) -> String {
    let secs = s.elapsed.as_secs_f64();
    let r = if secs > 0.0 {
        s.work as f64 / secs
    } else {
        0.0
    };
    if r >= 1e6 {
        format!("{:.1} M {unit}/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1} k {unit}/s", r / 1e3)
    } else {
        format!("{r:.0} {unit}/s")
    }
}

/// `m:ss` or `h:mm:ss`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Reports nothing (`--quiet`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {
    fn begin(&self, _: usize, _: usize) {}
    fn update(&self, _: &Snapshot) {}
    fn end(&self) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eta_clock_and_rate() {
        let s = Snapshot {
            points_done: 3,
            points: 9,
            jobs_done: 15,
            jobs: 45,
            work: 1500,
            elapsed: Duration::from_secs(75),
        };
        assert_eq!(eta(&s), Some(Duration::from_secs(150)));
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(rate(&s, "events"), "20 events/s");
        let none = Snapshot { jobs_done: 0, ..s };
        assert_eq!(eta(&none), None);
    }
}
