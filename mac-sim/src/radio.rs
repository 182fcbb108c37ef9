//! `mac-sim radio`: argument parsing and printing only; the model, its keys, scenario
//! files, reports and sweeps are in `radio_sim`.
//!
//! One configuration is built in this order: the defaults, the scenario file
//! (`--scenario`), the flags (`--KEY VALUE`, generated from the model's schema, as
//! `run`'s are), then `--set KEY=VALUE`; every value is read by the schema's one
//! text form, so a flag and a file key mean the same.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use radio_sim::{Axis, RadioConfig, ScenarioFile};
use radio_sim_host::Store;
use radio_sim_host::{Campaign, SweepError};
use sim_host::Publication;
use sim_host::progress;
use sim_host::{AtomicFile, OutputError, check_file};
use sim_host::{Output, plan};
use sim_kit::Shard;

use crate::failure::Failure;
use crate::memory::MemoryArgs;
use crate::scenario_flags::RadioFlags;
use crate::sweep::on_threads;
use crate::{emit, interrupt, note};

#[derive(Args, Debug)]
#[command(after_long_help = radio_sim::reference())]
pub struct RadioArgs {
    /// Every key of the radio model as a flag, and `--scenario FILE`.
    #[command(flatten)]
    params: RadioFlags,
    /// Set any key (see --keys), after the file and the other flags; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    set: Vec<String>,
    /// Sweep a key over values (KEY=V1,V2 or a range 0.1..=0.9:0.1); repeat for the
    /// cartesian product of several.
    #[arg(long, value_name = "KEY=VALUES")]
    sweep: Vec<String>,
    /// Keep every run of the sweep in this results database (SQLite): runs it holds
    /// are read, not run again, each finished run is stored at once, and the same
    /// command resumes an interrupted sweep.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    db: Option<PathBuf>,
    /// Run only shard K of N of the sweep's runs (balanced by expected cost) into
    /// --db and print no results (--csv and --json say how the merged campaign's will
    /// be printed); combine the shards with `mac-sim merge`.
    #[arg(long, value_name = "K/N", requires = "db", conflicts_with = "output")]
    shard: Option<Shard>,
    /// Print the whole result as JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV: one row per run (per sweep point).
    #[arg(long)]
    csv: bool,
    /// Add the per-station table to the text report (JSON always has it).
    #[arg(long, conflicts_with_all = ["csv", "json"])]
    per_station: bool,
    /// Write the output to FILE (whole, or not at all) instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print every key: its values, unit, default and meaning.
    #[arg(long)]
    keys: bool,
    /// Print the events processed and events per second on standard error.
    #[arg(long)]
    timing: bool,
    /// Worker threads of a sweep or a check (default: one per core; at most 4 per
    /// core).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// No progress output for a sweep.
    #[arg(short = 'q', long, requires = "sweep")]
    quiet: bool,
    #[command(flatten)]
    memory: MemoryArgs,
    /// Run a check against the literature instead: bianchi, aloha, csma or hidden
    /// (the tests' points and seeds; with --csv as CSV).
    #[arg(long, value_name = "NAME")]
    check: Option<String>,
    /// With --check: write the check's chart (NAME.png, NAME.svg) to DIR.
    #[arg(long, value_name = "DIR", requires = "check")]
    plot: Option<PathBuf>,
}

impl RadioArgs {
    /// Any option besides --keys.
    fn runs_something(&self) -> bool {
        self.params.any()
            || !self.set.is_empty()
            || !self.sweep.is_empty()
            || self.json
            || self.csv
            || self.per_station
            || self.output.is_some()
            || self.timing
            || self.threads.is_some()
            || self.db.is_some()
    }
}

