//! Progress reporting for long runs: an `indicatif` bar with the time left when
//! standard error is a terminal, nothing when it is a pipe or a file (or with
//! `--quiet`).
//!
//! A run reports in *jobs*: the runs of a sweep, the slices of simulated time of one
//! long run, the measurements of a bench. [`Progress::update`] is called after every
//! finished job with a [`Snapshot`]. The estimate of the time left assumes the
//! remaining jobs take as long on average as the finished ones.
//!
//! ```
//! use std::time::Duration;
//! use sim_kit::runner::progress::{Snapshot, eta, rate};
//! let s = Snapshot { points_done: 1, points: 4, jobs_done: 5, jobs: 20,
//!                    work: 30_000_000, elapsed: Duration::from_secs(10) };
//! assert_eq!(eta(&s), Some(Duration::from_secs(30)));
//! assert_eq!(rate(&s, "events"), "3.0 M events/s");
//! ```

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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

/// One long task reported in steps (the slices of simulated time of one run, the
/// measurements of a bench) to a [`Progress`]: begun on creation, ended on drop.
pub struct Steps<'a> {
    progress: &'a dyn Progress,
    steps: usize,
    start: Instant,
}

impl<'a> Steps<'a> {
    /// Begin a task of `steps` steps.
    pub fn begin(progress: &'a dyn Progress, steps: usize) -> Self {
        progress.begin(1, steps);
        Self {
            progress,
            steps,
            start: Instant::now(),
        }
    }

    /// `done` steps are finished, with `work` units of work so far.
    pub fn done(&self, done: usize, work: u64) {
        self.progress.update(&Snapshot {
            points_done: usize::from(done >= self.steps),
            points: 1,
            jobs_done: done,
            jobs: self.steps,
            work,
            elapsed: self.start.elapsed(),
        });
    }
}

impl Drop for Steps<'_> {
    fn drop(&mut self) {
        self.progress.end();
    }
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

/// An `indicatif` bar: jobs done of all, elapsed, time left and the work rate.
#[derive(Debug)]
pub struct Bar {
    bar: ProgressBar,
    unit: String,
}

impl Bar {
    /// A bar on stderr labelled `label`, reporting the rate of `unit`.
    pub fn new(label: &str, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        Self {
            bar,
            unit: unit.into(),
        }
    }
}

impl Progress for Bar {
    fn begin(&self, _points: usize, jobs: usize) {
        self.bar.set_length(jobs as u64);
        self.bar.set_position(0);
    }
    fn update(&self, s: &Snapshot) {
        self.bar.set_position(s.jobs_done as u64);
        let left = eta(s).map(clock).unwrap_or_else(|| "?".into());
        self.bar
            .set_message(format!("ETA {left}  {}", rate(s, &self.unit)));
    }
    fn end(&self) {
        self.bar.finish_and_clear();
    }
}

/// The reporter for stderr: a bar on a terminal unless `quiet`, nothing otherwise.
pub fn for_stderr(quiet: bool, label: &str, unit: &str) -> Box<dyn Progress> {
    if !quiet && std::io::stderr().is_terminal() {
        Box::new(Bar::new(label, unit))
    } else {
        Box::new(Quiet)
    }
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
