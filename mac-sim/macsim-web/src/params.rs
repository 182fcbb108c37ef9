//! The page's parameters: the schema's fields for the controls, a set of control
//! values (key to text) checked into a [`Scenario`], and scenario files (TOML) in
//! and out, all through `csma_cd::scenario`, so the page says what the command line
//! says about every value.
//!
//! ```
//! let fields: serde_json::Value = serde_json::from_str(&macsim_web::params::fields_json()).unwrap();
//! assert_eq!(fields[0]["key"], "medium");
//! assert_eq!(fields[0]["choices"][1], "10BASE5");
//! let err = macsim_web::params::scenario(r#"{"stations": "0"}"#).unwrap_err();
//! assert_eq!(err, "stations: the number of stations must be at least 1");
//! ```

use csma_cd::RunConfig;
use csma_cd::{FIELDS, Scenario};
use serde_json::{Map, Value, json};

/// The schema's fields as a JSON array: `key`, `flag`, `short`, `value_name`,
/// `choices` (the names a value can be, for a choice; empty otherwise), `help` and
/// `default` (the text form of the model's default).
pub fn fields_json() -> String {
    let defaults = Scenario::from_config(&RunConfig::default());
    let v: Vec<Value> = FIELDS
        .iter()
        .map(|f| {
            json!({
                "key": f.key,
                "flag": f.flag(),
                "short": f.short.map(|c| format!("-{c}")),
                "value_name": f.value_name,
                "choices": f.choices,
                "help": f.help,
                "default": defaults.get(f.key),
            })
        })
        .collect();
    Value::Array(v).to_string()
}

/// The scenario that a JSON object of control values (`{"stations": "64", ...}`,
/// texts as the command line takes them; an empty text leaves the default) sets.
///
/// # Errors
///
/// The text is not a JSON object of texts, a key is not a parameter, or a value
/// is refused: the message is the command line's (`stations: the number of
/// stations must be at least 1`), from [`Scenario::set`] and
/// [`Scenario::to_config`].
pub fn scenario(values: &str) -> Result<Scenario, String> {
    let map: Map<String, Value> =
        serde_json::from_str(values).map_err(|e| format!("parameters: not a JSON object: {e}"))?;
    let mut sc = Scenario::default();
    for (key, v) in &map {
        let text = match v {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Null => continue,
            _ => return Err(format!("{key}: expected a text value")),
        };
        if text.is_empty() {
            continue;
        }
        sc.set(key, &text).map_err(|e| e.to_string())?;
    }
    sc.to_config().map_err(|e| e.to_string())?;
    Ok(sc)
}

/// The parameters `sc` sets, as a JSON object of texts (the control values).
pub fn values_json(sc: &Scenario) -> String {
    let m: Map<String, Value> = sc
        .keys()
        .into_iter()
        .filter_map(|k| sc.get(k).map(|v| (k.to_string(), Value::String(v))))
        .collect();
    Value::Object(m).to_string()
}

/// Reads a scenario file (TOML, as `mac-sim run --scenario` reads it) into control
/// values.
///
/// # Errors
///
/// The file's error as the command line reports it, naming the line and the key
/// (`scenario.toml:2: stations: ...`), or the value refused by the model.
pub fn from_toml(text: &str) -> Result<String, String> {
    let sc = Scenario::from_toml(text).map_err(|mut e| {
        e.file = "scenario.toml".into();
        e.to_string()
    })?;
    sc.to_config().map_err(|e| format!("scenario.toml: {e}"))?;
    Ok(values_json(&sc))
}

