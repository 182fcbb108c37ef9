//! One run of the exact model that the page drives: step by step, to the next
//! collision, by a slice of simulated time, or to the end.
//!
//! However it is driven, the run handles exactly the events that
//! `csma_cd::exact::run` handles, in the same order (the engine runs to successive
//! instants, see `csma_cd::exact::run_to`), so the final results equal
//! `mac-sim run`'s for the same scenario and seed.
//!
//! ```
//! use csma_cd::Scenario;
//! use macsim_web::Session;
//! let mut sc = Scenario::default();
//! sc.set("stations", "4").unwrap();
//! sc.set("duration", "20ms").unwrap();
//! let mut s = Session::new(&sc).unwrap();
//! s.step_to_collision();
//! assert!(s.recorder().collisions_seen() >= 1);
//! s.run_to_end();
//! let cfg = sc.to_config().unwrap();
//! assert_eq!(s.result(), csma_cd::exact::run(&cfg).unwrap());
//! ```

use csma_cd::Backoff;
use csma_cd::{CaptureFormat, PcapWriter};
use csma_cd::{CsmaCd, RunResult, positions, run_to};
use csma_cd::{FieldError, Scenario};
use csma_cd::{IfgRule, RunConfig, Timing, Traffic};
use sim_kit::Engine;
use sim_kit::Time;

use crate::explain::Rules;
use crate::recorder::{Layout, Recorder};

/// The longest IEEE 802.3 frame, address to FCS, bits.
const MAX_FRAME_BITS: u64 = 1518 * 8;

/// A run in progress.
pub struct Session {
    cfg: RunConfig,
    timing: Timing,
    engine: Engine<CsmaCd<Recorder>>,
    rules: Rules,
}

impl Session {
    /// A run of `scenario` at time 0.
    ///
    /// # Errors
    ///
    /// The [`FieldError`] of [`Scenario::to_config`], naming the parameter at fault,
    /// with the command line's message.
    pub fn new(scenario: &Scenario) -> Result<Self, FieldError> {
        let cfg = scenario.to_config()?;
        let config_error = |error| FieldError {
            key: String::new(),
            error,
        };
        let timing = cfg.validate().map_err(config_error)?;
        let beb = cfg.beb().map_err(config_error)?;
        let backoff = Backoff::new(cfg.backoff, beb);
        let longest = timing.preamble
            + timing.bit * (MAX_FRAME_BITS + u64::from(cfg.phy.burst_limit_bits))
            + timing.jam
            + timing.slot;
        let layout = Layout {
            positions: positions(&cfg, timing.max_prop),
            ifg: timing.ifg,
            blind_own_gap: cfg.ifg_rule != IfgRule::Restart,
            ifg_part1: timing.ifg_part1,
            slot: timing.slot,
            horizon: longest * 2 + timing.max_prop * 2 + timing.ifg,
            duration: cfg.duration,
            burst_limit: timing.bit * u64::from(cfg.phy.burst_limit_bits),
            saturated: cfg.traffic == Traffic::Saturated,
        };
        let (model, queue) =
            CsmaCd::with_observer(&cfg, Recorder::new(layout, backoff)).map_err(config_error)?;
        let rules = Rules {
            bit: timing.bit,
            slot: timing.slot,
            ifg: timing.ifg,
            ifg_part1: timing.ifg_part1,
            attempt_limit: cfg.attempt_limit,
            backoff: cfg.backoff.label(),
            beb: cfg.backoff == csma_cd::BackoffAlgorithm::Beb,
            backoff_limit: cfg.backoff_limit,
        };
        Ok(Self {
            engine: Engine::with_queue(model, queue),
            cfg,
            timing,
            rules,
        })
    }

    /// The configuration that runs.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// Its timing.
    pub fn timing(&self) -> &Timing {
        &self.timing
    }

    /// The rules the event explanations quote.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The recorder: events, signals, station states.
    pub fn recorder(&self) -> &Recorder {
        self.engine.model().observer()
    }

    /// Simulated time reached.
    pub fn now(&self) -> Time {
        self.engine.now()
    }

    /// Whether the run has reached its duration.
    pub fn done(&self) -> bool {
        self.engine.now() >= self.cfg.duration
    }

    /// Events the engine has handled.
    pub fn engine_events(&self) -> u64 {
        self.engine.events()
    }

    fn run_to(&mut self, t: Time) {
        run_to(&mut self.engine, t.min(self.cfg.duration));
    }

    /// Advance to the next instant at which the model reports at least one event
    /// (a station transmits, defers, collides, ends its jam, delivers or drops);
    /// returns the number of events reported (0 at the end of the run).
    pub fn step(&mut self) -> u64 {
        self.step_until(|r, before| r.total_events() > before)
    }

    /// Advance until the next collision is reported; returns the events reported
    /// meanwhile (the collision's included).
    pub fn step_to_collision(&mut self) -> u64 {
        let seen = self.recorder().collisions_seen();
        self.step_until(move |r, _| r.collisions_seen() > seen)
    }

    fn step_until(&mut self, stop: impl Fn(&Recorder, u64) -> bool) -> u64 {
        let before = self.recorder().total_events();
        while !self.done() {
            match self.engine.queue().peek_time() {
                Some(t) if t <= self.cfg.duration => self.run_to(t),
                _ => self.run_to(self.cfg.duration),
            }
            if stop(self.recorder(), before) {
                break;
            }
        }
        self.recorder().total_events() - before
    }

    /// Advance simulated time by `dt` (not past the duration).
    pub fn advance(&mut self, dt: Time) {
        self.run_to(self.now().saturating_add(dt));
    }

    /// Run to the end.
    pub fn run_to_end(&mut self) {
        self.run_to(self.cfg.duration);
    }

    /// The time measured so far: what has passed of the run after its warm-up.
    fn measured(&self) -> Time {
        if self.done() {
            self.cfg.measured()
        } else {
            self.now().saturating_sub(self.cfg.warmup)
        }
    }

    /// The results so far (at the end: exactly those of `mac-sim run`).
    pub fn result(&self) -> RunResult {
        let e = &self.engine;
        e.model()
            .result(self.measured(), e.events(), e.stale_events())
    }

    /// The results as `mac-sim run --json` writes them: the result's keys and the
    /// scenario that repeats the run.
    pub fn result_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self.result()).unwrap_or_default();
        if let serde_json::Value::Object(m) = &mut v {
            let sc = Scenario::from_config(&self.cfg);
            m.insert(
                "scenario".into(),
                serde_json::to_value(sc).unwrap_or_default(),
            );
        }
        v
    }

    /// What a monitor on the bus captured from the start to now, as a pcapng file
    /// (the same packets `mac-sim run --pcap FILE.pcapng` writes for a whole run):
    /// the same run is repeated to this instant with a capture writer attached.
    ///
    /// # Errors
    ///
    /// The capture writer's message (it cannot fail on a valid configuration).
    pub fn capture(&self) -> Result<Vec<u8>, String> {
        let w = PcapWriter::new(Vec::new(), CaptureFormat::PcapNg, &self.cfg)
            .map_err(|e| e.to_string())?;
        let (model, queue) = CsmaCd::with_observer(&self.cfg, w).map_err(|e| e.to_string())?;
        let mut engine = Engine::with_queue(model, queue);
        run_to(&mut engine, self.now());
        engine
            .into_model()
            .into_observer()
            .finish()
            .map_err(|e| e.to_string())
    }
}
