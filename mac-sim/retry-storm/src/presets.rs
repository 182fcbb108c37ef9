//! The named scenarios of `mac-sim storm --scenario NAME`: the retry-storm experiments
//! of the seed articles, each a set of runs that differ only in the client strategy.
//! Each is a scenario file of the crate's `scenarios/` folder ([`crate::file`]),
//! built into the binary, so that nothing is read at run time.

use crate::config::StormConfig;
use crate::error::{Param, StormError};
use std::borrow::Cow;

use crate::file::{ContentionScenario, Experiment, Setting};
use crate::strategy::Strategy;

pub use crate::comparison::Comparison;

pub use crate::names::PRESETS as NAMES;

/// Changes to a scenario from the command line, on top of its file.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Keys of the file set to other values (`--set KEY=VALUE`, and `--seed`,
    /// `--horizon`, `--bin` and `--timeouts`, which set `seed`, `horizon`, `bin` and
    /// `timeouts`), applied as the file is read ([`crate::file::parse_with`]).
    pub settings: Vec<Setting>,
    /// Clients: the closed-loop population, or the open-loop rate scaled by the same
    /// factor; the server's capacity (workers, concurrency limit) scales with it, so
    /// the load per worker is the scenario's ([`crate::config::with_clients`]). A
    /// contention experiment measures this one client count.
    pub clients: Option<u32>,
    /// Replace the scenario's strategies.
    pub strategies: Option<Vec<Strategy>>,
}

impl Options {
    /// These options with `setting` added.
    pub fn with(&self, setting: Setting) -> Self {
        let mut o = self.clone();
        o.settings.push(setting);
        o
    }
}

/// A scenario file's text and the name it goes by: a preset (built into the
/// binary) or a file the host layer read (`retry_storm_host::scenario_file`).
#[derive(Clone, Debug)]
pub struct Source {
    /// The preset's name or the file's path, for messages and the default name.
    pub origin: String,
    /// The file's text.
    pub text: Cow<'static, str>,
}

impl Source {
    /// The preset `name` (the contention experiment among them), if there is one.
    pub fn preset(name: &str) -> Option<Self> {
        let text = if name == crate::contention::NAME {
            CONTENTION_FILE
        } else {
            text(name)?
        };
        Some(Self {
            origin: name.to_string(),
            text: Cow::Borrowed(text),
        })
    }

    /// The file `origin` whose text is `text`.
    pub fn file(origin: impl Into<String>, text: String) -> Self {
        Self {
            origin: origin.into(),
            text: Cow::Owned(text),
        }
    }

    /// Whether the file says it is a contention experiment (`experiment =
    /// "contention"`); `false` for a storm scenario and for a file whose
    /// `experiment` key cannot be read (reading it then says why).
    pub fn is_contention(&self) -> bool {
        crate::file::is_contention(&self.text, &self.origin)
    }

    /// The experiment of either kind the file describes, with `opts` applied.
    ///
    /// # Errors
    ///
    /// [`StormError::File`] for a file, or a setting, that cannot be used; the
    /// [`StormError`] of [`StormConfig::validate`] for options that do not fit the
    /// scenario; for a contention experiment, those of [`contention_with_options`].
    pub fn experiment(&self, opts: &Options) -> Result<Experiment, StormError> {
        match crate::file::parse_experiment_with(&self.text, &self.origin, &opts.settings)? {
            Experiment::Storm(sc) => with_options(sc, opts).map(Experiment::Storm),
            Experiment::Contention(c) => {
                contention_with_options(c, opts).map(Experiment::Contention)
            }
        }
    }

    /// The storm scenario the file describes, with `opts` applied.
    ///
    /// # Errors
    ///
    /// As [`experiment`](Self::experiment); [`StormError::File`] for a contention
    /// experiment's file.
    pub fn scenario(&self, opts: &Options) -> Result<Comparison, StormError> {
        let sc = crate::file::parse_with(&self.text, &self.origin, &opts.settings)?;
        with_options(sc, opts)
    }
}

