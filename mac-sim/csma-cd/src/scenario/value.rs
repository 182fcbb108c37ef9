//! The one text form of every kind of parameter value, and how it appears in a
//! scenario file, in a results column and in a sweep's list of values.
//!
//! A [`Codec`] names a kind of value. The kit's (`sim_kit::schema`) read counts,
//! real numbers, booleans and durations with their unit (`10s`); this model adds
//! [`BitRate`], a rate with its suffix (`10M`), [`BackoffAlgorithm`] `beb`,
//! `linear`, `poly:3` or `fixed:32`, the frame sizes, the offered load and the
//! Ethernet preset ([`Medium`]). The
//! command line, scenario files, JSON results, sweeps, the browser and Python all
//! read and write values through these, so a value has the same text everywhere.

use sim_kit::range;
pub use sim_kit::schema::{Codec, Scalar};

use crate::config::{BackoffAlgorithm, FrameSizes, IfgRule, JamRule, Placement, Traffic};
use crate::error::ConfigError;
use crate::ethernet::EthernetMedium;
use crate::parse;
use crate::table::Cell;

/// A bit rate in bits per second, written with the largest exact suffix: `10M`.
#[derive(Clone, Copy, Debug)]
pub struct BitRate;

impl Codec for BitRate {
    type Value = u64;
    type Error = ConfigError;
    fn parse(text: &str) -> Result<u64, ConfigError> {
        parse::bit_rate(text)
    }
    fn text(v: &u64) -> String {
        for (m, s) in [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")] {
            if v % m == 0 {
                return format!("{}{s}", v / m);
            }
        }
        v.to_string()
    }
    fn columns(key: &str) -> Vec<String> {
        vec![format!("{key}_bps")]
    }
    /// One column, `KEY_bps`, in bits per second.
    fn cells(key: &str, v: &u64) -> Vec<(String, Cell)> {
        vec![(format!("{key}_bps"), Cell::Int(*v))]
    }
}

/// `point`, `even` or `random`.
impl Codec for Placement {
    type Value = Placement;
    type Error = ConfigError;
    const CHOICES: &'static [&'static str] = &["point", "even", "random"];
    fn parse(text: &str) -> Result<Placement, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &Placement) -> String {
        match v {
            Placement::Point => "point",
            Placement::Even => "even",
            Placement::Random => "random",
        }
        .into()
    }
}

/// `1518` (fixed), `64-1518` (uniform) or `64:7,594:4,1518:1` (a weighted mix; in a
/// sweep's list, beside other items, its parts are joined by `+`).
impl Codec for FrameSizes {
    type Value = FrameSizes;
    type Error = ConfigError;
    fn parse(text: &str) -> Result<FrameSizes, ConfigError> {
        parse::frame_sizes(&text.replace('+', ","))
    }
    fn text(v: &FrameSizes) -> String {
        match v {
            FrameSizes::Mix(m) => m
                .iter()
                .map(|(b, w)| format!("{b}:{w}"))
                .collect::<Vec<_>>()
                .join(","),
            other => other.label(),
        }
    }
    fn columns(key: &str) -> Vec<String> {
        vec![key.to_string(), "frame_mean_bits".into()]
    }
    /// The text form, and the mean frame size in bits.
    fn cells(key: &str, v: &FrameSizes) -> Vec<(String, Cell)> {
        vec![
            (key.to_string(), Cell::Text(Self::text(v))),
            ("frame_mean_bits".into(), Cell::Num(v.mean_bits())),
        ]
    }
    fn list(text: &str) -> Result<Vec<FrameSizes>, ConfigError> {
        parse_frames(text)
    }
}

/// An offered load as a fraction of the bit rate (Poisson arrivals), or `saturated`.
impl Codec for Traffic {
    type Value = Traffic;
    type Error = ConfigError;
    fn parse(text: &str) -> Result<Traffic, ConfigError> {
        match text.trim() {
            "saturated" => Ok(Traffic::Saturated),
            t => Ok(Traffic::Poisson {
                load: parse::load(t)?,
            }),
        }
    }
    fn text(v: &Traffic) -> String {
        match v {
            Traffic::Saturated => "saturated".into(),
            Traffic::Poisson { load } => load.to_string(),
        }
    }
    fn scalar(v: &Traffic) -> Scalar {
        match v {
            Traffic::Saturated => Scalar::Text("saturated".into()),
            Traffic::Poisson { load } => Scalar::Real(*load),
        }
    }
    fn columns(key: &str) -> Vec<String> {
        vec!["traffic".into(), key.to_string()]
    }
    /// Two columns: `traffic` (`saturated` or `poisson`) and the load, empty when
    /// saturated, so that the load column is numeric.
    fn cells(key: &str, v: &Traffic) -> Vec<(String, Cell)> {
        let (kind, load) = match v {
            Traffic::Saturated => ("saturated", Cell::Empty),
            Traffic::Poisson { load } => ("poisson", Cell::Exact(*load)),
        };
        vec![
            ("traffic".into(), Cell::Text(kind.into())),
            (key.to_string(), load),
        ]
    }
    fn list(text: &str) -> Result<Vec<Traffic>, ConfigError> {
        parse_loads(text)
    }
}

