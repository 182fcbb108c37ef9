//! A sweep's runs as a campaign: those of one shard, or all; those a results database
//! holds read from it, the others run on every core and each stored as it finishes.
//! Every model's sweep goes through here, so every model resumes, grows and shards
//! the same way.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sim_kit::progress::Progress;
use sim_kit::shard::{Shard, assign};

use super::{Layout, RunKey, Store, StoreError, campaign_id};
use crate::runner::grid::{Done, RunError, run_grid};

/// One run of a sweep: its key, its point, which replication of the point it is and
/// what it is expected to cost (only the ratios between runs matter: they deal the
/// runs out to shards).
#[derive(Clone, Debug)]
pub struct Job<'a, P> {
    /// The run's key (its point's identity and its seed).
    pub key: RunKey,
    /// Its point's parameters.
    pub point: &'a P,
    /// Which replication of the point, from 0.
    pub replication: u32,
    /// Its expected cost.
    pub cost: f64,
}

/// What [`run_campaign`] gives back.
#[derive(Debug)]
pub struct Ran<R> {
    /// The records of the runs, in sweep order: of every run, or of the shard's.
    pub records: Vec<R>,
    /// The runs this campaign (or shard) has.
    pub runs: usize,
    /// How many of them the database held already.
    pub stored: usize,
    /// The wall-clock time of the runs computed.
    pub wall: Duration,
}

/// Why [`run_campaign`] gave no records.
#[derive(Debug)]
pub enum CampaignError<E> {
    /// The database could not be used or written.
    Store(StoreError),
    /// A run failed.
    Run(E),
    /// The cancel flag was raised: the runs finished are stored, the others not.
    Interrupted {
        /// Runs computed and stored before the flag was raised.
        runs_done: usize,
        /// Runs to compute.
        runs: usize,
    },
}

impl<E: fmt::Display> fmt::Display for CampaignError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Store(e) => write!(f, "{e}"),
            Self::Run(e) => write!(f, "{e}"),
            Self::Interrupted { runs_done, runs } => {
                write!(f, "interrupted after {runs_done} of {runs} runs")
            }
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for CampaignError<E> {}

impl<E> From<StoreError> for CampaignError<E> {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// A job's failure inside the grid.
enum Failed<E> {
    Run(E),
    Store(StoreError),
    Cancelled,
}

/// The records of `jobs` (every run of a sweep, in sweep order), or of `shard`'s share
/// of them: read from `store` where it holds them, the others computed by `run` on
/// every core (`Ok(None)`: stopped by `cancel`) and stored as each finishes. `run`
/// gives a record and the work it took (progress counts it). With a shard, the store
/// is marked as that shard of this campaign first.
///
/// # Errors
///
/// [`CampaignError::Store`] if the store refuses the campaign (another campaign's
/// shard, runs missing from a file that cannot be written) or a record cannot be
/// stored; [`CampaignError::Run`] with the first failed run's error (in sweep order);
/// [`CampaignError::Interrupted`] if `cancel` was raised.
pub fn run_campaign<L, E, F>(
    jobs: &[Job<'_, L::Point>],
    store: Option<&Store<L>>,
    shard: Option<Shard>,
    cancel: &AtomicBool,
    progress: &dyn Progress,
    run: F,
) -> Result<Ran<L::Record>, CampaignError<E>>
where
    L: Layout,
    L::Point: Sync,
    L::Record: Send,
    E: Send,
    F: Fn(&Job<'_, L::Point>) -> Result<Option<(L::Record, u64)>, E> + Sync,
{
    let mine: Vec<&Job<'_, L::Point>> = match shard {
        None => jobs.iter().collect(),
        Some(shard) => {
            if let Some(st) = store {
                let keys: Vec<RunKey> = jobs.iter().map(|j| j.key.clone()).collect();
                st.mark_shard(&campaign_id(&keys), shard)?;
            }
            let costs: Vec<f64> = jobs.iter().map(|j| j.cost).collect();
            jobs.iter()
                .zip(assign(&costs, shard.count()))
                .filter(|(_, s)| *s + 1 == shard.index())
                .map(|(j, _)| j)
                .collect()
        }
    };
    let keys: Vec<RunKey> = mine.iter().map(|j| j.key.clone()).collect();
    let mut records: Vec<Option<L::Record>> = match store {
        Some(st) => st.load(&keys)?,
        None => (0..mine.len()).map(|_| None).collect(),
    };
    let stored = records.iter().filter(|r| r.is_some()).count();
    let missing: Vec<usize> = (0..mine.len()).filter(|&j| records[j].is_none()).collect();
    if let Some(st) = store {
        // A file that cannot be written serves a finished campaign only; one whose
        // runs are all stored is never written.
        st.ready_to_store(missing.len(), mine.len())?;
    }
    let start = Instant::now();
    if !missing.is_empty() {
        let grid = run_grid(&missing, 1, cancel, progress, |&j: &usize, _| {
            let job = mine[j];
            match run(job) {
                Ok(Some((record, work))) => {
                    if let Some(st) = store {
                        st.put(&job.key, job.point, job.replication, &record)
                            .map_err(Failed::Store)?;
                    }
                    Ok(Done {
                        work,
                        value: record,
                    })
                }
                Ok(None) => Err(Failed::Cancelled),
                Err(e) => Err(Failed::Run(e)),
            }
        })
        .map_err(|e| match e {
            RunError::Interrupted { points_done, .. } => CampaignError::Interrupted {
                runs_done: points_done,
                runs: missing.len(),
            },
            RunError::Job {
                error: Failed::Run(e),
                ..
            } => CampaignError::Run(e),
            RunError::Job {
                error: Failed::Store(e),
                ..
            } => CampaignError::Store(e),
            // A job stops only once the flag is raised; `missing` is not empty.
            RunError::Job {
                error: Failed::Cancelled,
                ..
            }
            | RunError::Empty => CampaignError::Interrupted {
                runs_done: 0,
                runs: missing.len(),
            },
        })?;
        for (j, mut reps) in missing.iter().zip(grid) {
            records[*j] = reps.pop();
        }
    }
    Ok(Ran {
        runs: mine.len(),
        records: records.into_iter().flatten().collect(),
        stored,
        wall: start.elapsed(),
    })
}
