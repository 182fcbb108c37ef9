//! The page's run against the command line's: however a [`Session`] is driven (event
//! by event, collision by collision, by odd slices of time or to the end), its
//! results equal `csma_cd::exact::run`'s and its events equal the trace that
//! `mac-sim run --trace` writes; and every cause the recorder gives an event agrees
//! with the geometry of the cable, recomputed here from the trace alone.
//!
//! Runs are a few simulated milliseconds, so that the tests stay fast in debug
//! builds.

use std::collections::BTreeMap;

use csma_cd::config::{BackoffAlgorithm, IfgRule, JamRule, RunConfig, Timing};
use csma_cd::exact::{self, RunResult, positions};
use csma_cd::exact::{EventKind, TraceEvent};
use csma_cd::scenario::Scenario;
use csma_cd::trace::{CSV_HEADER, TraceFormat, TraceWriter};
use macsim_web::{Cause, Recorded, Session, explain};
use sim_kit::time::Time;

/// A scenario from control values, as the page sets them.
fn scenario(kv: &[(&str, &str)]) -> Scenario {
    let mut sc = Scenario::default();
    for (k, v) in kv {
        sc.set(k, v).unwrap_or_else(|e| panic!("{k} = {v}: {e}"));
    }
    sc
}

/// The scenarios every test runs: the parameters a student changes, each run short.
const CASES: &[(&str, &[(&str, &str)])] = &[
    (
        "2 stations, point placement",
        &[
            ("stations", "2"),
            ("placement", "point"),
            ("duration", "5ms"),
        ],
    ),
    ("32 stations, defaults", &[("duration", "4ms")]),
    (
        "Poisson load, frame mix",
        &[
            ("stations", "12"),
            ("load", "0.9"),
            ("frames", "64:7,594:4,1518:1"),
            ("duration", "6ms"),
            ("seed", "7"),
        ],
    ),
    (
        "random placement",
        &[
            ("stations", "10"),
            ("placement", "random"),
            ("duration", "5ms"),
            ("seed", "3"),
        ],
    ),
    (
        "ifg_rule restart",
        &[
            ("stations", "16"),
            ("ifg_rule", "restart"),
            ("duration", "4ms"),
        ],
    ),
    (
        "ifg_rule none",
        &[
            ("stations", "16"),
            ("ifg_rule", "none"),
            ("duration", "4ms"),
        ],
    ),
    (
        "jam_rule immediate",
        &[
            ("stations", "16"),
            ("jam_rule", "immediate"),
            ("duration", "4ms"),
        ],
    ),
    (
        "100BASE-TX",
        &[
            ("medium", "100BASE-TX"),
            ("stations", "16"),
            ("duration", "1ms"),
        ],
    ),
    (
        "1000BASE-T: carrier extension, frame bursts",
        &[
            ("medium", "1000BASE-T"),
            ("stations", "16"),
            ("duration", "1ms"),
        ],
    ),
    (
        "1000BASE-T, Poisson load, frame mix",
        &[
            ("medium", "1000BASE-T"),
            ("stations", "16"),
            ("load", "0.9"),
            ("frames", "64:7,594:4,1518:1"),
            ("duration", "1ms"),
        ],
    ),
    (
        "linear backoff",
        &[
            ("stations", "8"),
            ("backoff", "linear"),
            ("duration", "4ms"),
        ],
    ),
    (
        "warm-up",
        &[("stations", "8"), ("warmup", "1ms"), ("duration", "4ms")],
    ),
    (
        "attempt limit 2",
        &[
            ("stations", "4"),
            ("attempt_limit", "2"),
            ("duration", "4ms"),
        ],
    ),
];

fn config(sc: &Scenario) -> RunConfig {
    sc.to_config().unwrap()
}

/// `RunResult` holds floating-point means that are NaN when nothing was measured;
/// its `Debug` text prints every float in its shortest exact form, so equal texts
/// are equal results, NaN included.
fn assert_same_result(got: &RunResult, want: &RunResult, what: &str) {
    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{what}");
}

