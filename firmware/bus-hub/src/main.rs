//! `bus-hub`: run N emulated MCUs on one modelled serial line and check the result.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bus_hub::{HubError, HubErrorKind, Options, Scenario, run_and_check, summary, write_outputs};

const USAGE: &str =
    "usage: bus-hub --elf BUS_NODE_ELF [--nodes N] [--frames F] [--seed S] [--broadcast]
               [--out DIR] [--time-limit SECS] [--qemu QEMU] [--defmt-print DEFMT_PRINT]

Starts N QEMU instances of the bus-node firmware (addresses 1..=N), runs them in lock
step on one modelled open-drain line until every frame is delivered or dropped, checks
every frame's fate and every node's counters against the wire, and writes
DIR/transcript.txt and DIR/node<i>.log. Defaults: 3 nodes, 4 frames each (every other
one broadcast, or all with --broadcast), seed 1, 120 s, qemu-system-arm, defmt-print.";

fn main() -> ExitCode {
    match try_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bus-hub: {e}");
            if e.kind() == HubErrorKind::Usage {
                eprintln!("{USAGE}");
            }
            ExitCode::FAILURE
        }
    }
}

fn try_main() -> Result<(), HubError> {
    let mut elf = None;
    let mut nodes = 3usize;
    let mut frames = 4usize;
    let mut seed = 1u64;
    let mut broadcast = false;
    let mut out = None;
    let mut limit = 120u64;
    let mut qemu = "qemu-system-arm".to_string();
    let mut defmt_print = "defmt-print".to_string();
    let mut args = std::env::args().skip(1);
    let usage = |m: String| HubError::new(HubErrorKind::Usage, m);
    while let Some(a) = args.next() {
        if a == "--help" || a == "-h" {
            println!("{USAGE}");
            return Ok(());
        }
        if a == "--broadcast" {
            broadcast = true;
            continue;
        }
        let v = args
            .next()
            .ok_or_else(|| usage(format!("{a} needs a value")))?;
        let num = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| usage(format!("{a}: not a number: {v}")))
        };
        match a.as_str() {
            "--elf" => elf = Some(PathBuf::from(v)),
            "--nodes" => nodes = num(&v)? as usize,
            "--frames" => frames = num(&v)? as usize,
            "--seed" => seed = num(&v)?,
            "--out" => out = Some(PathBuf::from(v)),
            "--time-limit" => limit = num(&v)?,
            "--qemu" => qemu = v,
            "--defmt-print" => defmt_print = v,
            _ => return Err(usage(format!("unknown option {a}"))),
        }
    }
    let elf = elf.ok_or_else(|| usage("--elf is required".into()))?;
    let scenario = if broadcast {
        Scenario::broadcast(nodes, frames, seed)?
    } else {
        Scenario::mixed(nodes, frames, seed)?
    };
    let opts = Options {
        qemu,
        elf,
        time_limit: Duration::from_secs(limit),
    };
    let outcome = run_and_check(&scenario, &opts, &defmt_print)?;
    if let Some(dir) = &out {
        write_outputs(&outcome, dir)?;
    }
    let o = &outcome.output;
    println!(
        "{} nodes: last tick {}, {} ticks stepped ({} skipped); wall {:.2} s, of which lock step {:.2} s: {:.0} ticks/s stepped, {:.0} ticks/s of line time ({:.1}x slower than real time at 115 200 baud)",
        nodes,
        o.last_tick,
        o.ticks_stepped,
        u64::from(o.last_tick) + 1 - o.ticks_stepped,
        o.wall.as_secs_f64(),
        o.stepping.as_secs_f64(),
        o.ticks_stepped as f64 / o.stepping.as_secs_f64(),
        f64::from(o.last_tick) / o.stepping.as_secs_f64(),
        o.stepping.as_secs_f64() / (f64::from(o.last_tick) * f64::from(lockstep::TICK_NS) * 1e-9)
    );
    match &outcome.checked {
        Ok(report) => {
            print!("{}", summary(report));
            Ok(())
        }
        Err(problems) => Err(HubError::new(
            HubErrorKind::NodeFailed,
            format!(
                "the run broke {} checks:\n{}",
                problems.len(),
                problems.join("\n")
            ),
        )),
    }
}
