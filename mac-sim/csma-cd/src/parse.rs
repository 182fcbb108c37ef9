//! Parsers for the command-line forms of the parameters, with units.
//!
//! ```
//! use csma_cd::parse;
//! use sim_kit::time::Time;
//! assert_eq!(parse::duration("10s").unwrap(), Time::from_secs(10));
//! assert_eq!(parse::duration("1.5ms").unwrap(), Time::from_us(1_500));
//! assert_eq!(parse::bit_rate("100M").unwrap(), 100_000_000);
//! assert!(parse::load("NaN").is_err());
//! ```

use crate::config::{FrameSizes, Traffic};
use crate::error::ConfigError;
use sim_kit::range;
use sim_kit::time::Time;

/// A simulated duration with a unit (`s`, `ms`, `us`, `ns`), e.g. `10s`, `2.5ms`, to
/// whole picoseconds ([`Time::parse`]).
///
/// # Errors
///
/// [`ConfigError::Duration`] for zero, negative, unit-less and absurd (> 10⁶ s)
/// values.
pub fn duration(s: &str) -> Result<Time, ConfigError> {
    Time::parse(s).map_err(|_| ConfigError::Duration(s.to_string()))
}

/// A bit rate in bits per second, with an optional `k`, `M` or `G` suffix.
///
/// # Errors
///
/// [`ConfigError::BitRate`] if the text is not a number, or the rate is outside
/// 1 b/s..=1 Tb/s.
pub fn bit_rate(s: &str) -> Result<u64, ConfigError> {
    let err = || ConfigError::BitRate(s.to_string());
    let t = s.trim();
    let (num, mult) = match t.chars().last() {
        Some('k') | Some('K') => (&t[..t.len() - 1], 1e3),
        Some('M') => (&t[..t.len() - 1], 1e6),
        Some('G') => (&t[..t.len() - 1], 1e9),
        _ => (t, 1.0),
    };
    let v: f64 = num.parse().map_err(|_| err())?;
    let r = (v * mult).round();
    if !(r.is_finite() && (1.0..=1e12).contains(&r)) {
        return Err(err());
    }
    Ok(r as u64)
}

/// An offered load: a positive finite fraction of the bit rate.
///
/// # Errors
///
/// [`ConfigError::Load`] unless the value is a number above 0 and at most
/// [`MAX_LOAD`](crate::config::MAX_LOAD).
pub fn load(s: &str) -> Result<f64, ConfigError> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| ConfigError::Load(s.to_string()))?;
    if v.is_finite() && v > 0.0 && v <= crate::config::MAX_LOAD {
        Ok(v)
    } else {
        Err(ConfigError::Load(s.to_string()))
    }
}

/// Frame sizes: `BYTES` (fixed), `MIN-MAX` (uniform) or `BYTES:WEIGHT,...` (mix),
/// each size within 64..=1518 bytes.
///
/// ```
/// use csma_cd::{parse, config::FrameSizes};
/// assert_eq!(parse::frame_sizes("1518").unwrap(), FrameSizes::Fixed(1518));
/// assert_eq!(parse::frame_sizes("64-1518").unwrap(), FrameSizes::Uniform { min: 64, max: 1518 });
/// assert_eq!(parse::frame_sizes("64:7,594:4,1518:1").unwrap(),
///            FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]));
/// assert!(parse::frame_sizes("63").is_err());
/// ```
///
/// # Errors
///
/// [`ConfigError::FrameSpec`] for text of none of the three forms or a zero weight,
/// [`ConfigError::FrameSize`] for a size outside 64..=1518 bytes.
pub fn frame_sizes(s: &str) -> Result<FrameSizes, ConfigError> {
    let spec = || ConfigError::FrameSpec(s.to_string());
    let t = s.trim();
    let bytes = |x: &str| -> Result<u32, ConfigError> {
        let x = x.trim();
        let b: u64 = x.parse().map_err(|_| spec())?;
        let b = u32::try_from(b).unwrap_or(u32::MAX);
        if (64..=1518).contains(&b) {
            Ok(b)
        } else {
            Err(ConfigError::FrameSize(b))
        }
    };
    if t.contains(':') || t.contains(',') {
        let mut mix = Vec::new();
        for part in t.split(',') {
            let (b, w) = part.split_once(':').ok_or_else(spec)?;
            let w: u32 = w.trim().parse().map_err(|_| spec())?;
            if w == 0 {
                return Err(spec());
            }
            mix.push((bytes(b)?, w));
        }
        Ok(FrameSizes::Mix(mix))
    } else if let Some((a, b)) = t.split_once('-') {
        let (min, max) = (bytes(a)?, bytes(b)?);
        if min > max {
            return Err(spec());
        }
        Ok(FrameSizes::Uniform { min, max })
    } else {
        Ok(FrameSizes::Fixed(bytes(t)?))
    }
}