/// Events recorded since the run started, oldest first (all kept: the runs here are
/// far below the recorder's cap).
fn recorded(s: &Session) -> Vec<Recorded> {
    let r = s.recorder();
    assert_eq!(r.first_event(), 0, "a short run keeps all its events");
    (0..r.total_events())
        .map(|i| *r.event(i).expect("event kept"))
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Drive {
    Step,
    ToCollision,
    Slices,
    End,
    Mixed,
}

/// Odd slices of simulated time: a picosecond, primes of picoseconds around a bit,
/// a slot and a frame, and nothing at all.
const SLICES: &[u64] = &[1, 99_991, 51_199_999, 0, 1_230_000_017, 7_777_777];

/// Drives `s` to the end of its run in the way `how` says. Checks on the way that
/// each step stops at the instant of the events it reports.
fn drive(s: &mut Session, how: Drive) {
    let mut i = 0usize;
    let mut guard = 0u64;
    while !s.done() {
        guard += 1;
        assert!(guard < 10_000_000, "{how:?} does not reach the end");
        let before = s.recorder().total_events();
        match how {
            Drive::Step => {
                let n = s.step();
                let after = s.recorder().total_events();
                assert_eq!(n, after - before, "step() counts what it reports");
                assert!(n > 0 || s.done(), "a step before the end reports something");
                for j in before..after {
                    let e = s.recorder().event(j).unwrap().event;
                    // Everything a step reports happened at the instant it stops,
                    // except a collision: reported with the end of its jam, it carries
                    // its earlier detection time.
                    if e.kind == EventKind::Collision {
                        assert!(e.time <= s.now(), "{e:?} after now");
                    } else {
                        assert_eq!(e.time, s.now(), "{e:?} reported by a step to {:?}", s.now());
                    }
                }
            }
            Drive::ToCollision => {
                let seen = s.recorder().collisions_seen();
                let n = s.step_to_collision();
                let after = s.recorder().total_events();
                assert_eq!(n, after - before);
                if !s.done() {
                    assert!(s.recorder().collisions_seen() > seen);
                    // It stops at the first instant a collision is reported: every
                    // collision among the new events came with the end of its jam,
                    // now.
                    for j in before..after {
                        let e = s.recorder().event(j).unwrap().event;
                        if e.kind == EventKind::Collision {
                            let end = s.recorder().event(j + 1).unwrap().event;
                            assert_eq!((end.kind, end.time), (EventKind::JamEnd, s.now()));
                        }
                    }
                }
            }
            Drive::Slices => {
                s.advance(Time::from_ps(SLICES[i % SLICES.len()]));
            }
            Drive::End => s.run_to_end(),
            Drive::Mixed => match i % 4 {
                0 => {
                    s.step();
                }
                1 => {
                    s.step_to_collision();
                }
                2 => s.advance(Time::from_ps(SLICES[i % SLICES.len()])),
                _ => {
                    for _ in 0..5 {
                        s.step();
                    }
                }
            },
        }
        i += 1;
    }
    assert_eq!(s.now(), s.config().duration);
}

/// However the page drives a run, its final results are `mac-sim run`'s, and it
/// reports the same events.
#[test]
fn results_equal_mac_sim_run_however_driven() {
    for (name, kv) in CASES {
        let sc = scenario(kv);
        let cfg = config(&sc);
        let want = exact::run(&cfg).unwrap();
        let mut events: Option<Vec<Recorded>> = None;
        for how in [
            Drive::Step,
            Drive::ToCollision,
            Drive::Slices,
            Drive::End,
            Drive::Mixed,
        ] {
            let mut s = Session::new(&sc).unwrap();
            drive(&mut s, how);
            assert_same_result(&s.result(), &want, &format!("{name}, {how:?}"));
            assert_eq!(s.engine_events(), want.events, "{name}, {how:?}");
            let got = recorded(&s);
            match &events {
                None => events = Some(got),
                Some(first) => assert!(*first == got, "{name}: {how:?} records other events"),
            }
        }
        // The run is not trivial: it has collisions and deliveries to show.
        assert!(want.conservation.delivered > 0, "{name}: nothing delivered");
        assert!(want.collided_attempts > 0, "{name}: no collision");
    }
}

/// The capture the page downloads at the end of a run is, byte for byte, the one
/// `mac-sim run --pcap FILE.pcapng` writes (the same writer over the same events),
/// commented collisions included, however the run was driven.
#[test]
fn the_capture_is_mac_sim_runs() {
    use csma_cd::capture::{CaptureFormat, PcapWriter};
    for (name, kv) in CASES {
        let sc = scenario(kv);
        let cfg = config(&sc);
        let w = PcapWriter::new(Vec::new(), CaptureFormat::PcapNg, &cfg).unwrap();
        let want = exact::run_with_observer(&cfg, w)
            .unwrap()
            .1
            .finish()
            .unwrap();
        let collisions = want.windows(5).filter(|w| w == b"with=").count();
        assert!(collisions > 0, "{name}: no collider named");
        for how in [Drive::End, Drive::Slices] {
            let mut s = Session::new(&sc).unwrap();
            drive(&mut s, how);
            assert!(s.capture().unwrap() == want, "{name}, {how:?}");
        }
    }
}

/// The JSON result the page shows equals `mac-sim run --json`'s keys, with the
/// scenario that repeats the run.
#[test]
fn result_json_carries_the_scenario_that_repeats_the_run() {
    let sc = scenario(&[("stations", "6"), ("duration", "3ms"), ("seed", "11")]);
    let mut s = Session::new(&sc).unwrap();
    s.run_to_end();
    let v = s.result_json();
    let want = serde_json::to_value(exact::run(&config(&sc)).unwrap()).unwrap();
    for (k, x) in want.as_object().unwrap() {
        assert_eq!(&v[k], x, "key {k}");
    }
    let again: Scenario = serde_json::from_value(v["scenario"].clone()).unwrap();
    assert_eq!(again.to_config().unwrap(), config(&sc));
}

/// The columns of a trace line: `time_ps`, `station`, `kind`, `collisions`,
/// `backoff_slots`, `frame_bits`, `access_delay_ps`.
type Line = (u64, u32, String, u32, Option<u32>, u32, Option<u64>);

/// One line of a CSV trace, parsed back field by field.
fn parse_csv_line(line: &str) -> Line {
    let f: Vec<&str> = line.split(',').collect();
    assert_eq!(f.len(), 7, "{line}");
    let opt = |s: &str| (!s.is_empty()).then(|| s.parse::<u64>().unwrap());
    (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f[2].to_string(),
        f[3].parse().unwrap(),
        opt(f[4]).map(|x| u32::try_from(x).unwrap()),
        f[5].parse().unwrap(),
        opt(f[6]),
    )
}

fn fields(e: &TraceEvent) -> Line {
    (
        e.time.as_ps(),
        e.station,
        e.kind.name().to_string(),
        e.collisions,
        e.backoff_slots,
        e.frame_bits,
        e.access_delay.map(Time::as_ps),
    )
}

/// The trace `mac-sim run --trace FILE.csv` writes for `cfg`, parsed.
fn trace(cfg: &RunConfig) -> Vec<Line> {
    let w = TraceWriter::new(Vec::new(), TraceFormat::Csv).unwrap();
    let (_, w) = exact::run_with_observer(cfg, w).unwrap();
    let text = String::from_utf8(w.finish().unwrap()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER));
    lines.map(parse_csv_line).collect()
}

