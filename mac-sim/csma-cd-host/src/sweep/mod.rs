//! Sweeps run on a host: every replication of every point on all cores
//! ([`sim_host::runner`]), resumable through a results database, and written as files
//! and charts. What a sweep *is* (points, seeds, records, summaries) is the engine's,
//! [`csma_cd::sweep`].
//!
//! * `execute`: the whole sweep, from checks to files;
//! * [`store`]: the results database (SQLite) that lets a sweep resume, grow and be
//!   split into shards, and [`store::merge`] for the shards;
//! * `charts`: utilisation, delay, backoff and fairness across the sweep.

mod charts;
mod execute;
pub mod store;

pub use charts::{
    STEMS, access_delay_vs_load, all as all_charts, backoff_vs_expected, delay_vs_load,
    drops_vs_load, fairness_vs_stations, throughput_vs_load, throughput_vs_stations,
};
pub use execute::{
    SweepError, SweepOptions, SweepOutcome, output_names, run_sweep, summarise, table,
    write_outputs,
};
