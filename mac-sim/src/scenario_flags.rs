//! A model's parameters as command-line flags: one flag per field of its schema
//! (`--slot-bits`, `-n`, ...), generated from the table for every model, so that
//! `run`, `sweep` and `radio` take every parameter under the same name, with the same
//! help and the same text form as scenario files. With `--scenario FILE` the flags
//! given lie over the file, which lies over the defaults, parameter by parameter.
//!
//! `run` and `radio` take one value per flag; `sweep` takes a list, and a list of
//! more than one value makes the parameter an axis of the sweep.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use csma_cd::RunConfig;
use csma_cd::Scenario;
use sim_kit::{Field, Schema};

use crate::failure::Failure;

/// A model whose schema is a set of flags: the help of its `--scenario`.
pub trait ModelFlags: Schema + 'static {
    /// The help of `--scenario FILE`.
    const FILE_HELP: &'static str;
}

impl ModelFlags for Scenario {
    const FILE_HELP: &'static str = "Scenario file (TOML, see mac-sim/scenarios/) or a `run --json` result: the parameters; flags given on the command line override it";
}

impl ModelFlags for radio_sim::Scenario {
    const FILE_HELP: &'static str = "Scenario file (TOML: the keys of --keys and [[station]] tables; e.g. mac-sim/scenarios/radio-*.toml): the parameters; flags given on the command line override it";
}

/// The flags of the model `S`'s schema that were given on the command line, as
/// text, in the table's order, and the scenario file, if any. `SWEEP`: the flags of
/// `sweep`, which take lists and leave the seed to the sweep's own `--seed`.
#[derive(Clone, Debug)]
pub struct SchemaFlags<S, const SWEEP: bool> {
    /// `(key, text)` of every parameter given as a flag.
    pub given: Vec<(&'static str, String)>,
    /// `--scenario FILE`.
    pub scenario: Option<PathBuf>,
    model: PhantomData<S>,
}

impl<S, const SWEEP: bool> Default for SchemaFlags<S, SWEEP> {
    fn default() -> Self {
        Self {
            given: Vec::new(),
            scenario: None,
            model: PhantomData,
        }
    }
}

impl<S: Schema, const SWEEP: bool> SchemaFlags<S, SWEEP> {
    /// Whether any flag of the schema or `--scenario` was given.
    pub fn any(&self) -> bool {
        !self.given.is_empty() || self.scenario.is_some()
    }

    /// The scenario of the flags given (not the file).
    ///
    /// # Errors
    ///
    /// A usage failure naming the flag whose value is bad.
    pub fn flags_scenario(&self) -> Result<S, Failure> {
        let mut flags = S::default();
        for (key, text) in &self.given {
            flags
                .set(key, text)
                .map_err(|e| Failure::usage(e.to_string()))?;
        }
        Ok(flags)
    }
}

/// The flags of `run`.
pub type RunFlags = SchemaFlags<Scenario, false>;
/// The flags of `sweep`.
pub type SweepFlags = SchemaFlags<Scenario, true>;
/// The flags of `radio`.
pub type RadioFlags = SchemaFlags<radio_sim::Scenario, false>;

/// Whether a field is a flag of this command: every one, but `sweep` has its own seed.
fn has_flag(f: &Field, sweep: bool) -> bool {
    !(sweep && f.key == "seed")
}

/// The field's help: its first sentence for `-h`, the whole text and its default for
/// `--help`.
fn arg_of(f: &Field, sweep: bool, default: &str) -> Arg {
    let help = f.help.split_whitespace().collect::<Vec<_>>().join(" ");
    let short_help = first_sentence(&help);
    let list = if sweep {
        " A list of values (comma-separated; ranges such as 1..=256:x2 for numbers) sweeps it."
    } else {
        ""
    };
    let mut a = Arg::new(f.key)
        .long(f.key.replace('_', "-"))
        .value_name(f.value_name)
        .action(ArgAction::Set)
        .allow_hyphen_values(true)
        .help(format!("{short_help} [default: {default}]"))
        .long_help(format!("{help}{list} [default: {default}]"))
        .help_heading("Parameters (the scenario schema)");
    if let Some(s) = f.short {
        a = a.short(s);
    }
    for alias in f.aliases {
        a = a.visible_alias(*alias);
    }
    a
}

/// The first sentence of `text`, without its full stop: up to the first `. ` outside
/// parentheses that does not end an ellipsis (`(e.g. 10M)` and `BYTES:WEIGHT,...`
/// stay whole).
fn first_sentence(text: &str) -> &str {
    let b = text.as_bytes();
    let mut depth = 0usize;
    for i in 0..b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b'.' if depth == 0 && b.get(i + 1) == Some(&b' ') && (i == 0 || b[i - 1] != b'.') => {
                return &text[..i];
            }
            _ => {}
        }
    }
    text.trim_end_matches('.')
}