/// The events the page lists are the trace `mac-sim run --trace` writes, field for
/// field and in order.
#[test]
fn recorded_events_are_the_trace() {
    for (name, kv) in CASES {
        let sc = scenario(kv);
        let want = trace(&config(&sc));
        let mut s = Session::new(&sc).unwrap();
        drive(&mut s, Drive::Mixed);
        let got: Vec<_> = recorded(&s).iter().map(|r| fields(&r.event)).collect();
        assert_eq!(got.len(), want.len(), "{name}: number of events");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{name}: event {i}");
        }
    }
}

/// The first collision of a 2-station run, stepped to, shows the trace's first
/// events, and nothing beyond the end of that collision's jam.
#[test]
fn stepping_to_the_first_collision_shows_the_traces_first_events() {
    for placement in ["point", "even", "random"] {
        let sc = scenario(&[
            ("stations", "2"),
            ("placement", placement),
            ("duration", "5ms"),
        ]);
        let want = trace(&config(&sc));
        let mut s = Session::new(&sc).unwrap();
        let n = s.step_to_collision();
        let got: Vec<_> = recorded(&s).iter().map(|r| fields(&r.event)).collect();
        assert_eq!(got.len() as u64, n);
        assert_eq!(got[..], want[..got.len()], "{placement}");
        assert!(got.iter().any(|e| e.2 == "collision"));
        // The next event of the trace is later than now: the step stopped at the
        // first instant a collision was reported.
        let next = &want[got.len()];
        assert!(next.0 > s.now().as_ps(), "{placement}: {next:?}");
        let first_collision = want.iter().position(|e| e.2 == "collision").unwrap();
        assert!(got.len() > first_collision);
    }
}

