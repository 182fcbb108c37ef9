//! Several emulated MCUs, each running the same `bus-node` firmware under QEMU,
//! contend on one modelled open-drain line in lock step.
//!
//! * 3 and 5 nodes, 4 frames each (every other one broadcast): every frame is
//!   delivered exactly once to each addressee or ends as a typed drop, and each
//!   node's counters, collisions, jams and backoffs agree with the wire (see
//!   `bus_hub::check`). Each runs twice, and the two transcripts and all logs must
//!   be identical, byte for byte.
//! * 3 nodes broadcasting 10 frames each: every node receives all 20 frames of the
//!   others while it is busy sending its own (the MAC receives while it sends).
//! * Faults through the emulated line: an early byte (a foreign byte already on
//!   the line when a station starts, read back before its echo was due), a line kept
//!   busy past the deferral limit, and a station whose receiver goes deaf.
//!
//! Needs `BUS_NODE_ELF` (the firmware) and `DEFMT_PRINT`; `QEMU` overrides the
//! emulator. `firmware/run-tests.sh` builds and sets everything. Every run has a
//! hard time limit of 60 s and says so when it hits it. Transcripts and decoded logs
//! are kept in `target/tmp/multi_mcu/<run>/`.
//!
//! The figures (collision rate, attempts per frame, beside the host shared-bus
//! simulation of the same MAC; ticks per second; wall time) are printed with
//! `-- --nocapture`.

use std::path::PathBuf;
use std::time::Duration;

use bus_hub::{
    BusReport, Faults, Options, Outcome, Scenario, run_and_check, summary, write_outputs,
};
use serial_mac::sim::{ContentionParams, contend};

const TIME_LIMIT: Duration = Duration::from_secs(60);

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!(
            "{name} is not set: run firmware/run-tests.sh, which builds the firmware and sets it"
        )
    })
}

fn options() -> Options {
    Options {
        qemu: std::env::var("QEMU").unwrap_or_else(|_| "qemu-system-arm".into()),
        elf: PathBuf::from(env("BUS_NODE_ELF")),
        time_limit: TIME_LIMIT,
    }
}

/// Run, and keep the transcript and logs in `target/tmp/multi_mcu/<name>/`.
fn run(name: &str, scenario: &Scenario) -> Outcome {
    let outcome =
        run_and_check(scenario, &options(), &env("DEFMT_PRINT")).unwrap_or_else(|e| panic!("{e}"));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("multi_mcu")
        .join(name);
    write_outputs(&outcome, &dir).unwrap_or_else(|e| panic!("{e}"));
    outcome
}

fn checked(outcome: &Outcome) -> BusReport {
    match &outcome.checked {
        Ok(r) => r.clone(),
        Err(problems) => panic!(
            "{} checks failed:\n{}\n\ntranscript:\n{}",
            problems.len(),
            problems.join("\n"),
            outcome.output.transcript
        ),
    }
}

/// The host shared-bus simulation of the same MAC, same N, frames and payload,
/// over several seeds: (collision rate, attempts per frame).
fn host_sim(n: usize, frames: usize) -> (f64, f64) {
    let (mut attempts, mut collisions, mut offered) = (0u32, 0u32, 0u32);
    for seed in 1..=20 {
        let r = contend(&ContentionParams {
            stations: n,
            frames_per_station: frames,
            payload_len: lockstep::payload(0, 0).len(),
            seed,
            ..ContentionParams::default()
        })
        .expect("valid parameters");
        assert!(r.completed);
        attempts += r.attempts;
        collisions += r.collisions;
        offered += r.offered;
    }
    (
        f64::from(collisions) / f64::from(attempts),
        f64::from(attempts) / f64::from(offered),
    )
}

