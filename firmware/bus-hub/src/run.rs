//! The lock-step run: start the nodes, give each its set-up, then tick them all on
//! one [`Line`] until every frame is resolved, skipping ticks in which nothing can
//! happen.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use lockstep::{MAX_FRAMES, NodeSetup, Report, Tick, Wake};

use crate::error::{HubError, HubErrorKind};
use crate::line::{Line, WireEvent};
use crate::node::Node;

/// One station: its address, seed, and the destination of each frame it sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSpec {
    /// Station address.
    pub address: u8,
    /// Backoff RNG seed.
    pub seed: u64,
    /// Destinations of its frames, in order.
    pub destinations: Vec<u8>,
}

/// Faults the hub injects on the line, for the cases a healthy bus never shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Bytes from a transmitter outside the emulation: `(tick, byte)`, in tick
    /// order. A byte that lands just before a station's own start reaches that
    /// station before its echo is due (an early byte); a stream of them with gaps
    /// shorter than the interframe gap keeps the line busy.
    pub intruder: Vec<(u32, u8)>,
    /// `(node index, tick)`: from that tick on, the node's receiver hears nothing
    /// (a transceiver fault), so its own bytes never come back.
    pub deaf: Vec<(usize, u32)>,
}

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The stations.
    pub nodes: Vec<NodeSpec>,
    /// The MAC's deferral limit in byte times (0: its default).
    pub defer_limit: u16,
    /// Injected faults.
    pub faults: Faults,
}

impl Scenario {
    /// `n` stations (addresses 1..=n) sending `frames` frames each, every other
    /// frame a broadcast and the rest unicast to the other stations in turn; station
    /// `i`'s seed is derived from `seed` and `i`.
    ///
    /// # Errors
    ///
    /// [`HubErrorKind::Usage`] for fewer than 2 or more than 31 stations, or more
    /// than [`MAX_FRAMES`] frames.
    pub fn mixed(n: usize, frames: usize, seed: u64) -> Result<Self, HubError> {
        Self::build(n, frames, seed, |i, k| {
            if k % 2 == 1 {
                0xFF
            } else {
                let offset = 1 + (k / 2) % (n - 1);
                ((i + offset) % n + 1) as u8
            }
        })
    }

    /// `n` stations each broadcasting `frames` frames.
    ///
    /// # Errors
    ///
    /// As [`mixed`](Self::mixed).
    pub fn broadcast(n: usize, frames: usize, seed: u64) -> Result<Self, HubError> {
        Self::build(n, frames, seed, |_, _| 0xFF)
    }

    fn build(
        n: usize,
        frames: usize,
        seed: u64,
        dst: impl Fn(usize, usize) -> u8,
    ) -> Result<Self, HubError> {
        if !(2..=31).contains(&n) || frames > MAX_FRAMES {
            return Err(HubError::new(
                HubErrorKind::Usage,
                format!("2..=31 nodes and at most {MAX_FRAMES} frames each (got {n} and {frames})"),
            ));
        }
        let nodes = (0..n)
            .map(|i| NodeSpec {
                address: i as u8 + 1,
                seed: seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
                destinations: (0..frames).map(|k| dst(i, k)).collect(),
            })
            .collect();
        Ok(Self {
            nodes,
            defer_limit: 0,
            faults: Faults::default(),
        })
    }
}

/// Where QEMU and the firmware are, and the hard time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The emulator (`qemu-system-arm`).
    pub qemu: String,
    /// The `bus-node` firmware.
    pub elf: PathBuf,
    /// The whole run, start to exit, must end within this.
    pub time_limit: Duration,
}

/// What a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutput {
    /// The wire, event by event.
    pub events: Vec<WireEvent>,
    /// The wire transcript as text.
    pub transcript: String,
    /// Each node's raw defmt log (semihosting output).
    pub raw_logs: Vec<Vec<u8>>,
    /// Whether each node exited with success.
    pub exited_ok: Vec<bool>,
    /// The last tick.
    pub last_tick: u32,
    /// Ticks the nodes were actually stepped through (the rest were skipped).
    pub ticks_stepped: u64,
    /// Wall time of the run, QEMU start-up included.
    pub wall: Duration,
    /// Wall time of the lock-step part alone (first tick to the last report).
    pub stepping: Duration,
}

fn timeout(limit: Duration, tick: u32) -> HubError {
    HubError::new(
        HubErrorKind::Timeout,
        format!(
            "the emulated bus did not finish within its hard limit of {} s (stopped at tick {tick})",
            limit.as_secs_f64()
        ),
    )
}