// ---------------------------------------------------------------------------------
// Causes, checked against the geometry of the cable.
// ---------------------------------------------------------------------------------

/// One transmission on the cable, rebuilt from the trace: from its `transmit` to its
/// `jam_end` or `success` (`Time::MAX` if the run ended first).
#[derive(Clone, Copy, Debug)]
struct Tx {
    station: u32,
    start: Time,
    end: Time,
}

/// The cable, as the trace and the placement describe it.
struct Cable {
    pos: Vec<Time>,
    txs: Vec<Tx>,
    /// For each `transmit` event, in order: its transmission, and whether it is the
    /// next frame of a burst.
    transmits: Vec<(usize, bool)>,
}

impl Cable {
    /// Frame bursting (clause 4.2.3.2.7, as `csma_cd::exact` models it): a frame
    /// that starts exactly one gap after the station's previous frame went through,
    /// before `burstLimit` has passed since the burst's first frame began, continues
    /// the burst; the gap between them is filled with extension bits, so the burst
    /// is one transmission on the cable.
    fn new(cfg: &RunConfig, t: &Timing, events: &[Recorded]) -> Self {
        let pos = positions(cfg, t.max_prop);
        let n = pos.len();
        let limit = t.bit * u64::from(cfg.phy.burst_limit_bits);
        let mut open: Vec<Option<usize>> = vec![None; n];
        let mut latest: Vec<Option<usize>> = vec![None; n];
        let mut burst: Vec<Option<Time>> = vec![None; n];
        let mut success: Vec<Option<Time>> = vec![None; n];
        let mut txs: Vec<Tx> = Vec::new();
        let mut transmits = Vec::new();
        for r in events {
            let e = &r.event;
            let k = e.station as usize;
            match e.kind {
                EventKind::Transmit => {
                    let next = !limit.is_zero()
                        && success[k].is_some_and(|s| s + t.ifg == e.time)
                        && burst[k].is_some_and(|b| e.time < b + limit);
                    if next {
                        let i = latest[k].unwrap();
                        txs[i].end = Time::MAX;
                        open[k] = Some(i);
                        transmits.push((i, true));
                    } else {
                        burst[k] = (!limit.is_zero()).then_some(e.time);
                        open[k] = Some(txs.len());
                        latest[k] = Some(txs.len());
                        transmits.push((txs.len(), false));
                        txs.push(Tx {
                            station: e.station,
                            start: e.time,
                            end: Time::MAX,
                        });
                    }
                }
                EventKind::JamEnd | EventKind::Success => {
                    let i = open[k].take().expect("an end without a transmission");
                    txs[i].end = e.time;
                    if e.kind == EventKind::Success {
                        success[k] = Some(e.time);
                    } else {
                        burst[k] = None;
                    }
                }
                _ => {}
            }
        }
        Self {
            pos,
            txs,
            transmits,
        }
    }

    fn delay(&self, a: u32, b: u32) -> Time {
        let (x, y) = (self.pos[a as usize], self.pos[b as usize]);
        if x > y { x - y } else { y - x }
    }

    /// Every transmission as station `k` sees it: `(front, tail, station)`.
    fn at(&self, k: u32) -> Vec<(Time, Time, u32)> {
        self.txs
            .iter()
            .map(|x| {
                let d = self.delay(x.station, k);
                let tail = if x.end == Time::MAX {
                    Time::MAX
                } else {
                    x.end + d
                };
                (x.start + d, tail, x.station)
            })
            .collect()
    }
}

/// Carrier is present at an instant when a signal's front arrived strictly before it
/// and its tail has not passed (the model's carrier sense).
fn on(front: Time, tail: Time, t: Time) -> bool {
    front < t && tail > t
}

/// Counts of each cause seen, by name.
type Counts = BTreeMap<&'static str, u64>;

fn cause_name(c: &Cause) -> &'static str {
    match c {
        Cause::Idle => "Idle",
        Cause::AfterGap { .. } => "AfterGap",
        Cause::InPartTwo { .. } => "InPartTwo",
        Cause::Blind { .. } => "Blind",
        Cause::Burst { .. } => "Burst",
        Cause::UnderCarrier { .. } => "UnderCarrier",
        Cause::Defer { .. } => "Defer",
        Cause::Collision { .. } => "Collision",
        Cause::JamEnd { .. } => "JamEnd",
        Cause::Success => "Success",
        Cause::Drop => "Drop",
    }
}