/// `beb`, `linear`, `poly` (degree 2) or `poly:DEGREE`, `fixed` (32 slots) or
/// `fixed:SLOTS`; written `beb`, `linear`, `poly:D`, `fixed:W`.
impl Codec for BackoffAlgorithm {
    type Value = BackoffAlgorithm;
    type Error = ConfigError;
    fn parse(text: &str) -> Result<BackoffAlgorithm, ConfigError> {
        let t = text.trim();
        let bad = || ConfigError::Backoff(t.to_string());
        let (name, arg) = match t.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (t, None),
        };
        let num = |d: u32| -> Result<u32, ConfigError> {
            arg.map_or(Ok(d), |a| a.parse().map_err(|_| bad()))
        };
        Ok(match name {
            "beb" if arg.is_none() => BackoffAlgorithm::Beb,
            "linear" if arg.is_none() => BackoffAlgorithm::Polynomial { degree: 1 },
            "poly" => BackoffAlgorithm::Polynomial { degree: num(2)? },
            "fixed" => BackoffAlgorithm::Fixed { window: num(32)? },
            _ => return Err(bad()),
        })
    }
    fn text(v: &BackoffAlgorithm) -> String {
        match v {
            BackoffAlgorithm::Beb => "beb".into(),
            BackoffAlgorithm::Polynomial { degree: 1 } => "linear".into(),
            BackoffAlgorithm::Polynomial { degree } => format!("poly:{degree}"),
            BackoffAlgorithm::Fixed { window } => format!("fixed:{window}"),
        }
    }
}

/// `8023`, `restart` or `none`.
impl Codec for IfgRule {
    type Value = IfgRule;
    type Error = ConfigError;
    const CHOICES: &'static [&'static str] = &["8023", "restart", "none"];
    fn parse(text: &str) -> Result<IfgRule, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &IfgRule) -> String {
        v.label().into()
    }
}

/// `preamble` or `immediate`.
impl Codec for JamRule {
    type Value = JamRule;
    type Error = ConfigError;
    const CHOICES: &'static [&'static str] = &["preamble", "immediate"];
    fn parse(text: &str) -> Result<JamRule, ConfigError> {
        text.trim().parse()
    }
    fn text(v: &JamRule) -> String {
        v.label().into()
    }
}

/// An Ethernet preset by its name, e.g. `100BASE-TX`; `none` for no preset.
#[derive(Clone, Copy, Debug)]
pub struct Medium;

impl Codec for Medium {
    type Value = Option<EthernetMedium>;
    type Error = ConfigError;
    const CHOICES: &'static [&'static str] = &[
        "none",
        "10BASE5",
        "10BASE2",
        "10BASE-T",
        "100BASE-TX",
        "1000BASE-T",
    ];
    fn parse(text: &str) -> Result<Option<EthernetMedium>, ConfigError> {
        match text.trim() {
            "none" => Ok(None),
            t => t.parse().map(Some),
        }
    }
    fn text(v: &Option<EthernetMedium>) -> String {
        v.map_or("none".into(), |m| m.name().into())
    }
    /// One column, empty without a preset.
    fn cells(key: &str, v: &Option<EthernetMedium>) -> Vec<(String, Cell)> {
        vec![(
            key.to_string(),
            v.map_or(Cell::Empty, |m| Cell::Text(m.name().into())),
        )]
    }
}

