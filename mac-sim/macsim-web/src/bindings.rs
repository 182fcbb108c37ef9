//! The JavaScript API (`wasm-bindgen`): thin wrappers that turn the crate's
//! results into JSON texts, numbers and byte arrays, and its errors into
//! JavaScript `Error`s carrying the command line's one-line message.

use sim_kit::Time;
use wasm_bindgen::prelude::*;

use crate::session::Session;
use crate::{explorer, params, view};

fn error(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// The schema's fields (JSON array), for the controls.
#[wasm_bindgen]
pub fn fields() -> String {
    params::fields_json()
}

/// Checks control values (a JSON object of texts) and returns the values that are
/// set; throws the command line's message for a bad one.
#[wasm_bindgen]
pub fn check(values: &str) -> Result<String, JsError> {
    params::scenario(values)
        .map(|sc| params::values_json(&sc))
        .map_err(error)
}

/// Reads a scenario file (TOML) into control values (JSON); throws the command
/// line's message for a bad file.
#[wasm_bindgen(js_name = fromToml)]
pub fn from_toml(text: &str) -> Result<String, JsError> {
    params::from_toml(text).map_err(error)
}

/// The scenario file (TOML) for control values; throws for a bad value.
#[wasm_bindgen(js_name = toToml)]
pub fn to_toml(values: &str) -> Result<String, JsError> {
    params::to_toml(values).map_err(error)
}

/// The backoff explorer (JSON, see `explorer::explore`) for the scenario in
/// `values`; throws for bad arguments.
#[wasm_bindgen]
pub fn explore(values: &str, collisions: u32, samples: u32, seed: u64) -> Result<String, JsError> {
    let sc = params::scenario(values).map_err(error)?;
    explorer::explore(&sc, collisions, samples, seed)
        .map(|v| v.to_string())
        .map_err(error)
}

/// A run the page drives.
#[wasm_bindgen]
pub struct Sim {
    session: Session,
}

#[wasm_bindgen]
impl Sim {
    /// A run of the control values (JSON object of texts); throws the command
    /// line's message for a bad value.
    #[wasm_bindgen(constructor)]
    pub fn new(values: &str) -> Result<Sim, JsError> {
        let sc = params::scenario(values).map_err(error)?;
        Ok(Sim {
            session: Session::new(&sc).map_err(error)?,
        })
    }

    /// The run's layout (JSON): positions and times, picoseconds.
    pub fn layout(&self) -> String {
        view::layout(&self.session).to_string()
    }

    /// Simulated time reached, picoseconds.
    pub fn now_ps(&self) -> f64 {
        self.session.now().as_ps_f64()
    }

    /// Whether the run has reached its duration.
    pub fn done(&self) -> bool {
        self.session.done()
    }

    /// Events recorded since the start.
    pub fn recorded(&self) -> f64 {
        self.session.recorder().total_events() as f64
    }

    /// Events the engine has handled.
    pub fn engine_events(&self) -> f64 {
        self.session.engine_events() as f64
    }

    /// Advance to the next instant with an event; returns the events reported.
    pub fn step(&mut self) -> f64 {
        self.session.step() as f64
    }

    /// Advance to the next collision; returns the events reported.
    pub fn step_to_collision(&mut self) -> f64 {
        self.session.step_to_collision() as f64
    }

    /// Advance by `ps` picoseconds of simulated time.
    pub fn advance(&mut self, ps: f64) {
        self.session.advance(Time::from_ps_f64(ps.max(0.0)));
    }

    /// Run to the end.
    pub fn run_to_end(&mut self) {
        self.session.run_to_end();
    }

    /// Events `from..from+max` (JSON array).
    pub fn events(&self, from: f64, max: f64) -> String {
        view::events(&self.session, from.max(0.0) as u64, max.max(0.0) as u64).to_string()
    }

    /// What happened at event `i` and why (JSON: `why`, `clause`); throws when the
    /// event is no longer kept.
    pub fn explain(&self, i: f64) -> Result<String, JsError> {
        view::explanation(&self.session, i.max(0.0) as u64)
            .map(|v| v.to_string())
            .ok_or_else(|| {
                error(format!(
                    "event {i} is no longer kept (the page keeps the newest events)"
                ))
            })
    }

    /// The stations' states now (JSON array).
    pub fn states(&self) -> String {
        view::states(&self.session).to_string()
    }

    /// The signals visible between `from_ps` and `to_ps`, flat (station, start,
    /// end, collision; −1 for none).
    pub fn signals(&self, from_ps: f64, to_ps: f64) -> Vec<f64> {
        view::signals(
            &self.session,
            Time::from_ps_f64(from_ps.max(0.0)),
            Time::from_ps_f64(to_ps.max(0.0)),
        )
    }

    /// The live numbers (JSON).
    pub fn live(&self) -> String {
        view::live(&self.session).to_string()
    }

    /// The result so far as `mac-sim run --json` writes it (JSON).
    pub fn result(&self) -> String {
        self.session.result_json().to_string()
    }

    /// The capture from the start to now, pcapng bytes.
    pub fn pcapng(&self) -> Result<Vec<u8>, JsError> {
        self.session.capture().map_err(error)
    }
}