/// The window the backoff draws from after `c` collisions, from the algorithm's
/// definition (IEEE 802.3 clause 4.2.3.2.5 for BEB).
fn window(cfg: &RunConfig, c: u32) -> u64 {
    let cap = 1u64 << cfg.backoff_limit.min(63);
    match cfg.backoff {
        BackoffAlgorithm::Beb => 1u64 << c.min(cfg.backoff_limit),
        BackoffAlgorithm::Polynomial { degree } => (u64::from(c).pow(degree) + 1).min(cap),
        BackoffAlgorithm::Fixed { window } => u64::from(window),
    }
}

/// Checks the cause of every event of a finished run against the cable rebuilt from
/// the trace and the model's rules (clause 4.2.3.2 as `csma_cd::exact::deference`
/// implements it), and the explanation's clause; returns how often each cause
/// occurred.
fn check_causes(s: &Session, name: &str) -> Counts {
    let cfg = s.config();
    let t = cfg.validate().unwrap();
    let events = recorded(s);
    let cable = Cable::new(cfg, &t, &events);
    let split = cfg.ifg_rule != IfgRule::Restart;
    let jam_floor = match cfg.jam_rule {
        JamRule::Preamble => t.preamble,
        JamRule::Immediate => Time::ZERO,
    };
    let mut counts = Counts::new();
    // Per station: its transmission in progress (and when its frame in progress
    // began), its previous one, and when its latest frame went through.
    let mut current: Vec<Option<Tx>> = vec![None; cable.pos.len()];
    let mut frame_start: Vec<Time> = vec![Time::ZERO; cable.pos.len()];
    let mut previous: Vec<Option<Tx>> = vec![None; cable.pos.len()];
    let mut last_success: Vec<Option<Time>> = vec![None; cable.pos.len()];
    let mut transmits = cable.transmits.iter();
    for (i, r) in events.iter().enumerate() {
        let e = &r.event;
        let (k, now) = (e.station, e.time);
        let ctx = || format!("{name}: event {i} {e:?} cause {:?}", r.cause);
        *counts.entry(cause_name(&r.cause)).or_default() += 1;

        // Every explanation is a sentence with its clause of IEEE 802.3 clause 4.
        let (why, clause) = explain(r, s.rules());
        assert!(why.len() > 20 && why.ends_with('.'), "{}: {why}", ctx());
        assert!(clause.starts_with("4.2"), "{}: clause {clause}", ctx());

        let seen = cable.at(k);
        let foreign = || seen.iter().filter(move |x| x.2 != k);
        // The latest tail to have passed the station by `now` (the last drop of
        // its carrier).
        let last_tail = seen.iter().filter(|x| x.1 <= now).map(|x| x.1).max();
        match e.kind {
            EventKind::Transmit => {
                let &(i, next_of_burst) = transmits.next().unwrap();
                let tx = cable.txs[i];
                frame_start[k as usize] = now;
                current[k as usize] = Some(tx);
                if next_of_burst {
                    assert_eq!(tx.station, k, "{}", ctx());
                    let end = last_success[k as usize].unwrap();
                    assert_eq!(r.cause, Cause::Burst { previous_end: end }, "{}", ctx());
                    continue;
                }
                assert_eq!((tx.station, tx.start), (k, now), "{}", ctx());
                let present: Vec<_> = foreign().filter(|x| on(x.0, x.1, now)).collect();
                // The gap after the station's own transmission (IEEE rules): it
                // starts at the first instant its carrier is off after that
                // transmission, and is timed blind.
                let own_gap = previous[k as usize].filter(|_| split).map(|p| {
                    let mut drop = p.end;
                    loop {
                        let later = seen
                            .iter()
                            .filter(|x| on(x.0, x.1, drop))
                            .map(|x| x.1)
                            .max();
                        match later {
                            Some(tail) => drop = tail,
                            None => break drop,
                        }
                    }
                });
                match r.cause {
                    Cause::Idle => {
                        assert!(present.is_empty(), "{}: carrier {present:?}", ctx());
                        if let Some(l) = last_tail {
                            assert!(l + t.ifg < now, "{}: last drop {l:?}", ctx());
                        }
                        assert_ne!(own_gap.map(|g| g + t.ifg), Some(now), "{}", ctx());
                    }
                    Cause::AfterGap { gap_start } => {
                        assert_eq!(gap_start + t.ifg, now, "{}", ctx());
                        assert!(present.is_empty(), "{}: carrier {present:?}", ctx());
                        assert_eq!(last_tail, Some(gap_start), "{}", ctx());
                    }
                    Cause::InPartTwo {
                        from,
                        arrived,
                        gap_start,
                    } => {
                        assert!(split, "{}", ctx());
                        assert_eq!(gap_start + t.ifg, now, "{}", ctx());
                        // The signal of `from` arrived in part 2, and the carrier it
                        // began is still on (unbroken: a tail and a front at the same
                        // instant do not break it).
                        assert!(
                            foreign().any(|x| x.2 == from && x.0 == arrived),
                            "{}: no such front",
                            ctx()
                        );
                        assert!(arrived >= gap_start + t.ifg_part1, "{}", ctx());
                        assert!(arrived < now, "{}", ctx());
                        assert!(!present.is_empty(), "{}", ctx());
                        for x in seen.iter().filter(|x| x.1 > arrived && x.1 < now) {
                            assert!(
                                seen.iter().any(|y| y.0 <= x.1 && y.1 > x.1),
                                "{}: the carrier dropped at {:?}",
                                ctx(),
                                x.1
                            );
                        }
                        // The carrier dropped at the gap's start and stayed off until
                        // that front arrived.
                        assert!(seen.iter().any(|x| x.1 == gap_start), "{}", ctx());
                        for x in &seen {
                            assert!(!on(x.0, x.1, gap_start), "{}: {x:?}", ctx());
                            assert!(
                                !(x.0 >= gap_start && x.0 < arrived),
                                "{}: front {x:?} in part 1",
                                ctx()
                            );
                        }
                        // Not the blind gap after its own transmission.
                        assert_ne!(own_gap.map(|g| g + t.ifg), Some(now), "{}", ctx());
                    }
                    Cause::Blind {
                        from,
                        arrived,
                        gap_start,
                    } => {
                        assert!(split, "{}", ctx());
                        assert_eq!(own_gap, Some(gap_start), "{}", ctx());
                        assert_eq!(gap_start + t.ifg, now, "{}", ctx());
                        assert!(arrived >= gap_start && arrived < now, "{}", ctx());
                        assert!(
                            foreign().any(|x| x.2 == from && x.0 == arrived),
                            "{}: no such front",
                            ctx()
                        );
                    }
                    Cause::UnderCarrier { .. } => {
                        panic!("{}: no rule explains this transmission", ctx())
                    }
                    _ => panic!("{}: not a transmission's cause", ctx()),
                }
            }
            EventKind::Defer => {
                let Cause::Defer { from } = r.cause else {
                    panic!("{}", ctx())
                };
                let from = from.unwrap_or_else(|| panic!("{}: deferring to nothing", ctx()));
                assert!(
                    foreign().any(|x| x.2 == from && on(x.0, x.1, now)),
                    "{}: no carrier from {from}: {:?}",
                    ctx(),
                    foreign()
                        .filter(|x| x.0 <= now && x.1 >= now)
                        .collect::<Vec<_>>()
                );
            }
            EventKind::Collision => {
                let Cause::Collision { from } = r.cause else {
                    panic!("{}", ctx())
                };
                let tx = current[k as usize].unwrap_or_else(|| panic!("{}", ctx()));
                // Detection: the first foreign signal present at the start or
                // arriving during the transmission.
                let detect = foreign()
                    .filter(|x| x.1 > tx.start)
                    .map(|x| x.0.max(tx.start))
                    .min();
                assert_eq!(detect, Some(now), "{}", ctx());
                let from = from.unwrap_or_else(|| panic!("{}: from nobody", ctx()));
                assert!(
                    foreign().any(|x| x.2 == from && x.0.max(tx.start) == now && x.1 > now),
                    "{}: {from} not detected",
                    ctx()
                );
                // The jam: after the preamble (or at once), jam bits.
                assert_eq!(tx.end, now.max(tx.start + jam_floor) + t.jam, "{}", ctx());
            }
            EventKind::JamEnd => {
                let Cause::JamEnd { window: w } = r.cause else {
                    panic!("{}", ctx())
                };
                assert_eq!(w, window(cfg, e.collisions), "{}", ctx());
                let prev = &events[i - 1].event;
                assert_eq!(
                    (prev.kind, prev.station, prev.collisions),
                    (EventKind::Collision, k, e.collisions),
                    "{}",
                    ctx()
                );
                if e.collisions < cfg.attempt_limit {
                    let r = e.backoff_slots.expect("a draw");
                    assert!(u64::from(r) < w, "{}", ctx());
                } else {
                    assert_eq!(e.backoff_slots, None, "{}", ctx());
                }
                previous[k as usize] = current[k as usize].take();
            }
            EventKind::Success => {
                assert_eq!(r.cause, Cause::Success, "{}", ctx());
                let tx = current[k as usize].unwrap_or_else(|| panic!("{}", ctx()));
                let start = frame_start[k as usize];
                // Preamble and frame, extended to the slot if it is the first of its
                // transmission (carrier extension, clause 4.2.3.4).
                let frame = t.preamble + t.bit * u64::from(e.frame_bits);
                let length = if start == tx.start {
                    frame.max(t.extend_to)
                } else {
                    frame
                };
                assert_eq!(now - start, length, "{}", ctx());
                assert!(
                    !foreign().any(|x| x.1 > tx.start && x.0 < now),
                    "{}: a foreign signal reached it",
                    ctx()
                );
                last_success[k as usize] = Some(now);
                previous[k as usize] = current[k as usize].take();
            }
            EventKind::Drop => {
                assert_eq!(r.cause, Cause::Drop, "{}", ctx());
                let prev = &events[i - 1].event;
                assert_eq!(
                    (prev.kind, prev.station, prev.time, prev.backoff_slots),
                    (EventKind::JamEnd, k, now, None),
                    "{}",
                    ctx()
                );
                assert_eq!(e.collisions, cfg.attempt_limit, "{}", ctx());
            }
        }
    }
    counts
}

