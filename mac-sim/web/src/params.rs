//! The page's parameters: the schema's fields for the controls, a set of control
//! values (key to text) checked into a [`Scenario`], and scenario files (TOML) in
//! and out, all through `csma_cd::scenario`, so the page says what the command line
//! says about every value.
//!
//! ```
//! let fields: serde_json::Value = serde_json::from_str(&macsim_web::params::fields_json()).unwrap();
//! assert_eq!(fields[0]["key"], "medium");
//! let err = macsim_web::params::scenario(r#"{"stations": "0"}"#).unwrap_err();
//! assert_eq!(err, "stations: the number of stations must be at least 1");
//! ```

use csma_cd::config::RunConfig;
use csma_cd::scenario::{FIELDS, Scenario};
use serde_json::{Map, Value, json};

/// The schema's fields as a JSON array: `key`, `flag`, `short`, `value_name`,
/// `help` and `default` (the text form of the model's default).
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
/// (`scenario.toml:2: key `stations`: ...`), or the value refused by the model.
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
