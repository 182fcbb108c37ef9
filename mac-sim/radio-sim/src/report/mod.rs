//! Reports of radio runs as strings: the text report ([`text`]), CSV with one row per
//! run or sweep point ([`csv`]), and JSON of the whole result ([`json`]).

pub mod csv;
pub mod text;

use serde::Serialize;

use crate::metrics::RadioResult;
use crate::sweep::PointResult;

/// The whole result as JSON (every figure, the configuration and the per-station
/// rows), one line.
pub fn json(r: &RadioResult) -> String {
    sim_kit::output::json::to_string(r)
}

/// A sweep as JSON: the axes' keys, then every point with its values and result.
pub fn sweep_json(keys: &[String], points: &[PointResult]) -> String {
    #[derive(Serialize)]
    struct Sweep<'a> {
        keys: &'a [String],
        points: &'a [PointResult],
    }
    sim_kit::output::json::to_string(&Sweep { keys, points })
}
