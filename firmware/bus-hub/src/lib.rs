//! # bus-hub
//!
//! An emulated multi-drop serial bus. It starts N QEMU instances of the same
//! firmware (`bus-node`, the serial-mac firmware for `mps2-an386`), each with its
//! own address and seed, and runs them in lock step on one modelled line:
//!
//! * [`mod@line`]: the line is open drain with one pull-up: bytes written in the same
//!   byte time combine as a wired-AND, and every station, the writers included,
//!   reads the result one byte time after it started (zero propagation within a
//!   byte time). Each write and each character is recorded, tick-stamped, in the
//!   wire transcript.
//! * [`mod@run`]: time belongs to the hub (the `lockstep` protocol over each node's
//!   UART1, one tick per quarter byte time); the nodes' clocks are the ticks it
//!   sends, so two runs with the same seeds are identical, byte for byte, however
//!   fast the emulator goes. Every node reports its next deadline, and the hub skips
//!   the ticks in which nothing can happen.
//! * [`node`]: one QEMU process, its two UARTs on local sockets, its defmt log.
//! * [`log`]: each node's log, decoded by `defmt-print` and parsed.
//! * [`mod@check`]: every frame ends exactly once; receivers agree with senders; each
//!   node's counters, collisions, jams and backoffs agree with the wire.
//!
//! The binary (`bus-hub --help`) runs one scenario and writes the transcript and the
//! decoded logs; `tests/multi_mcu.rs` runs 3 and 5 nodes twice each.

#![deny(missing_docs)]

pub mod check;
pub mod error;
pub mod line;
pub mod log;
pub mod node;
pub mod run;

pub use check::{BusReport, check, summary};
pub use error::{HubError, HubErrorKind};
pub use run::{Faults, NodeSpec, Options, RunOutput, Scenario, run};

use std::path::Path;

/// A run with its decoded logs and the verdict of [`check()`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What the run produced.
    pub output: RunOutput,
    /// Each node's decoded log.
    pub logs: Vec<Vec<String>>,
    /// The figures, or every problem found.
    pub checked: Result<BusReport, Vec<String>>,
}

/// Run `scenario`, decode every node's log with `defmt_print`, and check it all.
///
/// # Errors
///
/// Those of [`run()`], [`log::decode`] and [`log::parse`]; a node that exited with
/// failure is [`HubErrorKind::NodeFailed`], with its log.
pub fn run_and_check(
    scenario: &Scenario,
    opts: &Options,
    defmt_print: &str,
) -> Result<Outcome, HubError> {
    let output = run(scenario, opts)?;
    let mut logs = Vec::new();
    let mut parsed = Vec::new();
    for (i, raw) in output.raw_logs.iter().enumerate() {
        let lines = log::decode(defmt_print, &opts.elf, raw)?;
        if !output.exited_ok[i] {
            return Err(HubError::new(
                HubErrorKind::NodeFailed,
                format!(
                    "node{i} exited with failure; its log:\n{}",
                    lines.join("\n")
                ),
            ));
        }
        parsed.push(log::parse(&lines)?);
        logs.push(lines);
    }
    let checked = check(scenario, &output.events, &parsed);
    Ok(Outcome {
        output,
        logs,
        checked,
    })
}

/// Write the transcript (`transcript.txt`) and each node's decoded log
/// (`node<i>.log`) into `dir`.
///
/// # Errors
///
/// [`HubErrorKind::Io`] if a file cannot be written.
pub fn write_outputs(outcome: &Outcome, dir: &Path) -> Result<(), HubError> {
    std::fs::create_dir_all(dir).map_err(|e| HubError::io("create the output directory", e))?;
    std::fs::write(dir.join("transcript.txt"), &outcome.output.transcript)
        .map_err(|e| HubError::io("write transcript.txt", e))?;
    for (i, lines) in outcome.logs.iter().enumerate() {
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(dir.join(format!("node{i}.log")), text)
            .map_err(|e| HubError::io("write a node log", e))?;
    }
    Ok(())
}
