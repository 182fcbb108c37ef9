//! End-to-end tests of the `mac-sim` binary, one module per subject, built as one test
//! binary so that they are compiled and linked once: `cargo test -p mac-sim --test
//! integration`; one subject with a filter, e.g. `cargo test -p mac-sim --test
//! integration golden::`. `common` holds the helpers they share.

mod common;

mod chart_svg;
mod cli;
mod cli_radio;
mod cli_storm;
mod doc_excerpts;
mod exit_status;
mod figure_names;
mod golden;
mod memory;
mod outputs;
mod pcap_cli;
mod per_station_cli;
mod radio_store;
mod restart_rule;
mod scenario;
mod signals;
mod store_cli;
mod storm_store;
mod sweep_cli;
mod trace_cli;
mod write_failures;
