//! Sweeps run on a host: every replication of every point on all cores
//! ([`sim_host::runner`]), resumable through a results database, and written as files
//! and charts. What a sweep *is* (points, seeds, records, summaries) is the engine's,
//! [`csma_cd::sweep`].
//!
//! * [`execute`]: the whole sweep, from checks to files;
//! * [`store`]: the results database (SQLite) that lets a sweep resume, grow and be
//!   split into shards, and [`store::merge`] for the shards;
//! * [`charts`]: utilisation, delay, backoff and fairness across the sweep.

pub mod charts;
pub mod execute;
pub mod store;
