//! Progress on a terminal: an `indicatif` bar with the time left when standard error
//! is a terminal, nothing when it is a pipe or a file (or with `--quiet`); and
//! [`Steps`], one long task reported in steps with its wall time.

use std::io::IsTerminal;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sim_kit::progress::{Progress, Quiet, Snapshot, clock, eta, rate};

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

/// An `indicatif` bar: jobs done of all and what they are, elapsed, time left and the
/// work rate.
#[derive(Debug)]
pub struct Bar {
    bar: ProgressBar,
    unit: String,
}

impl Bar {
    /// A bar on stderr labelled `label`, counting `jobs` (what a step of the bar is:
    /// `runs`, `measurements`) and reporting the rate of `unit`.
    pub fn new(label: &str, jobs: &str, unit: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(&template(jobs))
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

/// The bar's `indicatif` template, naming what its count counts (`jobs` is text of
/// the template, so its braces are escaped).
fn template(jobs: &str) -> String {
    let jobs = jobs.replace('{', "{{").replace('}', "}}");
    format!("{{prefix}} [{{elapsed_precise}}] {{bar:30.cyan/blue}} {{pos}}/{{len}} {jobs}  {{msg}}")
}

/// The reporter for stderr: a bar on a terminal unless `quiet`, nothing otherwise;
/// the bar counts `jobs` (see [`Bar::new`]) and shows the rate of `unit`.
pub fn for_stderr(quiet: bool, label: &str, jobs: &str, unit: &str) -> Box<dyn Progress> {
    if !quiet && std::io::stderr().is_terminal() {
        Box::new(Bar::new(label, jobs, unit))
    } else {
        Box::new(Quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_says_what_it_counts() {
        let t = template("runs");
        assert!(t.contains("{pos}/{len} runs  {msg}"), "{t}");
        // A noun with braces is text, not a template key.
        assert!(ProgressStyle::with_template(&template("{odd} runs")).is_ok());
        assert!(template("{odd}").contains("{{odd}}"));
    }
}
