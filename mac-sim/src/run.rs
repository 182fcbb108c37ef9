//! `mac-sim run` (and `mac-sim` with no subcommand): its options, one run of the exact
//! model with its progress and, with `--plot`, its charts, and how the result is
//! printed; the work is in `csma_cd` and `csma_cd_host`.

use std::path::Path;

use clap::Args;
use csma_cd::RunConfig;
use csma_cd::{CaptureError, CaptureFormat, PcapWriter};
use csma_cd::{CaptureTimeline, DEFAULT_WINDOWS};
use csma_cd::{PerStation, StationResult};
use csma_cd::{TraceFormat, TraceWriter};
use csma_cd_host::CHART_STEMS as STEMS;
use sim_host::OutputSet;
use sim_host::Publication;
use sim_host::progress;
use sim_host::save_chart as save;
use sim_host::{AtomicFile, OutputError};
use sim_host::{Output, plan};
use sim_kit::UnknownFormat;
use sim_kit::json;

use crate::emit;
use crate::failure::Failure;
use crate::interrupt;
use crate::memory::MemoryArgs;
use crate::scenario_flags::RunFlags;

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    #[command(flatten)]
    params: RunFlags,
    /// Print JSON instead of the report.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV (header + one row) instead of the report.
    #[arg(long)]
    csv: bool,
    /// No progress bar (it is shown only when standard error is a terminal).
    #[arg(short = 'q', long)]
    quiet: bool,
    /// Also draw the run's charts (attempts histogram, per-station throughput, backoff
    /// versus E(c), capture timeline) as PNG and SVG into this directory.
    #[arg(long, value_name = "DIR")]
    plot: Option<std::path::PathBuf>,
    /// Write every step of every station (transmit, defer, collision, jam end,
    /// success, drop) to this file: CSV (.csv) or JSON lines (.jsonl).
    #[arg(long, value_name = "FILE")]
    trace: Option<std::path::PathBuf>,
    /// Also report each station (numbered 0..N-1 along the bus): throughput,
    /// delivered, dropped, collided attempts, access delay mean and p99. Adds a table to
    /// the report, a "stations" array to --json, one CSV line per station to --csv.
    #[arg(long)]
    per_station: bool,
    /// Write what a monitor on the bus would capture (delivered frames, collision
    /// fragments) to this file: pcapng (.pcapng) or pcap with nanosecond timestamps
    /// (.pcap), for Wireshark or tshark. In pcapng each station has its own interface
    /// (interface k is "station k") and each fragment a comment such as "collision:
    /// from=3; attempt=2; bytes=4; with=1; with=7;" (Wireshark filter: frame.comment
    /// contains "from=3;"); classic pcap has room for neither.
    #[arg(long, value_name = "FILE")]
    pcap: Option<std::path::PathBuf>,
    #[command(flatten)]
    memory: MemoryArgs,
}

/// `mac-sim run`: the run, then its result as a report, `--json` or `--csv`.
pub fn run_cmd(args: &RunArgs) -> Result<(), Failure> {
    let cfg = args.params.config()?;
    let observed = csma_cd::Observed {
        per_station: args.per_station,
        timeline_windows: args.plot.is_some().then_some(DEFAULT_WINDOWS),
    };
    args.memory
        .check("run", &csma_cd::estimate_memory(&cfg, observed), 1)?;
    let (r, stations) = run_observed(
        &cfg,
        args.plot.as_deref(),
        args.trace.as_deref(),
        args.per_station,
        args.pcap.as_deref(),
        args.quiet,
    )?;
    if args.json {
        return emit(&json::to_string(&with_scenario(
            &r,
            &cfg,
            stations.as_deref(),
        )));
    }
    if let Some(rows) = &stations {
        return emit(&if args.csv {
            csma_cd::per_station_rows(&r, rows)
        } else {
            csma_cd::run_report(&r) + &csma_cd::per_station_report(rows)
        });
    }
    emit(&if args.csv {
        csma_cd::run_csv(&r)
    } else {
        csma_cd::run_report(&r)
    })
}

