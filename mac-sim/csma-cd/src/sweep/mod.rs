//! Parameter sweeps of the exact model: many runs over a grid of points, each
//! replicated with independent seeds, summarised with confidence intervals. The
//! parallel runner and its progress are the kit's ([`sim_kit::runner`]).
//!
//! * [`spec`]: the swept parameters and their command-line forms;
//! * [`key`]: a run's identity: its point's canonical text and the hashes on it;
//! * [`job`]: one replication of the exact model, cancellable;
//! * [`record`]: what a sweep keeps of a replication;
//! * [`store`]: the results database (SQLite) that lets a sweep resume, grow and be
//!   split into shards, and [`store::merge`] for the shards;
//! * [`shard`]: the deterministic slice of a sweep's runs that one shard runs;
//! * [`summary`]: per-point means and 95 % intervals, CSV and JSON;
//! * [`charts`]: utilisation, delay, backoff and fairness across the sweep;
//! * [`execute`]: the whole sweep, from checks to files.

pub mod charts;
pub mod execute;
pub mod job;
pub mod key;
pub mod record;
pub mod shard;
pub mod spec;
pub mod store;
pub mod summary;
