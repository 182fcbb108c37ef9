//! The `Scenario` class: [`csma_cd::Scenario`] as Python sees it, built from
//! keyword arguments, read from and written to the files the command line reads and
//! writes (TOML, and a `mac-sim run --json` result).

use csma_cd::Scalar;
use csma_cd::{FIELDS, Scenario};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::text_of;

/// A run's parameters, each optional (an unset one takes the model's default), as
/// `mac-sim run` takes them: `Scenario(stations=64, load=0.6)`. Two scenarios are
/// equal when they set the same parameters to the same values.
#[pyclass(name = "Scenario", module = "macsim", eq, frozen)]
#[derive(Clone, PartialEq)]
pub struct PyScenario {
    /// The parameters.
    pub inner: Scenario,
}

/// `ValueError` with the schema's message (`key: what is wrong`).
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The scenario of keyword arguments, each set from its text form.
///
/// # Errors
///
/// `ValueError` naming the first parameter that is unknown or not of its kind.
pub fn from_kwargs(base: Scenario, params: Option<&Bound<'_, PyDict>>) -> PyResult<Scenario> {
    let mut s = base;
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let key: String = k.extract()?;
            if v.is_none() {
                continue;
            }
            let text = text_of(&key, &v)?;
            s.set(&key, &text).map_err(value_error)?;
        }
    }
    Ok(s)
}

fn scalar<'py>(py: Python<'py>, v: &Scalar) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
        Scalar::Real(x) => x.into_pyobject(py)?.into_any(),
        Scalar::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Scalar::Text(t) => t.into_pyobject(py)?.into_any(),
    })
}

#[pymethods]
impl PyScenario {
    /// A scenario of the parameters given, e.g. `Scenario(stations=64, load=0.6,
    /// frames="64:7,594:4,1518:1", duration="1s")`; `None` leaves one unset. Raises
    /// `ValueError` naming a parameter that is unknown or not of its kind.
    #[new]
    #[pyo3(signature = (**params))]
    fn new(params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(Self {
            inner: from_kwargs(Scenario::default(), params)?,
        })
    }

    /// This scenario with the parameters given replaced.
    #[pyo3(signature = (**params))]
    fn replace(&self, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(Self {
            inner: from_kwargs(self.inner.clone(), params)?,
        })
    }

    /// This scenario with every parameter that `other` sets taken from `other`.
    fn overlay(&self, other: &PyScenario) -> Self {
        Self {
            inner: self.inner.clone().overlay(&other.inner),
        }
    }

    /// Reads a scenario file's text (TOML, as `mac-sim run --scenario FILE.toml`
    /// reads it) and checks it; `name` names it in the messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<toml>"))]
    fn from_toml(text: &str, name: &str) -> PyResult<Self> {
        let (inner, _) = Scenario::from_file_text(name, text, false).map_err(value_error)?;
        Ok(Self { inner })
    }

    /// Reads the `"scenario"` object of a `mac-sim run --json` result and checks it.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<json>"))]
    fn from_json(text: &str, name: &str) -> PyResult<Self> {
        let (inner, _) = Scenario::from_file_text(name, text, true).map_err(value_error)?;
        Ok(Self { inner })
    }

    /// Reads a scenario file from disk: TOML, or a `mac-sim run --json` result if its
    /// name ends in `.json`.
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Self> {
        let (inner, _) = csma_cd_host::load_scenario_file(&path).map_err(value_error)?;
        Ok(Self { inner })
    }

    /// The scenario as a scenario file (TOML), as `mac-sim` writes it.
    fn to_toml(&self) -> PyResult<String> {
        toml::to_string(&self.inner).map_err(value_error)
    }

    /// The keys that are set, in the schema's order.
    fn keys(&self) -> Vec<&'static str> {
        self.inner.keys()
    }

    /// The text form of the parameter `key`, or `None` if it is not set.
    fn get(&self, key: &str) -> Option<String> {
        self.inner.get(key)
    }

    /// The parameters that are set, as a scenario file writes them (numbers,
    /// booleans, text with units).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.inner.scalars() {
            d.set_item(k, scalar(py, &v)?)?;
        }
        Ok(d)
    }

    /// The scenario with every parameter set: the model's defaults under this one's,
    /// checked. Raises `ValueError` naming the parameter at fault.
    fn complete(&self) -> PyResult<Self> {
        let cfg = self.inner.to_config().map_err(value_error)?;
        Ok(Self {
            inner: Scenario::from_config(&cfg),
        })
    }

    fn __repr__(&self) -> String {
        let args: Vec<String> = self
            .inner
            .keys()
            .iter()
            .map(|k| format!("{k}={:?}", self.inner.get(k).unwrap_or_default()))
            .collect();
        format!("Scenario({})", args.join(", "))
    }

    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let d = PyDict::new(py);
        for k in self.inner.keys() {
            d.set_item(k, self.inner.get(k))?;
        }
        Ok((PyTuple::empty(py), d))
    }
}

/// Every parameter of the schema, in its order: `(key, value name, help, flag)`,
/// the help with the unit, as `mac-sim run --help` shows it.
#[pyfunction]
pub fn fields() -> Vec<(&'static str, &'static str, &'static str, String)> {
    FIELDS
        .iter()
        .map(|f| (f.key, f.value_name, f.help, f.flag()))
        .collect()
}