impl<S: ModelFlags, const SWEEP: bool> Args for SchemaFlags<S, SWEEP> {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = cmd;
        for (f, (_, default)) in S::FIELDS.iter().zip(S::defaults()) {
            if has_flag(f, SWEEP) {
                cmd = cmd.arg(arg_of(f, SWEEP, &default));
            }
        }
        cmd.arg(
            Arg::new("scenario")
                .long("scenario")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help(S::FILE_HELP),
        )
    }
    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl<S: ModelFlags, const SWEEP: bool> FromArgMatches for SchemaFlags<S, SWEEP> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut out = Self::default();
        out.update_from_arg_matches(m)?;
        Ok(out)
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        self.given = S::FIELDS
            .iter()
            .filter(|f| has_flag(f, SWEEP))
            .filter_map(|f| {
                m.try_get_one::<String>(f.key)
                    .ok()
                    .flatten()
                    .map(|v| (f.key, v.clone()))
            })
            .collect();
        self.scenario = m.try_get_one::<PathBuf>("scenario").ok().flatten().cloned();
        Ok(())
    }
}

/// The scenario file's parameters, or none without a file.
///
/// # Errors
///
/// A usage failure (exit 2) naming the file, the line and the key.
pub fn file_scenario(path: Option<&Path>) -> Result<Scenario, Failure> {
    match path {
        None => Ok(Scenario::default()),
        Some(p) => csma_cd_host::load_scenario_file(p)
            .map(|(s, _)| s)
            .map_err(|e| Failure::usage(format!("scenario {e}"))),
    }
}

impl RunFlags {
    /// The run's scenario: the file's parameters with the flags given on top.
    ///
    /// # Errors
    ///
    /// A usage failure naming the file's key or the parameter whose flag is bad.
    pub fn scenario(&self) -> Result<Scenario, Failure> {
        Ok(file_scenario(self.scenario.as_deref())?.overlay(&self.flags_scenario()?))
    }

    /// The run's configuration, checked.
    ///
    /// # Errors
    ///
    /// As [`scenario`](Self::scenario), and a usage failure naming the parameter to
    /// blame for a configuration out of range, or a flag that has no effect on it.
    pub fn config(&self) -> Result<RunConfig, Failure> {
        let c = self.scenario()?.to_config().map_err(Failure::usage)?;
        csma_cd::check_effect(std::slice::from_ref(&c), self.given.iter().map(|(k, _)| *k))
            .map_err(Failure::usage)?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::first_sentence;

    #[test]
    fn short_help_is_the_first_sentence() {
        assert_eq!(first_sentence("Bus length. More."), "Bus length");
        assert_eq!(
            first_sentence("Bit rate, with suffix (e.g. 10M). More."),
            "Bit rate, with suffix (e.g. 10M)"
        );
        assert_eq!(
            first_sentence("Sizes: BYTES:WEIGHT,... (a mix, e.g. 64:7)."),
            "Sizes: BYTES:WEIGHT,... (a mix, e.g. 64:7)"
        );
    }
}