/// Every cause agrees with the cable, in every scenario of the other tests.
#[test]
fn causes_agree_with_the_cable() {
    let mut all = Counts::new();
    for (name, kv) in CASES {
        let mut s = Session::new(&scenario(kv)).unwrap();
        s.run_to_end();
        let counts = check_causes(&s, name);
        eprintln!("{name}: {counts:?}");
        for (k, v) in counts {
            *all.entry(k).or_default() += v;
        }
    }
    eprintln!("all: {all:?}");
}

/// Counts the causes of a run, after checking them all against the cable.
fn causes_of(kv: &[(&str, &str)], name: &str) -> (Session, Counts) {
    let mut s = Session::new(&scenario(kv)).unwrap();
    s.run_to_end();
    let counts = check_causes(&s, name);
    (s, counts)
}

fn count(c: &Counts, name: &str) -> u64 {
    c.get(name).copied().unwrap_or(0)
}

/// Under the IEEE 802.3 gap rule every transmission is explained by one of its
/// rules: `UnderCarrier`, the fallback, never occurs (`check_causes` fails on it),
/// on 10BASE5 as on every other medium of the cases above.
#[test]
fn the_8023_gap_rule_explains_every_transmission() {
    let (_, c) = causes_of(
        &[
            ("medium", "10BASE5"),
            ("stations", "16"),
            ("duration", "20ms"),
        ],
        "16 stations, 10BASE5",
    );
    assert_eq!(count(&c, "UnderCarrier"), 0);
    assert!(count(&c, "AfterGap") > 0 && count(&c, "Defer") > 0);
}

