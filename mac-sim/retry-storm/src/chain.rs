//! The layers of a call chain as the model keeps them: each caller's strategy,
//! timeout and guards, and the load each one sends down.
//!
//! Layer 0 is the clients (their strategy, timeouts and guards are the run's); layer
//! `k ≥ 1` is the `k`-th service of [`StormConfig::chain`], one instance with one set
//! of guards. The last layer's attempts go to the server.

use serde::{Deserialize, Serialize};

use crate::config::StormConfig;
use crate::error::StormError;
use crate::strategy::{Guards, Strategy};
use sim_kit::time::Time;

/// One caller in the chain.
pub struct Layer {
    /// Its retry strategy.
    pub strategy: Strategy,
    /// Its per-attempt timeout (unused for layer 0, whose requests draw theirs).
    pub timeout: Time,
    /// Its guards (layers ≥ 1; the clients' are the population's).
    pub guards: Option<Guards>,
    /// Whether it answers "overloaded, do not retry" for every call it fails (layers
    /// ≥ 1, [`ChainLayer::overloaded`](crate::config::ChainLayer::overloaded)).
    pub overloaded: bool,
    /// Attempts it sent.
    pub attempts: u64,
    /// Attempts it sent while a trigger was active.
    pub attempts_during: u64,
    /// Answers it received after its caller had stopped waiting (work done for
    /// nobody at this layer; layer 0 counts the server's in `Counts::wasted`).
    pub wasted: u64,
}

/// Every layer of a run, the clients first.
///
/// # Errors
///
/// The [`StormError`] of [`Guards::new`] for a service's strategy.
pub fn layers(cfg: &StormConfig) -> Result<Vec<Layer>, StormError> {
    let mut v = vec![Layer {
        strategy: cfg.strategy.clone(),
        timeout: Time::ZERO,
        guards: None,
        overloaded: false,
        attempts: 0,
        attempts_during: 0,
        wasted: 0,
    }];
    for l in &cfg.chain {
        let g = Guards::new(&l.strategy)?;
        v.push(Layer {
            strategy: l.strategy.clone(),
            timeout: l.timeout_ps,
            guards: (!g.is_empty()).then_some(g),
            overloaded: l.overloaded,
            attempts: 0,
            attempts_during: 0,
            wasted: 0,
        });
    }
    Ok(v)
}

/// The load one layer sent down, in a run's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerLoad {
    /// Who calls: `clients` or the service's name.
    pub caller: String,
    /// Who is called: the next service's name, or `server`.
    pub callee: String,
    /// Attempts over the whole run.
    pub attempts: u64,
    /// Attempts while a trigger was active.
    pub attempts_during: u64,
    /// `attempts_during` per logical request issued while a trigger was active: the
    /// load this layer multiplies (27 at the bottom of three layers of three attempts
    /// through an outage).
    pub per_request_during: f64,
    /// Answers this caller received after it had stopped waiting.
    pub wasted: u64,
}

/// The per-layer loads of a run with a chain (empty without one).
pub fn loads(cfg: &StormConfig, layers: &[Layer], offered_during: u64) -> Vec<LayerLoad> {
    if cfg.chain.is_empty() {
        return Vec::new();
    }
    let name = |k: usize| match k {
        0 => "clients".to_string(),
        k => cfg.chain[k - 1].name.clone(),
    };
    layers
        .iter()
        .enumerate()
        .map(|(k, l)| LayerLoad {
            caller: name(k),
            callee: if k + 1 < layers.len() {
                name(k + 1)
            } else {
                "server".to_string()
            },
            attempts: l.attempts,
            attempts_during: l.attempts_during,
            per_request_during: if offered_during > 0 {
                l.attempts_during as f64 / offered_during as f64
            } else {
                f64::NAN
            },
            wasted: l.wasted,
        })
        .collect()
}
