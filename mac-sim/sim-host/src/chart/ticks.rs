//! The ticks of a logarithmic axis, chosen here rather than by plotters (which labels
//! only the powers of the base, so that a range of two or three decades had two or
//! three labels and the top of a bar could not be read).
//!
//! On a base-10 axis every power of ten in the range is labelled, and the 2× and 5×
//! values too when the range spans at most [`DENSE_DECADES`] decades; every other
//! integer multiple gets a light grid line. A range too narrow to hold
//! [`MIN_LABELS`] such values is labelled at each integer multiple of its decade. On a
//! base-2 axis every power of two in the range is labelled.

/// The widest range, in decades, whose 2× and 5× values are labelled as well.
pub const DENSE_DECADES: f64 = 4.0;

/// The fewest labelled ticks a base-10 axis gets when its range allows.
pub const MIN_LABELS: usize = 3;

/// The ticks of one log axis, in increasing order.
#[derive(Clone, Debug, PartialEq)]
pub struct LogTicks {
    /// Values with a label and a bold grid line.
    pub labelled: Vec<f64>,
    /// Values with a light grid line and no label.
    pub light: Vec<f64>,
}

/// `v` rounded to 12 significant digits, so that `3 × 0.1` is `0.3`.
fn clean(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let e = v.abs().log10().floor() as i32;
    let k = 10f64.powi(11 - e);
    (v * k).round() / k
}

/// The ticks of a log axis of `base` from `lo` to `hi` (both positive; an empty set
/// otherwise). See the module docs.
pub fn log_ticks(lo: f64, hi: f64, base: f64) -> LogTicks {
    let mut t = LogTicks {
        labelled: Vec::new(),
        light: Vec::new(),
    };
    if !(lo > 0.0 && hi > lo && hi.is_finite() && base > 1.0) {
        return t;
    }
    let inside = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let first = (lo.ln() / base.ln()).floor() as i32;
    let last = (hi.ln() / base.ln()).ceil() as i32;
    if base != 10.0 {
        for e in first..=last {
            let v = clean(base.powi(e));
            if inside(v) {
                t.labelled.push(v);
            }
        }
        return t;
    }
    let dense = (hi / lo).log10() <= DENSE_DECADES;
    let mut all = Vec::new();
    for e in first..=last {
        let d = 10f64.powi(e);
        for m in 1..=9 {
            let v = clean(f64::from(m) * d);
            if inside(v) {
                all.push((m, v));
            }
        }
    }
    let is_label = |m: i32| m == 1 || (dense && (m == 2 || m == 5));
    if all.iter().filter(|(m, _)| is_label(*m)).count() < MIN_LABELS {
        t.labelled = all.into_iter().map(|(_, v)| v).collect();
        return t;
    }
    for (m, v) in all {
        if is_label(m) {
            t.labelled.push(v);
        } else {
            t.light.push(v);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's example: a range of a few decades.
    #[test]
    fn the_module_example() {
        let t = log_ticks(0.8, 400.0, 10.0);
        assert_eq!(t.labelled, [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0]);
        assert!(t.light.contains(&300.0));
    }

    #[test]
    fn every_decade_is_labelled_and_a_short_range_gets_its_2s_and_5s() {
        // Six decades: the powers of ten only, every one of them.
        let wide = log_ticks(0.5, 2e5, 10.0);
        assert_eq!(wide.labelled, [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
        assert!(wide.light.contains(&2.0) && wide.light.contains(&3e4));
        // Two decades: 1, 2, 5 in each.
        let narrow = log_ticks(0.003, 0.2, 10.0);
        assert_eq!(narrow.labelled, [0.005, 0.01, 0.02, 0.05, 0.1, 0.2]);
        // Within one decade and no 1, 2 or 5 in it: every integer multiple.
        let tiny = log_ticks(6.0, 9.5, 10.0);
        assert_eq!(tiny.labelled, [6.0, 7.0, 8.0, 9.0]);
        assert!(tiny.light.is_empty());
    }

    #[test]
    fn base_two_labels_its_powers_and_bad_ranges_have_none() {
        assert_eq!(
            log_ticks(0.8, 300.0, 2.0).labelled,
            [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]
        );
        assert!(log_ticks(0.0, 10.0, 10.0).labelled.is_empty());
        assert!(log_ticks(10.0, 1.0, 10.0).labelled.is_empty());
    }
}