pub fn radio_cmd(a: &RadioArgs) -> Result<(), Failure> {
    if let Some(name) = &a.check {
        let others = a.params.any()
            || !a.set.is_empty()
            || !a.sweep.is_empty()
            || a.json
            || a.per_station
            || a.output.is_some()
            || a.keys
            || a.timing
            || a.db.is_some();
        if others {
            return Err(Failure::usage(
                "--check takes only --csv and --plot (its points are fixed)",
            ));
        }
        return crate::radio_check::check_cmd(name, a.csv, a.plot.as_deref(), a.threads);
    }
    if a.keys {
        if a.runs_something() {
            return Err(Failure::usage("--keys takes no other option"));
        }
        return emit(&radio_sim::reference());
    }
    if a.threads.is_some() && a.sweep.is_empty() {
        return Err(Failure::usage(
            "--threads is for a sweep or a check (one run uses one thread)",
        ));
    }
    if a.per_station && !a.sweep.is_empty() {
        return Err(Failure::usage(
            "--per-station is for one run, not a sweep (--json gives every point's stations)",
        ));
    }
    let Configured {
        config,
        mut given,
        file,
    } = configure(a)?;
    let mut outputs = Vec::new();
    if let Some(p) = &a.output {
        outputs.push(Output::file("--output", p));
    }
    if let Some(db) = &a.db {
        outputs.push(Output::file("--db", db));
    }
    plan::check(&outputs).map_err(Failure::usage)?;
    if let Some(p) = &a.output {
        check_file(p).map_err(Failure::usage)?;
    }
    let started = Instant::now();
    let (text, events) = if a.sweep.is_empty() {
        radio_sim::check_effect(&[&config], given.iter().map(String::as_str))
            .map_err(Failure::usage)?;
        config
            .validate()
            .map_err(|e| Failure::usage(file_blame(file.as_ref(), &e)))?;
        a.memory
            .check("run", &radio_sim::estimate_memory(&config), 1)?;
        // The run stops at once when a signal raises the flag.
        let r = radio_sim::run_with(&config, interrupt::flag())
            .map_err(|e| Failure::usage(file_blame(file.as_ref(), &e)))?
            .ok_or_else(|| Failure::interrupted("radio interrupted; nothing was published"))?;
        let text = if a.json {
            let mut j = radio_sim::run_json(&r);
            j.push('\n');
            j
        } else if a.csv {
            radio_sim::run_csv(&r)
        } else {
            radio_sim::run_report(&r, a.per_station)
        };
        (text, r.events)
    } else {
        let axes = a
            .sweep
            .iter()
            .map(|s| Axis::parse_spec(s))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Failure::usage(format!("--sweep {e}")))?;
        let points = radio_sim::points(&config, &axes)
            .map_err(|e| Failure::usage(format!("--sweep {e}")))?;
        given.extend(axes.iter().map(|x| x.key.clone()));
        let configs: Vec<&RadioConfig> = points.iter().map(|p| &p.config).collect();
        radio_sim::check_effect(&configs, given.iter().map(String::as_str))
            .map_err(Failure::usage)?;
        // The sweep checks every point before it runs any; a value the file set and
        // no axis changes is the file's fault.
        let store = a.db.as_deref().map(Store::open).transpose()?;
        let campaign = Campaign {
            store: store.as_ref(),
            shard: a.shard,
        };
        let bar = progress::for_stderr(a.quiet, "radio sweep", "points", "events");
        let run = || radio_sim_host::run_sweep(&points, campaign, interrupt::flag(), bar.as_ref());
        let outcome = on_threads(a.threads, || {
            let threads = rayon::current_num_threads();
            a.memory
                .check("sweep", &radio_sim::estimate_memory_of_points(&points, threads), threads)?;
            Ok(run())
        })?
        .map_err(|e| match e {
            SweepError::Run(e) => {
                let swept = axes.iter().any(|x| x.key == e.key());
                Failure::usage(file_blame(file.as_ref().filter(|_| !swept), &e))
            }
            SweepError::Store(e) => Failure::from(e),
            SweepError::Interrupted { runs_done, runs } => {
                Failure::interrupted(match &a.db {
                    None => "radio sweep interrupted; nothing was published".to_string(),
                    Some(db) => format!(
                        "radio sweep interrupted after {runs_done} of {runs} runs; nothing was published, but {} keeps every finished run: run the same command again to resume",
                        db.display()
                    ),
                })
            }
        })?;
        if let Some(shard) = a.shard {
            if !a.quiet {
                note(&format!(
                    "mac-sim radio: shard {shard}: {} runs ({} already stored), {} events; kept in {}",
                    outcome.runs,
                    outcome.stored,
                    outcome.events,
                    a.db.as_deref().unwrap_or(Path::new("")).display()
                ));
            }
            return Ok(());
        }
        if a.db.is_some() && !a.quiet {
            note(&format!(
                "mac-sim radio: {} points ({} read from the database)",
                outcome.runs, outcome.stored
            ));
        }
        let results = outcome.points;
        let keys: Vec<String> = axes.iter().map(|x| x.key.clone()).collect();
        let text = if a.json {
            let mut j = radio_sim::sweep_json(&keys, &results);
            j.push('\n');
            j
        } else if a.csv {
            radio_sim::sweep_csv(&results)
        } else {
            radio_sim::sweep_report(&keys, &results)
        };
        (text, results.iter().map(|p| p.result.events).sum())
    };
    if a.timing {
        let s = started.elapsed().as_secs_f64();
        note(&format!(
            "mac-sim radio: {events} events in {s:.3} s, {:.0} events/s",
            events as f64 / s.max(1e-9)
        ));
    }
    publish(a.output.as_deref(), &text)
}