/// A sweep's list of offered loads: numbers and ranges (fractions of the bit rate, above 0) and the
/// word `saturated` (every station always has a frame).
///
/// # Errors
///
/// [`ConfigError::List`] for a list that does not parse or a load that is not
/// allowed.
pub(crate) fn load_list(s: &str) -> Result<Vec<Traffic>, ConfigError> {
    let mut out = Vec::new();
    let mut numeric = Vec::new();
    for item in s.split(',') {
        if item.trim() == "saturated" {
            if out.contains(&Traffic::Saturated) {
                return Err(ConfigError::List("saturated is given twice".into()));
            }
            out.push(Traffic::Saturated);
        } else {
            numeric.push(item);
        }
    }
    if !numeric.is_empty() || out.is_empty() {
        let v = range::values(&numeric.join(",")).map_err(|e| ConfigError::List(e.to_string()))?;
        for g in v {
            let load = load(&g.to_string()).map_err(|_| {
                ConfigError::List(format!(
                    "{g} must be above 0 and at most 100 (a fraction of the bit rate)"
                ))
            })?;
            out.push(Traffic::Poisson { load });
        }
    }
    // Loads in ascending order, saturated last: the order of the x axis.
    out.sort_by(|a, b| load_key(a).total_cmp(&load_key(b)));
    Ok(out)
}

fn load_key(t: &Traffic) -> f64 {
    match t {
        Traffic::Saturated => f64::INFINITY,
        Traffic::Poisson { load } => *load,
    }
}

/// A sweep's list of frame sizes, each a point of the sweep: bytes and ranges of bytes (each
/// 64..=1518), `MIN-MAX` items for a uniform mix, and weighted mixes.
///
/// A weighted mix is written as `mac-sim run --frame-bytes` takes it,
/// `BYTES:WEIGHT,...` (e.g. `64:7,594:4,1518:1`), when it is the whole list; beside
/// other items of the list its parts are joined by `+` instead (e.g.
/// `64,1518,64:7+594:4+1518:1`), the form the results files label it with. A mix is
/// checked as `run` checks it ([`frame_sizes`]).
///
/// # Errors
///
/// [`ConfigError::List`] for a list that does not parse, a size outside 64..=1518
/// bytes, a bad mix, or a list that mixes plain sizes with `BYTES:WEIGHT` items.
pub(crate) fn frame_list(s: &str) -> Result<Vec<FrameSizes>, ConfigError> {
    let items: Vec<&str> = s.split(',').map(str::trim).collect();
    let weighted = |t: &str| t.contains(':') && !t.contains("..") && !t.contains('+');
    let mix = |t: &str| frame_sizes(t).map_err(|e| ConfigError::List(e.to_string()));
    // The whole list is one mix, in `run`'s syntax.
    if items.iter().all(|t| weighted(t)) {
        return Ok(vec![mix(s)?]);
    }
    if let Some(t) = items.iter().find(|t| weighted(t)) {
        return Err(ConfigError::List(format!(
            "'{t}' is a part of a weighted mix beside plain sizes: join a mix's parts with + (e.g. 64,64:7+594:4+1518:1)"
        )));
    }
    let mut out = Vec::new();
    let mut plain = Vec::new();
    for t in items {
        if t.contains('+') {
            out.push(mix(&t.replace('+', ","))?);
        } else if t.contains('-') && !t.contains("..") {
            out.push(mix(t)?);
        } else {
            plain.push(t);
        }
    }
    if !plain.is_empty() || out.is_empty() {
        for b in range::values(&plain.join(",")).map_err(|e| ConfigError::List(e.to_string()))? {
            if b.fract() != 0.0 || !(64.0..=1518.0).contains(&b) {
                return Err(ConfigError::List(format!(
                    "{b} bytes is not a whole IEEE 802.3 frame size (64..=1518)"
                )));
            }
            out.push(FrameSizes::Fixed(b as u32));
        }
    }
    for (i, f) in out.iter().enumerate() {
        if out[..i].contains(f) {
            return Err(ConfigError::List(format!("{} is given twice", f.label())));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("1us").unwrap(), Time::from_us(1));
        for bad in ["0s", "-1s", "10", "NaNs", "infs", "s", "1e30s", ""] {
            assert_eq!(duration(bad), Err(ConfigError::Duration(bad.into())));
        }
    }

    #[test]
    fn frames() {
        for bad in ["", "1519", "64-63", "abc", "64:0", "64:x", "100-2000", "-5"] {
            assert!(frame_sizes(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rates_and_loads() {
        assert_eq!(bit_rate("10M").unwrap(), 10_000_000);
        assert_eq!(bit_rate("1G").unwrap(), 1_000_000_000);
        assert!(bit_rate("0").is_err() && bit_rate("x").is_err());
        assert!(load("-0.5").is_err() && load("inf").is_err() && load("0").is_err());
        assert_eq!(load("0.7").unwrap(), 0.7);
    }
}