/// With the jam at once (`jam_rule immediate`) a collided signal can be shorter
/// than the gap: fragments arrive at a station and pass inside the gap after its
/// own transmission, which is timed blind all the same. (The recorder used to
/// look only at the carrier just before the transmission, missed the station's
/// own gap behind the fragments and called these transmissions `UnderCarrier`:
/// at 7.86 ms and 11.76 ms of this run.)
#[test]
fn a_blind_gap_stays_blind_across_fragments() {
    let kv = [
        ("stations", "32"),
        ("jam_rule", "immediate"),
        ("duration", "12ms"),
    ];
    let (s, c) = causes_of(&kv, "jam_rule immediate, 12 ms");
    assert_eq!(count(&c, "UnderCarrier"), 0);
    let cfg = s.config();
    let t = cfg.validate().unwrap();
    let events = recorded(&s);
    let cable = Cable::new(cfg, &t, &events);
    // Blind transmissions with a whole fragment inside their gap.
    let across = events
        .iter()
        .filter(|r| match r.cause {
            Cause::Blind { gap_start, .. } => cable
                .at(r.event.station)
                .iter()
                .any(|x| x.2 != r.event.station && x.0 >= gap_start && x.1 < r.event.time),
            _ => false,
        })
        .count();
    assert!(across >= 2, "{across} blind gaps across a fragment");
}