/// Offered loads: numbers and ranges (fractions of the bit rate, above 0) and the
/// word `saturated` (every station always has a frame).
///
/// # Errors
///
/// [`ConfigError::List`] for a list that does not parse or a load that is not
/// allowed.
fn parse_loads(s: &str) -> Result<Vec<Traffic>, ConfigError> {
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
            let load = parse::load(&g.to_string()).map_err(|_| {
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

/// Frame sizes, each a point of the sweep: bytes and ranges of bytes (each
/// 64..=1518), `MIN-MAX` items for a uniform mix, and weighted mixes.
///
/// A weighted mix is written as `mac-sim run --frame-bytes` takes it,
/// `BYTES:WEIGHT,...` (e.g. `64:7,594:4,1518:1`), when it is the whole list; beside
/// other items of the list its parts are joined by `+` instead (e.g.
/// `64,1518,64:7+594:4+1518:1`), the form the results files label it with. A mix is
/// checked as `run` checks it ([`parse::frame_sizes`]).
///
/// # Errors
///
/// [`ConfigError::List`] for a list that does not parse, a size outside 64..=1518
/// bytes, a bad mix, or a list that mixes plain sizes with `BYTES:WEIGHT` items.
fn parse_frames(s: &str) -> Result<Vec<FrameSizes>, ConfigError> {
    let items: Vec<&str> = s.split(',').map(str::trim).collect();
    let weighted = |t: &str| t.contains(':') && !t.contains("..") && !t.contains('+');
    let mix = |t: &str| parse::frame_sizes(t).map_err(|e| ConfigError::List(e.to_string()));
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

    fn round_trip<C: Codec<Error = ConfigError>>(v: C::Value) {
        assert_eq!(C::parse(&C::text(&v)).unwrap(), v, "{}", C::text(&v));
    }

    #[test]
    fn every_text_form_reads_back() {
        round_trip::<BitRate>(12_345);
        round_trip::<BitRate>(100_000_000);
        round_trip::<FrameSizes>(FrameSizes::Mix(vec![(64, 7), (1518, 1)]));
        round_trip::<Traffic>(Traffic::Poisson { load: 0.3 });
        round_trip::<Traffic>(Traffic::Saturated);
        for b in ["beb", "linear", "poly:3", "fixed:16"] {
            assert_eq!(
                BackoffAlgorithm::text(&BackoffAlgorithm::parse(b).unwrap()),
                b
            );
        }
        round_trip::<Medium>(None);
        round_trip::<Medium>(Some(EthernetMedium::ALL[3]));
        assert_eq!(BitRate::text(&100_000_000), "100M");
    }

    #[test]
    fn bad_text_names_what_is_expected() {
        assert!(BackoffAlgorithm::parse("poly:x").is_err());
        assert!(BackoffAlgorithm::parse("beb:3").is_err());
    }

    #[test]
    fn the_choices_are_the_names_read() {
        let names: Vec<&str> = EthernetMedium::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(Medium::CHOICES[1..], names[..]);
        for c in Medium::CHOICES
            .iter()
            .chain(Placement::CHOICES)
            .chain(IfgRule::CHOICES)
        {
            assert!(
                Medium::parse(c).is_ok()
                    || Placement::parse(c).is_ok()
                    || IfgRule::parse(c).is_ok(),
                "{c}"
            );
        }
        for c in JamRule::CHOICES {
            assert_eq!(JamRule::text(&JamRule::parse(c).unwrap()), *c);
        }
    }

    #[test]
    fn columns_name_the_cells() {
        let c = crate::config::RunConfig::default();
        let names: Vec<String> = super::super::Scenario::columns(&c)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(names, super::super::Scenario::column_names());
    }

    #[test]
    fn weighted_mixes_as_run_takes_them() {
        let mix = FrameSizes::Mix(vec![(64, 7), (594, 4), (1518, 1)]);
        // The whole list in run's syntax is one mix, the same as run parses it.
        assert_eq!(
            parse_frames("64:7,594:4,1518:1").unwrap(),
            vec![mix.clone()]
        );
        assert_eq!(
            parse::frame_sizes("64:7,594:4,1518:1").unwrap(),
            parse_frames("64:7, 594:4, 1518:1").unwrap()[0]
        );
        // Beside other sizes, its parts joined by +, as the results label it.
        assert_eq!(
            parse_frames("1518,64:7+594:4+1518:1,64-1518").unwrap(),
            [
                mix.clone(),
                FrameSizes::Uniform { min: 64, max: 1518 },
                FrameSizes::Fixed(1518)
            ]
        );
        assert_eq!(parse_frames(&mix.label()).unwrap(), vec![mix.clone()]);
        let one_line = |s: &str| {
            let e = FrameSizes::list(s)
                .map_err(|e| crate::scenario::FieldError {
                    key: "frames".into(),
                    error: e,
                })
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("frames: ") && !e.contains('\n'), "{e}");
            e
        };
        // The checks of run: weights, sizes, syntax.
        assert!(one_line("64:0,1518:1").contains("not understood"));
        assert!(one_line("64:7,2000:1").contains("2000 bytes"));
        assert!(one_line("64:x").contains("not understood"));
        assert!(one_line("64:7+1518").contains("not understood"));
        assert!(one_line("64:7+63:1,1518").contains("63 bytes"));
        // A weighted part among plain sizes: say how to write it.
        assert!(one_line("1518,64:7,594:4").contains("join a mix's parts with +"));
        assert!(one_line("64:1+1518:1,64:1+1518:1").contains("given twice"));
        // A stepped range is not a weight.
        assert_eq!(parse_frames("64..=1518:727").unwrap().len(), 3);
    }
}
