//! A parallel, deterministic map over *points × replications*, with progress and
//! cancellation. Nothing here knows about CSMA/CD: a point is any `P`, a job's result
//! any `R`.
//!
//! Every job `(point, replication)` is computed independently by the caller's
//! function on `rayon`'s thread pool, and the results come back in
//! `[point][replication]` order whatever the number of threads and whichever job
//! finished first, so anything computed from them afterwards in that order is
//! identical on 1 or 64 threads. Seeds are the caller's business;
//! [`sim_kit::maths::replication_seed`] is the usual choice.
//!
//! Cancellation: a job checks nothing itself unless it wants to; the runner checks the
//! flag before starting each job, and if it is set when the map ends the whole run is
//! [`RunError::Interrupted`] and its partial results are dropped, never returned.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use sim_host::runner::{run_grid, Done};
//! use sim_kit::maths::replication_seed;
//! use sim_kit::progress::Quiet;
//! let points = [10u64, 20, 30];
//! let stop = AtomicBool::new(false);
//! let out = run_grid(&points, 4, &stop, &Quiet, |&p, job| {
//!     Ok::<_, String>(Done { value: p + u64::from(job.replication), work: 1 })
//! })
//! .unwrap();
//! assert_eq!(out[2], vec![30, 31, 32, 33]);
//! assert_ne!(replication_seed(1, 0), replication_seed(1, 1));
//! ```

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use sim_kit::progress::{Progress, Snapshot};

/// One unit of work: a replication of a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Index of the point in the slice given to [`run_grid`].
    pub point: usize,
    /// Replication number, `0..replications`.
    pub replication: u32,
}

/// What a job returns: its value and how much work it did (for the progress rate,
/// e.g. simulated events).
#[derive(Clone, Debug, PartialEq)]
pub struct Done<R> {
    /// The result.
    pub value: R,
    /// Work units done (reported as a rate).
    pub work: u64,
}

/// Why [`run_grid`] returned no results.
#[derive(Clone, Debug, PartialEq)]
pub enum RunError<E> {
    /// The cancel flag was raised; `points_done` of `points` had finished.
    Interrupted {
        /// Points whose every replication had finished.
        points_done: usize,
        /// Points in the run.
        points: usize,
    },
    /// A job failed (the first failure in `[point][replication]` order).
    Job {
        /// The failed job.
        job: Job,
        /// Its error.
        error: E,
    },
    /// Zero replications or no points: there is nothing to run.
    Empty,
}

