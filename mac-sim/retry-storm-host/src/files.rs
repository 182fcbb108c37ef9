//! The files of `mac-sim storm --out`: the engine's reports ([`retry_storm::report`])
//! and JSON ([`sim_kit::output::json`]) and this crate's charts ([`crate::chart`]),
//! each file written atomically ([`AtomicFile`](sim_host::output::AtomicFile)).

use std::path::Path;

use retry_storm::contention::{ContentionOverSeeds, ContentionRow};
use retry_storm::replicate::Replicated;
use retry_storm::report::{
    contention_csv, contention_seeds_csv, replicated_csv, replicated_series_csv, series_csv,
    summary_csv, sweep_csv, sweep_json,
};
use retry_storm::sweep::{Axis, SweepPoint};
use retry_storm::{Comparison, ComparisonResult};
use sim_host::chart::save;
use sim_host::output::{OutputError, write_atomic};

use crate::chart::{contention_chart, replicated_chart, scenario_chart, sweep_chart};

/// The suffixes of a data set's files after its stem.
const DATA: [&str; 3] = [".json", "-summary.csv", "-series.csv"];

/// `stem` with each suffix: file names.
fn named(stem: &str, suffixes: &[&str]) -> Vec<String> {
    suffixes.iter().map(|s| format!("{stem}{s}")).collect()
}

/// `stem`'s data files (with `DATA`), then its chart's.
fn data_and_chart(stem: &str) -> Vec<String> {
    let mut names = named(stem, &DATA);
    names.extend(sim_host::chart::file_names(stem));
    names
}

/// The files [`write_scenario`] writes for the scenario `name`, so that `--out` can be
/// checked before the runs.
pub fn scenario_files(name: &str) -> Vec<String> {
    data_and_chart(&format!("storm-{name}"))
}

/// The files [`write_replicated`] writes for the scenario `name`.
pub fn replicated_files(name: &str) -> Vec<String> {
    data_and_chart(&format!("storm-{name}-seeds"))
}

/// The files [`write_sweep`] writes for the scenario `name`.
pub fn sweep_files(name: &str) -> Vec<String> {
    let stem = format!("storm-{name}-sweep");
    let mut names = named(&stem, &[".json", ".csv"]);
    names.extend(sim_host::chart::file_names(&stem));
    names
}

/// The files [`write_contention`] writes for the experiment `name` (its file's
/// `name`, `contention` for the preset).
pub fn contention_files(name: &str) -> Vec<String> {
    let stem = format!("storm-{name}");
    let mut names = named(&stem, &[".json", ".csv"]);
    names.extend(sim_host::chart::file_names(&stem));
    names
}

/// The files [`write_contention_sweep`] writes.
pub fn contention_sweep_files(name: &str) -> Vec<String> {
    named(&format!("storm-{name}-sweep"), &[".json", ".csv"])
}

/// Write a contention sweep (`storm-NAME-sweep.json`, `.csv`: the texts given),
/// each atomically.
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written.
pub fn write_contention_sweep(
    dir: &Path,
    name: &str,
    json: &str,
    csv: &str,
) -> Result<(), OutputError> {
    write_atomic(
        &dir.join(format!("storm-{name}-sweep.json")),
        json.as_bytes(),
    )?;
    write_atomic(&dir.join(format!("storm-{name}-sweep.csv")), csv.as_bytes())
}

/// The files [`write_contention_seeds`] writes.
pub fn contention_seeds_files(name: &str) -> Vec<String> {
    named(&format!("storm-{name}-seeds"), &[".json", ".csv"])
}

/// Write `STEM.json`, `STEM-summary.csv` and `STEM-series.csv`, each atomically.
fn write_data(
    dir: &Path,
    stem: &str,
    json: &str,
    summary: &str,
    series: &str,
) -> Result<(), OutputError> {
    for (suffix, text) in DATA.into_iter().zip([json, summary, series]) {
        write_atomic(&dir.join(format!("{stem}{suffix}")), text.as_bytes())?;
    }
    Ok(())
}

/// Write `NAME.json`, `NAME-summary.csv`, `NAME-series.csv`, `NAME.png` and
/// `NAME.svg` (prefixed `storm-`) into `dir`, each atomically.
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written or chart that cannot be
/// drawn.
pub fn write_scenario(dir: &Path, r: &ComparisonResult) -> Result<(), OutputError> {
    let stem = format!("storm-{}", r.name);
    write_data(
        dir,
        &stem,
        &sim_kit::output::json::to_string(r),
        &summary_csv(r),
        &series_csv(r),
    )?;
    save(&scenario_chart(r), dir, &stem)?;
    Ok(())
}

/// Write the contention results of the experiment `name` (`storm-NAME.json`, `.csv`,
/// `.png`, `.svg`).
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written or chart that cannot be
/// drawn.
pub fn write_contention(dir: &Path, name: &str, rows: &[ContentionRow]) -> Result<(), OutputError> {
    let stem = format!("storm-{name}");
    write_atomic(
        &dir.join(format!("{stem}.json")),
        sim_kit::output::json::to_string(&rows).as_bytes(),
    )?;
    write_atomic(
        &dir.join(format!("{stem}.csv")),
        contention_csv(rows).as_bytes(),
    )?;
    save(&contention_chart(rows), dir, &stem)?;
    Ok(())
}

/// Write the contention results over seeds (`storm-NAME-seeds.json`, `.csv`).
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written.
pub fn write_contention_seeds(
    dir: &Path,
    name: &str,
    rows: &[ContentionOverSeeds],
) -> Result<(), OutputError> {
    write_atomic(
        &dir.join(format!("storm-{name}-seeds.json")),
        sim_kit::output::json::to_string(&rows).as_bytes(),
    )?;
    write_atomic(
        &dir.join(format!("storm-{name}-seeds.csv")),
        contention_seeds_csv(rows).as_bytes(),
    )
}

/// Write a scenario over seeds: `storm-NAME-seeds.json`, `-seeds-summary.csv`,
/// `-seeds-series.csv` and the chart `storm-NAME-seeds.png`/`.svg`, atomically.
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written or chart that cannot be
/// drawn.
pub fn write_replicated(
    dir: &Path,
    r: &Replicated,
    trigger: Option<(f64, f64)>,
) -> Result<(), OutputError> {
    let stem = format!("storm-{}-seeds", r.name);
    write_data(
        dir,
        &stem,
        &sim_kit::output::json::to_string(r),
        &replicated_csv(r),
        &replicated_series_csv(r),
    )?;
    save(&replicated_chart(r, trigger), dir, &stem)?;
    Ok(())
}

/// Write `storm-NAME-sweep.json`, `.csv`, `.png` and `.svg` into `dir`, each
/// atomically.
///
/// # Errors
///
/// [`OutputError`] for the first file that cannot be written or chart that cannot be
/// drawn.
pub fn write_sweep(
    dir: &Path,
    sc: &Comparison,
    spec: &Axis,
    points: &[SweepPoint],
) -> Result<(), OutputError> {
    let stem = format!("storm-{}-sweep", sc.name);
    write_atomic(
        &dir.join(format!("{stem}.json")),
        sweep_json(sc, spec, points).as_bytes(),
    )?;
    write_atomic(
        &dir.join(format!("{stem}.csv")),
        sweep_csv(sc, spec, points).as_bytes(),
    )?;
    save(&sweep_chart(&sc.name, &spec.key, points), dir, &stem)?;
    Ok(())
}
