//! `--max-memory`, shared by every command that runs a model: the estimate of what the
//! work will hold (each model's, from its parameters) checked before any work against
//! the memory this process may have and the limit given, as `sim_host::memory` says.

use clap::Args;
use sim_host::{Allowance, check_memory};
use sim_kit::MemoryEstimate;

use crate::failure::Failure;

#[derive(Args, Debug, Clone, Default)]
pub struct MemoryArgs {
    /// Refuse before any work (exit 2, with the estimate) a run whose estimated peak
    /// memory exceeds SIZE (e.g. 4G, 512M; powers of 1024) or what this process may
    /// have: the machine's available memory, its cgroup's memory.max, ulimit -v and
    /// -d, whichever is least. `none`: no check.
    #[arg(long, value_name = "SIZE", value_parser = parse_allowance)]
    max_memory: Option<Allowance>,
}

fn parse_allowance(text: &str) -> Result<Allowance, String> {
    text.parse()
        .map_err(|e: sim_kit::BytesParseError| format!("{e}, or none"))
}

impl MemoryArgs {
    /// Check the `what` `work` (what the command's runs hold, those on `threads` threads at once
    /// among them) before it starts.
    pub fn check(
        &self,
        what: &'static str,
        work: &MemoryEstimate,
        threads: usize,
    ) -> Result<(), Failure> {
        check_memory(what, work, threads, self.max_memory.unwrap_or_default())
            .map_err(Failure::usage)
    }
}