/// The scenario file (TOML) for a JSON object of control values: every parameter,
/// the defaults included, so that the file means the same run whatever later
/// versions take as defaults.
///
/// # Errors
///
/// As [`scenario`].
pub fn to_toml(values: &str) -> Result<String, String> {
    let sc = scenario(values)?;
    let cfg = sc.to_config().map_err(|e| e.to_string())?;
    let full = Scenario::from_config(&cfg);
    toml::to_string(&full).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages `mac-sim run` prints after `mac-sim: error: ` for the same
    /// values (`run -n 0`, `run -f 10`, `run --medium 10BASE5 --length-m 3000`).
    const CLI_NO_STATIONS: &str = "stations: the number of stations must be at least 1";
    const CLI_FRAME_10: &str =
        "frames: frame size 10 bytes is out of range: an IEEE 802.3 frame is 64..=1518 bytes";
    const CLI_BUS_3000: &str = "length_m: bus length: 3000 m is longer than the 2500 m collision domain of 10BASE5 (IEEE 802.3 clauses 8 and 13): give --length-m 2500 or less, or leave out --medium";

    #[test]
    fn bad_values_get_the_command_lines_messages() {
        assert_eq!(
            scenario(r#"{"stations":"0"}"#).unwrap_err(),
            CLI_NO_STATIONS
        );
        assert_eq!(scenario(r#"{"frames":"10"}"#).unwrap_err(), CLI_FRAME_10);
        assert_eq!(
            scenario(r#"{"medium":"10BASE5","length_m":"3000"}"#).unwrap_err(),
            CLI_BUS_3000
        );
        // The same through the other doors of the page.
        assert_eq!(to_toml(r#"{"stations":"0"}"#).unwrap_err(), CLI_NO_STATIONS);
        // A number where the page sends text, and blanks around it, are the same.
        assert_eq!(scenario(r#"{"stations":0}"#).unwrap_err(), CLI_NO_STATIONS);
        assert_eq!(scenario(r#"{"frames":" 10 "}"#).unwrap_err(), CLI_FRAME_10);
        // The bus within the medium's limit is fine.
        assert!(scenario(r#"{"medium":"10BASE5","length_m":"2500"}"#).is_ok());
    }

    #[test]
    fn malformed_control_values_are_refused_by_name() {
        assert!(
            scenario("[1]")
                .unwrap_err()
                .starts_with("parameters: not a JSON object")
        );
        assert_eq!(
            scenario(r#"{"stations":[4]}"#).unwrap_err(),
            "stations: expected a text value"
        );
        let e = scenario(r#"{"colour":"red"}"#).unwrap_err();
        assert!(e.contains("colour"), "{e}");
        // Empty texts and nulls leave the defaults.
        let sc = scenario(r#"{"stations":"", "seed": null}"#).unwrap();
        assert_eq!(sc.to_config().unwrap(), RunConfig::default());
    }

    /// Control sets a student might choose, for the round trips.
    const VALUES: &[&str] = &[
        r#"{}"#,
        r#"{"stations":"64","load":"0.7","frames":"64:7,594:4,1518:1","seed":"99"}"#,
        r#"{"medium":"100BASE-TX","placement":"random","duration":"20ms","warmup":"5ms"}"#,
        r#"{"medium":"1000BASE-T","stations":"8","backoff":"poly:3","attempt_limit":"5"}"#,
        r#"{"backoff":"linear","ifg_rule":"restart","jam_rule":"immediate","length_m":"1234.5"}"#,
        r#"{"frames":"64-1518","backoff":"fixed:16","bit_rate":"10M","velocity":"190000000"}"#,
    ];

    #[test]
    fn exported_toml_reads_back_to_the_same_run() {
        for values in VALUES {
            let cfg = scenario(values).unwrap().to_config().unwrap();
            let text = to_toml(values).unwrap();
            let back = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{values}: {e}"));
            assert_eq!(back.to_config().unwrap(), cfg, "{values}\n{text}");
            // Every parameter is written, so the file means the same run whatever
            // later versions take as defaults.
            for f in FIELDS {
                assert!(
                    text.lines()
                        .any(|l| l.starts_with(&format!("{} = ", f.key))),
                    "{values}: {} missing in\n{text}",
                    f.key
                );
            }
            // And the page reads it back into the same control values' run.
            let controls = from_toml(&text).unwrap();
            assert_eq!(
                scenario(&controls).unwrap().to_config().unwrap(),
                cfg,
                "{values}"
            );
            // The control values the page keeps (e.g. in its URL) mean the same run.
            let kept = values_json(&scenario(values).unwrap());
            assert_eq!(scenario(&kept).unwrap().to_config().unwrap(), cfg);
        }
    }

    #[test]
    fn bad_scenario_files_name_the_line_and_the_key() {
        let e = from_toml("stations = 4\nfoo = 3\n").unwrap_err();
        assert!(
            e.starts_with("scenario.toml:2: foo: unknown parameter 'foo' (the parameters are medium, stations,"),
            "{e}"
        );
        assert_eq!(
            from_toml("stations = 4\nload = \"x\"\n").unwrap_err(),
            "scenario.toml:2: load: offered load 'x' must be a fraction of the bit rate above 0 and at most 100 (e.g. 0.7)"
        );
        assert_eq!(
            from_toml("stations = 4\nseed = [\n").unwrap_err(),
            "scenario.toml:2: seed: unclosed array, expected `]`"
        );
        assert_eq!(
            from_toml("\n\nstations = 0\n").unwrap_err(),
            format!("scenario.toml: {CLI_NO_STATIONS}")
        );
        assert_eq!(
            from_toml("medium = \"10BASE5\"\nlength_m = 3000\n").unwrap_err(),
            format!("scenario.toml: {CLI_BUS_3000}")
        );
        let e = from_toml("stations = [1, 2]\n").unwrap_err();
        assert_eq!(
            e,
            "scenario.toml:1: stations: expected a single value, not an array or a table"
        );
    }

    #[test]
    fn the_fields_are_the_schemas() {
        let v: Value = serde_json::from_str(&fields_json()).unwrap();
        let fields = v.as_array().unwrap();
        assert_eq!(fields.len(), FIELDS.len());
        let defaults = Scenario::from_config(&RunConfig::default());
        for (f, j) in FIELDS.iter().zip(fields) {
            assert_eq!(j["key"], f.key);
            assert_eq!(j["flag"], f.flag());
            assert!(!j["help"].as_str().unwrap().is_empty(), "{}", f.key);
            // Each default, given back as a control value, is accepted and changes
            // nothing.
            if let Some(d) = j["default"].as_str() {
                let mut sc = Scenario::default();
                sc.set(f.key, d)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.key));
                assert_eq!(sc.to_config().unwrap(), RunConfig::default(), "{}", f.key);
                assert_eq!(defaults.get(f.key).as_deref(), Some(d));
            }
        }
    }
}
