//! Progress reporting for long runs: an `indicatif` bar on a terminal, an occasional
//! plain line when stderr is a pipe or a log file, or nothing.
//!
//! The runner calls [`Progress::update`] after every finished job with a
//! [`Snapshot`]; the reporters decide how often to show it. The estimate of the time
//! left assumes the remaining jobs take as long on average as the finished ones.
//!
//! ```
//! use std::time::Duration;
//! use sim_kit::runner::progress::{Snapshot, eta, rate};
//! let s = Snapshot { points_done: 1, points: 4, jobs_done: 5, jobs: 20,
//!                    work: 30_000_000, elapsed: Duration::from_secs(10) };
//! assert_eq!(eta(&s), Some(Duration::from_secs(30)));
//! assert_eq!(rate(&s, "events"), "3.0 M events/s");
//! ```

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
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

/// One plain line on stderr at most every `interval` (and one at the end), for logs.
#[derive(Debug)]
pub struct Lines {
    label: String,
    unit: String,
    interval: Duration,
    last: Mutex<Option<Instant>>,
    final_line: Mutex<Option<String>>,
}

impl Lines {
    /// Lines starting with `label`, reporting the rate of `unit` (e.g. `"events"`).
    pub fn new(label: &str, unit: &str, interval: Duration) -> Self {
        Self {
            label: label.into(),
            unit: unit.into(),
            interval,
            last: Mutex::new(None),
            final_line: Mutex::new(None),
        }
    }

    /// The line for a snapshot.
    pub fn line(&self, s: &Snapshot) -> String {
        let pct = (s.jobs_done * 100).checked_div(s.jobs).unwrap_or(100);
        let left = eta(s).map(clock).unwrap_or_else(|| "?".into());
        format!(
            "{}: {}/{} points ({pct}%), {} elapsed, ~{left} left, {}",
            self.label,
            s.points_done,
            s.points,
            clock(s.elapsed),
            rate(s, &self.unit)
        )
    }
}

impl Progress for Lines {
    fn begin(&self, points: usize, jobs: usize) {
        eprintln!("{}: {points} points, {jobs} runs", self.label);
        if let Ok(mut l) = self.last.lock() {
            *l = Some(Instant::now());
        }
    }
    fn update(&self, s: &Snapshot) {
        let line = self.line(s);
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let due = last.is_none_or(|t| t.elapsed() >= self.interval);
        if due {
            *last = Some(Instant::now());
            eprintln!("{line}");
            if let Ok(mut f) = self.final_line.lock() {
                *f = None;
            }
        } else if let Ok(mut f) = self.final_line.lock() {
            *f = Some(line);
        }
    }
    fn end(&self) {
        if let Ok(mut f) = self.final_line.lock()
            && let Some(line) = f.take()
        {
            eprintln!("{line}");
        }
        let _ = std::io::stderr().flush();
    }
}

/// An `indicatif` bar: points done of all, elapsed, time left and the work rate.
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
            "{prefix} [{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} points  {msg}",
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
    fn begin(&self, points: usize, _jobs: usize) {
        self.bar.set_length(points as u64);
        self.bar.set_position(0);
    }
    fn update(&self, s: &Snapshot) {
        self.bar.set_position(s.points_done as u64);
        let left = eta(s).map(clock).unwrap_or_else(|| "?".into());
        self.bar
            .set_message(format!("ETA {left}  {}", rate(s, &self.unit)));
    }
    fn end(&self) {
        self.bar.finish_and_clear();
    }
}

/// The reporter for stderr: none if `quiet`, a bar on a terminal, lines otherwise.
pub fn for_stderr(quiet: bool, label: &str, unit: &str) -> Box<dyn Progress> {
    if quiet {
        Box::new(Quiet)
    } else if std::io::stderr().is_terminal() {
        Box::new(Bar::new(label, unit))
    } else {
        Box::new(Lines::new(label, unit, Duration::from_secs(5)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_say_points_percent_eta_and_rate() {
        let l = Lines::new("sweep", "events", Duration::from_secs(5));
        let s = Snapshot {
            points_done: 3,
            points: 9,
            jobs_done: 15,
            jobs: 45,
            work: 1500,
            elapsed: Duration::from_secs(75),
        };
        assert_eq!(
            l.line(&s),
            "sweep: 3/9 points (33%), 1:15 elapsed, ~2:30 left, 20 events/s"
        );
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        let none = Snapshot { jobs_done: 0, ..s };
        assert_eq!(eta(&none), None);
    }
}
