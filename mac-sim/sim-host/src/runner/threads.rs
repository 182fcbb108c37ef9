//! The worker threads a parallel run may use: a count checked against the machine,
//! and the pool built from it.
//!
//! ```
//! use sim_host::runner::{pool, ThreadsError};
//! assert_eq!(pool(2).unwrap().current_num_threads(), 2);
//! assert_eq!(pool(0).unwrap_err(), ThreadsError::Zero);
//! assert!(matches!(pool(1_000_000), Err(ThreadsError::TooMany { .. })));
//! ```

use std::fmt;

/// Threads allowed per core: more only adds switching, never speed, for runs that
/// are pure computation.
pub const PER_CORE: usize = 4;

/// The most threads a run may ask for on this machine: [`PER_CORE`] per core the
/// operating system reports (at least 1 core is assumed if it reports none).
pub fn limit() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from) * PER_CORE
}

/// Why a pool of worker threads cannot be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadsError {
    /// Zero threads asked for.
    Zero,
    /// More than [`limit`] threads asked for.
    TooMany {
        /// Threads asked for.
        asked: usize,
        /// The limit on this machine.
        limit: usize,
    },
    /// The operating system refused to start them (its message).
    Start(String),
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Zero => write!(f, "--threads must be at least 1"),
            Self::TooMany { asked, limit } => write!(
                f,
                "--threads {asked}: at most {limit} on this machine ({PER_CORE} per core)"
            ),
            Self::Start(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for ThreadsError {}

/// A pool of `n` worker threads.
///
/// # Errors
///
/// [`ThreadsError::Zero`] for 0, [`ThreadsError::TooMany`] above [`limit`], and
/// [`ThreadsError::Start`] if the threads cannot be started.
pub fn pool(n: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    if n == 0 {
        return Err(ThreadsError::Zero);
    }
    let limit = limit();
    if n > limit {
        return Err(ThreadsError::TooMany { asked: n, limit });
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| ThreadsError::Start(e.to_string()))
}