/// The shipped scenario files, built into the binary: (name, text).
pub const FILES: [(&str, &str); 19] = [
    ("pause", include_str!("../scenarios/pause.toml")),
    ("outage-open", include_str!("../scenarios/outage-open.toml")),
    ("waves", include_str!("../scenarios/waves.toml")),
    ("budget", include_str!("../scenarios/budget.toml")),
    ("partial", include_str!("../scenarios/partial.toml")),
    ("shard", include_str!("../scenarios/shard.toml")),
    ("deadline", include_str!("../scenarios/deadline.toml")),
    ("layers", include_str!("../scenarios/layers.toml")),
    (
        "budget-scope",
        include_str!("../scenarios/budget-scope.toml"),
    ),
    ("metastable", include_str!("../scenarios/metastable.toml")),
    ("shedding", include_str!("../scenarios/shedding.toml")),
    ("reevaluated", include_str!("../scenarios/reevaluated.toml")),
    (
        "reevaluated-uncapped",
        include_str!("../scenarios/reevaluated-uncapped.toml"),
    ),
    ("at-start", include_str!("../scenarios/at-start.toml")),
    ("overload", include_str!("../scenarios/overload.toml")),
    ("outage-cpu", include_str!("../scenarios/outage-cpu.toml")),
    ("hedging", include_str!("../scenarios/hedging.toml")),
    ("backlog", include_str!("../scenarios/backlog.toml")),
    ("backlog-cap", include_str!("../scenarios/backlog-cap.toml")),
];

/// The contention experiment's file ([`crate::contention`]), built into the binary.
pub const CONTENTION_FILE: &str = include_str!("../scenarios/contention.toml");

/// The preset `name`, a storm scenario or the contention experiment, with `opts`
/// applied ([`Source::experiment`]).
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is not a preset; those of
/// [`Source::experiment`].
pub fn experiment(name: &str, opts: &Options) -> Result<Experiment, StormError> {
    Source::preset(name)
        .ok_or_else(|| StormError::UnknownScenario(name.to_string()))?
        .experiment(opts)
}

/// Apply to a contention experiment the options it takes besides its settings: the
/// clients (one client count in place of its list). The strategies are a storm's;
/// the command line refuses them for the experiment.
///
/// # Errors
///
/// The [`StormError::Param`] of [`ContentionConfig::validate`](crate::contention::ContentionConfig::validate)
/// (a client count out of range).
pub fn contention_with_options(
    mut c: ContentionScenario,
    opts: &Options,
) -> Result<ContentionScenario, StormError> {
    if let Some(n) = opts.clients {
        c.config.clients = vec![n];
    }
    c.config.validate().map(|()| c)
}

/// The text of the preset `name`'s scenario file.
pub fn text(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The storm preset `name`, with `opts` applied ([`Source::scenario`]).
///
/// # Errors
///
/// [`StormError::UnknownScenario`] for a name that is not a storm preset; those of
/// [`Source::scenario`].
pub fn scenario(name: &str, opts: &Options) -> Result<Comparison, StormError> {
    match text(name) {
        Some(_) => Source::preset(name)
            .ok_or_else(|| StormError::UnknownScenario(name.to_string()))?
            .scenario(opts),
        None => Err(StormError::UnknownScenario(name.to_string())),
    }
}

/// Apply `opts` to every run of `sc`.
fn with_options(mut sc: Comparison, opts: &Options) -> Result<Comparison, StormError> {
    if let Some(strategies) = &opts.strategies {
        let Some(first) = sc.runs.first().cloned() else {
            return Err(StormError::param(Param::Strategies, 0));
        };
        sc.runs = strategies
            .iter()
            .map(|st| StormConfig {
                strategy: st.clone(),
                ..first.clone()
            })
            .collect();
    }
    if sc.runs.is_empty() {
        return Err(StormError::param(Param::Strategies, 0));
    }
    for r in &mut sc.runs {
        *r = apply(r.clone(), opts)?;
    }
    Ok(sc)
}

fn apply(mut c: StormConfig, o: &Options) -> Result<StormConfig, StormError> {
    if let Some(n) = o.clients {
        c = crate::config::with_clients(c, n)?;
    }
    c.validate().map(|()| c)
}