fn twice_alike(n: usize, frames: usize, seed: u64) {
    let scenario = Scenario::mixed(n, frames, seed).unwrap();
    let first = run(&format!("{n}-nodes-run1"), &scenario);
    let report = checked(&first);
    let second = run(&format!("{n}-nodes-run2"), &scenario);
    assert_eq!(
        first.output.transcript, second.output.transcript,
        "{n} nodes: two runs with the same seeds gave different transcripts"
    );
    assert_eq!(
        first.logs, second.logs,
        "{n} nodes: two runs with the same seeds gave different logs"
    );
    assert_eq!(report.frames, (n * frames) as u32);
    assert_eq!(
        report.delivered + report.dropped.values().sum::<u32>(),
        report.frames
    );
    let o = &first.output;
    let (sim_rate, sim_apf) = host_sim(n, frames);
    println!(
        "{n} nodes x {frames} frames: wall {:.2} s + {:.2} s (lock step {:.2} s), {} ticks ({} stepped): {:.0} ticks/s stepped, {:.0} ticks/s of line time",
        o.wall.as_secs_f64(),
        second.output.wall.as_secs_f64(),
        o.stepping.as_secs_f64(),
        o.last_tick,
        o.ticks_stepped,
        o.ticks_stepped as f64 / o.stepping.as_secs_f64(),
        f64::from(o.last_tick) / o.stepping.as_secs_f64()
    );
    print!("{}", summary(&report));
    println!(
        "host shared-bus simulation, same MAC, N = {n}, {frames} frames of the same length, 20 seeds: collision rate {sim_rate:.3} per attempt, attempts per frame {sim_apf:.3}"
    );
}

#[test]
fn three_mcus_share_one_line_and_two_runs_are_identical() {
    twice_alike(3, 4, 1);
}

#[test]
fn five_mcus_share_one_line_and_two_runs_are_identical() {
    twice_alike(5, 4, 1);
}

#[test]
fn every_node_receives_all_twenty_frames_while_it_sends_its_ten() {
    let outcome = run(
        "3-nodes-10-broadcasts",
        &Scenario::broadcast(3, 10, 7).unwrap(),
    );
    let report = checked(&outcome);
    assert_eq!(report.delivered, 30);
    for (i, log) in outcome.logs.iter().enumerate() {
        let received = log.iter().filter(|l| l.contains(" rx frame ")).count();
        assert_eq!(received, 20, "node{i} received {received} of 20");
        let counters = log.iter().find(|l| l.contains(" counters ")).unwrap();
        assert!(
            counters.contains("rx_queue_overflows: 0"),
            "node{i}: {counters}"
        );
    }
    println!(
        "3 nodes x 10 broadcast frames: every node received 20 of 20; {}",
        summary(&report).replace('\n', "; ")
    );
}

#[test]
fn early_byte_line_busy_and_no_echo_through_the_emulated_line() {
    // Both nodes first transmit at tick 12 (after an interframe gap of 3 byte times
    // from power-up). A foreign byte from tick 10 is on the line when they start: it
    // comes back at tick 14, 2 ticks after their start delimiters, before their echo
    // was due. From tick 600 the foreign transmitter babbles (one byte every two
    // byte times: never an interframe gap of silence) for 400 byte times, past the
    // deferral limit of 100 (400 ticks): the frames queued meanwhile are dropped.
    // Node 1's receiver goes deaf at tick 2400, after the babble: its frames from
    // then on never read back.
    let mut intruder = vec![(10, 0x55)];
    intruder.extend((0..200).map(|k| (600 + 8 * k, 0xA5)));
    let mut scenario = Scenario::broadcast(2, 8, 3).unwrap();
    scenario.defer_limit = 100;
    scenario.faults = Faults {
        intruder,
        deaf: vec![(1, 2400)],
    };
    let outcome = run("faults", &scenario);
    let report = checked(&outcome);
    let log = |i: usize| outcome.logs[i].join("\n");
    for i in 0..2 {
        assert!(
            log(i).contains("t=14 tx collision frame=0 attempt=1 byte=0"),
            "node{i}: the early byte is a collision on byte 0:\n{}",
            log(i)
        );
    }
    assert!(
        report.dropped.get("LineBusy").copied().unwrap_or(0) >= 1,
        "a frame dropped as LineBusy: {report:?}"
    );
    assert!(
        log(1).contains("reason=NoEcho"),
        "node1 drops as NoEcho once deaf:\n{}",
        log(1)
    );
    assert!(outcome.output.transcript.contains("write intruder a5"));
    print!("faults: {}", summary(&report));
}

#[test]
fn a_run_past_its_hard_time_limit_stops_with_a_clear_message() {
    let opts = Options {
        time_limit: Duration::from_millis(1),
        ..options()
    };
    let e = run_and_check(
        &Scenario::mixed(3, 4, 1).unwrap(),
        &opts,
        &env("DEFMT_PRINT"),
    )
    .expect_err("1 ms is too short");
    assert_eq!(e.kind(), bus_hub::HubErrorKind::Timeout, "{e}");
    assert!(
        e.to_string()
            .contains("did not finish within its hard limit of 0.001 s"),
        "{e}"
    );
}