/// A scenario file as read: its name, its text and the keys whose value in the
/// configuration is the file's (no flag or `--set` replaced it).
struct FileOrigin {
    name: String,
    text: String,
    keys: Vec<String>,
}

/// The configuration of a run, the keys given (in the file, as flags and by --set)
/// and the file, if any.
struct Configured {
    config: RadioConfig,
    given: Vec<String>,
    file: Option<FileOrigin>,
}

/// The message of a configuration that cannot run: with the file and the line when
/// the key at fault has the file's value, as every other error of a scenario file
/// has (`radio-x.toml:3: min_be: 300 is out of range`).
fn file_blame(file: Option<&FileOrigin>, e: &radio_sim::ConfigError) -> String {
    match file.filter(|f| f.keys.iter().any(|k| k == e.key())) {
        Some(f) => {
            let line = sim_kit::line_of_key(&f.text, "", 0, e.key());
            format!("{}:{line}: {e}", f.name)
        }
        None => e.to_string(),
    }
}

/// The one configuration: defaults, the file, the flags, then --set.
fn configure(a: &RadioArgs) -> Result<Configured, Failure> {
    let mut file = None;
    let mut read = ScenarioFile::default();
    if let Some(path) = &a.params.scenario {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::usage(format!("--scenario: cannot read '{}': {e}", path.display()))
        })?;
        let name = path.display().to_string();
        read = radio_sim::read_scenario(&text, &name).map_err(Failure::usage)?;
        file = Some(FileOrigin {
            name,
            text,
            keys: read.scenario.keys().iter().map(|k| k.to_string()).collect(),
        });
    }
    let mut top = a.params.flags_scenario()?;
    for kv in &a.set {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(Failure::usage(format!(
                "--set '{kv}': expected KEY=VALUE (see --keys)"
            )));
        };
        top.set(k.trim(), v)
            .map_err(|e| Failure::usage(format!("--set {e}")))?;
    }
    let mut given: Vec<String> = read.scenario.keys().iter().map(|k| k.to_string()).collect();
    given.extend(top.keys().iter().map(|k| k.to_string()));
    if let Some(f) = &mut file {
        let later = top.keys();
        f.keys.retain(|k| !later.contains(&k.as_str()));
    }
    Ok(Configured {
        config: read.config(&top),
        given,
        file,
    })
}

/// Print `text`, or write it whole to `path`; in either case through the one gate, so
/// that a signal after the run publishes nothing and prints nothing.
fn publish(path: Option<&Path>, text: &str) -> Result<(), Failure> {
    let mut all = Publication::new();
    if let Some(p) = path {
        let mut f = AtomicFile::create(p)?;
        f.write_all(text.as_bytes())
            .map_err(|e| Failure::environment(OutputError::Write(p.to_path_buf(), e)))?;
        all.file(f);
    }
    all.commit(interrupt::flag())?
        .ok_or_else(|| Failure::interrupted("radio interrupted; nothing was published"))?;
    match path {
        Some(_) => Ok(()),
        None => emit(text),
    }
}
