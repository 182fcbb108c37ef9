//! Parsers for the command-line forms of the parameters, with units (the schema's
//! codecs read values through them).
//!
//! ```
//! use csma_cd::parse;
//! assert_eq!(parse::bit_rate("100M").unwrap(), 100_000_000);
//! assert!(parse::load("NaN").is_err());
//! ```

use crate::config::FrameSizes;
use crate::error::ConfigError;

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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(bit_rate("100M").unwrap(), 100_000_000);
        assert!(load("NaN").is_err());
        assert!(bit_rate("0").is_err() && bit_rate("x").is_err());
        assert!(load("-0.5").is_err() && load("inf").is_err() && load("0").is_err());
        assert_eq!(load("0.7").unwrap(), 0.7);
    }
}