impl<E: fmt::Display> fmt::Display for RunError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Interrupted {
                points_done,
                points,
            } => write!(
                f,
                "interrupted after {points_done} of {points} points; no results were written"
            ),
            Self::Job { job, error } => write!(
                f,
                "point {} replication {} failed: {error}",
                job.point + 1,
                job.replication + 1
            ),
            Self::Empty => write!(f, "nothing to run: no points or zero replications"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for RunError<E> {}

/// Run `job` for every point × replication on the current rayon pool (see the module
/// docs). Returns `results[point][replication]`.
///
/// # Errors
///
/// [`RunError::Empty`] with no points or no replications; [`RunError::Interrupted`]
/// if `stop` was raised (no partial results are returned); [`RunError::Job`] with the
/// first failed job in `[point][replication]` order.
pub fn run_grid<P, R, E, F>(
    points: &[P],
    replications: u32,
    cancel: &AtomicBool,
    progress: &dyn Progress,
    job: F,
) -> Result<Vec<Vec<R>>, RunError<E>>
where
    P: Sync,
    R: Send,
    E: Send,
    F: Fn(&P, Job) -> Result<Done<R>, E> + Sync,
{
    if points.is_empty() || replications == 0 {
        return Err(RunError::Empty);
    }
    let reps = replications as usize;
    let total_jobs = points.len() * reps;
    let remaining: Vec<AtomicU32> = points
        .iter()
        .map(|_| AtomicU32::new(replications))
        .collect();
    let points_done = AtomicUsize::new(0);
    let jobs_done = AtomicUsize::new(0);
    let work = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let start = Instant::now();
    // Serialises progress calls so the reporter sees monotone snapshots.
    let report = Mutex::new(());
    progress.begin(points.len(), total_jobs);

    let results: Vec<Option<Result<R, E>>> = (0..total_jobs)
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            if cancel.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
                return None;
            }
            let j = Job {
                point: i / reps,
                replication: (i % reps) as u32,
            };
            let out = match job(&points[j.point], j) {
                Ok(d) => d,
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    return Some(Err(e));
                }
            };
            work.fetch_add(out.work, Ordering::Relaxed);
            jobs_done.fetch_add(1, Ordering::Relaxed);
            if remaining[j.point].fetch_sub(1, Ordering::AcqRel) == 1 {
                points_done.fetch_add(1, Ordering::Relaxed);
            }
            if let Ok(_guard) = report.lock() {
                progress.update(&Snapshot {
                    points_done: points_done.load(Ordering::Relaxed),
                    points: points.len(),
                    jobs_done: jobs_done.load(Ordering::Relaxed),
                    jobs: total_jobs,
                    work: work.load(Ordering::Relaxed),
                    elapsed: start.elapsed(),
                });
            }
            Some(Ok(out.value))
        })
        .collect();
    progress.end();

    if cancel.load(Ordering::Relaxed) {
        return Err(RunError::Interrupted {
            points_done: points_done.load(Ordering::Relaxed),
            points: points.len(),
        });
    }
    let mut grid: Vec<Vec<R>> = Vec::with_capacity(points.len());
    let mut row = Vec::with_capacity(reps);
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Some(Ok(v)) => row.push(v),
            Some(Err(error)) => {
                return Err(RunError::Job {
                    job: Job {
                        point: i / reps,
                        replication: (i % reps) as u32,
                    },
                    error,
                });
            }
            // Skipped after a failure elsewhere; that failure is reported below.
            None => {}
        }
        if row.len() == reps {
            grid.push(std::mem::replace(&mut row, Vec::with_capacity(reps)));
        }
    }
    if grid.len() != points.len() {
        // Only reachable if a job was skipped without a failure or a cancel, which
        // the loop above rules out; report it as an interruption rather than panic.
        return Err(RunError::Interrupted {
            points_done: grid.len(),
            points: points.len(),
        });
    }
    Ok(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_kit::maths::{replication_seed, split_seed};
    use sim_kit::progress::Quiet;

    fn pool(n: usize) -> rayon::ThreadPool {
        crate::runner::threads::pool(n).unwrap()
    }

    #[test]
    fn order_does_not_depend_on_threads() {
        let points: Vec<u64> = (0..37).collect();
        let f = |&p: &u64, j: Job| {
            // Uneven work so that jobs finish out of order on several threads.
            let mut x = replication_seed(p, j.replication);
            for _ in 0..(p % 7) * 1000 {
                x = split_seed(x, 1);
            }
            Ok::<_, ()>(Done { value: x, work: p })
        };
        let stop = AtomicBool::new(false);
        let one = pool(1)
            .install(|| run_grid(&points, 3, &stop, &Quiet, f))
            .unwrap();
        let four = pool(4)
            .install(|| run_grid(&points, 3, &stop, &Quiet, f))
            .unwrap();
        assert_eq!(one, four);
        assert_eq!(one.len(), 37);
        assert!(one.iter().all(|r| r.len() == 3));
    }

    #[test]
    fn cancel_drops_everything() {
        let stop = AtomicBool::new(false);
        let points: Vec<u32> = (0..50).collect();
        let r = pool(2).install(|| {
            run_grid(&points, 2, &stop, &Quiet, |&p, _| {
                if p == 10 {
                    stop.store(true, Ordering::Relaxed);
                }
                Ok::<_, ()>(Done { value: p, work: 0 })
            })
        });
        match r {
            Err(RunError::Interrupted {
                points_done,
                points,
            }) => {
                assert_eq!(points, 50);
                assert!(points_done < 50);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn first_failure_is_reported_and_nothing_to_run_is_an_error() {
        let stop = AtomicBool::new(false);
        let r = run_grid(&[1, 2, 3], 2, &stop, &Quiet, |&p, j| {
            if p == 2 && j.replication == 1 {
                Err("bad point")
            } else {
                Ok(Done { value: p, work: 0 })
            }
        });
        assert_eq!(
            r,
            Err(RunError::Job {
                job: Job {
                    point: 1,
                    replication: 1
                },
                error: "bad point"
            })
        );
        let none: [u8; 0] = [];
        let f = |_: &u8, _: Job| Ok::<_, ()>(Done { value: (), work: 0 });
        assert_eq!(run_grid(&none, 3, &stop, &Quiet, f), Err(RunError::Empty));
        assert_eq!(run_grid(&[1u8], 0, &stop, &Quiet, f), Err(RunError::Empty));
    }
}