/// One run of the exact model, `cfg` already validated, with its progress on a
/// terminal (unless `quiet`), and
/// with `plot`, its four charts (the capture timeline among them).
///
/// With `per_station`, the results of each station (numbered `0..N` along the bus)
/// are returned too; more than [`csma_cd::MAX_STATIONS`] stations are refused
/// before the run (exit 2).
///
/// With `trace`, every step of the model is streamed to that file (see
/// [`csma_cd::trace`]), and with `pcap`, the bus as a monitor would capture it (see
/// [`csma_cd::capture`]).
///
/// Every output path is checked before the run, together (no folder in the way of a
/// chart, no two outputs that clash: exit 2). The trace, the capture and the charts
/// are one output set: they appear together after the run, or none of them does,
/// whenever a signal comes (even after the run: then the result is not printed
/// either, and the exit status is the signal's).
fn run_observed(
    cfg: &RunConfig,
    plot: Option<&Path>,
    trace: Option<&Path>,
    per_station: bool,
    pcap: Option<&Path>,
    quiet: bool,
) -> Result<(csma_cd::RunResult, Option<Vec<StationResult>>), Failure> {
    let charts = csma_cd_host::run_chart_names();
    let outputs: Vec<Output> = [
        trace.map(|p| Output::file("--trace", p)),
        pcap.map(|p| Output::file("--pcap", p)),
        plot.map(|p| Output::folder("--plot", p, &charts)),
    ]
    .into_iter()
    .flatten()
    .collect();
    plan::check(&outputs).map_err(Failure::usage)?;
    let per_station = per_station
        .then(|| PerStation::new(cfg.stations))
        .transpose()
        .map_err(Failure::usage)?;
    let timeline = plot.map(|_| CaptureTimeline::new(cfg, DEFAULT_WINDOWS));
    let (trace_path, pcap_path) = (trace, pcap);
    let trace = trace.map(open_trace).transpose()?;
    let pcap = pcap.map(|p| open_pcap(p, cfg)).transpose()?;
    let progress = progress::for_stderr(quiet, "run", "64ths of the simulated time", "events");
    let interrupted = || Failure::interrupted("run interrupted; nothing was written");
    let observers = (per_station, (timeline, (trace, pcap)));
    let (r, bits, (per_station, (timeline, (trace, pcap)))) = match observers {
        // Nothing to observe: the model without its hook.
        (None, (None, (None, None))) => {
            csma_cd_host::run_observed(cfg, interrupt::flag(), progress.as_ref())?
                .map(|(r, bits)| (r, bits, observers))
        }
        o => csma_cd_host::run_traced(cfg, interrupt::flag(), progress.as_ref(), o)?,
    }
    .ok_or_else(interrupted)?;
    drop(progress);
    let mut all = Publication::new();
    // A write that failed (the disk full) names the file as the user gave it.
    if let (Some(t), Some(path)) = (trace, trace_path) {
        all.file(t.finish().map_err(|e| write_failed(path, e))?);
    }
    if let (Some(p), Some(path)) = (pcap, pcap_path) {
        all.file(p.finish().map_err(|e| write_failed(path, e))?);
    }
    let stations = per_station.map(|p| p.results(&bits, cfg.measured()));
    let mut chart_files = 0;
    if let Some(dir) = plot {
        let set = OutputSet::begin(dir)?;
        let d = set.dir();
        let drawn = (|| {
            let mut n = save(&csma_cd_host::attempts_histogram(&r), d, STEMS[0])?.len();
            n += save(
                &csma_cd_host::per_station_throughput(&r, &bits),
                d,
                STEMS[1],
            )?
            .len();
            n += save(&csma_cd_host::backoff_vs_expected(&r), d, STEMS[2])?.len();
            if let Some(t) = &timeline {
                let chart = csma_cd_host::capture_timeline_chart(&r, t);
                n += save(&chart, d, STEMS[3])?.len();
            }
            Ok(n)
        })();
        // An error names the chart in the --plot folder, not in the staging one.
        chart_files += drawn.map_err(|e| set.shown(e))?;
        all.set(set);
    }
    // One gate for everything, also when the only output is the printed result.
    all.commit(interrupt::flag())?.ok_or_else(|| {
        Failure::interrupted("run interrupted after it ended; nothing was published")
    })?;
    if let Some(dir) = plot {
        crate::note(&format!(
            "mac-sim: wrote {chart_files} chart files to {}",
            dir.display()
        ));
    }
    Ok((r, stations))
}

/// A run's JSON result with its configuration as a `"scenario"` key (the schema of
/// scenario files), so that `run --scenario RESULT.json` re-runs it.
#[derive(serde::Serialize)]
struct WithScenario<'a> {
    /// The result, its keys in their usual order.
    #[serde(flatten)]
    pub result: &'a csma_cd::RunResult,
    /// The configuration that produced it.
    pub scenario: csma_cd::Scenario,
    /// Each station's results (`--per-station`), numbered `0..N` along the bus.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stations: Option<&'a [StationResult]>,
}

/// [`WithScenario`] of a run, its configuration and its per-station results, if any.
fn with_scenario<'a>(
    r: &'a csma_cd::RunResult,
    cfg: &RunConfig,
    stations: Option<&'a [StationResult]>,
) -> WithScenario<'a> {
    WithScenario {
        result: r,
        scenario: csma_cd::Scenario::from_config(cfg),
        stations,
    }
}

/// The format of `path` by `format_of` and a temporary file beside it; a bad
/// extension or a path that cannot be written is a usage error (exit 2), found
/// before the run.
fn open<F>(
    path: &Path,
    format_of: fn(&Path) -> Result<F, UnknownFormat>,
) -> Result<(F, AtomicFile), Failure> {
    let format = format_of(path).map_err(Failure::usage)?;
    Ok((format, AtomicFile::create(path).map_err(Failure::usage)?))
}

/// The trace writer for `path`, checked by [`open`].
fn open_trace(path: &Path) -> Result<TraceWriter<AtomicFile>, Failure> {
    let (format, file) = open(path, TraceFormat::from_path)?;
    TraceWriter::new(file, format).map_err(|e| write_failed(path, e))
}

/// The capture writer for `path`, checked by [`open`].
fn open_pcap(path: &Path, cfg: &RunConfig) -> Result<PcapWriter<AtomicFile>, Failure> {
    let (format, file) = open(path, CaptureFormat::from_path)?;
    PcapWriter::new(file, format, cfg).map_err(|e| match e {
        CaptureError::Io(e) => write_failed(path, e),
        e => e.into(),
    })
}

/// A file the user named (`--trace`, `--pcap`) that could not be written while the
/// work went on (the disk full): exit status 1, naming the path as given.
fn write_failed(path: &Path, e: std::io::Error) -> Failure {
    Failure::environment(OutputError::Write(path.to_path_buf(), e))
}
