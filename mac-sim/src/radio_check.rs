//! `mac-sim radio --check NAME`: the radio MAC against the literature's closed forms
//! (`radio_sim_host::checks`), as a table, CSV, and with `--plot DIR` a chart; this
//! file checks the arguments and publishes the outputs.

use std::path::Path;

use radio_sim_host::CHECKS as NAMES;
use sim_host::OutputError;
use sim_host::OutputSet;
use sim_host::Publication;
use sim_host::{Output, plan};
use sim_host::{chart_file_names as file_names, save_chart as save};

use crate::failure::Failure;
use crate::sweep::on_threads;
use crate::{emit, interrupt, note};

/// Run check `name`; print its table (or CSV) and, with `plot`, write its chart.
pub fn check_cmd(
    name: &str,
    csv: bool,
    plot: Option<&Path>,
    threads: Option<usize>,
) -> Result<(), Failure> {
    let unknown = || {
        Failure::usage(format!(
            "--check: '{name}' is not a check (one of {})",
            NAMES.join(", ")
        ))
    };
    if !NAMES.contains(&name) {
        return Err(unknown());
    }
    let stem = format!("radio-{name}");
    let files = file_names(&stem);
    if let Some(dir) = plot {
        plan::check(&[Output::folder("--plot", dir, &files)]).map_err(Failure::usage)?;
    }
    let (text, chart) = on_threads(threads, || {
        radio_sim_host::check(name, csv)
            .ok_or_else(unknown)?
            .map_err(Failure::usage)
    })?;
    let mut all = Publication::new();
    if let Some(dir) = plot {
        let set = OutputSet::begin(dir)?;
        save(&chart, set.dir(), &stem).map_err(|e: OutputError| set.shown(e))?;
        all.set(set);
    }
    all.commit(interrupt::flag())?
        .ok_or_else(|| Failure::interrupted("radio check interrupted; nothing was published"))?;
    if let Some(dir) = plot {
        note(&format!(
            "mac-sim: wrote {} and {} to {}",
            files[0],
            files[1],
            dir.display()
        ));
    }
    emit(&text)
}
