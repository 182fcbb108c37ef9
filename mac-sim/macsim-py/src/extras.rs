//! The slotted Metcalfe & Boggs model, the theory beside it, and backoff-core's BEB
//! rule as Python functions.

use backoff_core::{BebConfig, Decision};
use csma_cd::{SlottedConfig, run_slotted};
use pyo3::prelude::*;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use crate::scenario::value_error;

fn beb(backoff_limit: u8, attempt_limit: u32) -> PyResult<BebConfig> {
    BebConfig::new(backoff_limit, attempt_limit).map_err(value_error)
}

/// Runs the slotted model (`mac-sim slotted`): Q saturated stations, each sending in
/// a contention slot with probability `probability` (1/Q by default), frames of
/// `frame_bytes` bytes, slots of `slot_bits` bit times, until `successes` frames;
/// returns the result as `mac-sim slotted --json` writes it (text).
#[pyfunction]
#[pyo3(signature = (stations = 32, frame_bytes = 1518, slot_bits = 512, successes = 1_000_000, probability = None, seed = 1))]
pub fn slotted(
    py: Python<'_>,
    stations: u32,
    frame_bytes: u32,
    slot_bits: u32,
    successes: u64,
    probability: Option<f64>,
    seed: u64,
) -> PyResult<String> {
    let mut cfg = SlottedConfig::checked(stations, frame_bytes, slot_bits, successes, seed)
        .map_err(value_error)?;
    cfg.probability = probability;
    let r = py.detach(|| run_slotted(&cfg)).map_err(value_error)?;
    serde_json::to_string(&r).map_err(value_error)
}

/// Metcalfe & Boggs efficiency `P/(P + W·C)` of `stations` saturated stations, frames
/// of `frame_bits` and slots of `slot_bits` bit times.
#[pyfunction]
#[pyo3(signature = (stations, frame_bits = 12144.0, slot_bits = 512.0))]
pub fn mb_efficiency(stations: u64, frame_bits: f64, slot_bits: f64) -> f64 {
    csma_cd::mb_efficiency(stations, frame_bits, slot_bits)
}

/// `E(c)`, slots: the mean BEB backoff after the c-th collision.
#[pyfunction]
#[pyo3(signature = (collisions, backoff_limit = 10, attempt_limit = 16))]
pub fn beb_expected_backoff(
    collisions: u32,
    backoff_limit: u8,
    attempt_limit: u32,
) -> PyResult<f64> {
    Ok(csma_cd::beb_expected_backoff(
        &beb(backoff_limit, attempt_limit)?,
        collisions,
    ))
}

/// The window, in slots, BEB draws from after `collisions` collisions.
#[pyfunction]
#[pyo3(signature = (collisions, backoff_limit = 10, attempt_limit = 16))]
pub fn beb_window(collisions: u32, backoff_limit: u8, attempt_limit: u32) -> PyResult<u64> {
    Ok(beb(backoff_limit, attempt_limit)?.window(collisions))
}

/// backoff-core's decision after `collisions` collisions of a frame, each drawn from
/// a xorshift generator seeded with `rng_seed` (`XorShiftRng::seed_from_u64`), one
/// per element of `collisions`: the slots to wait, or `None` to discard the frame.
#[pyfunction]
#[pyo3(signature = (collisions, rng_seed, backoff_limit = 10, attempt_limit = 16))]
pub fn beb_decide(
    collisions: Vec<u32>,
    rng_seed: u64,
    backoff_limit: u8,
    attempt_limit: u32,
) -> PyResult<Vec<Option<u32>>> {
    let b = beb(backoff_limit, attempt_limit)?;
    let mut rng = XorShiftRng::seed_from_u64(rng_seed);
    Ok(collisions
        .iter()
        .map(|&c| match b.decide(c, &mut rng) {
            Decision::Retry { slots } => Some(slots),
            Decision::Discard => None,
        })
        .collect())
}