/// Run `scenario` to the end.
///
/// # Errors
///
/// [`HubErrorKind::Usage`] for fewer than 2 or more than 31 nodes or more than
/// [`MAX_FRAMES`] frames on one, [`HubErrorKind::Timeout`] past the time limit,
/// [`HubErrorKind::NodeFailed`] if a node breaks the protocol or every node waits for
/// ever with frames unresolved, and the start-up errors of [`Node::start`].
pub fn run(scenario: &Scenario, opts: &Options) -> Result<RunOutput, HubError> {
    let started = Instant::now();
    let deadline = started + opts.time_limit;
    let n = scenario.nodes.len();
    if !(2..=31).contains(&n)
        || scenario
            .nodes
            .iter()
            .any(|s| s.destinations.len() > MAX_FRAMES)
    {
        return Err(HubError::new(
            HubErrorKind::Usage,
            format!("2..=31 nodes of at most {MAX_FRAMES} frames each"),
        ));
    }
    let mut nodes = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(
            Node::start(i, &opts.qemu, &opts.elf, deadline)
                .map_err(|e| relabel(e, opts.time_limit, 0))?,
        );
    }
    for (node, spec) in nodes.iter_mut().zip(&scenario.nodes) {
        let mut destinations = [0u8; MAX_FRAMES];
        destinations[..spec.destinations.len()].copy_from_slice(&spec.destinations);
        let setup = NodeSetup {
            address: spec.address,
            seed: spec.seed,
            defer_limit: scenario.defer_limit,
            frames: spec.destinations.len() as u8,
            destinations,
        };
        node.send_ctl(&setup.encode())?;
    }

    let mut line = Line::new();
    let mut intruder = scenario.faults.intruder.iter().copied().peekable();
    let deaf_from = |i: usize| {
        scenario
            .faults
            .deaf
            .iter()
            .filter(|(d, _)| *d == i)
            .map(|&(_, t)| t)
            .min()
    };
    let deaf: Vec<Option<u32>> = (0..n).map(deaf_from).collect();
    let mut previous = vec![u32::MAX; n];
    let mut reports = vec![
        Report {
            wrote: false,
            done: false,
            wake: Wake::Next,
        };
        n
    ];
    let mut tick: u32 = 0;
    let mut stepped: u64 = 0;
    let stepping_started = Instant::now();
    loop {
        if Instant::now() >= deadline {
            return Err(timeout(opts.time_limit, tick));
        }
        stepped += 1;
        let delivered = line.deliver(tick);
        let mut buf = [0u8; 5];
        for (i, node) in nodes.iter_mut().enumerate() {
            let hears = deaf[i].is_none_or(|from| tick < from);
            let bus_byte = match delivered {
                Some(c) if hears => {
                    node.send_bus(c.value)?;
                    true
                }
                _ => false,
            };
            let msg = Tick {
                tick,
                bus_byte,
                stop: false,
            };
            let len = msg.encode(previous[i], &mut buf);
            previous[i] = tick;
            node.send_ctl(&buf[..len])?;
        }
        while let Some(&(t, byte)) = intruder.peek() {
            if t > tick {
                break;
            }
            line.write(tick, None, byte);
            intruder.next();
        }
        for (i, node) in nodes.iter_mut().enumerate() {
            let mut flags = [0u8];
            node.read_ctl(&mut flags, deadline)
                .map_err(|e| relabel(e, opts.time_limit, tick))?;
            let mut extra = [0u8; 4];
            let len = Report::extra_len(flags[0]);
            node.read_ctl(&mut extra[..len], deadline)
                .map_err(|e| relabel(e, opts.time_limit, tick))?;
            let report = Report::decode(flags[0], extra);
            if report.wrote {
                let byte = node
                    .read_bus(deadline)
                    .map_err(|e| relabel(e, opts.time_limit, tick))?;
                line.write(tick, Some(i), byte);
            }
            reports[i] = report;
        }
        let next_intruder = intruder.peek().map(|&(t, _)| t);
        let all_done = reports.iter().all(|r| r.done && r.wake == Wake::Idle);
        if all_done && line.busy_until().is_none() && next_intruder.is_none() {
            break;
        }
        let next = reports
            .iter()
            .filter_map(|r| match r.wake {
                Wake::Next => Some(tick + 1),
                Wake::At(t) => Some(t.max(tick + 1)),
                Wake::Idle => None,
            })
            .chain(line.busy_until())
            .chain(next_intruder.map(|t| t.max(tick + 1)))
            .min();
        match next {
            Some(t) => tick = t,
            None => {
                return Err(HubError::new(
                    HubErrorKind::NodeFailed,
                    format!("tick {tick}: every node waits for ever with frames unresolved"),
                ));
            }
        }
    }
    let stepping = stepping_started.elapsed();
    let stop_tick = tick + 1;
    for (i, node) in nodes.iter_mut().enumerate() {
        let mut buf = [0u8; 5];
        let msg = Tick {
            tick: stop_tick,
            bus_byte: false,
            stop: true,
        };
        let len = msg.encode(previous[i], &mut buf);
        node.send_ctl(&buf[..len])?;
    }
    let mut raw_logs = Vec::with_capacity(n);
    let mut exited_ok = Vec::with_capacity(n);
    for node in nodes {
        let (ok, raw) = node
            .finish(deadline)
            .map_err(|e| relabel(e, opts.time_limit, tick))?;
        exited_ok.push(ok);
        raw_logs.push(raw);
    }
    Ok(RunOutput {
        transcript: line.transcript(),
        events: line.events().to_vec(),
        raw_logs,
        exited_ok,
        last_tick: tick,
        ticks_stepped: stepped,
        wall: started.elapsed(),
        stepping,
    })
}

/// A per-read timeout is the run's time limit: say so.
fn relabel(e: HubError, limit: Duration, tick: u32) -> HubError {
    if e.kind() == HubErrorKind::Timeout {
        HubError::new(
            HubErrorKind::Timeout,
            format!("{} ({e})", timeout(limit, tick)),
        )
    } else {
        e
    }
}