/// The rarer causes, each where the cable makes it happen: carrier arriving in
/// part 2 of the gap (an overload of short frames from stations scattered along
/// the bus), frames dropped after the attempt limit, bursts at 1000 Mb/s.
/// The runs are seeded, so the counts are fixed; the tests ask for one of each so
/// that a change to the model that stops exercising a rule shows here.
#[test]
fn every_cause_occurs_and_agrees_with_the_cable() {
    let mut all = Counts::new();
    for (name, kv) in [
        (
            "overload of 64-byte frames",
            &[
                ("stations", "64"),
                ("load", "2"),
                ("frames", "64"),
                ("duration", "10ms"),
                ("seed", "1"),
            ][..],
        ),
        (
            "attempt limit 2",
            &[
                ("stations", "4"),
                ("attempt_limit", "2"),
                ("duration", "4ms"),
            ][..],
        ),
        (
            "1000BASE-T",
            &[
                ("medium", "1000BASE-T"),
                ("stations", "16"),
                ("duration", "1ms"),
            ][..],
        ),
    ] {
        let (_, c) = causes_of(kv, name);
        for (k, v) in c {
            *all.entry(k).or_default() += v;
        }
    }
    for cause in [
        "Idle",
        "AfterGap",
        "InPartTwo",
        "Blind",
        "Burst",
        "Defer",
        "Collision",
        "JamEnd",
        "Success",
        "Drop",
    ] {
        assert!(count(&all, cause) > 0, "{cause} never occurs: {all:?}");
    }
    assert_eq!(count(&all, "UnderCarrier"), 0);
}

/// The sentences quote the rule that applied, with its numbers.
#[test]
fn explanations_quote_the_rule() {
    let find = |s: &Session, kind: EventKind| -> Recorded {
        recorded(s)
            .into_iter()
            .find(|r| {
                r.event.kind == kind
                    && r.event.backoff_slots.is_some() == (kind == EventKind::JamEnd)
            })
            .unwrap()
    };
    // BEB: the window 2^min(c, 10) and the draw.
    let mut s = Session::new(&scenario(&[("stations", "4"), ("duration", "2ms")])).unwrap();
    s.run_to_end();
    let r = find(&s, EventKind::JamEnd);
    let (why, clause) = explain(&r, s.rules());
    assert_eq!(clause, "4.2.3.2.5");
    let c = r.event.collisions;
    assert!(
        why.contains("Truncated binary exponential backoff")
            && why.contains(&format!("[0, {})", 1 << c.min(10)))
            && why.contains(&format!("k = min({c}, 10)"))
            && why.contains(&format!("r = {}", r.event.backoff_slots.unwrap())),
        "{why}"
    );
    // Another algorithm is named as such.
    let mut s = Session::new(&scenario(&[
        ("stations", "4"),
        ("backoff", "linear"),
        ("duration", "2ms"),
    ]))
    .unwrap();
    s.run_to_end();
    let (why, _) = explain(&find(&s, EventKind::JamEnd), s.rules());
    assert!(why.contains("The linear backoff draws"), "{why}");
    // The gap's two parts, in bit times.
    let r = recorded(&s)
        .into_iter()
        .find(|r| matches!(r.cause, Cause::AfterGap { .. }))
        .unwrap();
    let (why, clause) = explain(&r, s.rules());
    assert_eq!(clause, "4.2.3.2.1");
    assert!(why.contains("96 bit times (64 part 1, 32 part 2)"), "{why}");
    // A burst follows clause 4.2.3.2.7.
    let mut s = Session::new(&scenario(&[
        ("medium", "1000BASE-T"),
        ("stations", "4"),
        ("duration", "200us"),
    ]))
    .unwrap();
    s.run_to_end();
    let r = recorded(&s)
        .into_iter()
        .find(|r| matches!(r.cause, Cause::Burst { .. }))
        .unwrap();
    let (why, clause) = explain(&r, s.rules());
    assert_eq!(clause, "4.2.3.2.7");
    assert!(why.starts_with("Frame bursting"), "{why}");
}
